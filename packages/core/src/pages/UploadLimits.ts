/**
 * The one limit on how often a client may store files: every path that stores
 * a respondent's file — the upload route (`POST /f/{publicId}/uploads`, the
 * page's script) and the file part of a multipart step of the public page (no
 * JavaScript) — takes from the same bucket, keyed by the trusted client
 * address (see {@link clientAddress}), so switching paths, or sending files
 * through the page without its script, gives no new allowance.
 *
 * Inbound e-mail attachments are not limited here: they come authenticated by
 * the inbound secret, and count against the storage quotas like any file (see
 * `Files.UploadQuotas`).
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { clientAddress, RateLimit } from "../web/index.ts"

/** Uploads per client address: bursts of 30, then one every 2 seconds. */
export const defaultUploadRateLimit: RateLimit.RateLimitConfig = { requestsPerSecond: 0.5, burst: 30 }

/** What a refused upload is told (the page and the route say the same). */
export const refusalMessage = (decision: RateLimit.Decision): string =>
  `too many uploads from this address; try again in ${decision.retryAfterSeconds} seconds`

/**
 * The upload limiter shared by every upload path: one token per file stored
 * (per upload request on the upload route), from the bucket of the request's
 * trusted client address.
 *
 * @example
 * ```ts
 * const limiter = yield* UploadLimiter
 * const decision = yield* limiter.take(request)
 * if (!decision.allowed) // 429 with RateLimit.headers(limiter.config, decision)
 * ```
 */
export class UploadLimiter extends Context.Service<
  UploadLimiter,
  {
    /** The limit (for the rate-limit headers). */
    readonly config: RateLimit.RateLimitConfig
    /** Takes one upload from the bucket of the request's trusted client address. */
    readonly take: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<RateLimit.Decision>
  }
>()("@qforms/core/pages/UploadLimiter") {
  /**
   * The upload limiter on the context's `RateLimitStore` (per process in
   * memory unless a shared store is configured): `rateLimit`
   * (default {@link defaultUploadRateLimit}) per client address, the address
   * read with `trustedProxyHops` (default 0, see {@link clientAddress}).
   * Provide one instance to every route that stores files.
   */
  static readonly layer = (
    options: {
      readonly rateLimit?: RateLimit.RateLimitConfig | undefined
      readonly trustedProxyHops?: number | undefined
    } = {}
  ) =>
    Layer.effect(
      UploadLimiter,
      Effect.gen(function* () {
        const limiter = yield* RateLimit.RateLimiter.make(options.rateLimit ?? defaultUploadRateLimit, "upload")
        const hops = options.trustedProxyHops ?? 0
        return UploadLimiter.of({
          config: limiter.config,
          take: (request) => limiter.take(`upload:${clientAddress(request, hops)}`)
        })
      })
    )
}
