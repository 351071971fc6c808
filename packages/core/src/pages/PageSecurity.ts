/**
 * The public page's security: its limits (submissions, steps, new partial
 * responses per address, the minimum time to fill a form, one limiter per
 * kind of request), the pages' headers (a nonce CSP with the configured
 * `frame-ancestors`), and the resume cookie's name.
 *
 * @module
 */
import { randomBytes, randomFillSync } from "node:crypto"
import * as Schema from "effect/Schema"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { type Html, RateLimit } from "../web/index.ts"
import { escapeHtml } from "../kernel/index.ts"
import { clientMessageKeys, document } from "./screens/Document.ts"
import { message } from "./screens/Message.ts"
import type { Voice } from "./Voice.ts"

/** The default submission limit: 10 a minute per IP address, bursts of 10. */
export const defaultSubmissionRateLimit: RateLimit.RateLimitConfig = { requestsPerSecond: 10 / 60, burst: 10 }
/** The default step limit: 5 a second per IP address, bursts of 60. */
export const defaultStepRateLimit: RateLimit.RateLimitConfig = { requestsPerSecond: 5, burst: 60 }
/** The default number of new partial responses per client address per hour: 10. */
export const defaultPartialResponsesPerAddressPerHour = 10
/** The default minimum time to fill in a form: 3 seconds. */
export const defaultMinSubmitSeconds = 3

/**
 * One CSP `frame-ancestors` source: `*`, `'self'`, `'none'`, a scheme
 * (`https:`) or an origin with an optional `*.` host wildcard and port.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(FrameAncestor)("https://*.example.com") // ok
 * ```
 */
export const FrameAncestor = Schema.String.check(
  Schema.isPattern(/^(?:\*|'self'|'none'|https?:|https?:\/\/(?:\*\.)?[A-Za-z0-9.-]+(?::(?:\d{1,5}|\*))?)$/, {
    message: "a frame ancestor is *, 'self', 'none', a scheme such as https: or an origin such as https://example.com"
  })
)

/** The cookie that lets a respondent resume a partial response on the same device. */
export const resumeCookieName = (publicId: string) => `qf_${publicId}`

// ---------------------------------------------------------------------------
// Responses of the page
// ---------------------------------------------------------------------------

/** Random bytes for the nonces of 256 pages, drawn at once (as `crypto.randomUUID` does): one draw per page cost more than the rest of a cached welcome screen's signing. */
const noncePoolBytes = 16 * 256
let noncePool = Buffer.alloc(0)
let nonceOffset = 0

/** A fresh CSP nonce: 16 random bytes, base64, never handed out twice. */
const freshNonce = (): string => {
  if (nonceOffset + 16 > noncePool.length) {
    noncePool = randomFillSync(Buffer.allocUnsafe(noncePoolBytes))
    nonceOffset = 0
  }
  nonceOffset += 16
  return noncePool.toString("base64", nonceOffset - 16, nonceOffset)
}

/** The value of the CSP `frame-ancestors` directive. */
const ancestors = (sources: ReadonlyArray<string> | undefined) =>
  sources === undefined || sources.length === 0 ? "*" : sources.join(" ")

/**
 * The security headers of a page: a CSP that allows only this response's
 * inline style and script (by nonce), posts to this origin, no plugins or
 * base changes, and the configured frame ancestors.
 */
