/**
 * Deliveries: one per (event, subscription), written with the event (see
 * `Events.ts`). Workers claim due deliveries with a lease, post them, and
 * record each attempt; the delivery log shows them to the subscriber.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { Actors, Conflict, type Forbidden, InvalidInput } from "../kernel/index.ts"
import { type EventBody, type EventName, Events, outboxChannel, type SpecEventBody } from "../events/index.ts"
import { notifyChannel } from "../storage/index.ts"
import type { Field } from "../forms/index.ts"
import { ChannelNotFound, type ChannelType } from "./FormNotifications.ts"
import { SubscriptionNotFound } from "./Webhooks.ts"
import { DeliveryConfig } from "./DeliveryConfig.ts"
import * as SensitiveEvents from "./SensitiveEvents.ts"

import {
  failuresReason,
  type DeliveryStatus,
  type Delivery,
  type DeliveryLog,
  type DeadLetter,
  type DeadLetterList,
  maxReplay,
  type ReplayDeadLettersInput,
  type ReplayResult,
  cursorBefore,
  newestFirstPage,
  DeliveryNotFound,
  type StoredMail,
  type ClaimedDelivery,
  type AttemptOutcome
} from "./DeliveryModels.ts"
export * from "./DeliveryModels.ts"

/** The columns of `deliveries` that name a stored e-mail: one of them set, or neither. */
const mailColumns = (mail: StoredMail | null) => ({
  email_id: mail !== null && "emailId" in mail ? mail.emailId : null,
  digest_id: mail !== null && "digestId" in mail ? mail.digestId : null,
  alert_email_id: mail !== null && "alertEmailId" in mail ? mail.alertEmailId : null
})

/**
 * A digest's headers: one-click unsubscribe (RFC 8058: mail providers post to
 * the link without opening it), and the mark of an automatic message.
 */
