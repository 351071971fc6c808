/**
 * A test ping: one signed post to a subscription's URL, sent at once and
 * outside the outbox (it is not an event), so a subscriber can check that it
 * receives and verifies qforms' posts: a `ping`, or the catalogue's example of
 * a chosen event about the subscription's form, exactly as that event is
 * posted.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { isFormSubscription, type SubscriptionTarget } from "./Webhooks.ts"
import { catalogue, type EventBody, EventName, eventLink, type PingBody } from "../events/index.ts"
import { Links } from "../kernel/index.ts"
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

/** What a test takes (in its query string): the event whose example to send (default: a `ping`). */
export const TestInput = Schema.Struct({
  event: Schema.optionalKey(EventName)
}).annotate({ identifier: "WebhookTestInput" })
export type TestInput = typeof TestInput.Type

/** The subscription's form as events name it; null for a workspace-wide subscription. */
const formOf = (target: SubscriptionTarget) =>
  isFormSubscription(target.subscription)
    ? { id: target.subscription.formId, title: target.subscription.formTitle }
    : null

/**
 * The catalogue's example of `event`, about the subscription's form (its id, title and, for an event about a
 * form, its public id and status), with its `link`. A workspace-wide subscription gets the example's own form.
 */
export const exampleBody = (target: SubscriptionTarget, event: EventName, appUrl: string): string => {
  const example = catalogue.find((entry) => entry.name === event)!.example as EventBody
  const form = formOf(target)
  const body: EventBody =
    form === null
      ? example
      : "publicId" in example.form
        ? ({ ...example, form: { ...example.form, ...form, ...target.form } } as EventBody)
        : ({ ...example, form } as EventBody)
  return JSON.stringify({ ...body, link: eventLink(appUrl, body) })
}

/**
 * Posts a `ping` (or, with `input.event`, that event's example) to the subscription's URL, signed with its
 * secret (`webhook-id` starts with `msg_test_`).
 *
 * @example
 * ```ts
 * const result = yield* TestPing.send(yield* webhooks.target(actor, subscriptionId), { event: "response.tagged" })
 * ```
 */
export const send = Effect.fn("TestPing.send")(function* (target: SubscriptionTarget, input: TestInput = {}) {
  const config = yield* DeliveryConfig
  const now = yield* Clock.currentTimeMillis
  const id = `msg_test_${randomBytes(12).toString("base64url")}`
  const ping: PingBody = {
    event: "ping",
    subscriptionId: target.subscription.id,
    form: formOf(target),
    events: target.subscription.events,
    sentAt: new Date(now).toISOString()
  }
  // Links as the worker builds them (from configuration), or from this request when none is configured.
  const sentBase = yield* Links.SentLinkBase
  const base = sentBase === "" ? yield* Links.LinkBase : sentBase
  const body = input.event === undefined ? JSON.stringify(ping) : exampleBody(target, input.event, base)
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
