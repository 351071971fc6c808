/**
 * Events: the outbox. An event row is written in the same transaction as the
 * change that causes it, with a stable id, so delivery (webhooks, the live
 * stream) can never see a change without its event or the reverse.
 */
import { randomBytes } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { eventsChannel, notifyChannel, StoredJson } from "../storage/index.ts"
import { EventBody, EventName, responseIdOf } from "./EventCatalogue.ts"

/**
 * SQL: whether subscription `s` hears the events of form `formId`: it is the form's own, or it is
 * workspace-wide and keeps every form or names this one.
 *
 * @example
 * ```ts
 * sql`select s.id from webhook_subscriptions s where s.workspace_id = ${workspaceId} and ${hearsForm(sql, formId)}`
 * ```
 */
export const hearsForm = (sql: SqlClient.SqlClient, formId: number): Statement.Fragment =>
  sql`(s.form_id = ${formId} or (s.form_id is null and (s.form_ids is null or ${formId}::integer = any(s.form_ids))))`

export { EventBody, EventName } from "./EventCatalogue.ts"

/**
 * What a subscription's filters read of the response an event is about: its stage (by default the body's)
 * and its tags. An event without them passes only subscriptions without that filter.
 */
export interface EventMatch {
  readonly stageId?: number | null | undefined
  readonly tags?: ReadonlyArray<string> | undefined
}

/** An event in the outbox. `seq` orders a workspace's events as they were written. */
export const OutboxEvent = Schema.Struct({
  id: Schema.String,
  seq: Schema.Int,
  type: EventName,
  formId: Schema.NullOr(Schema.Int),
  responseId: Schema.NullOr(Schema.Int),
  payload: EventBody,
  createdAt: Schema.String
})
export type OutboxEvent = typeof OutboxEvent.Type

interface EventRow {
  readonly id: string
  readonly seq: number
  readonly type: EventName
  readonly form_id: number | null
  readonly response_id: number | null
  /** jsonb: decoded by {@link toEvent}. */
  readonly payload: unknown
  readonly created_at: Date
}

const decodeEvent = StoredJson.decode(OutboxEvent, "a row of events (payload)")

/** A stored event, its jsonb payload decoded with the OutboxEvent Schema. */
const toEvent = (row: EventRow): Effect.Effect<OutboxEvent> =>
  decodeEvent({
    id: row.id,
    seq: row.seq,
    type: row.type,
    formId: row.form_id,
    responseId: row.response_id,
    payload: row.payload,
    createdAt: row.created_at.toISOString()
  })

/** The channel delivery workers LISTEN on; a NOTIFY on it means "deliveries are due". */
export const outboxChannel = "qforms_outbox"

/** The channel live event streams LISTEN on; an event's NOTIFY payload is `<workspaceId>:<seq>`. */
export { eventsChannel } from "../storage/index.ts"

/** A new event id: `evt_` and 22 URL-safe characters (128 random bits). */
export const makeEventId = (): string => `evt_${randomBytes(16).toString("base64url")}`

/**
 * Writing events (inside the change's transaction) and reading them back.
 *
 * @example
 * ```ts
 * const events = yield* Events
 * const pending = yield* events.list(workspaceId, { afterSeq: 0 })
 * ```
 */
export class Events extends Context.Service<
  Events,
  {
    /** Writes an event; call it inside the transaction of the change. Returns the event id. */
    readonly record: (
      workspaceId: number,
      at: Date,
      payload: EventBody,
      match?: EventMatch
    ) => Effect.Effect<string, SqlError.SqlError>
    /**
     * The writes of {@link record} as common table expressions (`event`,
     * `due`, `notify`, `notice`), for a change written in one statement with
     * its event (no explicit transaction then: the statement is one). The
     * statement must read `notice` (`… from notice`), which sends the NOTIFYs.
     *
     * @example
     * ```ts
     * const { ctes } = yield* events.recordWith(workspaceId, now, payload)
     * // the change's own writes go beside the event's, as more expressions of the same `with`
     * yield* sql`with ${ctes}, ${changeWrites} select 1 from notice`
     * ```
     */
    readonly recordWith: (
      workspaceId: number,
      at: Date,
      payload: EventBody,
      match?: EventMatch
    ) => Effect.Effect<{ readonly id: string; readonly ctes: Statement.Fragment }>
    /** One event by its sequence number, if it is still there. */
    readonly get: (workspaceId: number, seq: number) => Effect.Effect<OutboxEvent | undefined, SqlError.SqlError>
    /** A workspace's events in the order they were written, after `afterSeq`. */
    readonly list: (
      workspaceId: number,
      options?: { readonly afterSeq?: number | undefined; readonly limit?: number | undefined }
    ) => Effect.Effect<ReadonlyArray<OutboxEvent>, SqlError.SqlError>
  }
