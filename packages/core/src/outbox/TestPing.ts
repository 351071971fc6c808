/**
 * A test ping: one signed post to a subscription's URL, sent at once and
 * outside the outbox (it is not an event), so a subscriber can check that it
 * receives and verifies qforms' posts.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { SubscriptionTarget } from "./Webhooks.ts"
import { DeliveryConfig } from "./DeliveryConfig.ts"
import * as Sender from "./Sender.ts"
import * as Signatures from "./Signatures.ts"
import * as SsrfGuard from "./SsrfGuard.ts"

/** What the receiver answered to the ping. */
export const PingResult = Schema.Struct({
  ok: Schema.Boolean,
  statusCode: Schema.NullOr(Schema.Int),
  durationMs: Schema.Int,
  error: Schema.NullOr(Schema.String)
}).annotate({ identifier: "PingResult" })
export type PingResult = typeof PingResult.Type

/**
 * Posts `{"event": "webhook.test", ...}` to the subscription's URL, signed
 * with its secret (`webhook-id` starts with `msg_test_`).
 *
 * @example
 * ```ts
 * const result = yield* TestPing.send(yield* webhooks.target(actor, subscriptionId))
 * ```
 */
export const send = Effect.fn("TestPing.send")(function* (target: SubscriptionTarget) {
  const config = yield* DeliveryConfig
  const now = yield* Clock.currentTimeMillis
  const id = `msg_test_${randomBytes(12).toString("base64url")}`
  const body = JSON.stringify({
    event: "webhook.test",
    subscriptionId: target.subscription.id,
    form: { id: target.subscription.formId, title: target.subscription.formTitle },
    subscribedEvent: target.subscription.event,
    sentAt: new Date(now).toISOString()
  })
  const vetted = yield* Effect.result(
    SsrfGuard.vet(target.subscription.targetUrl, { allowPrivate: config.allowPrivateTargets })
  )
  if (Result.isFailure(vetted)) return { ok: false, statusCode: null, durationMs: 0, error: vetted.failure.message }
  const result = yield* Sender.post(
    vetted.success,
    body,
    { ...Signatures.headers(target.secret, id, Math.floor(now / 1000), body) },
    {
      timeoutMs: config.timeoutMs,
      userAgent: config.userAgent
    }
  )
  return {
    ok: result.status !== null && result.status >= 200 && result.status < 300,
    statusCode: result.status,
    durationMs: Math.round(result.durationMs),
    error: result.error
  }
})
