/**
 * `@qforms/express`: mounts qforms into an Express 4 or 5 app.
 *
 * ```ts
 * import express from "express"
 * import { Qforms } from "@qforms/core"
 * import { toExpressMiddleware } from "@qforms/express"
 *
 * const qforms = await Qforms.make({ database: { dataDir: "./data" } })
 * const app = express()
 * app.use(express.json()) // optional: qforms re-uses a body parsed before it
 * const forms = toExpressMiddleware(qforms)
 * app.use("/forms-service", forms)
 * forms.attach(app.listen(3000), "/forms-service") // the live event stream (WebSocket)
 * ```
 *
 * Translation only. `x-forwarded-prefix` is set to the mount point
 * (`req.baseUrl`, after any prefix a proxy in front already set) so links and
 * the OpenAPI `servers` entry name the real prefix; `x-forwarded-proto` is
 * kept (on TLS, qforms names `https` itself). Every request goes to
 * `qforms.nodeHandler` (the native, fast path) with Express' own `req`/`res`,
 * through `@qforms/node-http`'s `handleMounted`, the one path of every Node
 * adapter; a body a host parser already read is handed over re-encoded from
 * `req.body` (JSON, urlencoded, raw or text). A body the
 * host's parser refused as invalid JSON reaches qforms as it was sent (its own
 * 400); one refused otherwise (over its limit, …) is answered in qforms' `{error}` shape.
 * Express never sees WebSocket upgrades: `attach` hands them to `qforms.upgradeHandler`.
 *
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import type { Qforms } from "@qforms/core"
import { handleMounted, relativeUrl, upgradeMounted } from "@qforms/node-http"

/** What the adapter needs of a running qforms (`await Qforms.make(...)`). */
export type QformsHandlers = Pick<Qforms.Qforms, "nodeHandler" | "upgradeHandler">

/** The parts of Express' request the adapter reads (Express 4 and 5). */
export interface ExpressRequest extends IncomingMessage {
  readonly baseUrl?: string | undefined
  readonly body?: unknown
  readonly _body?: boolean | undefined
}
type Next = (error?: unknown) => void
type Handler = (request: ExpressRequest, response: ServerResponse, next: Next) => void
type ErrorHandler = (error: unknown, request: ExpressRequest, response: ServerResponse, next: Next) => void

/**
 * The middleware, then the handler of a host body parser's errors, for `app.use(prefix, …)`. `attach(server, prefix)`
 * answers WebSocket upgrades under `prefix` on `server` (from `app.listen()`); others are left to its other listeners.
 */
export type ExpressMiddleware = [Handler, ErrorHandler] & {
  readonly attach: <S extends Server>(server: S, prefix: string) => S
}

/** `{a: {b: 1}, c: [2, 3]}` → `a[b]=1&c=2&c=3`: a urlencoded body parsed by the host, encoded again. */
const urlEncoded = (value: unknown, key = "", out = new URLSearchParams()): URLSearchParams => {
  if (Array.isArray(value)) for (const item of value) urlEncoded(item, key, out)
  else if (typeof value === "object" && value !== null) {
    for (const [name, item] of Object.entries(value)) urlEncoded(item, key === "" ? name : `${key}[${name}]`, out)
  } else if (key !== "") out.append(key, String(value ?? ""))
  return out
}

/** The body a host parser already read, as it can be read again ("" when there is none to replay). */
const parsedBody = (request: ExpressRequest): string | Uint8Array => {
  const body = request.body
  if (request.method === "GET" || request.method === "HEAD" || request.headers["content-length"] === "0") return ""
  if (body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array) return body ?? ""
  return /urlencoded/i.test(request.headers["content-type"] ?? "") ? urlEncoded(body).toString() : JSON.stringify(body)
}

/** Body-parser errors (`express.json()`, `express.urlencoded()`, …) carry one of these `type`s. */
const parserError = /^(entity|request|charset|encoding|parameters|stream)\./

/** Wraps a running qforms as Express 4 or 5 middleware: `app.use("/forms-service", toExpressMiddleware(qforms))`. */
export const toExpressMiddleware = (qforms: QformsHandlers): ExpressMiddleware => {
  const attach = <S extends Server>(server: S, prefix: string): S =>
    server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const [url, mountPath] = [request.url ?? "/", prefix.replace(/\/+$/, "")]
      const relative = relativeUrl(url, mountPath)
      const ours = relative !== undefined
      if (ours) {
        request.url = relative // relative to the mount point, as Express does
        const taken = upgradeMounted(qforms, request, socket, head, mountPath)
        request.url = url // other `upgrade` listeners see it as it came
        if (taken) return
      }
      if (ours || server.listenerCount("upgrade") === 1)
        socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
    })
  const middleware: [Handler, ErrorHandler] = [
    (request, response) => {
      // A body the host already read is handed over; an unread one qforms reads off the socket.
      const read = request._body === true || request.readableEnded
      handleMounted(qforms, request, response, {
        mountPath: request.baseUrl ?? "",
        body: read ? parsedBody(request) : undefined
      })
    },
    (error, request, response, next) => {
      const failure = error as { type?: unknown; status?: unknown; body?: unknown; message?: unknown } | null
      if (typeof failure?.type !== "string" || !parserError.test(failure.type)) return next(error)
      // Invalid JSON: qforms reads the raw text itself, and answers its own 400.
      if (failure.type === "entity.parse.failed" && typeof failure.body === "string") {
        return handleMounted(qforms, request, response, { mountPath: request.baseUrl ?? "", body: failure.body })
      }
      const status = typeof failure.status === "number" && failure.status >= 400 ? failure.status : 400
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: String(failure.message ?? "could not read the request body") }))
    }
  ]
  return Object.assign(middleware, { attach })
}
