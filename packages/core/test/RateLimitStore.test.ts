/**
 * One contract for every rate-limit store: memory, the database (PGlite, and
 * PostgreSQL when QFORMS_TEST_DATABASE_URL is set) and Redis (when
 * QFORMS_TEST_REDIS_URL is set). The time is the test's clock, so refills are
 * exact; concurrent takes on a shared store never give away more than the
 * bucket holds.
 */
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as TestClock from "effect/testing/TestClock"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import * as RateLimit from "../src/web/RateLimit.ts"
import * as RateLimitStore from "../src/storage/RateLimitStore.ts"

const redisUrl = process.env.QFORMS_TEST_REDIS_URL

interface StoreTarget {
  readonly name: string
  readonly layer: () => Layer.Layer<RateLimitStore.RateLimitStore, unknown>
}

const targets: ReadonlyArray<StoreTarget> = [
  { name: "memory", layer: () => RateLimitStore.layerMemory },
  ...databaseTargets.map((target) => ({
    name: `the database on ${target.name}`,
    layer: () => RateLimitStore.layerDatabase.pipe(Layer.provideMerge(target.layer()))
  })),
  ...(redisUrl === undefined
    ? []
    : [
        {
          name: "Redis",
          layer: () =>
            RateLimitStore.layerRedis({
              prefix: `qforms-test:${process.pid}:${Math.random().toString(36).slice(2)}:`
            }).pipe(Layer.provide(NodeRedis.layer({ url: redisUrl })))
        }
      ])
]

/** A limiter of this limit, named apart from the other tests' (one store serves every test of a target). */
let limiters = 0
const limiter = (config: RateLimit.RateLimitConfig) => {
  limiters += 1
  return RateLimit.RateLimiter.make(config, `test-${limiters}`)
}

for (const target of targets) {
  describe(`rate limits in ${target.name}`, () => {
    it.layer(target.layer())((it) => {
      it.effect("gives the burst, then refuses with the seconds until the next request", () =>
        Effect.gen(function* () {
          const limit = yield* limiter({ requestsPerSecond: 2, burst: 3 })
          const decisions = yield* Effect.forEach([1, 2, 3, 4], () => limit.take("a"))
          expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false])
          expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0])
          expect(decisions[3]).toEqual({ allowed: false, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 })
          // Another key has its own bucket.
          expect((yield* limit.take("b")).remaining).toBe(2)
        })
      )

      it.effect("refills at the rate, in fractions of a token, up to the burst", () =>
        Effect.gen(function* () {
          const limit = yield* limiter({ requestsPerSecond: 0.5, burst: 2 })
          yield* limit.take("k")
          yield* limit.take("k")
          expect((yield* limit.take("k")).allowed).toBe(false)
          yield* TestClock.adjust("1 second")
          const half = yield* limit.take("k")
          expect(half.allowed).toBe(false)
          expect(half.retryAfterSeconds).toBe(1)
          yield* TestClock.adjust("1 second")
          expect((yield* limit.take("k")).allowed).toBe(true)
          // Long after: full again, never more than the burst.
          yield* TestClock.adjust("1 hour")
          expect((yield* limit.take("k")).remaining).toBe(1)
        })
      )

      it.effect("peeks without taking, and a bucket never taken from is full", () =>
        Effect.gen(function* () {
          const limit = yield* limiter({ requestsPerSecond: 1, burst: 2 })
          expect(yield* limit.peek("p")).toEqual({ allowed: true, remaining: 2, resetSeconds: 0, retryAfterSeconds: 0 })
          yield* limit.take("p")
          yield* limit.take("p")
          const peeked = yield* limit.peek("p")
          expect(peeked.allowed).toBe(false)
          expect(peeked.retryAfterSeconds).toBe(1)
          yield* TestClock.adjust("1 second")
          expect((yield* limit.peek("p")).allowed).toBe(true)
          expect((yield* limit.peek("p")).allowed).toBe(true)
          expect((yield* limit.take("p")).allowed).toBe(true)
          expect((yield* limit.peek("p")).allowed).toBe(false)
        })
      )

      it.effect("takes a cost of several tokens only when they are all there", () =>
        Effect.gen(function* () {
          const limit = yield* limiter({ requestsPerSecond: 1, burst: 5 })
          const first = yield* limit.take("c", 3)
          expect(first).toMatchObject({ allowed: true, remaining: 2 })
          const second = yield* limit.take("c", 3)
          expect(second).toMatchObject({ allowed: false, remaining: 2, retryAfterSeconds: 1 })
          // A refused request took nothing.
          expect(yield* limit.take("c", 2)).toMatchObject({ allowed: true, remaining: 0 })
        })
      )

      it.effect("keeps limits of different names apart on one store", () =>
        Effect.gen(function* () {
          const config = { requestsPerSecond: 1, burst: 1 }
          const one = yield* limiter(config)
          const two = yield* limiter(config)
          expect((yield* one.take("same")).allowed).toBe(true)
          expect((yield* one.take("same")).allowed).toBe(false)
          expect((yield* two.take("same")).allowed).toBe(true)
        })
      )

      it.effect("gives exactly the burst to 40 concurrent requests", () =>
        Effect.gen(function* () {
          const limit = yield* limiter({ requestsPerSecond: 0.001, burst: 10 })
          const decisions = yield* Effect.all(
            Array.from({ length: 40 }, () => limit.take("race")),
            { concurrency: "unbounded" }
          )
          expect(decisions.filter((d) => d.allowed)).toHaveLength(10)
        })
      )
    })
  })
}

