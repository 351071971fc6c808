/**
 * qforms on Node's own transport: the native handler's request with a body
 * the host already read (`withBody`), and the live event stream's WebSockets
 * (`ws`, attached to the host's server by an `upgrade` handler, with a
 * heartbeat and a cap on what a slow client may buffer). `Qforms.make` wires
 * them; the adapters (node:http, Express) call the handlers it returns.
 *
 * @module
 */
import type { IncomingMessage } from "node:http"
import { type Duplex, Readable } from "node:stream"
import { type WebSocket, WebSocketServer } from "ws"
import type { EventStream } from "./http/index.ts"

/** Frames a client may have buffered before it counts as too far behind. */
const maxBufferedBytes = 1024 * 1024

/**
 * `request` with `body` in place of the body a host already read: what the
 * native path reads of an `IncomingMessage` (method, URL, headers, socket,
 * version, a readable body), nothing of the consumed original stream. A plain
 * `Readable` rather than an `IncomingMessage`, whose destruction would destroy
 * the host's socket.
 */
export const withBody = (request: IncomingMessage, body: string | Uint8Array): IncomingMessage => {
  const bytes = typeof body === "string" ? Buffer.from(body) : body
  const headers = { ...request.headers, "content-length": String(bytes.byteLength) }
  delete headers["transfer-encoding"]
  const source = new Readable({ read: () => undefined })
  if (bytes.byteLength > 0) source.push(bytes)
  source.push(null)
  return Object.assign(source, {
    headers,
    method: request.method,
    url: request.url,
    httpVersion: request.httpVersion,
    httpVersionMajor: request.httpVersionMajor,
    httpVersionMinor: request.httpVersionMinor,
    socket: request.socket,
    complete: true
  }) as IncomingMessage
}

/** A check of an event-stream connection request: a refusal, or the connection to open. */
type Connect = (request: {
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly url: string
}) => Promise<EventStream.Refusal | EventStream.EventConnection>

/**
 * The event stream's WebSockets on the Node path: `upgradeHandler` for the
 * host's server (answers `false`, touching nothing, for other paths), and
 * `close` (code 1001 to every client) for a graceful stop.
 */
export const makeWebSockets = (connect: Connect) => {
  const protocols = new WeakMap<IncomingMessage, string>()
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 4096,
    handleProtocols: (_offered, request) => protocols.get(request) ?? false
  })
  const heartbeat = setInterval(() => {
    for (const socket of wss.clients) {
      if ((socket as WebSocket & { qformsAlive?: boolean }).qformsAlive === false) socket.terminate()
      else {
        ;(socket as WebSocket & { qformsAlive?: boolean }).qformsAlive = false
        socket.ping()
      }
    }
  }, 30_000)
  heartbeat.unref()
  const refuse = (socket: Duplex, refusal: EventStream.Refusal) => {
    const body = JSON.stringify({ error: refusal.error })
    const reason = {
      400: "Bad Request",
      401: "Unauthorized",
      404: "Not Found",
      429: "Too Many Requests",
      503: "Service Unavailable"
    }[refusal.status]
    const headers = Object.entries(refusal.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")
    socket.end(
      `HTTP/1.1 ${refusal.status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(
        body
      )}\r\n${headers}connection: close\r\n\r\n${body}`
    )
  }
  const upgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((request.url ?? "/").split("?")[0] !== "/api/events") return false
    connect({ headers: request.headers, url: request.url ?? "/" }).then(
      (result) => {
        // Another upgrade listener of the host may have answered (and ended) the socket meanwhile.
        if (socket.destroyed || !socket.writable) return
        if ("status" in result) return refuse(socket, result)
        if (result.protocol !== undefined) protocols.set(request, result.protocol)
        wss.handleUpgrade(request, socket, head, (ws) => {
          ;(ws as WebSocket & { qformsAlive?: boolean }).qformsAlive = true
          ws.on("pong", () => ((ws as WebSocket & { qformsAlive?: boolean }).qformsAlive = true))
          const detach = result.open(
            (text) => {
              if (ws.bufferedAmount > maxBufferedBytes) return false
              ws.send(text)
              return true
            },
            (code, reason) => ws.close(code, reason)
          )
          ws.on("close", detach)
          ws.on("error", detach)
        })
      },
      () => socket.destroy()
    )
    return true
  }

  const close = () =>
    new Promise<void>((resolve) => {
      clearInterval(heartbeat)
      for (const socket of wss.clients) socket.close(1001, "server stopping")
      wss.close(() => resolve())
    })
  return { upgradeHandler, close }
}
