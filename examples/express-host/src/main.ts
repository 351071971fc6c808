/**
 * `npm start -w @qforms/example-express-host`: the Express host app, with
 * qforms on the embedded database (`QFORMS_DATA_DIR`, default
 * `./.qforms-data`) or PostgreSQL (`DATABASE_URL`). `PORT` (default 3000),
 * `HOST` (default 127.0.0.1), `APP_URL` (default `http://$HOST:$PORT/forms-service`). SIGTERM/SIGINT stop it gracefully.
 */
import { Bootstrap, Qforms } from "@qforms/core"
import * as Option from "effect/Option"
import { createApp, prefix } from "./App.ts"

const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? "127.0.0.1"
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}\n`)
  process.exit(1)
}
// Where qforms is reached, with its prefix: every link that leaves the process (webhooks, chat, e-mail) starts here.
// Behind a proxy or on a public name, set APP_URL (e.g. https://example.com/forms-service).
const appUrl =
  process.env.APP_URL || (port === 0 ? undefined : `http://${host === "0.0.0.0" ? "localhost" : host}:${port}${prefix}`)
if (appUrl === undefined) {
  process.stderr.write("PORT=0 needs APP_URL: links that leave the process start at the address qforms is reached at\n")
  process.exit(1)
}

// The database is open and migrated before the server listens.
const qforms = await Qforms.make({
  database: process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL }
    : { dataDir: process.env.QFORMS_DATA_DIR ?? "./.qforms-data" },
  appUrl
})
const firstStart = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@localhost" }))
if (Option.isSome(firstStart)) {
  process.stdout.write(
    `First start: workspace "Default" created. API key (shown once):\n\n  ${firstStart.value.key}\n\n`
  )
}

const { app, attach } = createApp(qforms)
const server = attach(
  app.listen(port, host, () => {
    const url = `http://${host}:${port}`
    process.stdout.write(
      `express-host listening on ${url} (qforms: ${url}${prefix}/api, docs: ${url}${prefix}/api/docs)\n`
    )
  })
)
// Clients are told 5 s and drop idle connections before it; closing them 30 s later (not Node's 1 s) means a
// client on a loaded machine never sends a request on a connection being closed (docs/embedding.md).
server.keepAliveTimeoutBuffer = 30_000

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  const finish = () =>
    qforms.dispose().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  // In-flight requests get 10 s; open event streams (WebSockets) keep the server open until then,
  // when `dispose` closes them (1001) along with the database.
  const timer = setTimeout(() => {
    server.closeAllConnections()
    void finish()
  }, 10_000)
  server.close(() => {
    clearTimeout(timer)
    void finish()
  })
  server.closeIdleConnections()
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
