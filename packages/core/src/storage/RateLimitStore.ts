/**
 * Where rate-limit buckets live. Every limit of qforms (the API's per key, the
 * public page's per address, sign-in, uploads, access codes) is a token bucket
 * kept in one `RateLimitStore`:
 *
 * - `layerMemory`: this process's memory, the default. With several server
 *   processes each keeps its own buckets, so the effective limit is the
 *   per-process limit times the number of processes.
 * - `layerDatabase`: a table in qforms' own database (`rate_limit_buckets`),
 *   one statement per request: every process on the same PostgreSQL shares
 *   each bucket. No other service needed.
 * - `layerRedis`: a hash per bucket in Redis, one Lua script per request: the
 *   same sharing without a round trip to the database.
 *
 * All three decide the same way (the shared suite `RateLimitStore.test.ts`
 * holds them to it): a bucket of `burst` tokens refilled at
 * `requestsPerSecond`, a request taking `cost` tokens or, when fewer are
 * left, taking none and being refused. The time is the caller's `Clock`, so a
 * test can drive it. A bucket that would be full again is forgotten (swept
 * from memory and the table, expired in Redis), so clients that rotate their
 * keys (addresses, e-mail addresses) cannot grow the store without bound.
 *
 * A shared store that cannot be reached lets requests through (and logs a
 * warning): a limiter outage must not take the service down with it.
 *
 * Why not Effect's own `effect/persistence/RateLimiter` (checked against
 * effect 4.1): its in-memory store never forgets a key, its token bucket
 * refills in whole tokens only, and it is marked unstable; its Redis script
 * is close to the one below, which keeps fractional tokens so that a rate of
 * 0.5 per second (uploads) refills smoothly.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redis from "effect/persistence/Redis"
import * as SqlClient from "effect/sql/SqlClient"

/** The limit: `requestsPerSecond` refill, `burst` capacity. */
export interface RateLimitConfig {
  readonly requestsPerSecond: number
  readonly burst: number
}

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

/**
 * A store of token buckets. `decide` takes `cost` tokens from the bucket of
 * `key` (created full) when `taking`, or only tells what taking would decide.
 *
 * @example
 * ```ts
 * import { Qforms, RateLimitStore } from "@qforms/core"
 *
 * // Several processes on one PostgreSQL share every limit:
 * const qforms = await Qforms.make({ database: { url }, rateLimitStore: "database" })
 * ```
 */
export class RateLimitStore extends Context.Service<
  RateLimitStore,
  {
    /** Which kind of store (for logs and the start-up summary). */
    readonly kind: "memory" | "database" | "redis"
    readonly decide: (key: string, config: RateLimitConfig, cost: number, taking: boolean) => Effect.Effect<Decision>
  }
>()("@qforms/core/web/RateLimitStore") {}

/** The decision for a bucket holding `tokens` after the request (`allowed` or not). */
export const decisionOf = (config: RateLimitConfig, cost: number, tokens: number, allowed: boolean): Decision => ({
  allowed,
  remaining: Math.floor(tokens),
  resetSeconds: Math.ceil((config.burst - tokens) / config.requestsPerSecond),
  retryAfterSeconds: allowed
    ? 0
    : Math.max(1, Math.ceil((Math.min(cost, config.burst) - tokens) / config.requestsPerSecond))
})

const full = (config: RateLimitConfig): Decision => ({
  allowed: true,
  remaining: config.burst,
  resetSeconds: 0,
  retryAfterSeconds: 0
})

// ---------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------

interface Bucket {
  tokens: number
  updatedAt: number
  readonly perMs: number
  readonly burst: number
}

/** Once the map holds this many buckets, the full ones are forgotten before a new one is added. */
const SWEEP_AFTER_BUCKETS = 10_000

