/**
 * Where an h3 app mounted qforms, read from the matched route: the mount
 * point and the path below it, for the requests and the event stream alike.
 */
import type { H3Event } from "h3"

/**
 * The mount point and the path below it. The route of the mounted app is
 * `<base>/**`, with `<base>` as the host wrote it (possibly with `:params` or
 * `*`, or nested mounts): its segment count tells how many leading segments
 * of the request's path are the prefix.
 */
export const splitPath = (event: H3Event): { readonly prefix: string; readonly path: string } => {
  const pathname = event.url.pathname
  const route = event.context.matchedRoute?.route ?? "/**"
  const baseSegments = route.replace(/\/\*\*(:[^/]*)?$/, "").split("/").length - 1
  const segments = pathname.split("/")
  const prefix = segments.slice(0, baseSegments + 1).join("/")
  const rest = segments.slice(baseSegments + 1).join("/")
  return { prefix, path: `/${rest}` }
}