>()("@qforms/core/Events") {
  static readonly layer = Layer.effect(
    Events,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const recordWith = Effect.fn("Events.recordWith")(function* (
        workspaceId: number,
        at: Date,
        payload: EventBody,
        match: EventMatch = {}
      ) {
        const id = yield* Effect.sync(makeEventId)
        const stageId =
          match.stageId !== undefined ? match.stageId : "stage" in payload ? (payload.stage?.id ?? null) : null
        // Filters hold their tags lower-cased.
        const tags = match.tags?.map((tag) => tag.toLowerCase()) ?? null
        // A deleted form's event names no row of forms (it is gone, with its own subscriptions and channels).
        const formRow = payload.event === "form.deleted" ? null : payload.form.id
        // The event, a delivery per matching subscription and notification channel, the notice for live
        // streams, and a wake-up for delivery workers (NOTIFY is sent only if the transaction commits, in
        // commit order). pg_notify is volatile, so `notice` is evaluated once its statement reads it.
        const ctes = sql`
          event as (
            insert into events (id, workspace_id, type, form_id, response_id, payload, created_at)
            values (${id}, ${workspaceId}, ${payload.event}, ${formRow}::integer, ${responseIdOf(payload)},
              ${JSON.stringify(payload)}::jsonb, ${at})
            returning id, seq
          ), due as (
            insert into deliveries (workspace_id, subscription_id, event_id, status, attempts, next_attempt_at,
              created_at, updated_at)
            select ${workspaceId}, s.id, event.id, 'pending', 0, ${at}, ${at}, ${at}
            from event, webhook_subscriptions s
            where s.workspace_id = ${workspaceId} and ${hearsForm(sql, payload.form.id)}
              and ${payload.event} = any(s.events) and s.disabled_at is null
              and (s.stage_ids is null or ${stageId}::integer = any(s.stage_ids))
              and (s.tags is null or s.tags && ${tags}::text[])
            returning 1
          ), notify as (
            insert into deliveries (workspace_id, channel_id, event_id, status, attempts, next_attempt_at,
              created_at, updated_at)
            select ${workspaceId}, c.id, event.id, 'pending', 0, ${at}, ${at}, ${at}
            from event, notification_channels c
            where c.workspace_id = ${workspaceId} and c.form_id = ${payload.form.id} and c.enabled
              and ${payload.event} = any(c.events)
            returning 1
          ), notice as (
            select pg_notify(${notifyChannel(sql, eventsChannel)}, ${workspaceId} || ':' || event.seq) as live,
              case when exists (select 1 from due) or exists (select 1 from notify)
                then pg_notify(${notifyChannel(sql, outboxChannel)}, '') end as wake
            from event
          )`
        return { id, ctes }
      })

      const record = Effect.fn("Events.record")(function* (
        workspaceId: number,
        at: Date,
        payload: EventBody,
        match?: EventMatch
      ) {
        const { id, ctes } = yield* recordWith(workspaceId, at, payload, match)
        yield* sql`with ${ctes} select 1 from notice`
        return id
      })

      const list = Effect.fn("Events.list")(function* (
        workspaceId: number,
        options: { readonly afterSeq?: number | undefined; readonly limit?: number | undefined } = {}
      ) {
        const rows = yield* sql<EventRow>`
          select id, seq, type, form_id, response_id, payload, created_at from events
          where workspace_id = ${workspaceId} and seq > ${options.afterSeq ?? 0}
          order by seq limit ${options.limit ?? 1000}`
        return yield* Effect.forEach(rows, toEvent)
      })

      const get = Effect.fn("Events.get")(function* (workspaceId: number, seq: number) {
        const rows = yield* sql<EventRow>`
          select id, seq, type, form_id, response_id, payload, created_at from events
          where workspace_id = ${workspaceId} and seq = ${seq}`
        return rows.length === 0 ? undefined : yield* toEvent(rows[0]!)
      })

      return Events.of({ record, recordWith, list, get })
    })
  )
}