/** A store in this process's memory (a fresh one per call). */
export const makeMemory = (): RateLimitStore["Service"] => {
  const buckets = new Map<string, Bucket>()
  const refill = (bucket: Bucket, now: number) => {
    bucket.tokens = Math.min(bucket.burst, bucket.tokens + Math.max(0, now - bucket.updatedAt) * bucket.perMs)
    bucket.updatedAt = Math.max(bucket.updatedAt, now)
  }
  const sweep = (now: number) => {
    for (const [key, bucket] of buckets) {
      refill(bucket, now)
      if (bucket.tokens >= bucket.burst) buckets.delete(key)
    }
  }
  return RateLimitStore.of({
    kind: "memory",
    decide: (key, config, cost, taking) =>
      Effect.map(Clock.currentTimeMillis, (now): Decision => {
        let bucket = buckets.get(key)
        if (bucket === undefined) {
          if (!taking) return full(config)
          if (buckets.size >= SWEEP_AFTER_BUCKETS) sweep(now)
          bucket = { tokens: config.burst, updatedAt: now, perMs: config.requestsPerSecond / 1000, burst: config.burst }
          buckets.set(key, bucket)
        } else {
          refill(bucket, now)
        }
        const allowed = bucket.tokens >= cost
        if (allowed && taking) bucket.tokens -= cost
        return decisionOf(config, cost, bucket.tokens, allowed)
      })
  })
}

/**
 * Buckets in this process's memory: the default. Each process limits on its
 * own.
 */
export const layerMemory: Layer.Layer<RateLimitStore> = Layer.sync(RateLimitStore)(makeMemory)

// ---------------------------------------------------------------------------
// Shared stores
// ---------------------------------------------------------------------------

/** A shared store sweeps (or lets expire) its stale buckets once every this many takes of a process. */
const SWEEP_EVERY_TAKES = 1024

/** When a shared store fails: the request passes, and the failure is logged. */
const failOpen =
  (kind: string, config: RateLimitConfig) =>
  <E extends { readonly message: string }>(error: E) =>
    Effect.as(
      Effect.logWarning(`rate limits: the ${kind} store failed, the request is let through: ${error.message}`),
      full(config)
    )

/**
 * Buckets in the `rate_limit_buckets` table of qforms' database: every
 * process on the same PostgreSQL shares them. One statement per request (an
 * upsert that refills and takes under the row's lock, so concurrent requests
 * of several processes never both take the last token); stale rows are
 * deleted every 1,024 takes of a process.
 *
 * @example
 * ```ts
 * const qforms = await Qforms.make({ database: { url }, rateLimitStore: "database" })
 * ```
 */
export const layerDatabase: Layer.Layer<RateLimitStore, never, SqlClient.SqlClient> = Layer.effect(RateLimitStore)(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    let takes = 0
    const sweep = (now: number) => sql`delete from rate_limit_buckets where stale_ms < ${now}`

    const take = (key: string, config: RateLimitConfig, cost: number, now: number) => {
      const perMs = config.requestsPerSecond / 1000
      const burst = config.burst
      // The bucket refilled to now; written three times since SET cannot name it.
      const refilled = sql`least(${burst}::float8, b.tokens + greatest(0, ${now}::float8 - b.updated_ms) * ${perMs}::float8)`
      const staleMs = now + burst / perMs
      return sql<{ readonly tokens: number; readonly allowed: boolean }>`
        insert into rate_limit_buckets as b (key, tokens, updated_ms, stale_ms, allowed)
        values (
          ${key},
          case when ${burst}::float8 >= ${cost}::float8 then ${burst - cost}::float8 else ${burst}::float8 end,
          ${now}::float8,
          ${staleMs}::float8,
          ${burst >= cost}
        )
        on conflict (key) do update set
          tokens = case when ${refilled} >= ${cost}::float8 then ${refilled} - ${cost}::float8 else ${refilled} end,
          allowed = ${refilled} >= ${cost}::float8,
          updated_ms = greatest(b.updated_ms, ${now}::float8),
          stale_ms = greatest(b.stale_ms, ${staleMs}::float8)
        returning tokens, allowed`
    }

    const peek = (key: string, config: RateLimitConfig, now: number) =>
      sql<{ readonly tokens: number }>`
        select least(${config.burst}::float8, tokens + greatest(0, ${now}::float8 - updated_ms) * ${
          config.requestsPerSecond / 1000
        }::float8) as tokens
        from rate_limit_buckets where key = ${key}`

    return RateLimitStore.of({
      kind: "database",
      decide: (key, config, cost, taking) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          if (!taking) {
            const rows = yield* peek(key, config, now)
            const tokens = rows[0] === undefined ? config.burst : Number(rows[0].tokens)
            return decisionOf(config, cost, tokens, tokens >= cost)
          }
          takes += 1
          if (takes % SWEEP_EVERY_TAKES === 0) yield* sweep(now)
          const [row] = yield* take(key, config, cost, now)
          return row === undefined ? full(config) : decisionOf(config, cost, Number(row.tokens), row.allowed)
        }).pipe(Effect.catch(failOpen("database", config)))
    })
  })
)

