/**
 * The public page's limits as its options set them (the defaults are in
 * `PageSecurity.ts`), one limiter per kind of request, built once for all the
 * routes: submissions (from the page and as JSON), steps (the posts, the
 * resume-link posts and the resume links), new partial responses per address,
 * resume links sent per response and per mailbox; the minimum time to fill a
 * form; and how many proxies' hops the client's address is read through.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Option from "effect/Option"
import { clientAddress, type RateLimit } from "../web/index.ts"
import type { FormPages } from "./FormPages.ts"
import {
  defaultSubmissionRateLimit,
  defaultStepRateLimit,
  defaultPartialResponsesPerAddressPerHour,
  defaultMinSubmitSeconds,
  makeLimiter
} from "./PageSecurity.ts"
import type { PublicPageOptions } from "./PublicPageOptions.ts"

/** The page's limiters as `options` set them; the 429 page of a step comes from `pages`. */
export const make = Effect.fnUntraced(function* (options: PublicPageOptions, pages: FormPages) {
  const { requestVoice, tooMany } = pages
  const submissionConfig = options.submissionRateLimit ?? defaultSubmissionRateLimit
  const stepConfig = options.stepRateLimit ?? defaultStepRateLimit
  const submissions = yield* makeLimiter(submissionConfig, "page-submit")
  const steps = yield* makeLimiter(stepConfig, "page-step")
  const partialsPerHour = options.partialResponsesPerAddressPerHour ?? defaultPartialResponsesPerAddressPerHour
  const newPartials =
    partialsPerHour > 0
      ? Option.some(
          yield* makeLimiter({ requestsPerSecond: partialsPerHour / 3600, burst: partialsPerHour }, "page-partial")
        )
      : Option.none<RateLimit.RateLimiter["Service"]>()

  // However the requests come, a partial response and a mailbox get few links: 3, then one every 20 minutes.
  const resumeLinkConfig: RateLimit.RateLimitConfig = { requestsPerSecond: 3 / 3600, burst: 3 }
  const resumeLinkLimiter = yield* makeLimiter(resumeLinkConfig, "page-resume-link")
  const minSubmitMs = (options.minSubmitSeconds ?? defaultMinSubmitSeconds) * 1000
  const hops = options.trustedProxyHops ?? 0

  /** The per-address limit of the page's steps (its posts and its resume links): the 429 page once used up. */
  const stepLimited = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.map(steps.take(`step:${clientAddress(request, hops)}`), (limit) =>
      limit.allowed ? undefined : tooMany({ decision: limit, config: stepConfig }, requestVoice(request))
    )
  return { submissionConfig, submissions, newPartials, resumeLinkLimiter, minSubmitMs, hops, stepLimited }
})

/** The page's limiters (see {@link make}). */
export type PageLimits = Effect.Success<ReturnType<typeof make>>