for (const target of databaseTargets) {
  describe(`the database store on ${target.name}`, () => {
    it.layer(RateLimitStore.layerDatabase.pipe(Layer.provideMerge(target.layer())))((it) => {
      it.effect("deletes buckets that are full again, and only those", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RateLimitStore.RateLimitStore
          const config = { requestsPerSecond: 1, burst: 10 }
          yield* store.decide("sweep:old", config, 1, true)
          yield* TestClock.adjust("20 seconds")
          yield* store.decide("sweep:recent", config, 1, true)
          // The sweep runs once every 1,024 takes of a process.
          yield* Effect.forEach(
            Array.from({ length: 1024 }),
            () => store.decide("sweep:recent", { requestsPerSecond: 1000, burst: 10 }, 1, true),
            {
              discard: true
            }
          )
          const keys = yield* sql<{
            readonly key: string
          }>`select key from rate_limit_buckets where key like 'sweep:%' order by key`
          expect(keys.map((row) => row.key)).toEqual(["sweep:recent"])
        })
      )

      it.effect("lets requests through while its table cannot be reached", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RateLimitStore.RateLimitStore
          const config = { requestsPerSecond: 1, burst: 1 }
          yield* store.decide("outage", config, 1, true)
          expect((yield* store.decide("outage", config, 1, true)).allowed).toBe(false)
          yield* sql`alter table rate_limit_buckets rename to rate_limit_buckets_away`
          const during = yield* store.decide("outage", config, 1, true)
          yield* sql`alter table rate_limit_buckets_away rename to rate_limit_buckets`
          assert.isTrue(during.allowed)
          expect((yield* store.decide("outage", config, 1, true)).allowed).toBe(false)
        })
      )
    })
  })
}

if (redisUrl !== undefined) {
  describe("the Redis store", () => {
    const prefix = `qforms-test:${process.pid}:expiry:`
    it.layer(RateLimitStore.layerRedis({ prefix }).pipe(Layer.provideMerge(NodeRedis.layer({ url: redisUrl }))))(
      (it) => {
        it.effect("lets a bucket expire when it would be full again", () =>
          Effect.gen(function* () {
            const store = yield* RateLimitStore.RateLimitStore
            const redis = yield* NodeRedis.NodeRedis
            yield* store.decide("bucket", { requestsPerSecond: 2, burst: 10 }, 3, true)
            // 3 tokens at 2 per second: full again in 1.5 s.
            const ttl = yield* redis.use((client) => client.pTTL(`${prefix}bucket`))
            expect(ttl).toBeGreaterThan(0)
            expect(ttl).toBeLessThanOrEqual(1500)
            // A peek writes nothing.
            yield* store.decide("never-taken", { requestsPerSecond: 2, burst: 10 }, 1, false)
            expect(yield* redis.use((client) => client.exists(`${prefix}never-taken`))).toBe(0)
          })
        )
      }
    )
  })
}

describe("Qforms.make({ rateLimitStore })", () => {
  it("refuses a store it does not know, naming the option", async () => {
    await expect(
      Qforms.make({ database: {}, rateLimitStore: "shared" as never, delivery: { worker: false } })
    ).rejects.toThrow(/rateLimitStore/)
    await expect(
      Qforms.make({ database: {}, rateLimitStore: { redis: "http://127.0.0.1:6379" }, delivery: { worker: false } })
    ).rejects.toThrow(/rateLimitStore\.redis: Expected a redis:\/\/ or rediss:\/\/ URL/)
  })

  it("keeps the limits' buckets in the database when asked", async () => {
    const qforms = await Qforms.make({
      database: {},
      rateLimitStore: "database",
      rateLimit: { requestsPerSecond: 0.001, burst: 2 },
      delivery: { worker: false }
    })
    try {
      const key = await qforms.run(
        Effect.gen(function* () {
          const { ownerAccountId, workspace } = yield* (yield* Workspaces).create({
            name: "Limited",
            ownerEmail: "limited@example.com"
          })
          return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
        })
      )
      const statuses: Array<number> = []
      for (let i = 0; i < 3; i++) {
        const response = await qforms.handler(
          new Request("http://localhost/api/forms", { headers: { authorization: `Bearer ${key}` } })
        )
        statuses.push(response.status)
      }
      expect(statuses).toEqual([200, 200, 429])
      const names = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ readonly key: string }>`select key from rate_limit_buckets order by key`
          return rows.map((row) => row.key.split(":")[0])
        })
      )
      expect(names).toContain("api")
    } finally {
      await qforms.dispose()
    }
  })
})