/**
 * Refills and takes in one step; the bucket expires when it would be full
 * again. Answers the tokens left (17 significant digits) and 1 when allowed.
 */
const takeScript = Redis.script(
  (key: string, burst: number, perMs: number, cost: number, now: number, taking: 0 | 1) => [
    key,
    burst,
    perMs,
    cost,
    now,
    taking
  ],
  {
    numberOfKeys: 1,
    lua: `
local key = KEYS[1]
local burst = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local taking = ARGV[5] == "1"
local state = redis.call("HMGET", key, "tokens", "updated")
local tokens = tonumber(state[1])
local updated = tonumber(state[2])
if not tokens then
  tokens = burst
  updated = now
end
if now > updated then
  tokens = math.min(burst, tokens + (now - updated) * per_ms)
  updated = now
end
local allowed = tokens >= cost
if taking then
  if allowed then tokens = tokens - cost end
  redis.call("HSET", key, "tokens", string.format("%.17g", tokens), "updated", string.format("%.17g", updated))
  redis.call("PEXPIRE", key, math.max(1, math.ceil((burst - tokens) / per_ms)))
end
if allowed then return { string.format("%.17g", tokens), 1 } end
return { string.format("%.17g", tokens), 0 }
`
  }
).withReturnType<readonly [tokens: string, allowed: number]>()

/**
 * Buckets in Redis (one hash per bucket under `prefix`, default
 * `qforms:rate-limit:`), refilled and taken by one Lua script per request;
 * each bucket expires when it would be full again. Needs the `Redis` service:
 * `NodeRedis.layer({ url })` from `@effect/platform-node/NodeRedis`.
 *
 * @example
 * ```ts
 * import * as NodeRedis from "@effect/platform-node/NodeRedis"
 * import { Qforms } from "@qforms/core"
 *
 * // Or simply: Qforms.make({ rateLimitStore: { redis: "redis://127.0.0.1:6379" } })
 * const Store = RateLimitStore.layerRedis().pipe(Layer.provide(NodeRedis.layer({ url: "redis://127.0.0.1:6379" })))
 * ```
 */
export const layerRedis = (options: { readonly prefix?: string | undefined } = {}) =>
  Layer.effect(RateLimitStore)(
    Effect.gen(function* () {
      const redis = yield* Redis.Redis
      const run = redis.eval(takeScript)
      const prefix = options.prefix ?? "qforms:rate-limit:"
      return RateLimitStore.of({
        kind: "redis",
        decide: (key, config, cost, taking) =>
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const [tokens, allowed] = yield* run(
              `${prefix}${key}`,
              config.burst,
              config.requestsPerSecond / 1000,
              cost,
              now,
              taking ? 1 : 0
            )
            return decisionOf(config, cost, Number(tokens), allowed === 1)
          }).pipe(Effect.catch(failOpen("Redis", config)))
      })
    })
  )
