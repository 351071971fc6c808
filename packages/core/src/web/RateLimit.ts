/**
 * Per-key rate limiting: a token bucket per API key, in this process's
 * memory. With several server processes each keeps its own buckets, so the
 * effective limit is the per-process limit times the number of processes
 * (put a shared limiter in front, or divide the rate, when that matters).
 *
 * Why not Effect's own `effect/persistence/RateLimiter` (checked against
 * effect 4.0): its in-memory store keeps one entry per key for the life of the
 * process and never forgets one, and the keys here come from clients (an
 * address, an e-mail address being signed in), so a client that rotates them
 * would grow the server's memory without bound; this limiter forgets a bucket
 * once it is full again (see `SWEEP_AFTER_BUCKETS`). The library's module is
 * also marked unstable. Its Redis store is the path to limits shared by several
 * processes: the `RateLimiter` service below is the seam to put it behind.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The limit: `requestsPerSecond` refill, `burst` capacity. */
export interface RateLimitConfig {
  readonly requestsPerSecond: number
  readonly burst: number
}

/** The default: 20 requests per second with bursts of 100. */
export const defaultConfig: RateLimitConfig = { requestsPerSecond: 20, burst: 100 }

/** The outcome of one request against its bucket, with what the headers say. */
export interface Decision {
  readonly allowed: boolean
  /** Whole requests left in the bucket after this one. */
  readonly remaining: number
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number
  /** When refused: seconds until one request is allowed (at least 1). */
  readonly retryAfterSeconds: number
}

interface Bucket {
  tokens: number
  updatedAt: number
}

/** Buckets not touched for this long are forgotten (they would be full anyway). */
const SWEEP_AFTER_BUCKETS = 10_000

/**
 * Takes one token (or `cost` tokens: one per call of a batch) from a key's bucket.
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
  /** An in-memory limiter. */
  static readonly layerMemory = (config: RateLimitConfig = defaultConfig) =>
    Layer.sync(RateLimiter)(() => {
      const buckets = new Map<string, Bucket>()
      const perMs = config.requestsPerSecond / 1000
      const refill = (bucket: Bucket, now: number) => {
        bucket.tokens = Math.min(config.burst, bucket.tokens + (now - bucket.updatedAt) * perMs)
        bucket.updatedAt = now
      }
      const sweep = (now: number) => {
        for (const [key, bucket] of buckets) {
          refill(bucket, now)
          if (bucket.tokens >= config.burst) buckets.delete(key)
        }
      }
      const decide = (key: string, cost: number, taking: boolean) =>
        Effect.map(Clock.currentTimeMillis, (now): Decision => {
          let bucket = buckets.get(key)
          if (bucket === undefined) {
            if (!taking) return { allowed: true, remaining: config.burst, resetSeconds: 0, retryAfterSeconds: 0 }
            if (buckets.size >= SWEEP_AFTER_BUCKETS) sweep(now)
            bucket = { tokens: config.burst, updatedAt: now }
            buckets.set(key, bucket)
          } else {
            refill(bucket, now)
          }
          const allowed = bucket.tokens >= cost
          if (allowed && taking) bucket.tokens -= cost
          return {
            allowed,
            remaining: Math.floor(bucket.tokens),
            resetSeconds: Math.ceil((config.burst - bucket.tokens) / config.requestsPerSecond),
            retryAfterSeconds: allowed
              ? 0
              : Math.max(1, Math.ceil((Math.min(cost, config.burst) - bucket.tokens) / config.requestsPerSecond))
          }
        })
      return RateLimiter.of({
        config,
        take: (key, cost = 1) => decide(key, cost, true),
        peek: (key) => decide(key, 1, false)
      })
    })
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
