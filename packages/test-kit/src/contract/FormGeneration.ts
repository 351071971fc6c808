/**
 * The HTTP contract: form generation.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { expectError, expectField } from "./Expectations.ts"

export const formGeneration = group("form generation", { transport: false }, (c) => {
  const { api, test } = c
  test("POST /v1/forms/generate validates first: missing prompt, prompt over 4000, wrong types → 400", async () => {
    expectError(await api("POST", "/v1/forms/generate", { body: {} }), 400, "prompt")
    expectError(await api("POST", "/v1/forms/generate", { body: { prompt: "p".repeat(4001) } }), 400, "prompt")
    expectError(await api("POST", "/v1/forms/generate", { body: { prompt: 42 } }), 400, "prompt")
    expectError(
      await api("POST", "/v1/forms/generate", { body: { prompt: "A contact form", publish: "yes" } }),
      400,
      "publish"
    )
  })

  test("a valid prompt → 201 FormWithFields, or 502 {error} while no generator is configured", async () => {
    const before = (await api("GET", "/forms")).body.length as number
    const reply = await api("POST", "/v1/forms/generate", {
      body: { prompt: "A contact form with name and email", publish: true }
    })
    expect([201, 502], reply.text.slice(0, 300)).toContain(reply.status)
    if (reply.status === 201) {
      expect(reply.body).toMatchObject({
        id: expect.any(Number),
        publicId: expect.any(String),
        title: expect.any(String),
        status: "published"
      })
      reply.body.fields.forEach(expectField)
      expect(reply.body.fields.length).toBeGreaterThan(0)
    } else {
      expectError(reply, 502)
      expect((await api("GET", "/forms")).body.length).toBe(before)
    }
    const atLimit = await api("POST", "/v1/forms/generate", { body: { prompt: "p".repeat(4000) } })
    expect([201, 502], atLimit.text.slice(0, 300)).toContain(atLimit.status)
    if (atLimit.status === 201) expect(atLimit.body.status).toBe("draft")
    else expectError(atLimit, 502)
  })
})
