/**
 * Where a request came from and where it reached qforms: the base URL links
 * are built on (the configured `appUrl`, or the request's own scheme, host and
 * mount prefix), the mount prefix, and the client's address behind trusted
 * proxies. Every surface (API, pages, application, event stream) reads them
 * here, so they agree.
 *
 * @module
 */
import * as Option from "effect/Option"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"

/**
 * Where this request reached qforms: the configured `appUrl`, or else the
 * request's own scheme, host and mount prefix (`x-forwarded-proto`,
 * `x-forwarded-host`, and the `x-forwarded-prefix` an adapter sets).
 */
export const baseUrl = (request: HttpServerRequest.HttpServerRequest, appUrl: string | undefined): string =>
  baseUrlOf(request.headers, request.originalUrl, appUrl)

/** {@link baseUrl} from plain headers and the request's URL (for transports outside the router). */
export const baseUrlOf = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  url: string,
  appUrl: string | undefined
): string => {
  if (appUrl !== undefined && appUrl !== "") return appUrl.replace(/\/$/, "")
  const first = (name: string) => {
    const value = headers[name]
    return (typeof value === "string" ? value : value?.[0])?.split(",")[0]?.trim()
  }
  const fromUrl = /^https?:\/\//.test(url) && URL.canParse(url) ? new URL(url) : undefined
  const proto = first("x-forwarded-proto")
  const host = first("x-forwarded-host") ?? first("host") ?? fromUrl?.host
  const prefix = first("x-forwarded-prefix") ?? ""
  const safePrefix = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/.test(prefix) ? prefix.replace(/\/$/, "") : ""
  const scheme = proto === "https" || proto === "http" ? proto : fromUrl?.protocol === "https:" ? "https" : "http"
  return host !== undefined && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? `${scheme}://${host}${safePrefix}` : safePrefix
}

/**
 * The path prefix qforms is mounted under, from {@link baseUrl}: `""` at the
 * root, `/forms-service` under an adapter mounted there.
 */
export const mountPrefix = (request: HttpServerRequest.HttpServerRequest, appUrl: string | undefined): string => {
  const base = baseUrl(request, appUrl)
  return (/^https?:\/\//.test(base) && URL.canParse(base) ? new URL(base).pathname : base).replace(/\/$/, "")
}

/**
 * The client's address: the connection's, or the one the trusted proxies put
 * in `X-Forwarded-For` (with `trustedProxyHops` proxies, the entry that many
 * places from the end; with 0, the header is ignored, so a client cannot
 * forge an address of its own).
 *
 * @example
 * ```ts
 * clientAddress(request, 1) // "203.0.113.7" for X-Forwarded-For: 203.0.113.7 from the proxy
 * ```
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustedProxyHops: number): string => {
  const forwarded = request.headers["x-forwarded-for"]
  if (trustedProxyHops > 0 && forwarded !== undefined) {
    const hops = forwarded
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "")
    const index = hops.length - trustedProxyHops
    const address = hops[Math.max(0, index)]
    if (address !== undefined) return address
  }
  return Option.getOrElse(request.remoteAddress, () => "unknown")
}
