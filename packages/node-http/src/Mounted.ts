/**
 * The one path from a Node request to qforms for every adapter: the mount
 * point named in `x-forwarded-prefix` (after a proxy's), a body the host
 * already read. `toNodeHandler` cuts its prefix and
 * comes here; `@qforms/express` and `@qforms/h3`, whose hosts route by mount
 * point themselves, come here directly (as tRPC's Express adapter delegates to
 * its Node adapter).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import type { Qforms } from "@qforms/core"

/** `forms-service/` → `/forms-service`; `/` and `""` → `""` (the root). */
export const normalizePrefix = (prefix: string): string => {
  const trimmed = prefix.trim().replace(/\/+$/, "")
  return trimmed === "" || trimmed.startsWith("/") ? trimmed : `/${trimmed}`
}

/**
 * `url` relative to the mount point (`/forms-service/api?x` → `/api?x`, the
 * mount point itself → `/`), or `undefined` when the URL is outside it
 * (`/forms-serviceX`, `/elsewhere`).
 *
 * @example
 * ```ts
 * relativeUrl("/forms-service?x=1", "/forms-service") // "/?x=1"
 * ```
 */
export const relativeUrl = (url: string, mountPath: string): string | undefined => {
  const rest = url.startsWith(mountPath) ? url.slice(mountPath.length) : undefined
  if (rest === undefined || !(rest === "" || rest.startsWith("/") || rest.startsWith("?"))) return undefined
  return rest.startsWith("/") ? rest : `/${rest}`
}

/**
 * The `x-forwarded-prefix` qforms is to see: the prefix a proxy in front already set (its first value, when it is a
 * well-formed path) and then the mount point, so links and the OpenAPI `servers` entry name the real mount point.
 * Every adapter (this one, `@qforms/express`, `@qforms/h3`) composes it here.
 *
 * @example
 * ```ts
 * forwardedPrefix("/app", "/forms-service") // "/app/forms-service"
 * forwardedPrefix(undefined, "/forms-service/") // "/forms-service"
 * forwardedPrefix("/a b", "/forms-service") // "/forms-service" (not a path: dropped)
 * ```
 */
export const forwardedPrefix = (
  outer: string | ReadonlyArray<string> | null | undefined,
  mountPath: string
): string => {
  const first = (typeof outer === "string" ? outer : outer?.[0])?.split(",")[0]?.trim() ?? ""
  const safe = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(first) ? first.replace(/\/$/, "") : ""
  return safe + normalizePrefix(mountPath)
}

/** How a host that routes by mount point itself hands a request over ({@link handleMounted}). */
export interface Mounted {
  /** Where the host mounted qforms (e.g. Express's `req.baseUrl`); `request.url` is already relative to it. */
  readonly mountPath: string
  /** The body, when the host already read it off the socket (a body parser); else qforms reads it. */
  readonly body?: string | Uint8Array | undefined
}

/**
 * Names the mount point (`x-forwarded-prefix`) on a request whose URL is already relative to it; the URL is left as
 * it is. (The scheme needs nothing: qforms reads `https` off a TLS socket itself.) Undone by the function it answers.
 */
const name = (request: IncomingMessage, mountPath: string): (() => void) => {
  const headers = { ...request.headers }
  const prefix = forwardedPrefix(request.headers["x-forwarded-prefix"], mountPath)
  if (prefix !== "") request.headers["x-forwarded-prefix"] = prefix
  return () => {
    request.headers = headers
  }
}

/**
 * Serves one request with qforms for an adapter whose host already routed it by mount point (Express's
 * `app.use(path, …)`, h3's `mount`): `request.url` is relative to `mounted.mountPath`, which qforms is told of.
 * The host's own adapters (`@qforms/express`, `@qforms/h3`) are this call and their host's conversions.
 *
 * @example
 * ```ts
 * // Inside an Express middleware mounted at /forms-service, after express.json():
 * handleMounted(qforms, req, res, { mountPath: req.baseUrl, body: JSON.stringify(req.body) })
 * ```
 */
export const handleMounted = (
  qforms: Pick<Qforms.Qforms, "nodeHandler">,
  request: IncomingMessage,
  response: ServerResponse,
  mounted: Mounted
): void => {
  name(request, mounted.mountPath)
  if (mounted.body === undefined) qforms.nodeHandler(request, response)
  else qforms.nodeHandler(request, response, mounted.body)
}

/**
 * Offers a WebSocket upgrade (the live event stream, `<mount point>/api/events`) to qforms, for an adapter whose
 * host already cut the mount point from `request.url`: `true` when qforms took it; otherwise the request is as it
 * came, for the host's other `upgrade` listeners.
 *
 * @example
 * ```ts
 * server.on("upgrade", (req, socket, head) => upgradeMounted(qforms, req, socket, head, "") || socket.destroy())
 * ```
 */
export const upgradeMounted = (
  qforms: Pick<Qforms.Qforms, "upgradeHandler">,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  mountPath: string
): boolean => {
  const undo = name(request, mountPath)
  if (qforms.upgradeHandler(request, socket, head)) return true
  undo()
  return false
}
