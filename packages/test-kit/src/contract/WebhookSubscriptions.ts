/**
 * The HTTP contract: webhook subscriptions.
 */
import { expect } from "vitest"
import { group, hookUrl } from "./Contract.ts"
import { ISO, expectStatus, expectError, softError } from "./Expectations.ts"

export const webhookSubscriptions = group("webhook subscriptions", { transport: false }, (c) => {
  const { api, publishedForm, subscribe, test } = c
  test("POST /webhooks/subscribe → 201 Subscription (with a whsec_ secret, only here); listed by GET /webhooks", async () => {
    const form = await publishedForm("Hooks")
    const reply = await api("POST", "/webhooks/subscribe", {
      body: { formId: form.formId, event: "response.created", targetUrl: hookUrl("created"), source: "zapier" }
    })
    expectStatus(reply, 201)
    expect(reply.body).toMatchObject({
      id: expect.any(String),
      formId: form.formId,
      formTitle: "Hooks",
      event: "response.created",
      targetUrl: hookUrl("created"),
      source: "zapier",
      lastSentAt: null,
      createdAt: expect.stringMatching(ISO)
    })
    expect(reply.body.secret).toMatch(/^whsec_/)
    const stage = await api("POST", "/webhooks/subscribe", {
      body: { formId: form.formId, event: "response.stage_changed", targetUrl: hookUrl("stage") }
    })
    expectStatus(stage, 201)
    expect(stage.body).toMatchObject({ event: "response.stage_changed", formTitle: "Hooks", lastSentAt: null })
    expect(stage.body.source).toBeTypeOf("string")
    expect(stage.body.id).not.toBe(reply.body.id)
    const list = await api("GET", "/webhooks")
    expectStatus(list, 200)
    expect(Array.isArray(list.body)).toBe(true)
    const listed = list.body.find((s: { id: string }) => s.id === reply.body.id)
    const { secret: _secret, ...withoutSecret } = reply.body
    expect(listed).toMatchObject(withoutSecret)
    for (const subscription of list.body) expect(subscription).not.toHaveProperty("secret")
    expect(list.body.map((s: { id: string }) => s.id)).toContain(stage.body.id)
    const other = await api("GET", "/webhooks", { key: c.seed.keys.other })
    expectStatus(other, 200)
    expect(other.body.map((s: { id: string }) => s.id)).not.toContain(reply.body.id)
  })

  test("DELETE /webhooks/subscribe/{id} → 204, again → 404", async () => {
    const form = await publishedForm("Unsubscribe")
    const subscription = await subscribe(form.formId)
    const reply = await api("DELETE", `/webhooks/subscribe/${encodeURIComponent(subscription.id)}`)
    expectStatus(reply, 204)
    expect(reply.text).toBe("")
    expectError(await api("DELETE", `/webhooks/subscribe/${encodeURIComponent(subscription.id)}`), 404)
    expect((await api("GET", "/webhooks")).body.map((s: { id: string }) => s.id)).not.toContain(subscription.id)
    expectError(await api("DELETE", "/webhooks/subscribe/no-such-subscription"), 404)
    expectError(await api("DELETE", "/webhooks/subscribe/987654"), 404)
  })

  test("400 for an unknown event, a malformed URL, limits, missing fields and wrong types", async () => {
    const form = await publishedForm("Bad hooks")
    const valid = { formId: form.formId, event: "response.created", targetUrl: hookUrl() }
    const cases: ReadonlyArray<readonly [object, string]> = [
      [{ ...valid, event: "response.exploded" }, "event"],
      [{ ...valid, targetUrl: "not a url" }, "targetUrl"],
      [{ ...valid, targetUrl: "ftp://x.example" }, "targetUrl"],
      [{ ...valid, targetUrl: hookUrl("a".repeat(2001 - hookUrl("").length)) }, "targetUrl"],
      [{ ...valid, source: "s".repeat(41) }, "source"],
      [{ event: valid.event, targetUrl: valid.targetUrl }, "formId"],
      [{ formId: valid.formId, targetUrl: valid.targetUrl }, "event"],
      [{ formId: valid.formId, event: valid.event }, "targetUrl"],
      [{ ...valid, formId: "x" }, "formId"],
      [{ ...valid, targetUrl: 5 }, "targetUrl"],
      [{ ...valid, source: 5 }, "source"]
    ]
    expect(hookUrl("a".repeat(2001 - hookUrl("").length))).toHaveLength(2001)
    for (const [body, name] of cases) {
      const reply = await api("POST", "/webhooks/subscribe", { body })
      softError(`${JSON.stringify(body).slice(0, 120)}`, reply, 400, name)
    }
    expect((await api("GET", "/webhooks")).body.filter((s: { formId: number }) => s.formId === form.formId)).toEqual([])
    // At the limits.
    const longUrl = hookUrl("a".repeat(2000 - hookUrl("").length))
    const atLimits = await api("POST", "/webhooks/subscribe", {
      body: { ...valid, targetUrl: longUrl, source: "s".repeat(40) }
    })
    expectStatus(atLimits, 201)
    expect(atLimits.body).toMatchObject({ targetUrl: longUrl, source: "s".repeat(40) })
  })

  test("404 for a form that does not exist", async () => {
    expectError(
      await api("POST", "/webhooks/subscribe", {
        body: { formId: 987654, event: "response.created", targetUrl: hookUrl() }
      }),
      404
    )
  })
})
