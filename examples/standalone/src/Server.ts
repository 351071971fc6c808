/**
 * The standalone server: qforms on a node:http server, ready to listen only
 * once the database is open and migrated, with a graceful stop.
 */
import { createServer, type Server as NodeServer } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { Bootstrap, Qforms, Redact } from "@qforms/core"
import * as Option from "effect/Option"
import * as Settings from "./Settings.ts"

/** A running standalone server. */
export interface Server {
  readonly url: string
  readonly qforms: Qforms.Qforms
  /** What the first start created (its key is shown once), if this was the first start. */
  readonly firstStart: Option.Option<Bootstrap.Bootstrapped>
  /** Stops accepting, lets in-flight requests finish (up to the timeout), then closes the database. */
  readonly close: () => Promise<void>
}

const accessLog = (server: NodeServer) =>
  server.on("request", (request, response) => {
    const started = performance.now()
    response.on("finish", () => {
      process.stdout.write(`${JSON.stringify({
        at: new Date().toISOString(),
        method: request.method,
        // Sign-in links, tracking links and tokens in query strings are credentials: never logged.
        url: Redact.redactUrl(request.url ?? ""),
        status: response.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10
      })}\n`)
    })
  })

/**
 * At most `max` open connections per client address: one more is answered
 * 429 `{error}` and closed at once, so one address cannot take every socket.
 * (Behind a proxy every connection comes from the proxy: raise it, or set 0.)
 * Answers whether a socket was refused (its requests, if any got parsed, are not served).
 */
const capConnections = (server: NodeServer, max: number) => {
  const open = new Map<string, number>()
  const refused = new WeakSet<Socket>()
  // Before Node's own listener, so the answer is the first thing written on the socket.
  server.prependListener("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? ""
    const count = (open.get(address) ?? 0) + 1
    if (count > max) {
      refused.add(socket)
      const body = JSON.stringify({ error: `too many connections from your address: at most ${max} at once` })
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${body}`
      )
      return
    }
    open.set(address, count)
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
  return (socket: Socket) => refused.has(socket)
}

/**
 * Starts the server: opens (and migrates) the database, creates the first
 * workspace on an empty one, then listens.
 *
 * @example
 * ```ts
 * const server = await start(settings)
 * console.log(server.url)
 * process.on("SIGTERM", () => void server.close())
 * ```
 */
export const start = async (settings: Settings.Settings): Promise<Server> => {
  const qforms = await Qforms.make({
    database: Settings.database(settings),
    files: Settings.files(settings),
    appUrl: Settings.appUrl(settings),
    rateLimit: { requestsPerSecond: settings.rateLimitPerSecond, burst: settings.rateLimitBurst },
    publicPage: Settings.publicPage(settings),
    uploadRateLimit: Settings.uploadRateLimit(settings),
    uploads: Settings.uploads(settings),
    partialResponses: { maxAgeDays: settings.partialMaxAgeDays },
    events: Settings.events(settings),
    app: true,
    logLevel: settings.logLevel,
    logFormat: settings.logFormat,
    formGenerator: Settings.formGenerator(settings),
    mail: Settings.mail(settings),
    delivery: {
      worker: settings.deliveryWorker,
      timeoutMs: settings.webhookTimeoutMs,
      allowPrivateTargets: settings.allowPrivateWebhookTargets,
      ...Option.match(settings.retrySchedule, { onNone: () => ({}), onSome: (schedule) => ({ schedule }) })
    }
  })
  const firstStart = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: settings.ownerEmail }))
  const server = createServer({
    // Slow clients cannot hold a connection for long: headers within headersTimeout, the whole request within
    // requestTimeout (checked every second rather than Node's default 30 s), idle keep-alive closed after keepAliveTimeout.
    headersTimeout: settings.headersTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, settings.headersTimeoutMs)
  }, (request, response) => isRefused(request.socket) ? void response.destroy() : qforms.nodeHandler(request, response))
  const isRefused = settings.maxConnectionsPerAddress > 0
    ? capConnections(server, settings.maxConnectionsPerAddress)
    : () => false
  // The live event stream (WebSocket); other upgrades are not ours.
  server.on("upgrade", (request, socket, head) => {
    if (!qforms.upgradeHandler(request, socket, head)) socket.destroy()
  })
  // Requests Node refuses before qforms sees them (oversized headers, garbage) still get an {error} body.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy()
    const [status, reason] = error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "Request Timeout"]
      : [400, "Bad Request"]
    const body = JSON.stringify({ error: `${reason.toLowerCase()}: the request could not be parsed` })
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`
    )
  })
  if (settings.logRequests) accessLog(server)
  const listening = await new Promise<AddressInfo | Error>((resolve) => {
    server.once("error", resolve)
    server.listen(settings.port, settings.host, () => resolve(server.address() as AddressInfo))
  })
  if (listening instanceof Error) {
    await qforms.dispose()
    throw new Error(`cannot listen on ${settings.host}:${settings.port}: ${listening.message}`)
  }
  let closing: Promise<void> | undefined
  const close = () =>
    closing ??= new Promise<void>((resolve) => {
      // Refuse new connections; idle keep-alive ones close now, busy ones when their response is sent.
      const timer = setTimeout(() => server.closeAllConnections(), settings.shutdownTimeoutMs)
      server.close(() => {
        clearTimeout(timer)
        resolve()
      })
      server.closeIdleConnections()
    }).then(() => qforms.dispose())
  const host = listening.family === "IPv6" ? `[${listening.address}]` : listening.address
  return { url: `http://${host}:${listening.port}`, qforms, firstStart, close }
}

/** The first-start banner: the key is printed this once and never logged. */
export const firstStartBanner = (first: Bootstrap.Bootstrapped, url?: string): string =>
  [
    "",
    "  qforms: first start. Created the workspace \"Default\" (owner " + first.ownerEmail + ") and its first API key.",
    "  It is shown once, never again; keep it somewhere safe:",
    "",
    `    ${first.key}`,
    "",
    "  Sign in to the application (once, within 7 days; then set a password under Account):",
    "",
    `    ${url ?? ""}/app/sign-in/link/${first.signInToken}`,
    ""
  ].join("\n")

