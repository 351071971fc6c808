/**
 * The HTTP contract: rate limiting.
 */
import { afterAll, beforeAll, expect } from "vitest"
import type { TestServer, TestServerOptions } from "../TestServer.ts"
import { group, sleep, seedWorkspaces, type Seed } from "./Contract.ts"
import { request, type Reply } from "./Requests.ts"
import { expectStatus, expectError } from "./Expectations.ts"

export const rateLimiting = group("rate limiting", { transport: true }, (c) => {
  const { transportTest } = c
  let limited: TestServer
  let limitedSeed: Seed
  const options: TestServerOptions = { rateLimit: { requestsPerSecond: 1, burst: 3 } }

  beforeAll(async () => {
    limited = await c.start(c.target, options)
    limitedSeed = await limited.run(seedWorkspaces)
  })

  afterAll(async () => {
    await limited?.close()
  })

  transportTest(
    "an exhausted key gets 429 {error} with Retry-After and RateLimit headers; other keys are not affected",
    async () => {
      const call = (key: string) => request(limited.url, key, "GET", "/members", {}, c.settings.onReply)
      for (let i = 0; i < 3; i++) expectStatus(await call(limitedSeed.keys.owner), 200)
      let throttled: Reply | undefined
      for (let i = 0; i < 10 && throttled === undefined; i++) {
        const reply = await call(limitedSeed.keys.owner)
        if (reply.status === 429) throttled = reply
        else expectStatus(reply, 200)
      }
      expect(throttled, "no 429 after the burst of 3").toBeDefined()
      expectError(throttled!, 429)
      const retryAfter = throttled!.headers.get("retry-after") ?? ""
      expect(retryAfter).toMatch(/^\d+$/)
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
      expect(throttled!.headers.get("ratelimit-policy") ?? "").not.toBe("")
      expect(throttled!.headers.get("ratelimit") ?? "").not.toBe("")
      // Per key: another key of the same workspace still has its own bucket.
      expectStatus(await call(limitedSeed.keys.viewer), 200)
      // After Retry-After, the key works again.
      await sleep(Number(retryAfter) * 1000 + 50)
      expectStatus(await call(limitedSeed.keys.owner), 200)
    },
    30_000
  )
})
