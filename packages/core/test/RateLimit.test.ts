/**
 * The in-memory token bucket (web/RateLimit.ts): `take` spends a token per
 * request and refuses once the burst is spent; `peek` tells what `take` would
 * decide without spending (the access codes' limit counts only wrong codes).
 */
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import * as RateLimit from "../src/web/RateLimit.ts"

const run = <A>(effect: Effect.Effect<A, never, RateLimit.RateLimiter>) =>
  Effect.runPromise(
    Effect.provide(effect, RateLimit.RateLimiter.layerMemory({ requestsPerSecond: 1 / 3600, burst: 2 }))
  )

describe("RateLimiter", () => {
  it("take spends the burst, then refuses with a Retry-After; other keys have their own bucket", async () => {
    const decisions = await run(
      Effect.gen(function* () {
        const limiter = yield* RateLimit.RateLimiter
        return [yield* limiter.take("a"), yield* limiter.take("a"), yield* limiter.take("a"), yield* limiter.take("b")]
      })
    )
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false, true])
    expect(decisions[2]!.retryAfterSeconds).toBeGreaterThan(3000)
  })

  it("peek tells what take would decide and spends nothing", async () => {
    const decisions = await run(
      Effect.gen(function* () {
        const limiter = yield* RateLimit.RateLimiter
        const peeks = [yield* limiter.peek("a"), yield* limiter.peek("a"), yield* limiter.peek("a")]
        yield* limiter.take("a")
        yield* limiter.take("a")
        return [...peeks, yield* limiter.peek("a")]
      })
    )
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false])
    expect(decisions[0]!.remaining).toBe(2)
    expect(decisions[3]!.retryAfterSeconds).toBeGreaterThan(3000)
  })
})
