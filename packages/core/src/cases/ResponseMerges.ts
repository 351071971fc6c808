/**
 * Merging duplicates: two responses of one form from the same person about
 * the same request become one case. The kept case takes the duplicate's
 * answers to the questions it has none for (its own answers win), its tags,
 * and its activities (notes included), e-mails and replies; the duplicate
 * stays as a pointer (`responses.merged_into`), out of lists, counts and the
 * board. Each merge is recorded in `response_merges` with the ids it moved and
 * the answers and tags it added, so that it can be undone exactly for
 * {@link undoWindowMillis}: only what the merge added leaves the kept case
 * (later changes of members to other parts stay). Both write their activity
 * and event (`response.merged`, `response.unmerged`) in their transaction.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Activities } from "./Activities.ts"
import { Contacts } from "./Contacts.ts"
import {
  Actors,
  Conflict,
  type Forbidden,
  Ids,
  InvalidInput,
  normalizeTags,
  ResponseNotFound,
  SentLinkBase
} from "../kernel/index.ts"
import { type AnswerValue, Forms } from "../forms/index.ts"
import { CaseMail } from "./CaseMail.ts"
import { Events } from "../events/index.ts"
import * as ResponseCounts from "./ResponseCounts.ts"
import { columns, type Row, responseEventFields, searchText } from "./ResponseRows.ts"
import { deriveRespondent } from "./Respondents.ts"

/** How long a merge can be undone: 24 hours. */
export const undoWindowMillis = 24 * 60 * 60 * 1000

/** How many tags a case may carry (as `PATCH /responses/{id}` allows). */
const maxTags = 50

/** What merging takes: the response to merge into the one of the path. */
export const MergeResponsesInput = Schema.Struct({
  duplicateId: Ids.Id.annotate({
    description: "The duplicate: merged into the response of the path, then a pointer to it."
  })
}).annotate({ identifier: "MergeResponses" })
export type MergeResponsesInput = typeof MergeResponsesInput.Type

