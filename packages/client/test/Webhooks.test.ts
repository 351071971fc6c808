/**
 * The webhook helper against the reference implementation of Standard Webhooks (the `standardwebhooks` package)
 * and against qforms' own signer: what either signs, `verifyWebhook` accepts; what `signWebhook` signs, the
 * reference accepts; a wrong secret, a changed body, a stale or future timestamp and missing headers are refused.
 * Then a real event body as qforms builds it (the OpenAPI document's example), typed by its `event`.
 */
import { Webhook } from "standardwebhooks"
import { Api } from "@qforms/core"
import * as OpenApi from "effect/http-api/OpenApi"
import { describe, expect, expectTypeOf, it } from "vitest"
import { type WebhookEvent, signWebhook, verifyWebhook, WebhookVerificationError } from "../src/index.ts"

const secret = `whsec_${Buffer.from("a-32-byte-key-for-the-hmac-test!").toString("base64")}`
const otherSecret = `whsec_${Buffer.from("another-32-byte-key-for-the-test").toString("base64")}`

/** The example bodies of every event, from the OpenAPI document's `webhooks`. */
const examples = () => {
  const document = OpenApi.fromApi(Api.Documented) as unknown as {
    webhooks: Record<string, { post: { requestBody: { content: { "application/json": { example: unknown } } } } }>
  }
  return Object.entries(document.webhooks).map(([name, hook]) => ({
    name,
    body: JSON.stringify(hook.post.requestBody.content["application/json"].example)
  }))
}

describe("verifyWebhook and signWebhook (Standard Webhooks)", () => {
  const now = Date.now()
  const seconds = Math.floor(now / 1000)

  it("accepts what the reference implementation signs, and the reference accepts what it signs", async () => {
    for (const { name, body } of examples()) {
      const id = `msg_${name}`
      const signature = new Webhook(secret).sign(id, new Date(now), body)
      const event = await verifyWebhook(secret, body, {
        "webhook-id": id,
        "webhook-timestamp": String(seconds),
        "webhook-signature": signature
      })
      expect(event.event).toBe(name)
      const ours = await signWebhook(secret, id, seconds, body)
      expect(ours["webhook-signature"]).toBe(signature)
      expect(new Webhook(secret).verify(body, ours)).toEqual(JSON.parse(body))
    }
  })

  it("accepts a Headers object and a list of signatures with one that matches (a rotated secret)", async () => {
    const body = examples()[0]!.body
    const signed = await signWebhook(secret, "msg_1", seconds, body)
    const old = await signWebhook(otherSecret, "msg_1", seconds, body)
    const headers = new Headers({
      ...signed,
      "webhook-signature": `${old["webhook-signature"]} ${signed["webhook-signature"]}`
    })
    await expect(verifyWebhook(secret, body, headers)).resolves.toMatchObject({ event: expect.any(String) })
  })

  it("refuses a wrong secret, a changed body, a stale or future timestamp, missing headers", async () => {
    const body = examples()[0]!.body
    const signed = await signWebhook(secret, "msg_1", seconds, body)
    const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(WebhookVerificationError)
    await refused(verifyWebhook(otherSecret, body, signed))
    await refused(verifyWebhook(secret, `${body} `, signed))
    await refused(verifyWebhook(secret, body, { ...signed, "webhook-id": "msg_2" }))
    await refused(verifyWebhook(secret, body, signed, { now: now + 301_000 }))
    await refused(verifyWebhook(secret, body, signed, { now: now - 301_000 }))
    await expect(verifyWebhook(secret, body, signed, { now: now + 200_000 })).resolves.toBeDefined()
    await refused(verifyWebhook(secret, body, { "webhook-id": "msg_1", "webhook-timestamp": String(seconds) }))
    await refused(verifyWebhook(secret, body, { ...signed, "webhook-signature": "v2,abc" }))
    // The reference refuses the same.
    expect(() => new Webhook(otherSecret).verify(body, signed)).toThrow()
  })

  it("types each event's body by its name", async () => {
    const created = examples().find((e) => e.name === "response.created")!
    const event = await verifyWebhook(secret, created.body, await signWebhook(secret, "msg_1", seconds, created.body))
    if (event.event === "response.created") {
      expectTypeOf(event.responseId).toEqualTypeOf<number>()
      expectTypeOf(event.answers).toEqualTypeOf<{ [key: string]: string }>()
      expect(event.responseId).toEqual(expect.any(Number))
    } else throw new Error(`not response.created: ${event.event}`)
    expectTypeOf<WebhookEvent["event"]>().toEqualTypeOf<
      | "response.created"
      | "response.stage_changed"
      | "response.assigned"
      | "response.tagged"
      | "response.updated"
      | "response.deleted"
      | "response.partial"
      | "response.merged"
      | "response.unmerged"
      | "response.sla_warning"
      | "response.sla_breached"
      | "note.created"
      | "email.sent"
      | "email.opened"
      | "email.replied"
      | "form.published"
      | "form.closed"
      | "form.deleted"
      | "ping"
    >()
  })
})