const unsubscribeHeaders = (url: string): Readonly<Record<string, string>> => ({
  "List-Unsubscribe": `<${url}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  "Auto-Submitted": "auto-generated"
})

interface DeliveryRow {
  readonly id: number
  readonly event_id: string
  readonly type: EventName
  readonly response_id: number | null
  readonly status: DeliveryStatus
  readonly next_attempt_at: Date | null
  readonly created_at: Date
  readonly attempts: ReadonlyArray<{
    readonly at: string
    readonly statusCode: number | null
    readonly durationMs: number
    readonly error: string | null
  }> | null
}

// PostgreSQL text (and jsonb) cannot hold NUL; a receiver's body may contain one.
const withoutNul = (text: string | null): string | null => (text === null ? null : text.replaceAll("\u0000", "\uFFFD"))

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  eventId: row.event_id,
  event: row.type,
  responseId: row.response_id,
  status: row.status,
  attempts: (row.attempts ?? []).map((attempt) => ({
    at: new Date(attempt.at).toISOString(),
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    error: attempt.error
  })),
  nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString()
})

/**
 * The delivery log, redelivery, and what workers use to claim and complete
 * deliveries.
 *
 * @example
 * ```ts
 * const log = yield* (yield* Deliveries).list(actor, subscriptionId, { limit: 50 })
 * ```
 */
export class Deliveries extends Context.Service<
  Deliveries,
  {
    /** A subscription's deliveries, newest first, with their attempts. */
    readonly list: (
      actor: Actors.Actor,
      subscriptionId: string,
      options?: { readonly limit?: number | undefined; readonly cursor?: string | undefined }
    ) => Effect.Effect<DeliveryLog, SubscriptionNotFound | InvalidInput | SqlError.SqlError>
    /** A form's notification channel's deliveries, newest first, with their attempts. */
    readonly listChannel: (
      actor: Actors.Actor,
      formId: number,
      channelId: string,
      options?: { readonly limit?: number | undefined; readonly cursor?: string | undefined }
    ) => Effect.Effect<DeliveryLog, ChannelNotFound | InvalidInput | SqlError.SqlError>
    /**
     * Makes a webhook delivery (or, with `channelId`, one of that notification
     * channel's) due now again (same event id, so the same `webhook-id`). Any
     * other delivery is not found; an e-mail channel's delivery that was sent
     * is a {@link Conflict} (an e-mail is never sent twice).
     */
    readonly retry: (
      actor: Actors.Actor,
      deliveryId: number,
      scope?: { readonly channelId?: string | undefined }
    ) => Effect.Effect<Delivery, DeliveryNotFound | Conflict | Forbidden | SqlError.SqlError>
    /**
     * Queues the delivery of a stored e-mail (to a respondent, or a digest),
     * due at `at`, and wakes the workers once the caller's transaction commits.
     */
    readonly queueMail: (workspaceId: number, mail: StoredMail, at: Date) => Effect.Effect<void, SqlError.SqlError>
    /** The workspace's webhook deliveries that gave up, newest first, optionally of one subscription. */
    readonly deadLetters: (
      actor: Actors.Actor,
      options?: {
        readonly subscriptionId?: string | undefined
        readonly limit?: number | undefined
        readonly cursor?: string | undefined
      }
    ) => Effect.Effect<DeadLetterList, SubscriptionNotFound | InvalidInput | SqlError.SqlError>
    /**
     * Makes dead letters due now again, like {@link retry} (owners and admins).
     * A disabled subscription's are not replayed: re-enable it first (a
     * replay never re-enables it).
     */
    readonly replayDeadLetters: (
      actor: Actors.Actor,
      input: ReplayDeadLettersInput
    ) => Effect.Effect<ReplayResult, SubscriptionNotFound | Conflict | InvalidInput | Forbidden | SqlError.SqlError>
    /** Claims up to `limit` due deliveries for `leaseMs` (worker use; all workspaces). */
    readonly claim: (options: {
      readonly limit: number
      readonly leaseMs: number
    }) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, SqlError.SqlError>
    /**
     * Records finished attempts and their outcomes, all in one statement (one
     * commit for the batch; worker use): an attempt row each, the deliveries'
     * new status, and per subscription its `lastSentAt` and, after a 410, its
     * disabling.
     */
    readonly complete: (
      finished: ReadonlyArray<{ readonly delivery: ClaimedDelivery; readonly outcome: AttemptOutcome }>
    ) => Effect.Effect<void, SqlError.SqlError>
    /** When the next delivery falls due, if any is waiting (worker use). */
    readonly nextDueAt: Effect.Effect<Date | undefined, SqlError.SqlError>
  }
>()("@qforms/core/Deliveries") {
  static readonly layer = Layer.effect(
    Deliveries,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const events = yield* Events

      /** A subscription of the actor's workspace (whether it is disabled), or `SubscriptionNotFound`. */
      const subscriptionExists = Effect.fnUntraced(function* (actor: Actors.Actor, subscriptionId: string) {
        const found = yield* sql<{ readonly disabled: boolean }>`
          select disabled_at is not null as disabled from webhook_subscriptions
          where workspace_id = ${actor.workspaceId} and id = ${subscriptionId}`
        if (found[0] === undefined) {
          return yield* new SubscriptionNotFound({ message: `subscription ${subscriptionId} not found` })
        }
        return found[0]
      })

      // A delivery `d` of event `e` as the logs show it, its attempts included.
      const deliveryColumns = sql`d.id, d.event_id, e.type, e.response_id, d.status, d.next_attempt_at, d.created_at,
        (select json_agg(json_build_object('at', a.attempted_at, 'statusCode', a.status_code,
            'durationMs', a.duration_ms, 'error', a.error) order by a.id)
         from delivery_attempts a where a.delivery_id = d.id) as attempts`

      const selectDeliveries = (where: ReturnType<typeof sql.and>, limit: number) =>
        sql<DeliveryRow>`
          select ${deliveryColumns}
          from deliveries d join events e on e.id = d.event_id
          where ${where}
          order by d.id desc
          limit ${limit}`

      const page = Effect.fnUntraced(function* (
        actor: Actors.Actor,
        target: Statement.Fragment,
        options: { readonly limit?: number | undefined; readonly cursor?: string | undefined }
      ) {
        const before = yield* cursorBefore(options.cursor)
        const limit = options.limit ?? 50
        const conditions = [sql`d.workspace_id = ${actor.workspaceId}`, target]
        if (before !== undefined) conditions.push(sql`d.id < ${before}`)
        const { shown, nextCursor } = newestFirstPage(yield* selectDeliveries(sql.and(conditions), limit + 1), limit)
        return { deliveries: shown.map(toDelivery), nextCursor }
      })

      const list = Effect.fn("Deliveries.list")(function* (
        actor: Actors.Actor,
        subscriptionId: string,
        options: { readonly limit?: number | undefined; readonly cursor?: string | undefined } = {}
      ) {
        yield* subscriptionExists(actor, subscriptionId)
        return yield* page(actor, sql`d.subscription_id = ${subscriptionId}`, options)
      })

      const listChannel = Effect.fn("Deliveries.listChannel")(function* (
        actor: Actors.Actor,
        formId: number,
        channelId: string,
        options: { readonly limit?: number | undefined; readonly cursor?: string | undefined } = {}
      ) {
        const found = yield* sql`
          select 1 from notification_channels
          where workspace_id = ${actor.workspaceId} and form_id = ${formId} and id = ${channelId}`
        if (found.length === 0) {
          return yield* new ChannelNotFound({
            message: `notification channel ${channelId} not found in form ${formId}`
          })
        }
        return yield* page(actor, sql`d.channel_id = ${channelId}`, options)
      })

      const retry = Effect.fn("Deliveries.retry")(function* (
        actor: Actors.Actor,
        deliveryId: number,
        scope: { readonly channelId?: string | undefined } = {}
      ) {
        yield* Actors.requireAdmin(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        // Only a delivery of the kind asked for is retried: a webhook's (the default), or one of this
        // channel's; never an e-mail to a respondent (it has no event and is sent once).
        const target =
          scope.channelId === undefined ? sql`d.subscription_id is not null` : sql`d.channel_id = ${scope.channelId}`
        const found = yield* sql<{ readonly sent_email: boolean }>`
          select d.status = 'succeeded' and coalesce(c.type = 'email', false) as sent_email
          from deliveries d left join notification_channels c on c.id = d.channel_id
          where d.workspace_id = ${actor.workspaceId} and d.id = ${deliveryId} and d.event_id is not null and ${target}`
        if (found[0] === undefined) return yield* new DeliveryNotFound({ message: `delivery ${deliveryId} not found` })
        const sentEmail = new Conflict({
          message: `delivery ${deliveryId} is an e-mail that was sent; it is not sent twice`
        })
        if (found[0].sent_email) return yield* sentEmail
        const updated = yield* sql`
          with due as (
            update deliveries d set status = case when d.status = 'pending' then 'pending' else 'retrying' end,
              next_attempt_at = ${now}, lease_until = null, updated_at = ${now}
            where d.workspace_id = ${actor.workspaceId} and d.id = ${deliveryId} and d.event_id is not null and ${target}
              and not (d.status = 'succeeded' and exists (
                select 1 from notification_channels c where c.id = d.channel_id and c.type = 'email'))
            returning d.id
          )
          select pg_notify(${notifyChannel(sql, outboxChannel)}, ''), id from due`
        // Sent between the check and the update.
        if (updated.length === 0) return yield* sentEmail
        const rows = yield* selectDeliveries(
          sql.and([sql`d.workspace_id = ${actor.workspaceId}`, sql`d.id = ${deliveryId}`]),
          1
        )
        // Its subscription or channel deleted meanwhile (the delivery went with it).
        if (rows[0] === undefined) return yield* new DeliveryNotFound({ message: `delivery ${deliveryId} not found` })
        return toDelivery(rows[0])
      })

      // The claim commits without waiting for its WAL flush (synchronous_commit
      // off for this statement's transaction only): a claim lost in a database
      // crash leaves the delivery due, so it is delivered again (at least once
      // holds), and the attempt's record, which commits synchronously, flushes
      // the WAL up to it. Posting starts one flush sooner.
      const claim = Effect.fn("Deliveries.claim")(function* (options: {
        readonly limit: number
        readonly leaseMs: number
      }) {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql<{
          readonly id: number
          readonly workspace_id: number
          readonly subscription_id: string | null
          readonly channel_id: string | null
          readonly email_id: number | null
          readonly digest_id: number | null
          readonly alert_email_id: number | null
          readonly event_id: string | null
          readonly attempts: number
          readonly target_url: string | null
          readonly secret: string | null
          readonly channel_type: ChannelType | null
          readonly channel_config: {
            readonly url?: string
            readonly to?: ReadonlyArray<string>
            readonly includeSensitive?: boolean
          } | null
          readonly channel_secret: string | null
          readonly fields: ReadonlyArray<Field> | null
          readonly webhook_fields: ReadonlyArray<Field> | null
          readonly payload: EventBody | null
          readonly created_at: Date
          readonly to_address: string | null
          readonly subject: string | null
          readonly text: string | null
          readonly html: string | null
          readonly reply_to: string | null
          readonly message_id: string | null
          readonly unsubscribe_url: string | null
        }>`
          with claimed as (
            update deliveries set lease_until = ${new Date(now + options.leaseMs)}, attempts = attempts + 1,
              updated_at = ${new Date(now)}
            where id in (
              select id from deliveries
              where next_attempt_at <= ${new Date(now)} and (lease_until is null or lease_until < ${new Date(now)})
              order by next_attempt_at, id
              limit ${options.limit}
              for update skip locked
            )
            returning id, workspace_id, subscription_id, channel_id, email_id, digest_id, alert_email_id, event_id,
              attempts, created_at
          )
          select c.id, c.workspace_id, c.subscription_id, c.channel_id, c.email_id, c.digest_id, c.alert_email_id,
            c.event_id, c.attempts,
            s.target_url, s.secret,
            n.type as channel_type, n.config as channel_config, n.secret as channel_secret,
            case when n.id is not null then (
              select coalesce(json_agg(json_build_object('id', f.id, 'type', f.type, 'label', f.label,
                'required', f.required, 'position', f.position, 'options', f.options, 'sensitive', f.sensitive)
                order by f.position, f.id), '[]')
              from fields f where f.form_id = n.form_id
            ) end as fields,
            case when s.id is not null and not s.include_sensitive then (
              select case when bool_or(f.sensitive) then json_agg(json_build_object('id', f.id, 'type', f.type,
                'label', f.label, 'position', f.position, 'sensitive', f.sensitive) order by f.position, f.id) end
              from fields f
              where f.workspace_id = c.workspace_id and f.form_id = (e.payload->'form'->>'id')::integer
            ) end as webhook_fields,
            e.payload, c.created_at,
            coalesce(m.to_address, g.to_address, x.to_address) as to_address,
            coalesce(m.subject, g.subject, x.subject) as subject,
            coalesce(m.text, g.text, x.text) as text, coalesce(m.html, g.html, x.html) as html, m.reply_to,
            coalesce(m.message_id, g.message_id, x.message_id) as message_id, g.unsubscribe_url
          from claimed c
          left join webhook_subscriptions s on s.id = c.subscription_id
          left join notification_channels n on n.id = c.channel_id
          left join response_emails m on m.id = c.email_id
          left join digest_emails g on g.id = c.digest_id
          left join alert_emails x on x.id = c.alert_email_id
          left join events e on e.id = c.event_id
          cross join (select set_config('synchronous_commit', 'off', true)) as relaxed
          order by c.id`
        return rows.map(
          (row): ClaimedDelivery => ({
            id: row.id,
            workspaceId: row.workspace_id,
            attempts: row.attempts,
            createdAt: row.created_at,
            target:
              row.email_id !== null || row.digest_id !== null || row.alert_email_id !== null
                ? {
                    kind: "email",
                    mail:
                      row.email_id !== null
                        ? { emailId: row.email_id }
                        : row.digest_id !== null
                          ? { digestId: row.digest_id }
                          : { alertEmailId: row.alert_email_id! },
                    to: row.to_address!,
                    subject: row.subject!,
                    text: row.text!,
                    html: row.html!,
                    replyTo: row.reply_to,
                    messageId: row.message_id!,
                    headers: row.unsubscribe_url === null ? undefined : unsubscribeHeaders(row.unsubscribe_url)
                  }
                : row.channel_id === null
                  ? {
                      kind: "webhook",
                      eventId: row.event_id!,
                      // Without the answers of sensitive questions unless the subscription allows them.
                      payload:
                        row.webhook_fields === null
                          ? row.payload!
                          : SensitiveEvents.withoutSensitive(row.payload!, row.webhook_fields),
                      subscriptionId: row.subscription_id!,
                      url: row.target_url!,
                      secret: row.secret!
                    }
                  : {
                      kind: "channel",
                      eventId: row.event_id!,
                      // Channels take the contract's events only: their `events` are checked when they are saved.
                      payload: (row.channel_config?.includeSensitive === true
                        ? row.payload
                        : SensitiveEvents.withoutSensitive(row.payload!, row.fields ?? [])) as SpecEventBody,
                      channelId: row.channel_id,
                      channelType: row.channel_type!,
                      url: row.channel_config?.url ?? null,
                      to: row.channel_config?.to ?? [],
                      secret: row.channel_secret!,
                      fields: row.fields ?? []
                    }
          })
        )
      })

      // A stored e-mail's status follows its delivery's, in its own table (`m`: a respondent's e-mail or a
      // digest; `o`: the attempt's outcome).
      const mailStatus = sql`
        status = case o.status when 'succeeded' then 'sent' when 'failed' then 'failed' else 'retrying' end,
        sent_at = case when o.status = 'succeeded' then o.at else m.sent_at end`

      // One statement, so one commit however many attempts it records: the rows
      // travel as one JSON array. A subscription's row is updated once per batch
      // (and not at all when a later time is already there), so completions do
      // not queue on its row lock one commit at a time.
      const complete = Effect.fn("Deliveries.complete")(function* (
        finished: ReadonlyArray<{ readonly delivery: ClaimedDelivery; readonly outcome: AttemptOutcome }>
      ) {
        if (finished.length === 0) return
        const disableAfter = (yield* DeliveryConfig).disableAfterFailures
        const failures = sql`case when sent.succeeded then sent.failed_after
          else s.consecutive_failures + sent.failed_after end`
        const rows = finished.map(({ delivery, outcome }, ord) => ({
          ord,
          delivery_id: delivery.id,
          workspace_id: delivery.workspaceId,
          subscription_id: delivery.target.kind === "webhook" ? delivery.target.subscriptionId : null,
          channel_id: delivery.target.kind === "channel" ? delivery.target.channelId : null,
          ...mailColumns(delivery.target.kind === "email" ? delivery.target.mail : null),
          at: outcome.at.toISOString(),
          status_code: outcome.statusCode,
          duration_ms: Math.round(outcome.durationMs),
          error: withoutNul(outcome.error),
          response_body: withoutNul(outcome.responseBody),
          status: outcome.status,
          next_attempt_at: outcome.nextAttemptAt?.toISOString() ?? null,
          disable: outcome.disableSubscription ?? null
        }))
        // The e-mails to respondents this batch sent: their `email.sent` events commit with their status.
        const sentEmails = new Map(
          rows.flatMap((row) => (row.email_id !== null && row.status === "succeeded" ? [[row.email_id, row.at]] : []))
        )
        const statement = sql`
          with outcome as (
            select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as o(ord integer, delivery_id integer,
              workspace_id integer, subscription_id text, channel_id text, email_id integer, digest_id integer,
              alert_email_id integer,
              at timestamptz, status_code integer, duration_ms integer,
              error text, response_body text, status text, next_attempt_at timestamptz, disable text)
          ), attempt as (
            insert into delivery_attempts (workspace_id, delivery_id, attempted_at, status_code, duration_ms, error,
              response_body)
            select workspace_id, delivery_id, at, status_code, duration_ms, error, response_body
            from outcome order by ord
          ), delivery as (
            update deliveries d set status = o.status, next_attempt_at = o.next_attempt_at, lease_until = null,
              updated_at = o.at
            from outcome o where d.id = o.delivery_id
          ), email_sent as (
            update response_emails m set ${mailStatus} from outcome o where m.id = o.email_id
          ), digest_sent as (
            update digest_emails m set ${mailStatus} from outcome o where m.id = o.digest_id
          ), alert_sent as (
            update alert_emails m set ${mailStatus} from outcome o where m.id = o.alert_email_id
          ), channel_sent as (
            -- "Last sent": the last attempt that got an answer (a status code), not one that never reached the receiver.
            update notification_channels n set last_sent_at = greatest(n.last_sent_at, o.at),
              enabled = n.enabled and not o.gone
            from (
              select channel_id, max(at) filter (where status_code is not null) as at, bool_or(disable is not null) as gone
              from outcome where channel_id is not null group by channel_id
            ) o
            where n.id = o.channel_id
          ), sent as (
            -- The deliveries that gave up after the last one delivered (in this batch) count as failures in a row.
            select subscription_id, max(at) filter (where status_code is not null) as at,
              (array_agg(disable order by ord desc) filter (where disable is not null))[1] as disable,
              max(at) filter (where disable is not null) as disabled_at,
              bool_or(status = 'succeeded') as succeeded,
              count(*) filter (where status = 'failed' and ord > coalesce(last_ok, -1))::int as failed_after,
              max(at) filter (where status = 'failed') as failed_at
            from (
              select *, max(ord) filter (where status = 'succeeded') over (partition by subscription_id) as last_ok
              from outcome where subscription_id is not null
            ) o
            group by subscription_id
          )
          update webhook_subscriptions s set last_sent_at = greatest(s.last_sent_at, sent.at),
            consecutive_failures = ${failures},
            failing_alerted_at = case when sent.succeeded then null else s.failing_alerted_at end,
            disabled_at = coalesce(sent.disabled_at, s.disabled_at,
              case when ${failures} >= ${disableAfter} then sent.failed_at end),
            disabled_reason = coalesce(sent.disable, s.disabled_reason,
              case when ${failures} >= ${disableAfter} then ${failuresReason(disableAfter)} end)
          from sent
          where s.id = sent.subscription_id
            and (s.last_sent_at is null or s.last_sent_at < sent.at or sent.disable is not null
              or sent.failed_after > 0 or (sent.succeeded and s.consecutive_failures > 0))`
        if (sentEmails.size === 0) return yield* statement
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* statement
            const sent = yield* sql<{
              readonly id: number
              readonly workspace_id: number
              readonly response_id: number
              readonly kind: "confirmation" | "message"
              readonly to_address: string
              readonly subject: string
              readonly form_id: number
              readonly title: string
            }>`
              select m.id, m.workspace_id, m.response_id, m.kind, m.to_address, m.subject, f.id as form_id, f.title
              from response_emails m join responses r on r.id = m.response_id join forms f on f.id = r.form_id
              where m.id in ${sql.in([...sentEmails.keys()])} and r.workspace_id = m.workspace_id
              order by m.id`
            for (const email of sent) {
              const at = sentEmails.get(email.id)!
              yield* events.record(email.workspace_id, new Date(at), {
                event: "email.sent",
                form: { id: email.form_id, title: email.title },
                responseId: email.response_id,
                email: { id: email.id, kind: email.kind, to: email.to_address, subject: email.subject },
                sentAt: new Date(at).toISOString()
              })
            }
          })
        )
      })

      // A claimed delivery is not due before its lease runs out.
      const nextDueAt = Effect.map(
        sql<{ readonly at: Date | null }>`
          select min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) as at
          from deliveries where next_attempt_at is not null`,
        (rows) => rows[0]?.at ?? undefined
      )

      const queueMail = Effect.fn("Deliveries.queueMail")(function* (workspaceId: number, mail: StoredMail, at: Date) {
        const { email_id, digest_id, alert_email_id } = mailColumns(mail)
        yield* sql`
          insert into deliveries (workspace_id, email_id, digest_id, alert_email_id, status, attempts, next_attempt_at,
            created_at, updated_at)
          values (${workspaceId}, ${email_id}, ${digest_id}, ${alert_email_id}, 'pending', 0, ${at}, ${at}, ${at})`
        yield* sql`select pg_notify(${notifyChannel(sql, outboxChannel)}, '')`
      })

      const deadLetters = Effect.fn("Deliveries.deadLetters")(function* (
        actor: Actors.Actor,
        options: {
          readonly subscriptionId?: string | undefined
          readonly limit?: number | undefined
          readonly cursor?: string | undefined
        } = {}
      ) {
        const before = yield* cursorBefore(options.cursor)
        if (options.subscriptionId !== undefined) yield* subscriptionExists(actor, options.subscriptionId)
        const limit = options.limit ?? 50
        const conditions = [
          sql`d.workspace_id = ${actor.workspaceId}`,
          sql`d.status = 'failed'`,
          sql`d.subscription_id is not null`
        ]
        if (options.subscriptionId !== undefined) conditions.push(sql`d.subscription_id = ${options.subscriptionId}`)
        if (before !== undefined) conditions.push(sql`d.id < ${before}`)
        const rows = yield* sql<
          DeliveryRow & {
            readonly subscription_id: string
            readonly form_id: number | null
            readonly form_title: string | null
          }
        >`
          select ${deliveryColumns}, d.subscription_id, s.form_id, f.title as form_title
          from deliveries d join events e on e.id = d.event_id
            join webhook_subscriptions s on s.id = d.subscription_id
            left join forms f on f.id = s.form_id
          where ${sql.and(conditions)}
          order by d.id desc
          limit ${limit + 1}`
        const { shown, nextCursor } = newestFirstPage(rows, limit)
        return {
          deliveries: shown.map(
            (row): DeadLetter => ({
              ...toDelivery(row),
              subscriptionId: row.subscription_id,
              formId: row.form_id,
              formTitle: row.form_title
            })
          ),
          nextCursor
        }
      })

      const replayDeadLetters = Effect.fn("Deliveries.replayDeadLetters")(function* (
        actor: Actors.Actor,
        input: ReplayDeadLettersInput
      ) {
        yield* Actors.requireAdmin(actor)
        if ((input.deliveryIds === undefined) === (input.subscriptionId === undefined)) {
          const message = "give either deliveryIds or subscriptionId"
          return yield* new InvalidInput({ message, details: [{ path: "deliveryIds", message }] })
        }
        if (input.subscriptionId !== undefined) {
          const subscription = yield* subscriptionExists(actor, input.subscriptionId)
          if (subscription.disabled) {
            return yield* new Conflict({
              message: `subscription ${input.subscriptionId} is disabled: enable it before replaying its dead letters`
            })
          }
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        const which =
          input.deliveryIds !== undefined
            ? sql`d.id = any(${[...new Set(input.deliveryIds)]}::integer[])`
            : sql`d.subscription_id = ${input.subscriptionId!}`
        // Only dead letters of enabled subscriptions; locked rows are being replayed by another request.
        const replayed = yield* sql<{ readonly id: number; readonly chosen: number }>`
          with chosen as (
            select d.id from deliveries d join webhook_subscriptions s on s.id = d.subscription_id
            where d.workspace_id = ${actor.workspaceId} and d.status = 'failed' and d.event_id is not null
              and s.disabled_at is null and ${which}
            order by d.id
            limit ${maxReplay + 1}
            for update of d skip locked
          ), due as (
            update deliveries d set status = 'retrying', next_attempt_at = ${now}, lease_until = null,
              updated_at = ${now}
            where d.id in (select id from chosen order by id limit ${maxReplay})
            returning d.id
          )
          select id, (select count(*)::int from chosen) as chosen from due order by id`
        if (replayed.length > 0) yield* sql`select pg_notify(${notifyChannel(sql, outboxChannel)}, '')`
        const ids = replayed.map((row) => row.id)
        const chosen = replayed[0]?.chosen ?? 0
        return {
          replayed: ids,
          skipped: (input.deliveryIds ?? []).filter((id, i, all) => !ids.includes(id) && all.indexOf(id) === i),
          more: chosen > maxReplay
        }
      })

      return Deliveries.of({
        list,
        listChannel,
        retry,
        deadLetters,
        replayDeadLetters,
        queueMail,
        claim,
        complete,
        nextDueAt
      })
    })
  ).pipe(Layer.provide([Events.layer]))
}
