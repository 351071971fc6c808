/**
 * Rate limiting: a named limit (`RateLimiter`) over the token buckets of the
 * `RateLimitStore` in the context (see `RateLimitStore.ts`: this process's
 * memory by default, or a table in the database or Redis that several
 * processes share). Without a store in the context a limiter keeps its own
 * buckets in memory.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type Decision, makeMemory, type RateLimitConfig, RateLimitStore } from "../storage/index.ts"

export type { Decision, RateLimitConfig } from "../storage/index.ts"

/** The default: 20 requests per second with bursts of 100. */
export const defaultConfig: RateLimitConfig = { requestsPerSecond: 20, burst: 100 }

/**
 * Takes one token (or `cost` tokens: one per call of a batch) from a key's
 * bucket. Each limiter has a name: its buckets are the store's keys
 * `<name>:<key>`, apart from every other limit's.
 *
 * @example
 * ```ts
 * const decision = yield* (yield* RateLimiter).take("key:12")
 * if (!decision.allowed) // answer 429 with Retry-After: decision.retryAfterSeconds
 * ```
 */
export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    readonly config: RateLimitConfig
    readonly take: (key: string, cost?: number) => Effect.Effect<Decision>
    /**
     * What `take(key)` would decide, without taking: for limits that count
     * only some requests (wrong access codes), checked before each one.
     */
    readonly peek: (key: string) => Effect.Effect<Decision>
  }
>()("@qforms/core/http/RateLimiter") {
  /**
   * A limiter named `name` with this limit, on the context's `RateLimitStore`
   * (its own memory when there is none).
   *
   * @example
   * ```ts
   * const submissions = yield* RateLimiter.make({ requestsPerSecond: 1, burst: 10 }, "submit")
   * ```
   */
  static readonly make = (config: RateLimitConfig = defaultConfig, name: string) =>
    Effect.map(Effect.serviceOption(RateLimitStore), (found) => {
      const store = Option.getOrElse(found, makeMemory)
      return RateLimiter.of({
        config,
        take: (key, cost = 1) => store.decide(`${name}:${key}`, config, cost, true),
        peek: (key) => store.decide(`${name}:${key}`, config, 1, false)
      })
    })

  /** {@link RateLimiter.make} as a layer. */
  static readonly layer = (config: RateLimitConfig = defaultConfig, name: string) =>
    Layer.effect(RateLimiter)(RateLimiter.make(config, name))

  /** A limiter with buckets of its own in this process's memory, whatever the context's store. */
  static readonly layerMemory = (config: RateLimitConfig = defaultConfig) =>
    Layer.effect(RateLimiter)(
      RateLimiter.make(config, "memory").pipe(Effect.provideService(RateLimitStore, makeMemory()))
    )
}

/**
 * The IETF rate-limit headers (draft-ietf-httpapi-ratelimit-headers) for a
 * decision: `RateLimit-Policy` (quota `q`, window `w` in seconds) and
 * `RateLimit` (remaining `r`, seconds to reset `t`), plus `Retry-After` when refused.
 */
export const headers = (config: RateLimitConfig, decision: Decision): Record<string, string> => {
  const window = Math.max(1, Math.ceil(config.burst / config.requestsPerSecond))
  return {
    "ratelimit-policy": `"default";q=${config.burst};w=${window}`,
    ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { "retry-after": String(decision.retryAfterSeconds) })
  }
}
