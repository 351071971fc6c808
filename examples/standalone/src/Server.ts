/**
 * The standalone server: qforms on a node:http server, ready to listen only
 * once the database is open and migrated, with a graceful stop.
 */
import { createServer, type Server as NodeServer, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { Bootstrap, Qforms, Redact } from "@qforms/core"
import * as Option from "effect/Option"
import * as AdminSocket from "./AdminSocket.ts"
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
      process.stdout.write(
        `${JSON.stringify({
          at: new Date().toISOString(),
          method: request.method,
          // Sign-in links, tracking links and tokens in query strings are credentials: never logged.
          url: Redact.redactUrl(request.url ?? ""),
          status: response.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10
        })}\n`
      )
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

/** The host part of a URL for where the server listens (a wildcard address is reached as localhost). */
const urlHost = (address: AddressInfo): string =>
  address.address === "0.0.0.0" || address.address === "::"
    ? "localhost"
    : address.family === "IPv6"
      ? `[${address.address}]`
      : address.address

/**
 * How long an idle connection stays open past the keep-alive time it advertises (`Keep-Alive: timeout=5`).
 * A client drops an idle connection a little before that time (undici, `fetch`: a second or two) and must
 * not reuse it after; on a loaded machine its timers fire late, and with Node's default grace of one second
 * it sent requests on connections the server was closing at that moment: `other side closed`, a POST lost
 * (the MCP SDK's client failed so at most tool calls under load, issue #52). With this grace the client
 * always drops a connection first. Node 24.6+ (`keepAliveTimeoutBuffer`); earlier Nodes keep their one second.
 */
const keepAliveGraceMs = 30_000

/** An answer while the database opens (only when the server listens first, see {@link start}). */
const starting = (response: ServerResponse) => {
  const body = JSON.stringify({ error: "qforms is starting; try again in a moment" })
  response.writeHead(503, { "content-type": "application/json", "retry-after": "1", connection: "close" }).end(body)
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
  const make = (appUrl: string) =>
    Qforms.make({
      database: Settings.database(settings),
      files: Settings.files(settings),
      appUrl,
      rateLimit: { requestsPerSecond: settings.rateLimitPerSecond, burst: settings.rateLimitBurst },
      rateLimitStore: Settings.rateLimitStore(settings),
      publicPage: Settings.publicPage(settings),
      uploadRateLimit: Settings.uploadRateLimit(settings),
      uploads: Settings.uploads(settings),
      partialResponses: {
        maxAgeDays: settings.partialMaxAgeDays,
        newPerAddressPerHour: settings.partialResponsesPerAddressPerHour
      },
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
        alertAfterFailures: settings.webhookAlertAfterFailures,
        disableAfterFailures: settings.webhookDisableAfterFailures,
        ...Option.match(settings.retrySchedule, { onNone: () => ({}), onSome: (schedule) => ({ schedule }) })
      }
    })
  let qforms: Qforms.Qforms | undefined
  const server = createServer(
    {
      // Slow clients cannot hold a connection for long: headers within headersTimeout, the whole request within
      // requestTimeout (checked every second rather than Node's default 30 s), idle keep-alive closed after keepAliveTimeout.
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      keepAliveTimeoutBuffer: keepAliveGraceMs,
      connectionsCheckingInterval: Math.min(1_000, settings.headersTimeoutMs)
    },
    (request, response) => {
      if (isRefused(request.socket)) return void response.destroy()
      if (qforms === undefined) return void starting(response)
      qforms.nodeHandler(request, response)
    }
  )
  const isRefused =
    settings.maxConnectionsPerAddress > 0 ? capConnections(server, settings.maxConnectionsPerAddress) : () => false
  // The live event stream (WebSocket); other upgrades are not ours.
  server.on("upgrade", (request, socket, head) => {
    if (qforms === undefined || !qforms.upgradeHandler(request, socket, head)) socket.destroy()
  })
  // Requests Node refuses before qforms sees them (oversized headers, garbage) still get an {error} body.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy()
    const [status, reason] =
      error.code === "HPE_HEADER_OVERFLOW"
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
  const listen = async (): Promise<AddressInfo> => {
    const listening = await new Promise<AddressInfo | Error>((resolve) => {
      server.once("error", resolve)
      server.listen(settings.port, settings.host, () => resolve(server.address() as AddressInfo))
    })
    if (listening instanceof Error)
      throw new Error(`cannot listen on ${settings.host}:${settings.port}: ${listening.message}`)
    return listening
  }
  let listening: AddressInfo
  const configured = Settings.appUrl(settings)
  if (configured === undefined) {
    // PORT=0 and no APP_URL: the port, and so the address that links leaving the process start at, is known only
    // once listening. Requests that arrive before the database is open get 503.
    listening = await listen()
    try {
      qforms = await make(`http://${urlHost(listening)}:${listening.port}`)
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      throw error
    }
  } else {
    // The database is open and migrated before the server listens.
    qforms = await make(configured)
    try {
      listening = await listen()
    } catch (error) {
      await qforms.dispose()
      throw error
    }
  }
  const running = qforms
  const firstStart = await running.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: settings.ownerEmail }))
  // On the embedded database the CLI's commands reach this process through a socket in the data directory.
  const database = Settings.database(settings)
  const stopAdmin =
    "url" in database || database.dataDir === undefined
      ? undefined
      : await AdminSocket.serve(database.dataDir, running).catch((error: unknown) => {
          process.stderr.write(`qforms: the CLI cannot reach this server (admin socket: ${String(error)})\n`)
          return undefined
        })
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      // Refuse new connections; idle keep-alive ones close now, busy ones when their response is sent.
      const timer = setTimeout(() => server.closeAllConnections(), settings.shutdownTimeoutMs)
      server.close(() => {
        clearTimeout(timer)
        resolve()
      })
      server.closeIdleConnections()
    })
      .then(() => stopAdmin?.())
      .then(() => running.dispose()))
  const host = listening.family === "IPv6" ? `[${listening.address}]` : listening.address
  return { url: `http://${host}:${listening.port}`, qforms: running, firstStart, close }
}

/** The first-start banner: the key is printed this once and never logged. */
export const firstStartBanner = (first: Bootstrap.Bootstrapped, url?: string): string =>
  [
    "",
    `  qforms: first start. Created the workspace "Default" (owner ${first.ownerEmail}) and its first API key.`,
    "  It is shown once, never again; keep it somewhere safe:",
    "",
    `    ${first.key}`,
    "",
    "  Sign in to the application (once, within 7 days; then set a password under Account):",
    "",
    `    ${url ?? ""}/app/sign-in/link/${first.signInToken}`,
    ""
  ].join("\n")
