/**
 * Activities: what happened to a response, newest first. A note is an
 * activity of type `note` (see `Notes.ts`).
 */
import type * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { Actors, ResponseNotFound } from "../kernel/index.ts"
import { AnswerValue } from "../forms/index.ts"
import { StoredJson } from "../storage/index.ts"

/** The kinds of activity. */
export const ActivityType = Schema.Literals([
  "created",
  "stage_changed",
  "assigned",
  "tags_changed",
  "note",
  "email_sent",
  "email_reply",
  "answers_changed",
  "anonymised",
  "sla_warning",
  "sla_breached",
  "merged",
  "unmerged",
  "status_link_issued",
  "status_link_revoked",
  "case_field_changed"
])
export type ActivityType = typeof ActivityType.Type

/**
 * One thing that happened to a response: `payload` depends on `type`
 * (`created`: `{source}`; `stage_changed`/`assigned`: `{from, to}` ids or
 * null; `tags_changed`: `{from, to, added, removed}`; `note`: `{body}`; `email_sent`:
 * `{emailId, kind, to, subject}`; `email_reply`: `{replyId, from, subject}`; `answers_changed`: `{questions,
 * from, to}`: the labels of the questions whose answers a member changed, and their answers before and after
 * by question id, null for none; `anonymised`: `{olderThanDays}`: the form's retention removed its answers,
 * files, e-mails and the respondent's identity, see `Retention.ts`; `sla_warning`/`sla_breached`: `{target, dueAt}`,
 * a target of the form's SLA is about to be, or was, missed, see `Sla.ts`; `merged`: `{duplicateId, questions, tags}`,
 * a duplicate was merged into the response, with the labels of the questions and the tags it took;
 * `unmerged`: `{duplicateId}`, that merge was undone, see `ResponseMerges.ts`; `status_link_issued`: `{replaced}`, a
 * member issued the respondent's status page link, `replaced` when a live one stopped working;
 * `status_link_revoked`: `{}`, a member revoked the live link, see `StatusLinks.ts`; `case_field_changed`: `{key,
 * label, from, to}`, a member set or cleared a case field, see `CaseFields.ts`).
 */
export const Activity = Schema.Struct({
  id: Schema.Int,
  type: ActivityType,
  actor: Actors.ActivityActor,
  payload: Schema.Record(
    Schema.String,
    Schema.Union([
      Schema.String,
      Schema.Number,
      Schema.Boolean,
      Schema.Null,
      Schema.Array(Schema.String),
      Schema.Record(Schema.String, Schema.NullOr(AnswerValue))
    ])
  ),
  createdAt: Schema.String,
  /** A note that names a person since erased (`Erasure.ts`): when it was flagged for review. Absent otherwise. */
  reviewFlaggedAt: Schema.optionalKey(Schema.String)
})
export type Activity = typeof Activity.Type

/** An activity to write. */
export interface NewActivity {
  readonly type: ActivityType
  readonly payload: Activity["payload"]
}

interface ActivityRow {
  readonly id: number
  readonly type: ActivityType
  /** jsonb: decoded by {@link toActivity}. */
  readonly actor: unknown
  readonly payload: unknown
  readonly created_at: Date
  /** Set on a note flagged for review by an erasure; selected by the case's timeline only. */
  readonly review_flagged_at?: Date | null
}

const decodeActivity = StoredJson.decode(Activity, "a row of activities (actor, payload)")

/** Maps a stored row to an activity, its jsonb actor and payload decoded with the Activity Schema. */
export const toActivity = (row: ActivityRow): Effect.Effect<Activity> =>
  decodeActivity({
    id: row.id,
    type: row.type,
    actor: row.actor,
    payload: row.payload,
    createdAt: row.created_at.toISOString(),
    ...(row.review_flagged_at == null ? {} : { reviewFlaggedAt: row.review_flagged_at.toISOString() })
  })

/**
 * Recording and listing activities.
 *
 * @example
 * ```ts
 * const activities = yield* Activities
 * const timeline = yield* activities.list(actor, responseId)
 * ```
 */
export class Activities extends Context.Service<
  Activities,
  {
    /** Writes activities of one response (inside the caller's transaction); returns them as stored. */
    readonly record: (
      actor: Actors.Actor,
      responseId: number,
      at: Date,
      activities: Arr.NonEmptyReadonlyArray<NewActivity>
    ) => Effect.Effect<ReadonlyArray<Activity>, SqlError.SqlError>
    /**
     * The insert of {@link record} (no `returning`), for a change that writes
     * its activities in a statement of its own making (`activity as (…)`).
     */
    readonly insert: (
      actor: Actors.Actor,
      responseId: number,
      at: Date,
      activities: Arr.NonEmptyReadonlyArray<NewActivity>
    ) => Statement.Fragment
    /** A response's activities, newest first. */
    readonly list: (
      actor: Actors.Actor,
      responseId: number
    ) => Effect.Effect<ReadonlyArray<Activity>, ResponseNotFound | SqlError.SqlError>
    /** A response's activities, newest first, without checking the response exists. */
    readonly listUnchecked: (
      workspaceId: number,
      responseId: number
    ) => Effect.Effect<ReadonlyArray<Activity>, SqlError.SqlError>
  }
>()("@qforms/core/Activities") {
  static readonly layer = Layer.effect(
    Activities,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const insert = (
        actor: Actors.Actor,
        responseId: number,
        at: Date,
        activities: Arr.NonEmptyReadonlyArray<NewActivity>
      ) => sql`
          insert into activities (workspace_id, response_id, type, actor, payload, created_at)
          select ${actor.workspaceId}, ${responseId}, t.type, ${JSON.stringify(Actors.toActivityActor(actor))}::jsonb,
            t.payload::jsonb, ${at}
          from unnest(${activities.map((a) => a.type)}::text[], ${activities.map((a) =>
            JSON.stringify(a.payload)
          )}::text[]) with ordinality as t(type, payload, n)
          order by t.n`

      const record = Effect.fn("Activities.record")(function* (
        actor: Actors.Actor,
        responseId: number,
        at: Date,
        activities: Arr.NonEmptyReadonlyArray<NewActivity>
      ) {
        const rows = yield* sql<ActivityRow>`
          ${insert(actor, responseId, at, activities)}
          returning id, type, actor, payload, created_at`
        return yield* Effect.forEach(rows, toActivity)
      })

      const listUnchecked = Effect.fn("Activities.listUnchecked")(function* (workspaceId: number, responseId: number) {
        const rows = yield* sql<ActivityRow>`
          select id, type, actor, payload, created_at, review_flagged_at from activities
          where workspace_id = ${workspaceId} and response_id = ${responseId}
          order by id desc`
        return yield* Effect.forEach(rows, toActivity)
      })

      const list = Effect.fn("Activities.list")(function* (actor: Actors.Actor, responseId: number) {
        const found = yield* sql`
          select 1 from responses where workspace_id = ${actor.workspaceId} and id = ${responseId}`
        if (found.length === 0) return yield* new ResponseNotFound({ message: `response ${responseId} not found` })
        return yield* listUnchecked(actor.workspaceId, responseId)
      })

      return Activities.of({ record, insert, list, listUnchecked })
    })
  )
}
