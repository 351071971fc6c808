/**
 * The settings of the public page (`PublicPage.layer`; `PublicPage.ts`
 * exports them as `PublicPageOptions`).
 */
import type { RateLimit } from "../web/index.ts"
import type * as AccessCodes from "./AccessCodes.ts"

/** Settings of the public page. */
export interface PublicPageOptions {
  /**
   * Who may show the page in a frame: CSP `frame-ancestors` sources such as
   * `'self'`, `https://example.com`, `https://*.example.com`, or `*` (default:
   * `*`, any site may embed the form; `'none'` forbids framing).
   */
  readonly frameAncestors?: ReadonlyArray<string> | undefined
  /** Per-IP limit on submissions (default 10 per minute, bursts of 10). */
  readonly submissionRateLimit?: RateLimit.RateLimitConfig | undefined
  /** Per-IP limit on steps of the page (default 5 per second, bursts of 60). */
  readonly stepRateLimit?: RateLimit.RateLimitConfig | undefined
  /** Fewer seconds than this between opening the form and submitting it is refused as a bot (default 3). */
  readonly minSubmitSeconds?: number | undefined
  /**
   * How many reverse proxies in front of qforms append to `X-Forwarded-For`
   * (default 0: the header is ignored and the connection's address is the
   * client's). With 1, the last address of the header is the client's.
   */
  readonly trustedProxyHops?: number | undefined
  /**
   * New partial responses per client address per hour (default
   * `defaultPartialResponsesPerAddressPerHour`, as a bucket of that
   * many refilled over the hour; `0`: the page saves no partial responses).
   * Over the limit, the respondent goes on and can submit; only the new
   * partial row is not saved. `Qforms.make` sets it from
   * `partialResponses.newPerAddressPerHour`.
   */
  readonly partialResponsesPerAddressPerHour?: number | undefined
  /**
   * Wrong access codes allowed per client address and per form (defaults
   * {@link AccessCodes.defaultAccessCodeFailuresPerAddress}: 5, then one every
   * 3 minutes; {@link AccessCodes.defaultAccessCodeFailuresPerForm}: 100, then
   * 100 an hour). Only wrong codes count.
   */
  readonly accessCodeFailures?: AccessCodes.AccessCodeLimits | undefined
  /** The router's body limit, which the fields of a step keep to (set by `Http.layer`). */
  readonly maxBodyBytes?: number | undefined
}
