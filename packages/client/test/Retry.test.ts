/**
 * Retries against a loopback server that answers from a script (429 or 503, with or without `Retry-After`, then
 * 200): a 429 is retried for every method after `Retry-After` (seconds or an HTTP date); a 503 only for the
 * idempotent methods; the tries are bounded; a `Retry-After` over `maxDelayMs` is not waited for; an abort stops
 * the wait.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createClient, isQformsError, type QformsError } from "../src/index.ts"

interface Scripted {
  readonly status: number
  readonly retryAfter?: string
}

describe("retries on 429 and 503", () => {
  let server: Server
  let base: string
  let script: Array<Scripted> = []
  let seen: Array<{ method: string; at: number; body: string }> = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = ""
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString()
      })
      req.on("end", () => {
        seen.push({ method: req.method ?? "", at: Date.now(), body })
        const next = script.shift() ?? { status: 200 }
        const headers: Record<string, string> = { "content-type": "application/json" }
        if (next.retryAfter !== undefined) headers["retry-after"] = next.retryAfter
        res.writeHead(next.status, headers)
        res.end(JSON.stringify(next.status === 200 ? [{ id: 1 }] : { error: `refused with ${next.status}` }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  beforeEach(() => {
    script = []
    seen = []
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  const client = (retry?: Parameters<typeof createClient>[0]["retry"]) =>
    createClient({ baseUrl: base, apiKey: "qk_test", ...(retry === undefined ? {} : { retry }) })

  it("retries a 429 after Retry-After seconds, a POST too, sending the same body", async () => {
    script = [{ status: 429, retryAfter: "1" }]
    const started = Date.now()
    const answer = await client().POST("/api/forms", { body: { title: "Again", fields: [] } })
    expect(answer).toEqual([{ id: 1 }])
    expect(seen.map((s) => s.method)).toEqual(["POST", "POST"])
    expect(seen[1]!.body).toBe(seen[0]!.body)
    expect(seen[1]!.at - started).toBeGreaterThanOrEqual(950)
  })

  it("reads Retry-After as an HTTP date", async () => {
    script = [{ status: 429, retryAfter: new Date(Date.now() + 1000).toUTCString() }]
    await client().GET("/api/forms")
    expect(seen).toHaveLength(2)
  })

  it("retries a 503 on GET, PUT and DELETE; not on POST or PATCH", async () => {
    for (const method of ["GET", "PUT", "DELETE"] as const) {
      seen = []
      script = [{ status: 503, retryAfter: "0" }]
      if (method === "GET") await client().GET("/api/forms")
      if (method === "PUT")
        await client().PUT("/api/forms/{id}/notifications", { params: { path: { id: 1 } }, body: { channels: [] } })
      if (method === "DELETE") await client().DELETE("/api/stages/{id}", { params: { path: { id: 1 } } })
      expect(seen.map((s) => s.method)).toEqual([method, method])
    }
    for (const method of ["POST", "PATCH"] as const) {
      seen = []
      script = [{ status: 503, retryAfter: "0" }]
      const failed =
        method === "POST"
          ? await client()
              .POST("/api/forms", { body: { title: "Once", fields: [] } })
              .catch((e: unknown) => e)
          : await client()
              .PATCH("/api/forms/{id}", { params: { path: { id: 1 } }, body: { title: "Once" } })
              .catch((e: unknown) => e)
      expect(isQformsError(failed, 503)).toBe(true)
      expect((failed as QformsError).error).toBe("refused with 503")
      expect(seen).toHaveLength(1)
    }
  })

  it("gives up after `attempts` tries in all, with the last answer's error", async () => {
    script = [
      { status: 429, retryAfter: "0" },
      { status: 429, retryAfter: "0" },
      { status: 429, retryAfter: "0" },
      { status: 429, retryAfter: "0" }
    ]
    const failed = await client({ attempts: 3 })
      .GET("/api/forms")
      .catch((e: unknown) => e)
    expect(isQformsError(failed, 429)).toBe(true)
    expect((failed as QformsError).retryAfter).toBe(0)
    expect(seen).toHaveLength(3)
  })

  it("waits with backoff when there is no Retry-After, and not at all beyond maxDelayMs", async () => {
    script = [{ status: 429 }]
    await client({ baseDelayMs: 50 }).GET("/api/forms")
    expect(seen).toHaveLength(2)
    seen = []
    script = [{ status: 429, retryAfter: "3600" }]
    const started = Date.now()
    const failed = await client({ maxDelayMs: 5_000 })
      .GET("/api/forms")
      .catch((e: unknown) => e)
    expect(isQformsError(failed, 429)).toBe(true)
    expect((failed as QformsError).retryAfter).toBe(3600)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(seen).toHaveLength(1)
  })

  it("stops waiting when the call is aborted", async () => {
    script = [{ status: 429, retryAfter: "20" }]
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error("gave up")), 100)
    await expect(client().GET("/api/forms", { signal: controller.signal })).rejects.toThrow("gave up")
    expect(seen).toHaveLength(1)
  })
})
