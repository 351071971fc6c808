/**
 * `@qforms/node-http`: mounts qforms into a `node:http` server, on the native
 * Node path (`qforms.nodeHandler`, no Web `Request` in between).
 *
 * ```ts
 * import { createServer } from "node:http"
 * import { Qforms } from "@qforms/core"
 * import { toNodeHandler } from "@qforms/node-http"
 *
 * const qforms = await Qforms.make({ database: { dataDir: "./data" } })
 * const forms = toNodeHandler(qforms, { prefix: "/forms-service" })
 * createServer((req, res) => {
 *   if (forms(req, res)) return // qforms answered
 *   res.end("my app")
 * }).listen(3000).on("upgrade", (req, socket, head) => {
 *   if (!forms.upgrade(req, socket, head)) socket.destroy() // or the app's own WebSockets
 * })
 * ```
 *
 * Translation only: a request under the prefix has the prefix cut from
 * `req.url` (the query is kept) and `x-forwarded-prefix` set to the prefix
 * (after any prefix a proxy in front already set), so links and the OpenAPI
 * `servers` entry name the real mount point (on TLS, qforms names `https`
 * itself). `upgrade` does the same for
 * WebSocket upgrades (the live event stream, `<prefix>/api/events`) and hands
 * them to `qforms.upgradeHandler`.
 *
 * The adapters of hosts that route by mount point themselves
 * (`@qforms/express`, `@qforms/h3`) delegate here: {@link handleMounted},
 * {@link upgradeMounted} and {@link forwardedPrefix} are that one path.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import type { Qforms } from "@qforms/core"
import { handleMounted, normalizePrefix, relativeUrl, upgradeMounted } from "./Mounted.ts"

export { forwardedPrefix, handleMounted, type Mounted, relativeUrl, upgradeMounted } from "./Mounted.ts"

/** What the adapter needs of a running qforms (`await Qforms.make(...)`). */
export type QformsNodeHandler = Pick<Qforms.Qforms, "nodeHandler" | "upgradeHandler">

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Where qforms is mounted, e.g. `/forms-service` (default: the root, every
   * request is qforms'). Requests outside it are left to `next`.
   */
  readonly prefix?: string | undefined
}

/**
 * A `node:http` request listener that also works inside an existing listener
 * or as Connect-style middleware: answers `true` when qforms took the request,
 * and `false` (after calling `next`, when given) when its path is outside the
 * prefix; the response is then untouched. Its `upgrade` serves WebSocket
 * upgrades (the live event stream) the same way.
 */
export type NodeHandler = ((
  request: IncomingMessage,
  response: ServerResponse,
  next?: (error?: unknown) => void
) => boolean) & {
  /**
   * For `server.on("upgrade", …)`: answers `true` when qforms took the upgrade
   * (`<prefix>/api/events`), and `false` for any other path, leaving the
   * request and socket as they were for the host's own WebSockets.
   */
  readonly upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => boolean
}

/**
 * Wraps a running qforms as a `node:http` handler mounted under `prefix`.
 *
 * @example
 * ```ts
 * // The whole server is qforms:
 * createServer(toNodeHandler(qforms)).listen(3000)
 * // Under a prefix, inside an existing listener:
 * const forms = toNodeHandler(qforms, { prefix: "/forms-service" })
 * createServer((req, res) => forms(req, res) || myApp(req, res))
 * ```
 */
export const toNodeHandler = (qforms: QformsNodeHandler, options: NodeHandlerOptions = {}): NodeHandler => {
  const prefix = normalizePrefix(options.prefix ?? "")
  const handler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => {
    const relative = relativeUrl(request.url ?? "/", prefix)
    if (relative === undefined) {
      next?.()
      return false
    }
    request.url = relative
    handleMounted(qforms, request, response, { mountPath: prefix })
    return true
  }
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? "/"
    const relative = relativeUrl(url, prefix)
    if (relative === undefined) return false
    request.url = relative
    if (upgradeMounted(qforms, request, socket, head, prefix)) return true
    request.url = url
    return false
  }
  return Object.assign(handler, { upgrade })
}
