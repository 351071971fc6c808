/**
 * URLs as they may be written to a log: the tokens and secrets some of
 * qforms' URLs carry replaced by `[redacted]`. A log line is read by more
 * people than the mailbox the one-time sign-in link was sent to.
 */
import * as Result from "effect/Result"

/** What stands in for a redacted value. */
export const redacted = "[redacted]"

/**
 * Path segments that are credentials themselves: the one-time sign-in link
 * (`/app/sign-in/link/{token}`) and the e-mail tracking links (`/t/o/{token}`,
 * `/t/c/{token}`), under any mount prefix.
 */
const secretSegments: ReadonlyArray<RegExp> = [/(\/app\/sign-in\/link\/)[^/?#]+/g, /(\/t\/[oc]\/)[^/?#]+/g]

/** Query parameters whose value is a credential (`token`, `access_token`, `key`, `secret`, `signature`, `code`, `password`, …). */
const secretParameter =
  /^(.*[-_.])?(token|key|apikey|secret|signature|sig|code|password|passwd|pwd|csrf|auth|authorization|session|sid)$/i

/** An API key or signing secret of qforms, wherever it appears. */
const secretValue = /\b(qk_(live|test)_|whsec_)[A-Za-z0-9_-]+/g

/**
 * A URL (or just its path and query) with every token and secret redacted:
 * the path segments of sign-in and tracking links, the values of query
 * parameters named like credentials, and anything shaped like a qforms API
 * key or signing secret. The rest is kept byte for byte.
 *
 * @example
 * ```ts
 * redactUrl("/forms-service/app/sign-in/link/abc123?next=/app") // "/forms-service/app/sign-in/link/[redacted]?next=/app"
 * redactUrl("/api/events?access_token=xyz&formId=3")        // "/api/events?access_token=[redacted]&formId=3"
 * ```
 */
export const redactUrl = (url: string): string => {
  const hash = url.indexOf("#")
  const withoutHash = hash === -1 ? url : url.slice(0, hash)
  const question = withoutHash.indexOf("?")
  let path = question === -1 ? withoutHash : withoutHash.slice(0, question)
  for (const pattern of secretSegments) path = path.replace(pattern, `$1${redacted}`)
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
