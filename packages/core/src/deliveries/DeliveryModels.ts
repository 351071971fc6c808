/**
 * What deliveries are, as the API, the worker and the other contexts see
 * them: a delivery and its attempts, the delivery log, dead letters and their
 * replay, where a claimed delivery goes and how an attempt ended, and the
 * newest-first paging the logs share. The service is `Deliveries.ts`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Id, InvalidInput, maxId } from "../kernel/index.ts"
import { type EventBody, EventName, type SpecEventBody } from "../events/index.ts"
import type { Field } from "../forms/index.ts"
import type { ChannelType } from "./FormNotifications.ts"

/**
 * Why a subscription was disabled after `count` deliveries in a row gave up.
 *
 * @example
 * ```ts
 * failuresReason(10) // "10 deliveries in a row gave up"
 * ```
 */
export const failuresReason = (count: number): string => `${count} deliveries in a row gave up`

/** Why a subscription is disabled when its receiver answered 410 Gone (`disabledReason`). */
export const goneReason = "the receiver answered 410 Gone"

/** Where a delivery stands. */
export const DeliveryStatus = Schema.Literals(["pending", "succeeded", "failed", "retrying"])
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One attempt to post a delivery. */
export const DeliveryAttempt = Schema.Struct({
  at: Schema.String,
  statusCode: Schema.NullOr(Schema.Int),
  durationMs: Schema.Int,
  error: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DeliveryAttempt" })
export type DeliveryAttempt = typeof DeliveryAttempt.Type

/** A delivery as the log shows it. `eventId` is the `webhook-id` header: the receiver's idempotency key. */
export const Delivery = Schema.Struct({
  id: Schema.Int,
  eventId: Schema.String,
  event: EventName,
  responseId: Schema.NullOr(Schema.Int),
  status: DeliveryStatus,
  attempts: Schema.Array(DeliveryAttempt),
  nextAttemptAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}).annotate({ identifier: "Delivery" })
export type Delivery = typeof Delivery.Type

/** A page of the delivery log, newest first. */
export const DeliveryLog = Schema.Struct({
  deliveries: Schema.Array(Delivery),
  nextCursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DeliveryLog" })
export type DeliveryLog = typeof DeliveryLog.Type

/** A webhook delivery that gave up (final status `failed`), with its subscription. */
export const DeadLetter = Schema.Struct({
  ...Delivery.fields,
  subscriptionId: Schema.String,
  formId: Schema.NullOr(Schema.Int).annotate({
    description: "The subscription's form; null for a workspace-wide one."
  }),
  formTitle: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DeadLetter" })
export type DeadLetter = typeof DeadLetter.Type

/** A page of the workspace's dead letters, newest first. */
export const DeadLetterList = Schema.Struct({
  deliveries: Schema.Array(DeadLetter),
  nextCursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DeadLetterList" })
export type DeadLetterList = typeof DeadLetterList.Type

/** Most dead letters one bulk replay queues. */
export const maxReplay = 500

/**
 * What a bulk replay takes: the ids of dead letters (1 to 100), or a
 * subscription whose dead letters are all replayed (the oldest
 * {@link maxReplay}; `more` then says some are left).
 */
export const ReplayDeadLettersInput = Schema.Struct({
  deliveryIds: Schema.optionalKey(
    Schema.Array(Id).check(
      Schema.isMinLength(1, { message: "deliveryIds must name 1 to 100 deliveries" }),
      Schema.isMaxLength(100, { message: "deliveryIds must name 1 to 100 deliveries" })
    )
  ).annotate({ description: "Dead letters to replay." }),
  subscriptionId: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100))).annotate({
    description: `Replays every dead letter of this subscription (at most ${maxReplay} at a time, oldest first).`
  })
}).annotate({ identifier: "ReplayDeadLetters" })
export type ReplayDeadLettersInput = typeof ReplayDeadLettersInput.Type

/** What a bulk replay did. */
export const ReplayResult = Schema.Struct({
  replayed: Schema.Array(Schema.Int).annotate({ description: "The deliveries due again now (same `webhook-id`)." }),
  skipped: Schema.Array(Schema.Int).annotate({
    description:
      "Named deliveries not replayed: not a dead letter of this workspace, or its subscription is disabled (re-enable it first)."
  }),
  more: Schema.Boolean.annotate({ description: `With \`subscriptionId\`: more than ${maxReplay} were waiting.` })
}).annotate({ identifier: "ReplayResult" })
export type ReplayResult = typeof ReplayResult.Type

/**
 * The id a page of a newest-first list (a delivery log, the dead letters, the
 * alerts) starts below: its `cursor`, the last id of the page before.
 *
 * @example
 * ```ts
 * const before = yield* cursorBefore("120") // 120; "abc" fails with InvalidInput
 * ```
 */
export const cursorBefore = (cursor: string | undefined): Effect.Effect<number | undefined, InvalidInput> => {
  const before = cursor === undefined ? undefined : Number(cursor)
  return before !== undefined && (!Number.isSafeInteger(before) || before <= 0 || before > maxId)
    ? Effect.fail(new InvalidInput({ message: "cursor: not a cursor from this list" }))
    : Effect.succeed(before)
}

/**
 * A page of a newest-first list read with one row more than `limit`: the rows shown, and the cursor of the
 * next page (the last shown id) when that extra row came back.
 *
 * @example
 * ```ts
 * const { shown, nextCursor } = newestFirstPage(rows, 50) // rows read with `limit 51`
 * ```
 */
export const newestFirstPage = <R extends { readonly id: number }>(rows: ReadonlyArray<R>, limit: number) => {
  const shown = rows.slice(0, limit)
  return { shown, nextCursor: rows.length > limit ? String(shown[shown.length - 1]!.id) : null }
}

/** No such delivery in this workspace. */
export class DeliveryNotFound extends Schema.TaggedError<DeliveryNotFound>()("DeliveryNotFound", {
  message: Schema.String
}) {}

/**
 * A stored e-mail a delivery sends: one to a respondent (`response_emails`,
 * see `RespondentEmails.ts`) or a member's digest (`digest_emails`, see
 * `insights/Digests.ts`), or a webhook failure alert to an owner or admin
 * (`alert_emails`, see `WebhookAlerts.ts`).
 */
export type StoredMail =
  | { readonly emailId: number }
  | { readonly digestId: number }
  | { readonly alertEmailId: number }

/**
 * Where a claimed delivery goes: a webhook subscription's URL, a form's
 * notification channel (formatted per channel type when it is sent), or a
 * stored e-mail's recipient.
 */
export type DeliveryTarget =
  | {
      readonly kind: "webhook"
      /** The event's id: the `webhook-id` header. */
      readonly eventId: string
      readonly payload: EventBody
      readonly subscriptionId: string
      readonly url: string
      readonly secret: string
    }
  | {
      readonly kind: "channel"
      readonly eventId: string
      /** Channels take the contract's two events only (`FormNotifications.ChannelEvents`). */
      readonly payload: SpecEventBody
      readonly channelId: string
      readonly channelType: ChannelType
      /** The webhook-style types' URL; null for `email`. */
      readonly url: string | null
      /** The `email` type's recipients; empty otherwise. */
      readonly to: ReadonlyArray<string>
      readonly secret: string
      /** The form's questions as they are now (for question order). */
      readonly fields: ReadonlyArray<Field>
    }
  | {
      /** A stored e-mail: to a respondent, or a member's digest. */
      readonly kind: "email"
      readonly mail: StoredMail
      readonly to: string
      readonly subject: string
      readonly text: string
      readonly html: string
      /** Where replies go; null when none are received (a digest, or replies not configured). */
      readonly replyTo: string | null
      readonly messageId: string
      /** Headers of its own: a digest's one-click unsubscribe (`List-Unsubscribe`, RFC 8058). */
      readonly headers?: Readonly<Record<string, string>> | undefined
    }

/** A delivery a worker has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly id: number
  readonly workspaceId: number
  readonly attempts: number
  readonly createdAt: Date
  readonly target: DeliveryTarget
}

/** How an attempt ended, as the worker decided. */
export interface AttemptOutcome {
  readonly at: Date
  readonly statusCode: number | null
  readonly durationMs: number
  readonly error: string | null
  readonly responseBody: string | null
  /** `succeeded`/`failed` end the delivery; `retrying` sets `nextAttemptAt`. */
  readonly status: "succeeded" | "failed" | "retrying"
  readonly nextAttemptAt: Date | null
  /** Set when the receiver asked to stop (410 Gone): the subscription is disabled with this reason. */
  readonly disableSubscription?: string | undefined
}
