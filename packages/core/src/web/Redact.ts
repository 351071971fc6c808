/**
 * URLs as they may be written to a log: the tokens and secrets some of
 * qforms' URLs carry replaced by `[redacted]`. A log line is read by more
 * people than the mailbox the one-time sign-in link was sent to.
 */
import * as Result from "effect/Result"
import { segmentsSource } from "./RoutePaths.ts"

/** What stands in for a redacted value. */
export const redacted = "[redacted]"

/**
 * The one rule for credentials in paths: a route whose path carries one names
 * that segment `:token` (a sign-in, reset or invitation link, a status page,
 * a resume link, a tracking or unsubscribe link). Every route is declared here
 * as the router adds it (`RouteBook`'s recording router), so a new route's
 * token is redacted without a list to remember.
 */
export const secretPathParameter = ":token"

/**
 * The token segments of the routes declared so far, matched under any mount prefix: one pattern per path
 * before the token (`/s/:token` and `/s/:token/edit`, GET and POST, share one).
 */
const secretSegments = new Map<string, RegExp>()

/**
 * Declares a route's path: if it has a {@link secretPathParameter} segment, that
 * segment is redacted from every URL logged after (process-wide: logs are).
 *
 * @example
 * ```ts
 * declareRoute("/s/:token/edit")
 * redactUrl("/forms-service/s/abc/edit") // "/forms-service/s/[redacted]/edit"
 * ```
 */
export const declareRoute = (path: string): void => {
  const segments = path.split("/")
  const at = segments.indexOf(secretPathParameter)
  if (at === -1) return
  const before = segmentsSource(segments.slice(0, at), "[^/?#]+")
  if (!secretSegments.has(before)) secretSegments.set(before, new RegExp(`(${before}/)[^/?#]+`, "g"))
}

/** Query parameters whose value is a credential (`token`, `access_token`, `key`, `secret`, `signature`, `code`, `password`, …). */
const secretParameter =
  /^(.*[-_.])?(token|key|apikey|secret|signature|sig|code|password|passwd|pwd|csrf|auth|authorization|session|sid)$/i

/** An API key or signing secret of qforms, wherever it appears. */
const secretValue = /\b(qk_(live|test)_|whsec_)[A-Za-z0-9_-]+/g

/**
 * A URL (or just its path and query) with every token and secret redacted:
 * the `:token` segments of the routes declared ({@link declareRoute}), the values of query
 * parameters named like credentials, and anything shaped like a qforms API
 * key or signing secret. The rest is kept byte for byte.
 *
 * @example
 * ```ts
 * redactUrl("/forms-service/app/sign-in/link/abc123?next=/app") // "/forms-service/app/sign-in/link/[redacted]?next=/app" (its route declared)
 * redactUrl("/api/events?access_token=xyz&formId=3")        // "/api/events?access_token=[redacted]&formId=3"
 * ```
 */
export const redactUrl = (url: string): string => {
  const hash = url.indexOf("#")
  const withoutHash = hash === -1 ? url : url.slice(0, hash)
  const question = withoutHash.indexOf("?")
  let path = question === -1 ? withoutHash : withoutHash.slice(0, question)
  for (const pattern of secretSegments.values()) path = path.replace(pattern, `$1${redacted}`)
  const query =
    question === -1
      ? ""
      : "?" +
        withoutHash
          .slice(question + 1)
          .split("&")
          .map((pair) => {
            const equals = pair.indexOf("=")
            if (equals === -1) return pair
            const name = pair.slice(0, equals)
            const decoded = decodeName(name)
            return secretParameter.test(decoded) ? `${name}=${redacted}` : pair
          })
          .join("&")
  return `${path}${query}`.replace(secretValue, `$1${redacted}`)
}

const decodeName = (name: string): string =>
  Result.getOrElse(
    Result.try(() => decodeURIComponent(name.replaceAll("+", " "))),
    () => name
  )
