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
 * }).listen(3000)
 * ```
 *
 * Translation only: a request under the prefix has the prefix cut from
 * `req.url` (the query is kept) and `x-forwarded-prefix` set to the prefix
 * (after any prefix a proxy in front already set), so links and the OpenAPI
 * `servers` entry name the real mount point.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Qforms } from "@qforms/core"

/** What the adapter needs of a running qforms (`await Qforms.make(...)`). */
export type QformsNodeHandler = Pick<Qforms.Qforms, "nodeHandler">

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
 * prefix; the response is then untouched.
 */
export type NodeHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next?: (error?: unknown) => void
) => boolean

/** `forms-service/` → `/forms-service`; `/` and `""` → `""` (the root). */
const normalizePrefix = (prefix: string): string => {
  const trimmed = prefix.trim().replace(/\/+$/, "")
  return trimmed === "" || trimmed.startsWith("/") ? trimmed : `/${trimmed}`
}

/** The prefix a proxy in front already set (if any, and well-formed), without a trailing slash. */
const outerPrefix = (request: IncomingMessage): string => {
  const header = request.headers["x-forwarded-prefix"]
  const first = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim() ?? ""
  return /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(first) ? first.replace(/\/$/, "") : ""
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
  return (request, response, next) => {
    const url = request.url ?? "/"
    const rest = url.startsWith(prefix) ? url.slice(prefix.length) : undefined
    if (rest === undefined || !(rest === "" || rest.startsWith("/") || rest.startsWith("?"))) {
      next?.()
      return false
    }
    if (prefix !== "") {
      request.url = rest.startsWith("/") ? rest : `/${rest}`
      request.headers["x-forwarded-prefix"] = outerPrefix(request) + prefix
    }
    qforms.nodeHandler(request, response)
    return true
  }
}
