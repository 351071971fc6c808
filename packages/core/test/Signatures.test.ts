import { Clock, Effect } from "effect"
import { Webhook, WebhookVerificationError } from "standardwebhooks"
import { describe, expect, it } from "vitest"
import { generateSecret, headers, secretKey, sign } from "../src/deliveries/Signatures.ts"

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
const nowSeconds = () => Math.floor(Effect.runSync(Clock.currentTimeMillis) / 1000)

describe("Signatures.sign", () => {
  it("matches the Standard Webhooks reference vector", () => {
    expect(sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    )
  })

  it.each([
    ["ascii body", "evt_1", 1700000000, '{"a":1}'],
    ["unicode body", "evt_ü", 1700000001, '{"name":"Zoë 🚀"}'],
    ["empty body", "evt_2", 1, ""]
  ])("equals the standardwebhooks package's own signature (%s)", (_name, id, ts, body) => {
    expect(sign(secret, id, ts, body)).toBe(new Webhook(secret).sign(id, new Date(ts * 1000), body))
  })

  it("uses the base64-decoded key and accepts a bare base64 secret", () => {
    expect(secretKey("whsec_AAEC")).toEqual(Buffer.from([0, 1, 2]))
    expect(sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "m", 5, "b")).toBe(sign(secret, "m", 5, "b"))
  })

  it("floors fractional timestamps", () => {
    expect(sign(secret, "m", 1700000000.9, "b")).toBe(sign(secret, "m", 1700000000, "b"))
  })
})

describe("Signatures.headers", () => {
  it("verifies with standardwebhooks Webhook.verify", () => {
    const body = JSON.stringify({ event: "response.submitted", responseId: "r1", answers: { Name: "Ada" } })
    const h = headers(secret, "evt_123", nowSeconds(), body)
    expect(Object.keys(h).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"])
    expect(h["webhook-id"]).toBe("evt_123")
    expect(h["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    expect(new Webhook(secret).verify(body, { ...h })).toEqual(JSON.parse(body))
  })

  it("verifies with a freshly generated secret", () => {
    const fresh = Effect.runSync(generateSecret)
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(secretKey(fresh)).toHaveLength(32)
    const body = '{"ok":true}'
    expect(new Webhook(fresh).verify(body, { ...headers(fresh, "evt_9", nowSeconds(), body) })).toEqual({ ok: true })
  })

  it.each([
    ["a tampered body", (h: Record<string, string>) => ({ body: '{"event":"x","n":2}', h })],
    [
      "a tampered timestamp",
      (h: Record<string, string>) => ({
        body: '{"event":"x","n":1}',
        h: { ...h, "webhook-timestamp": String(Number(h["webhook-timestamp"]) - 1) }
      })
    ],
    [
      "a tampered id",
      (h: Record<string, string>) => ({ body: '{"event":"x","n":1}', h: { ...h, "webhook-id": "evt_other" } })
    ],
    [
      "another secret",
      (h: Record<string, string>) => ({
        body: '{"event":"x","n":1}',
        h: {
          ...h,
          ...headers(
            "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "evt_1",
            Number(h["webhook-timestamp"]),
            '{"event":"x","n":1}'
          )
        }
      })
    ]
  ])("fails verification with %s", (_name, tamper) => {
    const body = '{"event":"x","n":1}'
    const { body: sent, h } = tamper({ ...headers(secret, "evt_1", nowSeconds(), body) })
    expect(() => new Webhook(secret).verify(sent, h)).toThrow(WebhookVerificationError)
  })

  it("a signature made too long ago is refused by the verifier", () => {
    const body = "{}"
    expect(() => new Webhook(secret).verify(body, { ...headers(secret, "evt_1", nowSeconds() - 3600, body) })).toThrow(
      "Message timestamp too old"
    )
  })
})
