/**
 * `@qforms/h3`: mounts qforms into an h3 v2 app.
 *
 * ```ts
 * import { H3, serve } from "h3"
 * import { plugin as ws } from "crossws/server"
 * import { Qforms } from "@qforms/core"
 * import { toH3Handler } from "@qforms/h3"
 *
 * const qforms = await Qforms.make({ database: { dataDir: "./data" } })
 * const app = new H3().get("/", () => "my app")
 * app.mount("/forms-service", toH3Handler(qforms))
 * serve(app, { port: 3000, plugins: [ws({})] }) // crossws: WebSockets (the live event stream)
 * ```
 *
 * Translation only: each request under the mount point is handed to qforms
 * with its path made relative to the mount point (`/forms-service/api/forms`
 * → `/api/forms`) and `x-forwarded-prefix` set to the mount point (after any
 * prefix a proxy in front already set), so links and the OpenAPI `servers`
 * entry name the real prefix (composed by `@qforms/node-http`, whose
 * `handleMounted` is the Node path below). On Node (srvx's
 * `event.runtime.node`) with the body still unread, that is `qforms.nodeHandler` on Node's own request and
 * response (the native, fast path; headers the host's middleware set on
 * `event.res` are kept); elsewhere (Bun, Deno, workers, or a body the host
 * already read) a Web `Request` to `qforms.handler`. A WebSocket upgrade of
 * `<mount point>/api/events` (the live event stream) goes through h3's own
 * WebSocket support (crossws) to `qforms.events.connect`.
 *
 * @module
 */
import type { Qforms } from "@qforms/core"
import { forwardedPrefix, handleMounted } from "@qforms/node-http"
import type { IncomingMessage, ServerResponse } from "node:http"
import { fromNodeHandler, H3, type H3Event } from "h3"
import { eventStream } from "./EventStream.ts"
import { splitPath } from "./MountPath.ts"

/** The request qforms sees: same method, headers, body and signal; URL relative to the mount point. */
const toQformsRequest = (event: H3Event): Request => {
  const request = event.req
  const { prefix, path } = splitPath(event)
  const headers = new Headers(request.headers)
  const forwarded = forwardedPrefix(headers.get("x-forwarded-prefix"), prefix)
  if (forwarded !== "") headers.set("x-forwarded-prefix", forwarded)
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== null
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers,
    signal: request.signal
  }
  if (hasBody) {
    init.body = request.body
    init.duplex = "half"
  }
  return new Request(new URL(path + event.url.search, event.url.origin), init)
}

/**
 * Node's own request made relative to the mount point, for `qforms.nodeHandler`
 * (h3 restores `req.url` after). Resolves when the response is done.
 */
const toNodeRequest = (
  event: H3Event,
  request: IncomingMessage,
  response: ServerResponse,
  qforms: Pick<Qforms.Qforms, "nodeHandler">
) =>
  new Promise<void>((resolve) => {
    const { prefix, path } = splitPath(event)
    request.url = path + event.url.search
    for (const [name, value] of event.res.headers) {
      if (name === "set-cookie") response.appendHeader(name, value)
      else response.setHeader(name, value)
    }
    response.once("close", () => resolve())
    handleMounted(qforms, request, response, { mountPath: prefix })
  })

/**
 * An h3 v2 app serving all of qforms — API, OpenAPI document, docs page,
 * health checks, and what core adds later — for `app.mount(prefix, …)`.
 * `qforms` is what `await Qforms.make(...)` gives (its `handler`, `nodeHandler` and `events`).
 * Mounted at `/forms-service`, `GET /forms-service/api/forms` reaches qforms
 * as `GET /api/forms` with `x-forwarded-prefix: /forms-service`.
 *
 * @example
 * ```ts
 * app.mount("/forms-service", toH3Handler(qforms))
 * ```
 */
export const toH3Handler = (qforms: Pick<Qforms.Qforms, "handler" | "nodeHandler" | "events">): H3 => {
  const events = eventStream(qforms)
  return new H3().all("/**", (event) => {
    if (event.req.headers.get("upgrade")?.toLowerCase() === "websocket" && splitPath(event).path === "/api/events") {
      return events(event)
    }
    const node = event.runtime?.node
    // Untouched: nothing (h3's `readBody`, srvx's `req.body`, …) has started reading it.
    if (node?.res !== undefined && node.req.readableFlowing === null && !node.req.readableEnded) {
      return fromNodeHandler((request, response) =>
        toNodeRequest(event, request as IncomingMessage, response as ServerResponse, qforms)
      )(event)
    }
    return qforms.handler(toQformsRequest(event))
  })
}
