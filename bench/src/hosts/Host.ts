/**
 * A host app mounting qforms under `/forms-service` through one adapter,
 * set up like the examples (examples/express-host with `express.json()` for
 * every route, examples/h3-host with crossws), but configurable for the
 * benchmark: an ephemeral port whose real URL is printed, the schema, the
 * rate limit and private webhook targets from the standalone's variables.
 *
 * Env: BENCH_HOST (node-http | h3 | express), PORT, HOST, QFORMS_DATA_DIR or
 * DATABASE_URL + QFORMS_DB_SCHEMA, QFORMS_RATE_LIMIT_PER_SECOND/BURST,
 * QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS, QFORMS_DELIVERY_WORKER.
 */
import { createServer, type Server } from "node:http"
import { type AddressInfo, createServer as createNetServer } from "node:net"
import { Bootstrap, Qforms } from "@qforms/core"
import { toExpressMiddleware } from "@qforms/express"
import { toH3Handler } from "@qforms/h3"
import { toNodeHandler } from "@qforms/node-http"
import { plugin as ws } from "crossws/server"
import { Option } from "effect"
import express from "express"
import { H3, serve } from "h3"

const kind = process.env.BENCH_HOST ?? "node-http"
// A free port is chosen up front when PORT=0: qforms needs the address links start at (appUrl) before it starts.
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createNetServer().once("error", reject)
    probe.listen(0, process.env.HOST ?? "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
const port = Number(process.env.PORT ?? 0) || (await freePort())
const host = process.env.HOST ?? "127.0.0.1"
const prefix = "/forms-service"

const qforms = await Qforms.make({
  appUrl: process.env.APP_URL ?? `http://${host}:${port}${prefix}`,
  database: process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, schema: process.env.QFORMS_DB_SCHEMA }
    : { dataDir: process.env.QFORMS_DATA_DIR ?? "./.qforms-data" },
  rateLimit: {
    requestsPerSecond: Number(process.env.QFORMS_RATE_LIMIT_PER_SECOND ?? 20),
    burst: Number(process.env.QFORMS_RATE_LIMIT_BURST ?? 100)
  },
  logLevel: "Warn",
  delivery: {
    worker: process.env.QFORMS_DELIVERY_WORKER !== "false",
    allowPrivateTargets: process.env.QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS === "true"
  }
})
const firstStart = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@localhost" }))
if (Option.isSome(firstStart)) process.stdout.write(`API key: ${firstStart.value.key}\n`)

let close: () => Promise<void>
let url: string

if (kind === "h3") {
  const app = new H3().get("/", () => ({ app: "bench-h3-host" }))
  app.mount(prefix, toH3Handler(qforms))
  const server = serve(app, { port, hostname: host, plugins: [ws({})], silent: true, gracefulShutdown: false })
  await server.ready()
  const address = server.node!.server!.address() as AddressInfo
  url = `http://${host}:${address.port}`
  close = () => server.close(true)
} else {
  let server: Server
  if (kind === "express") {
    const app = express()
    app.use(express.json())
    app.get("/", (_req, res) => void res.json({ app: "bench-express-host" }))
    const forms = toExpressMiddleware(qforms)
    app.use(prefix, forms)
    server = forms.attach(createServer(app), prefix)
  } else if (kind === "node-http") {
    const forms = toNodeHandler(qforms, { prefix })
    server = createServer((req, res) => {
      if (forms(req, res)) return
      res.writeHead(404, { "content-type": "application/json" }).end(`{"error":"not found"}`)
    })
    server.on("upgrade", (req, socket, head) => forms.upgrade(req, socket, head) || socket.destroy())
  } else {
    throw new Error(`BENCH_HOST must be node-http, h3 or express, got ${kind}`)
  }
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  url = `http://${host}:${(server.address() as AddressInfo).port}`
  close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
}

process.stdout.write(`${kind}-host listening on ${url} (qforms under ${prefix})\n`)

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  void close()
    .then(() => qforms.dispose())
    .then(
      () => process.exit(0),
      () => process.exit(1)
    )
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