/** A merge as recorded (`POST /responses/{id}/merge`, `DELETE /responses/{id}/merges/{duplicateId}`). */
export const ResponseMerge = Schema.Struct({
  keptId: Schema.Int,
  duplicateId: Schema.Int,
  answersTaken: Schema.Array(Schema.Int).annotate({
    description: "The ids of the questions whose answers the kept case took from the duplicate (it had none)."
  }),
  tagsTaken: Schema.Array(Schema.String).annotate({ description: "The duplicate's tags the kept case took." }),
  moved: Schema.Struct({ activities: Schema.Int, emails: Schema.Int, replies: Schema.Int }).annotate({
    description: "How many of the duplicate's activities (notes included), e-mails and replies moved to the kept case."
  }),
  mergedAt: Schema.String,
  undoableUntil: Schema.String.annotate({
    description: "Until when `DELETE /responses/{id}/merges/{duplicateId}` undoes it."
  }),
  undoneAt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ResponseMerge" })
export type ResponseMerge = typeof ResponseMerge.Type

interface MergeRow {
  readonly id: number
  readonly kept_id: number
  readonly duplicate_id: number
  readonly activity_ids: ReadonlyArray<number>
  readonly email_ids: ReadonlyArray<number>
  readonly reply_ids: ReadonlyArray<number>
  /** jsonb: the answers taken, by question id. */
  readonly answers_taken: unknown
  readonly tags_taken: ReadonlyArray<string>
  readonly merged_at: Date
  readonly undone_at: Date | null
}

const AnswersTaken = Schema.Record(Schema.String, Schema.Unknown)

const toMerge = (row: MergeRow, answersTaken: Readonly<Record<string, unknown>>): ResponseMerge => ({
  keptId: row.kept_id,
  duplicateId: row.duplicate_id,
  answersTaken: Object.keys(answersTaken).map(Number),
  tagsTaken: row.tags_taken,
  moved: { activities: row.activity_ids.length, emails: row.email_ids.length, replies: row.reply_ids.length },
  mergedAt: row.merged_at.toISOString(),
  undoableUntil: new Date(row.merged_at.getTime() + undoWindowMillis).toISOString(),
  undoneAt: row.undone_at === null ? null : row.undone_at.toISOString()
})

/** A question's answer (not a hidden value, variable or ending): its key is the question's id. */
const isQuestion = (key: string) => /^[1-9][0-9]*$/.test(key)

/** Whether two stored answers are the same value. */
const sameAnswer = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

type MergeErrors = InvalidInput | ResponseNotFound | Forbidden | Conflict | SqlError.SqlError

/**
 * Merging duplicate responses and undoing a merge.
 *
 * @example
 * ```ts
 * const merges = yield* ResponseMerges
 * const merge = yield* merges.merge(actor, 3481, { duplicateId: 3479 }) // 3479 now points to 3481
 * yield* merges.undo(actor, 3481, 3479) // within 24 hours: as before
 * ```
 */
export class ResponseMerges extends Context.Service<
  ResponseMerges,
  {
    /** Merges `input.duplicateId` into `keptId` (both submitted, of one form, neither merged away). */
    readonly merge: (
      actor: Actors.Actor,
      keptId: number,
      input: MergeResponsesInput
    ) => Effect.Effect<ResponseMerge, MergeErrors>
    /** Undoes the merge of `duplicateId` into `keptId` (409 after the window, or when undone already). */
    readonly undo: (
      actor: Actors.Actor,
      keptId: number,
      duplicateId: number
    ) => Effect.Effect<ResponseMerge, MergeErrors>
  }
>()("@qforms/core/ResponseMerges") {
  static readonly layer = Layer.effect(
    ResponseMerges,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const forms = yield* Forms
      const activities = yield* Activities
      const contacts = yield* Contacts
      const emails = yield* CaseMail
      const events = yield* Events
      const { countTags } = yield* ResponseCounts.make

      const decodeTaken = Schema.decodeUnknownEffect(AnswersTaken)

      /** Both rows, locked in the order of their ids (two merges of one pair wait rather than deadlock). */
      const lockPair = Effect.fnUntraced(function* (workspaceId: number, keptId: number, duplicateId: number) {
        const rows = yield* sql<Row>`
          select ${sql.literal(columns)} from responses
          where workspace_id = ${workspaceId} and id = any(${[keptId, duplicateId]}::int[])
          order by id
          for update`
        const kept = rows.find((row) => row.id === keptId)
        const duplicate = rows.find((row) => row.id === duplicateId)
        if (kept === undefined) return yield* new ResponseNotFound({ message: `response ${keptId} not found` })
        if (duplicate === undefined) {
          return yield* new ResponseNotFound({ message: `duplicateId: response ${duplicateId} not found` })
        }
        return { kept, duplicate }
      })

      /** The event of a merge or its undoing: the kept response as it is now. */
      const recordEvent = Effect.fnUntraced(function* (
        workspaceId: number,
        now: Date,
        kept: Row,
        extra:
          | {
              readonly event: "response.merged"
              readonly duplicateId: number
              readonly answersTaken: ReadonlyArray<number>
              readonly tagsTaken: ReadonlyArray<string>
            }
          | { readonly event: "response.unmerged"; readonly duplicateId: number }
      ) {
        const form = yield* sql<{ readonly title: string }>`
          select title from forms where workspace_id = ${workspaceId} and id = ${kept.form_id}`
        const stage =
          kept.stage_id === null
            ? []
            : yield* sql<{ readonly id: number; readonly name: string }>`
                select id, name from stages where workspace_id = ${workspaceId} and id = ${kept.stage_id}`
        const fields = yield* forms.fields(workspaceId, kept.form_id)
        const response = responseEventFields(
          { id: kept.form_id, title: form[0]?.title ?? "" },
          fields,
          kept,
          stage[0] ?? null,
          yield* SentLinkBase
        )
        yield* events.record(workspaceId, now, { ...response, ...extra }, { stageId: kept.stage_id, tags: kept.tags })
      })

      /** Writes the kept case's answers, tags and search text. */
      const rewrite = Effect.fnUntraced(function* (
        workspaceId: number,
        kept: Row,
        answers: Readonly<Record<string, AnswerValue>>,
        tags: ReadonlyArray<string>,
        now: Date
      ) {
        const fields = yield* forms.fields(workspaceId, kept.form_id)
        // The respondent's name and e-mail follow the answers where the answers gave them (as an answer edit's
        // do): a name or address the kept case had from elsewhere (its contact, an API submission) stays.
        const before = deriveRespondent(fields, kept.answers)
        const after = deriveRespondent(fields, answers)
        const email = after.email === before.email ? kept.email : after.email
        const contact =
          email === kept.email || email === null
            ? undefined
            : (yield* contacts.upsertStatement(workspaceId, { email, name: after.name }, now))[0]
        const name = after.name === before.name ? kept.name : (after.name ?? contact?.name ?? null)
        const identity =
          email === kept.email && name === kept.name
            ? sql``
            : sql`name = ${name}, email = ${email},
              ${email === kept.email ? sql`` : sql`contact_id = ${contact?.id ?? null},`}`
        const rows = yield* sql<Row>`
          update responses set
            ${identity}
            answers = ${JSON.stringify(answers)}::jsonb,
            tags = ${tags}::text[],
            search_text = ${searchText(tags, name, email, fields, answers)},
            updated_at = ${now}
          where workspace_id = ${workspaceId} and id = ${kept.id}
          returning ${sql.literal(columns)}`
        return rows[0]!
      })

      const merge = Effect.fn("ResponseMerges.merge")(function* (
        actor: Actors.Actor,
        keptId: number,
        input: MergeResponsesInput
      ) {
        yield* Actors.requireWrite(actor)
        const duplicateId = input.duplicateId
        const now = new Date(yield* Clock.currentTimeMillis)
        const workspaceId = actor.workspaceId
        const refuse = (message: string) =>
          new InvalidInput({ message: `duplicateId: ${message}`, details: [{ path: "duplicateId", message }] })
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            // An unknown id first (404, whatever else is wrong), then the other refusals.
            const { kept, duplicate } = yield* lockPair(workspaceId, keptId, duplicateId)
            if (duplicateId === keptId) {
              return yield* refuse(`response ${keptId} cannot be merged into itself; name another response of its form`)
            }
            if (kept.form_id !== duplicate.form_id) {
              return yield* refuse(
                `response ${duplicateId} is of form ${duplicate.form_id} and response ${keptId} of form ${kept.form_id}; ` +
                  "only responses of the same form merge"
              )
            }
            for (const row of [kept, duplicate]) {
              if (!row.finished)
                return yield* refuse(`response ${row.id} is not submitted yet; only submitted responses merge`)
              if (row.merged_into != null) {
                return yield* refuse(`response ${row.id} was merged into response ${row.merged_into} already`)
              }
            }
            const into = yield* sql<{ readonly id: number }>`
              select id from responses where workspace_id = ${workspaceId} and merged_into = ${duplicateId} limit 1`
            if (into.length > 0) {
              return yield* refuse(
                `responses were merged into response ${duplicateId} (such as ${into[0]!.id}); merge into it instead`
              )
            }
            const taken: Record<string, AnswerValue> = {}
            for (const [key, value] of Object.entries(duplicate.answers)) {
              if (isQuestion(key) && value !== null && kept.answers[key] == null) taken[key] = value
            }
            const tags = normalizeTags([...kept.tags, ...duplicate.tags])
            if (tags.length > maxTags) {
              return yield* refuse(
                `together the responses carry ${tags.length} tags; a response has at most ${maxTags}: remove some first`
              )
            }
            const tagsTaken = tags.slice(kept.tags.length)
            const moved = yield* sql<{ readonly id: number }>`
              update activities set response_id = ${keptId}
              where workspace_id = ${workspaceId} and response_id = ${duplicateId}
              returning id`
            const thread = yield* emails.moveThread(workspaceId, duplicateId, keptId)
            const updated = yield* rewrite(workspaceId, kept, { ...kept.answers, ...taken }, tags, now)
            yield* sql`
              update responses set merged_into = ${keptId}
              where workspace_id = ${workspaceId} and id = ${duplicateId}`
            // The duplicate leaves the form's tag counts (its response count by its trigger: ResponseFold.ts);
            // the kept case's new tags join them.
            yield* countTags(workspaceId, kept.form_id, duplicate.tags, -1)
            yield* countTags(workspaceId, kept.form_id, tagsTaken, 1)
            const recorded = yield* sql<MergeRow>`
              insert into response_merges (workspace_id, kept_id, duplicate_id, activity_ids, email_ids, reply_ids,
                answers_taken, tags_taken, merged_at)
              values (${workspaceId}, ${keptId}, ${duplicateId}, ${moved.map((row) => row.id)}::int[],
                ${thread.emailIds}::int[], ${thread.replyIds}::int[], ${JSON.stringify(taken)}::jsonb,
                ${tagsTaken}::text[], ${now})
              returning *`
            const fields = yield* forms.fields(workspaceId, kept.form_id)
            const answersTaken = Object.keys(taken).map(Number)
            yield* activities.record(actor, keptId, now, [
              {
                type: "merged",
                payload: {
                  duplicateId,
                  questions: fields
                    .filter((field) => taken[String(field.id)] !== undefined)
                    .map((field) => field.label),
                  tags: tagsTaken
                }
              }
            ])
            yield* recordEvent(workspaceId, now, updated, {
              event: "response.merged",
              duplicateId,
              answersTaken,
              tagsTaken
            })
            return toMerge(recorded[0]!, taken)
          })
        )
      })

      const undo = Effect.fn("ResponseMerges.undo")(function* (
        actor: Actors.Actor,
        keptId: number,
        duplicateId: number
      ) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        const workspaceId = actor.workspaceId
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const { kept, duplicate } = yield* lockPair(workspaceId, keptId, duplicateId)
            const found = yield* sql<MergeRow>`
              select * from response_merges
              where workspace_id = ${workspaceId} and kept_id = ${keptId} and duplicate_id = ${duplicateId}
              order by id desc limit 1`
            const record = found[0]
            if (record === undefined) {
              return yield* new ResponseNotFound({
                message: `response ${duplicateId} was never merged into response ${keptId}`
              })
            }
            if (record.undone_at !== null) {
              return yield* new Conflict({
                message: `the merge of response ${duplicateId} into response ${keptId} was undone already (at ${record.undone_at.toISOString()})`
              })
            }
            const until = record.merged_at.getTime() + undoWindowMillis
            if (now.getTime() > until) {
              return yield* new Conflict({
                message:
                  `the merge of response ${duplicateId} into response ${keptId} (at ${record.merged_at.toISOString()}) ` +
                  `could be undone for 24 hours, until ${new Date(until).toISOString()}; it stays merged`
              })
            }
            const taken = yield* Effect.orDie(decodeTaken(record.answers_taken))
            // Only what the merge added leaves: an answer a member changed since stays as they left it.
            const answers: Record<string, AnswerValue> = { ...kept.answers }
            for (const [key, value] of Object.entries(taken)) {
              if (sameAnswer(answers[key], value)) delete answers[key]
            }
            const removed = new Set(record.tags_taken.map((tag) => tag.toLowerCase()))
            const tags = kept.tags.filter((tag) => !removed.has(tag.toLowerCase()))
            const tagsRemoved = kept.tags.filter((tag) => removed.has(tag.toLowerCase()))
            yield* sql`
              update activities set response_id = ${duplicateId}
              where workspace_id = ${workspaceId} and response_id = ${keptId}
                and id = any(${record.activity_ids}::int[])`
            yield* emails.moveThread(workspaceId, keptId, duplicateId, {
              emailIds: record.email_ids,
              replyIds: record.reply_ids
            })
            const updated = yield* rewrite(workspaceId, kept, answers, tags, now)
            yield* sql`
              update responses set merged_into = null
              where workspace_id = ${workspaceId} and id = ${duplicateId}`
            yield* countTags(workspaceId, kept.form_id, duplicate.tags, 1)
            yield* countTags(workspaceId, kept.form_id, tagsRemoved, -1)
            const undone = yield* sql<MergeRow>`
              update response_merges set undone_at = ${now}
              where workspace_id = ${workspaceId} and id = ${record.id}
              returning *`
            yield* activities.record(actor, keptId, now, [{ type: "unmerged", payload: { duplicateId } }])
            yield* recordEvent(workspaceId, now, updated, { event: "response.unmerged", duplicateId })
            return toMerge(undone[0]!, taken)
          })
        )
      })

      return ResponseMerges.of({ merge, undo })
    })
  ).pipe(Layer.provide([Activities.layer, Contacts.layer, Events.layer, Forms.layer]))
}