export const securityHeaders = (nonce: string, frameAncestors: ReadonlyArray<string> | undefined) => ({
  "content-security-policy": [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors(frameAncestors)}`
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
})

/** The document's language, direction and (with the script) the script's messages, of a voice. */
const spoken = (voice: Voice | undefined, script: boolean) =>
  voice === undefined
    ? {}
    : {
        language: voice.language,
        direction: voice.direction,
        words: script ? voice.words(clientMessageKeys) : undefined
      }

/** An HTML page answer with its security headers. */
export const page = (options: {
  readonly status: number
  readonly title: string
  readonly body: Html
  readonly script?: boolean | undefined
  readonly frameAncestors: ReadonlyArray<string> | undefined
  readonly headers?: Record<string, string> | undefined
  /** More style after the page's own (a form's theme, `Assets.themeCss`). */
  readonly style?: string | undefined
  /** Where the document takes the respondent at once (an ending's redirect). */
  readonly redirect?: string | undefined
  /** The language the page speaks (its `lang`, `dir` and the script's messages); default English. */
  readonly voice?: Voice | undefined
}): HttpServerResponse.HttpServerResponse => {
  const nonce = freshNonce()
  return HttpServerResponse.text(
    document({
      title: options.title,
      nonce,
      body: options.body,
      script: options.script ?? false,
      style: options.style,
      redirect: options.redirect,
      ...spoken(options.voice, options.script ?? false)
    }),
    {
      status: options.status,
      contentType: "text/html; charset=utf-8",
      headers: { ...securityHeaders(nonce, options.frameAncestors), ...options.headers }
    }
  )
}

/**
 * A page whose only parts that change per request are its nonce and one
 * value (a token), rendered and encoded once: each answer splices a fresh
 * nonce and the value (escaped) into the encoded parts. The form's welcome
 * screen is the page most often asked for; rendering and encoding its whole
 * document (inline style and script included) on every visit was most of its
 * cost.
 *
 * @example
 * ```ts
 * const welcome = pageTemplate({ status: 200, title, body: (token) => welcome(form, token, voice), script: true, frameAncestors })
 * return welcome(signedToken)
 * ```
 */
export const pageTemplate = (options: {
  readonly status: number
  readonly title: string
  readonly body: (value: string) => Html
  readonly script?: boolean | undefined
  readonly frameAncestors: ReadonlyArray<string> | undefined
  /** More style after the page's own (a form's theme). */
  readonly style?: string | undefined
  /** The language the page speaks; default English. */
  readonly voice?: Voice | undefined
}): ((value: string) => HttpServerResponse.HttpServerResponse) => {
  // Marks nobody can put in a form's text (they are drawn here), and that escaping leaves as they are.
  const mark = randomBytes(12).toString("hex")
  const nonceMark = `qfn${mark}`
  const valueMark = `qfv${mark}`
  const parts = document({
    title: options.title,
    nonce: nonceMark,
    body: options.body(valueMark),
    script: options.script ?? false,
    style: options.style,
    ...spoken(options.voice, options.script ?? false)
  })
    .split(new RegExp(`(${nonceMark}|${valueMark})`))
    .map((part): Buffer | "nonce" | "value" =>
      part === nonceMark ? "nonce" : part === valueMark ? "value" : Buffer.from(part, "utf8")
    )
  return (value) => {
    const nonce = freshNonce()
    const nonceBytes = Buffer.from(nonce, "latin1")
    const valueBytes = Buffer.from(escapeHtml(value), "utf8")
    return HttpServerResponse.uint8Array(
      Buffer.concat(parts.map((part) => (part === "nonce" ? nonceBytes : part === "value" ? valueBytes : part))),
      {
        status: options.status,
        contentType: "text/html; charset=utf-8",
        headers: securityHeaders(nonce, options.frameAncestors)
      }
    )
  }
}

/** The 404 page of `/f/…` paths, in the page's language when the request's is known (default English). */
export const notFoundPage = (frameAncestors: ReadonlyArray<string> | undefined, voice?: Voice) =>
  page({
    status: 404,
    title: voice?.say("page.notFoundTitle") ?? "Form not found",
    body: message(
      voice?.say("page.notFoundTitle") ?? "Form not found",
      voice?.say("page.notFoundText") ?? "There is no form at this address. Check the link you were given."
    ),
    frameAncestors,
    voice
  })

export const json = (status: number, body: object, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "x-content-type-options": "nosniff", ...headers } })

/** A limiter of its own (`name`, apart from every other limit) for one kind of request, on the context's store. */
export const makeLimiter = (config: RateLimit.RateLimitConfig, name: string) => RateLimit.RateLimiter.make(config, name)
