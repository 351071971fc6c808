/**
 * Responses: each submission to a form is a case with a stage, an assignee,
 * tags, internal notes and an activity timeline. A submission, its activity
 * and its `response.created` event commit together; so do a stage change and
 * its `response.stage_changed` event.
 */
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { Activities, Activity, type NewActivity } from "./Activities.ts"
import * as Actors from "./Actors.ts"
import { Contacts } from "./Contacts.ts"
import { Conflict, type Forbidden, FormNotFound, InvalidInput, ResponseNotFound } from "./Errors.ts"
import { type EventPayload, Events } from "./Events.ts"
import { AnswerInputs, AnswerValue, deriveRespondent, Field, isRealAnswer, validateAnswers } from "./Fields.ts"
import { Files, LinkBase, SentLinkBase } from "./Files.ts"
import * as FormLogic from "./FormLogic.ts"
import { Forms, FormStatus } from "./Forms.ts"
import { Member, Members } from "./Members.ts"
import { RespondentEmails, ResponseEmail, ResponseReply } from "./RespondentEmails.ts"
import { Stage, Stages } from "./Stages.ts"
import * as Summaries from "./Summaries.ts"
import { Id } from "./Ids.ts"

export { ResponseNotFound } from "./Errors.ts"

/** Where a response came from: the public page, the API, an assistant (MCP), or an import. */
export const ResponseSource = Schema.Literals(["form", "api", "mcp", "import"])
export type ResponseSource = typeof ResponseSource.Type

/** A response as listed (spec: ResponseRow). `answers` and `summary` only with `flat=1`. */
export const ResponseRow = Schema.Struct({
  id: Schema.Int,
  submittedAt: Schema.String,
  updatedAt: Schema.String,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  stageId: Schema.NullOr(Schema.Int),
  assigneeId: Schema.NullOr(Schema.Int),
  tags: Schema.Array(Schema.String),
  source: Schema.String,
  values: Schema.Record(Schema.String, AnswerValue).annotate({
    description: "The answers keyed by question id (`fields[].id`); hidden field values as `hidden:<name>`."
  }),
  // Before the optional keys: the streamed list writes rows in this order too (see `toRow`).
  /** Extension (partial responses): false while the respondent has not submitted yet. */
  finished: Schema.Boolean,
  answers: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  summary: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "ResponseRow" })
export type ResponseRow = typeof ResponseRow.Type

/** A tag: trimmed, 1 to 30 characters, no control characters. */
export const Tag = Schema.String.check(
  Schema.isMaxLength(30, { message: "each tag must be at most 30 characters" })
).pipe(Schema.decodeTo(Schema.Trimmed, SchemaTransformation.trim())).check(
  Schema.isNonEmpty({ message: "a tag must not be empty" }),
  // eslint-disable-next-line no-control-regex
  Schema.isPattern(/^[^\u0000-\u001f\u007f]*$/, { message: "a tag must not contain control characters" })
)

/** What a submission takes: answers keyed by question id. */
export const SubmitInput = Schema.Struct({
  values: AnswerInputs,
  /** Extension (form logic): values of the form's hidden fields, by name. */
  hidden: Schema.optionalKey(FormLogic.HiddenValues)
}).annotate({ identifier: "SubmitResponse" })
export type SubmitInput = typeof SubmitInput.Type

/**
 * What the public page's JSON submission takes (`POST /f/{publicId}/responses`,
 * no API key): the answers, plus the page's answer token and honeypot.
 */
export const PublicSubmitInput = Schema.Struct({
  values: AnswerInputs,
  /** Values of the form's hidden fields, by name (form logic). */
  hidden: Schema.optionalKey(FormLogic.HiddenValues),
  /** The page's answer token, when the page's own data is submitted as JSON: its start time is checked. */
  token: Schema.optionalKey(Schema.String).annotate({
    description: "The page's answer token (from the form page): when given, a submission too soon after opening is refused."
  }),
  /** The honeypot: must be absent or empty. */
  website: Schema.optionalKey(Schema.String).annotate({ description: "The honeypot: must be absent or empty." })
}).annotate({ identifier: "PublicSubmitResponse" })
export type PublicSubmitInput = typeof PublicSubmitInput.Type

/** The public submission's answer: the new response's id. */
export const PublicSubmitted = Schema.Struct({ id: Schema.Int }).annotate({ identifier: "PublicSubmitted" })

/** What changing a case takes (spec: PATCH /responses/{id}); every field optional. */
export const UpdateResponseInput = Schema.Struct({
  stageId: Schema.optionalKey(Schema.NullOr(Id)),
  assigneeId: Schema.optionalKey(Schema.NullOr(Id)),
  tags: Schema.optionalKey(
    Schema.Array(Tag).check(Schema.isMaxLength(50, { message: "a response has at most 50 tags" }))
  )
}).annotate({ identifier: "UpdateResponse" })
export type UpdateResponseInput = typeof UpdateResponseInput.Type

/** One change made by an update: the field, its value before and after. */
export const ResponseChange = Schema.Struct({
  field: Schema.Literals(["stageId", "assigneeId", "tags"]),
  from: Schema.Unknown,
  to: Schema.Unknown
})
export type ResponseChange = typeof ResponseChange.Type

/** The result of an update (spec: `{ok, formId, changes}`). */
export const UpdateResponseResult = Schema.Struct({
  ok: Schema.Boolean,
  formId: Schema.Int,
  changes: Schema.Array(ResponseChange)
}).annotate({ identifier: "UpdateResponseResult" })
export type UpdateResponseResult = typeof UpdateResponseResult.Type

/** Which responses a list shows: submitted ones (the default), partial ones, or both. */
export const ResponseStatus = Schema.Literals(["completed", "partial", "all"])
export type ResponseStatus = typeof ResponseStatus.Type

/** The filters of the response list (spec: GET /forms/{formId}/responses). */
export interface ResponseFilter {
  /** Extension: `completed` (default), `partial` (not yet submitted) or `all`. */
  readonly status?: ResponseStatus | undefined
  /** Matches the name, the e-mail, a tag or the text of any answer (case-insensitive, substring). */
  readonly q?: string | undefined
  readonly stage?: number | "none" | undefined
  readonly assignee?: number | "none" | undefined
  readonly tag?: string | undefined
  readonly from?: Date | undefined
  readonly to?: Date | undefined
}

/** Options of a list: filters, `flat` answers, and keyset paging (newest first). */
export interface ListOptions extends ResponseFilter {
  readonly flat?: boolean | undefined
  /** At most this many responses; all when absent. */
  readonly limit?: number | undefined
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
}

/** Everything of the response list but the responses. */
export interface ResponseListHead {
  readonly form: { readonly id: number; readonly title: string }
  readonly fields: ReadonlyArray<Field>
  readonly stages: ReadonlyArray<Stage>
  readonly members: ReadonlyArray<Member>
  readonly allTags: ReadonlyArray<string>
  /** Extension (form logic): the form's hidden fields, whose values the rows carry as `hidden:<name>`. */
  readonly hiddenFields: ReadonlyArray<FormLogic.HiddenField>
}

/** A page of the response list (spec: ResponseList, plus `nextCursor`). */
export interface ResponseList extends ResponseListHead {
  readonly responses: ReadonlyArray<ResponseRow>
  /** Present when `limit` cut the list: pass it as `cursor` for the next page. */
  readonly nextCursor: string | null
}

export { ResponseEmail, ResponseReply } from "./RespondentEmails.ts"

/** One response with everything about it (spec: ResponseDetail). */
export const ResponseDetail = Schema.Struct({
  response: ResponseRow,
  form: Schema.Struct({ id: Schema.Int, title: Schema.String, publicId: Schema.String, status: FormStatus }),
  fields: Schema.Array(Field),
  stages: Schema.Array(Stage),
  members: Schema.Array(Member),
  activities: Schema.Array(Activity),
  emails: Schema.Array(ResponseEmail),
  replies: Schema.Array(ResponseReply)
}).annotate({ identifier: "ResponseDetail" })

export type ResponseDetail = typeof ResponseDetail.Type

interface Row {
  readonly id: number
  readonly form_id: number
  readonly submitted_at: Date
  readonly updated_at: Date
  readonly name: string | null
  readonly email: string | null
  readonly stage_id: number | null
  readonly assignee_id: number | null
  readonly tags: ReadonlyArray<string>
  readonly source: string
  readonly answers: Record<string, AnswerValue>
  readonly finished: boolean
}

const columns =
  `id, form_id, submitted_at, updated_at, name, email, stage_id, assignee_id, tags, source, answers, finished`

/** The flat answers and summary of a response's values (`Summaries.flattener` of its form's fields). */
type Flatten = ReturnType<typeof Summaries.flattener>

const toRow = (row: Row, flatten: Flatten | undefined): ResponseRow => {
  const base: ResponseRow = {
    id: row.id,
    submittedAt: row.submitted_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    name: row.name,
    email: row.email,
    stageId: row.stage_id,
    assigneeId: row.assignee_id,
    tags: row.tags,
    source: row.source,
    values: row.answers,
    finished: row.finished
  }
  if (flatten === undefined) return base
  const { answers, summary } = flatten(row.answers)
  return { ...base, answers, summary }
}

/**
 * The searchable text of a response: its tags on the first line, then name,
 * e-mail and every answer, lower-cased. A tag change rewrites only the first
 * line (tags cannot hold a line break), so the answers need not be read again.
 */
const searchText = (
  tags: ReadonlyArray<string>,
  name: string | null,
  email: string | null,
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>
): string =>
  `${tags.join(" ")}\n${[name ?? "", email ?? "", ...Object.values(Summaries.flatAnswers(fields, values))].join(" ")}`
    .toLowerCase()

/** Rows read per query when a whole list is streamed. */
const STREAM_PAGE_SIZE = 500

/** Shards of each form's response count (see `form_response_counts`). */
const COUNT_SHARDS = 8

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * The part of an e-mail-like `q` to look up in the trigram index: the text
 * before its `@`, when that holds a trigram (three letters or digits in a
 * row). A domain is shared by many respondents (`@example.com`, `@gmail.com`),
 * so its trigrams are in a large share of the rows, and intersecting their
 * posting lists cost more than the rest of the search (~70 ms for one address
 * at 1M rows, against ~20 ms probing the part before the `@`).
 */
const emailLocalPart = (q: string): string | undefined => {
  const at = q.indexOf("@")
  const local = at > 0 ? q.slice(0, at) : ""
  return /[\p{L}\p{N}]{3}/u.test(local) ? local : undefined
}

const Cursor = Schema.Struct({ at: Schema.String, id: Schema.Int })
const CursorFromString = Schema.fromJsonString(Cursor)

const encodeCursor = (row: Row): string =>
  Buffer.from(JSON.stringify({ at: row.submitted_at.toISOString(), id: row.id })).toString("base64url")

const decodeCursor = (cursor: string) =>
  Schema.decodeUnknownEffect(CursorFromString)(Buffer.from(cursor, "base64url").toString("utf8")).pipe(
    Effect.map((c) => ({ at: new Date(c.at), id: c.id })),
    Effect.filterOrFail((c) => !Number.isNaN(c.at.getTime())),
    Effect.mapError(() => new InvalidInput({ message: "cursor: not a cursor from this list" }))
  )

const sameTags = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((tag, index) => tag === b[index])

/** Trimmed tags without duplicates (the first spelling wins, compared case-insensitively). */
export const normalizeTags = (tags: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  return tags.map((tag) => tag.trim()).filter((tag) => {
    const key = tag.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * Submitting, listing, reading, triaging and deleting responses.
 *
 * @example
 * ```ts
 * const responses = yield* Responses
 * const row = yield* responses.submit(actor, formId, { values: { "12": "ada@example.com" } }, "api")
 * yield* responses.update(actor, row.id, { stageId: doneStageId, tags: ["vip"] })
 * ```
 */
export class Responses extends Context.Service<Responses, {
  /**
   * Validates and stores a submission to a published form, with its activity
   * and `response.created` event. Follows the form's logic: answers to
   * skipped questions are dropped and skipped questions are not required.
   * With `partialId`, the page's partial response becomes this one.
   */
  readonly submit: (
    actor: Actors.Actor,
    formId: number,
    input: SubmitInput,
    source: ResponseSource,
    options?: { readonly partialId?: number | undefined }
  ) => Effect.Effect<ResponseRow, FormNotFound | Conflict | InvalidInput | Forbidden | SqlError.SqlError>
  /**
   * Saves the answers so far as a partial response (`finished: false`): the
   * unfinished `partialId`, or a new one, but only once there is a real
   * answer (see `isRealAnswer`; hidden values alone are none). No event,
   * activity or count until it is submitted. Answers the response's id, or
   * undefined when nothing was stored.
   */
  readonly savePartial: (
    actor: Actors.Actor,
    formId: number,
    input: SubmitInput,
    partialId: number | undefined
  ) => Effect.Effect<number | undefined, FormNotFound | Conflict | InvalidInput | Forbidden | SqlError.SqlError>
  /** The stored answers (hidden values as `hidden:<name>`) of an unfinished response, to resume it. */
  readonly partialAnswers: (
    workspaceId: number,
    formId: number,
    partialId: number
  ) => Effect.Effect<Option.Option<Record<string, AnswerValue>>, SqlError.SqlError>
  /** Deletes partial responses not changed for `maxAgeMs` (every workspace: maintenance); answers how many. */
  readonly purgePartials: (maxAgeMs: number) => Effect.Effect<number, SqlError.SqlError>
  /** A form's responses, newest first, filtered and optionally paged. */
  readonly list: (
    actor: Actors.Actor,
    formId: number,
    options?: ListOptions
  ) => Effect.Effect<ResponseList, FormNotFound | InvalidInput | SqlError.SqlError>
  /**
   * A form's filtered responses as a stream read from a database cursor, so a
   * list of any length is served in constant memory (no paging).
   */
  readonly stream: (
    actor: Actors.Actor,
    formId: number,
    options?: ResponseFilter & { readonly flat?: boolean | undefined }
  ) => Effect.Effect<
    { readonly head: ResponseListHead; readonly rows: Stream.Stream<ResponseRow, SqlError.SqlError> },
    FormNotFound | InvalidInput | SqlError.SqlError
  >
  readonly get: (actor: Actors.Actor, responseId: number) => Effect.Effect<ResponseDetail, ResponseNotFound | SqlError.SqlError>
  /** Sets stage, assignee and/or tags; writes activities, and an event when the stage really changed. */
  readonly update: (
    actor: Actors.Actor,
    responseId: number,
    input: UpdateResponseInput
  ) => Effect.Effect<UpdateResponseResult, ResponseNotFound | InvalidInput | Forbidden | SqlError.SqlError>
  readonly remove: (actor: Actors.Actor, responseId: number) => Effect.Effect<void, ResponseNotFound | Forbidden | SqlError.SqlError>
}>()("@qforms/core/Responses") {
  static readonly layer = Layer.effect(
    Responses,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const forms = yield* Forms
      const stages = yield* Stages
      const members = yield* Members
      const contacts = yield* Contacts
      const activities = yield* Activities
      const events = yield* Events
      const files = yield* Files
      const respondentEmails = yield* RespondentEmails

      /** Adds `delta` to the form's response count, on a random shard so writers rarely wait on each other. */
      const countResponses = (workspaceId: number, formId: number, delta: number) =>
        Effect.flatMap(Random.nextIntBetween(0, COUNT_SHARDS, { halfOpen: true }), (shard) =>
          sql`
            insert into form_response_counts (workspace_id, form_id, shard, n)
            values (${workspaceId}, ${formId}, ${shard}, ${delta})
            on conflict (form_id, shard) do update set n = form_response_counts.n + excluded.n`).pipe(Effect.asVoid)

      /** Adds `delta` to the count of each tag in the form; tags no response carries are dropped. */
      const countTags = (workspaceId: number, formId: number, tags: ReadonlyArray<string>, delta: 1 | -1) =>
        tags.length === 0 ? Effect.void : Effect.gen(function*() {
          yield* sql`
            insert into form_tags (workspace_id, form_id, tag, n)
            select ${workspaceId}, ${formId}, t.tag, ${delta} from unnest(${tags}::text[]) as t(tag)
            on conflict (form_id, tag) do update set n = form_tags.n + excluded.n`
          if (delta < 0) {
            yield* sql`delete from form_tags where form_id = ${formId} and n <= 0`
          }
        })

      const eventPayload = (
        event: EventPayload["event"],
        form: { readonly id: number; readonly title: string },
        fields: ReadonlyArray<Field>,
        row: Row,
        stage: { readonly id: number; readonly name: string } | null,
        linkBase: string
      ): EventPayload => ({
        event,
        form: { id: form.id, title: form.title },
        responseId: row.id,
        submittedAt: row.submitted_at.toISOString(),
        stage,
        respondent: { name: row.name, email: row.email },
        answers: Summaries.flatAnswers(fields, row.answers, linkBase),
        summary: Summaries.summary(fields, row.answers, linkBase)
      })

      /** The published form of a submission (locked against deletion), or why it takes none. */
      const openForm = Effect.fnUntraced(function*(actor: Actors.Actor, formId: number) {
        // key share: a concurrent delete of the form waits, edits of it do not.
        const forms_ = yield* sql<{
          readonly title: string
          readonly status: FormStatus
          readonly hidden_fields: ReadonlyArray<FormLogic.HiddenField>
        }>`
          select title, status, hidden_fields from forms
          where workspace_id = ${actor.workspaceId} and id = ${formId} for key share`
        const form = forms_[0]
        if (form === undefined) return yield* new FormNotFound({ message: `form ${formId} not found` })
        if (form.status !== "published") {
          return yield* new Conflict({
            message: `form ${formId} is ${form.status}: only a published form accepts responses`
          })
        }
        return form
      })

      /** The hidden values of a submission: only declared names (others are a 400). */
      const checkHidden = (
        declared: ReadonlyArray<FormLogic.HiddenField>,
        given: Readonly<Record<string, string>>
      ): Effect.Effect<Record<string, string>, InvalidInput> => {
        const names = new Set(declared.map((h) => h.name))
        const unknown = Object.keys(given).filter((name) => !names.has(name))
        if (unknown.length > 0) {
          const issues = unknown.map((name) => ({
            path: `hidden.${name}`,
            message: `"${name}" is not a hidden field of this form`
          }))
          return Effect.fail(new InvalidInput({ message: issues.map((i) => i.message).join("; "), details: issues }))
        }
        return Effect.succeed(Object.fromEntries(Object.entries(given).filter(([, value]) => value !== "")))
      }

      const invalid = (issues: ReadonlyArray<{ readonly path: string; readonly message: string }>) =>
        new InvalidInput({
          message: issues.map((issue) => issue.message).join("; "),
          details: issues.map((issue) => ({ path: issue.path, message: issue.message }))
        })

      /** The answers with the hidden values, as stored (`hidden:<name>` keys). */
      const stored = (values: Record<string, AnswerValue>, hidden: Readonly<Record<string, string>>) => {
        const out: Record<string, AnswerValue> = { ...values }
        for (const [name, value] of Object.entries(hidden)) out[FormLogic.hiddenKey(name)] = value
        return out
      }

      const submit = Effect.fn("Responses.submit")(function*(
        actor: Actors.Actor,
        formId: number,
        input: SubmitInput,
        source: ResponseSource,
        options: { readonly partialId?: number | undefined } = {}
      ) {
        yield* Actors.requireSubmit(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const form = yield* openForm(actor, formId)
          const hidden = yield* checkHidden(form.hidden_fields, input.hidden ?? {})
          const fields = yield* forms.fields(actor.workspaceId, formId)
          // The path through the form decides what is asked: answers to skipped
          // questions are dropped, and a skipped required question is not required.
          const route = FormLogic.onPath(fields, { values: input.values, hidden })
          // File answers name uploads: each must be an upload to that question
          // of this form, not yet attached; its stored name, size and type
          // replace whatever the client sent.
          const uploads = yield* files.resolveAnswers(actor.workspaceId, formId, fields, route.values)
          const validated = validateAnswers(route.fields, uploads.values)
          if (uploads.issues.length > 0 || Result.isFailure(validated)) {
            const fileFields = new Set(uploads.issues.map((issue) => issue.fieldId))
            return yield* invalid([
              ...uploads.issues,
              ...(Result.isFailure(validated) ? validated.failure.filter((issue) => !fileFields.has(issue.fieldId)) : [])
            ])
          }
          const values = stored(validated.success, hidden)
          const respondent = deriveRespondent(fields, values)
          const contact = respondent.email === null
            ? undefined
            : yield* contacts.upsert(actor.workspaceId, { email: respondent.email, name: respondent.name })
          const name = respondent.name ?? contact?.name ?? null
          const text = searchText([], name, respondent.email, fields, values)
          // A partial response of the page becomes the finished one (tags a member may have set are kept).
          const finishing = options.partialId === undefined ? [] : yield* sql<Row>`
            update responses set contact_id = ${contact?.id ?? null}, submitted_at = ${now}, updated_at = ${now},
              name = ${name}, email = ${respondent.email}, source = ${source}, answers = ${JSON.stringify(values)}::jsonb,
              search_text = lower(array_to_string(tags, ' ')) || ${"\n"} || ${text.slice(text.indexOf("\n") + 1)},
              finished = true
            where workspace_id = ${actor.workspaceId} and form_id = ${formId} and id = ${options.partialId}
              and not finished
            returning ${sql.literal(columns)}`
          const row = finishing[0] ?? (yield* sql<Row>`
            insert into responses (workspace_id, form_id, contact_id, submitted_at, updated_at, name, email,
              tags, source, answers, search_text)
            values (${actor.workspaceId}, ${formId}, ${contact?.id ?? null}, ${now}, ${now}, ${name},
              ${respondent.email}, ${[]}::text[], ${source}, ${JSON.stringify(values)}::jsonb, ${text})
            returning ${sql.literal(columns)}`)[0]!
          yield* files.attach(actor.workspaceId, row.id, uploads.fileIds, now)
          yield* countResponses(actor.workspaceId, formId, 1)
          yield* activities.record(actor, row.id, now, [{ type: "created", payload: { source } }])
          yield* events.record(
            actor.workspaceId,
            now,
            eventPayload("response.created", { id: formId, title: form.title }, fields, row, null, yield* SentLinkBase)
          )
          yield* respondentEmails.queueConfirmation(
            actor,
            { id: row.id, formId, email: row.email, values: row.answers },
            fields,
            now
          )
          return toRow(row, undefined)
        }))
      })

      const savePartial = Effect.fn("Responses.savePartial")(function*(
        actor: Actors.Actor,
        formId: number,
        input: SubmitInput,
        partialId: number | undefined
      ) {
        yield* Actors.requireSubmit(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const form = yield* openForm(actor, formId)
          const hidden = yield* checkHidden(form.hidden_fields, input.hidden ?? {})
          const fields = yield* forms.fields(actor.workspaceId, formId)
          const route = FormLogic.onPath(fields, { values: input.values, hidden })
          // Uploads are attached when the response is submitted, so a partial one keeps no file answer;
          // nothing is required yet.
          const kept = Object.fromEntries(
            Object.entries(route.values).filter(([key]) => fields.find((f) => String(f.id) === key)?.type !== "file")
          )
          const validated = validateAnswers(route.fields.map((f) => ({ ...f, required: false })), kept)
          if (Result.isFailure(validated)) return yield* invalid(validated.failure)
          const values = stored(validated.success, hidden)
          const respondent = deriveRespondent(fields, values)
          const text = searchText([], respondent.name, respondent.email, fields, values)
          const updated = partialId === undefined ? [] : yield* sql<{ readonly id: number }>`
            update responses set updated_at = ${now}, name = ${respondent.name}, email = ${respondent.email},
              answers = ${JSON.stringify(values)}::jsonb,
              search_text = lower(array_to_string(tags, ' ')) || ${"\n"} || ${text.slice(text.indexOf("\n") + 1)}
            where workspace_id = ${actor.workspaceId} and form_id = ${formId} and id = ${partialId} and not finished
            returning id`
          if (updated[0] !== undefined) return updated[0].id
          // A new row only for a real answer: a Start step, empty optional answers or hidden values keep nothing.
          if (!Object.values(validated.success).some(isRealAnswer)) return undefined
          const inserted = yield* sql<{ readonly id: number }>`
            insert into responses (workspace_id, form_id, submitted_at, updated_at, name, email,
              tags, source, answers, search_text, finished)
            values (${actor.workspaceId}, ${formId}, ${now}, ${now}, ${respondent.name}, ${respondent.email},
              ${[]}::text[], ${"form"}, ${JSON.stringify(values)}::jsonb, ${text}, false)
            returning id`
          return inserted[0]!.id
        }))
      })

      const partialAnswers = Effect.fn("Responses.partialAnswers")(function*(
        workspaceId: number,
        formId: number,
        partialId: number
      ) {
        const rows = yield* sql<{ readonly answers: Record<string, AnswerValue> }>`
          select answers from responses
          where workspace_id = ${workspaceId} and form_id = ${formId} and id = ${partialId} and not finished`
        return rows[0] === undefined ? Option.none() : Option.some(rows[0].answers)
      })

      const purgePartials = Effect.fn("Responses.purgePartials")(function*(maxAgeMs: number) {
        const cutoff = new Date((yield* Clock.currentTimeMillis) - maxAgeMs)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql<{ readonly workspace_id: number; readonly form_id: number; readonly tags: ReadonlyArray<string> }>`
            delete from responses where not finished and updated_at < ${cutoff}
            returning workspace_id, form_id, tags`
          yield* Effect.forEach(rows, (row) => countTags(row.workspace_id, row.form_id, row.tags, -1), { discard: true })
          return rows.length
        }))
      })

      /** The form's summary and the WHERE clause of a filtered list (keyset cursor included). */
      const prepareList = Effect.fnUntraced(function*(actor: Actors.Actor, formId: number, options: ListOptions) {
        const form = yield* forms.getSummary(actor, formId)
        const cursor = options.cursor === undefined ? undefined : yield* decodeCursor(options.cursor)
        const conditions = [sql`workspace_id = ${actor.workspaceId}`, sql`form_id = ${formId}`]
        const status = options.status ?? "completed"
        if (status === "completed") conditions.push(sql`finished`)
        else if (status === "partial") conditions.push(sql`not finished`)
        if (options.stage === "none") conditions.push(sql`stage_id is null`)
        else if (options.stage !== undefined) conditions.push(sql`stage_id = ${options.stage}`)
        if (options.assignee === "none") conditions.push(sql`assignee_id is null`)
        else if (options.assignee !== undefined) conditions.push(sql`assignee_id = ${options.assignee}`)
        if (options.tag !== undefined) conditions.push(sql`tags @> ${[options.tag]}::text[]`)
        if (options.q !== undefined && options.q.trim() !== "") {
          const q = options.q.trim()
          const probe = emailLocalPart(q)
          conditions.push(
            probe === undefined
              ? sql`search_text like ${likePattern(q)}`
              // Same rows: the probe is part of q, and strpos (which the index does not take) checks all of it.
              : sql`search_text like ${likePattern(probe)} and strpos(search_text, ${q.toLowerCase()}) > 0`
          )
        }
        if (options.from !== undefined) conditions.push(sql`submitted_at >= ${options.from}`)
        if (options.to !== undefined) conditions.push(sql`submitted_at <= ${options.to}`)
        const after = (at: Date, id: number) => sql.and([...conditions, sql`(submitted_at, id) < (${at}, ${id})`])
        return { form, where: cursor === undefined ? sql.and(conditions) : after(cursor.at, cursor.id), after }
      })

      /** Everything of a list but its responses. */
      const listHead = (actor: Actors.Actor, form: { readonly id: number; readonly title: string }) =>
        Effect.map(
          Effect.all([
            forms.fields(actor.workspaceId, form.id),
            stages.list(actor, form.id),
            members.list(actor.workspaceId),
            sql<{ readonly tag: string }>`
              select tag from form_tags where workspace_id = ${actor.workspaceId} and form_id = ${form.id} order by tag`,
            sql<{ readonly hidden_fields: ReadonlyArray<FormLogic.HiddenField> }>`
              select hidden_fields from forms where workspace_id = ${actor.workspaceId} and id = ${form.id}`
          ], { concurrency: "unbounded" }),
          ([fields, stageList, memberList, tagRows, hiddenRows]): ResponseListHead => ({
            form: { id: form.id, title: form.title },
            fields,
            stages: stageList,
            members: memberList,
            allTags: tagRows.map((r) => r.tag),
            hiddenFields: hiddenRows[0]?.hidden_fields ?? []
          })
        )

      const list = Effect.fn("Responses.list")(function*(
        actor: Actors.Actor,
        formId: number,
        options: ListOptions = {}
      ) {
        const { form, where } = yield* prepareList(actor, formId, options)
        const limit = options.limit === undefined ? undefined : options.limit + 1
        const [rows, head] = yield* Effect.all([
          sql<Row>`
            select ${sql.literal(columns)} from responses where ${where}
            order by submitted_at desc, id desc ${limit === undefined ? sql`` : sql`limit ${limit}`}`,
          listHead(actor, form)
        ], { concurrency: "unbounded" })
        const more = options.limit !== undefined && rows.length > options.limit
        const page = more ? rows.slice(0, options.limit) : rows
        const flatten = options.flat ? Summaries.flattener(head.fields, yield* LinkBase) : undefined
        return {
          ...head,
          responses: page.map((row) => toRow(row, flatten)),
          nextCursor: more ? encodeCursor(page[page.length - 1]!) : null
        }
      })

      const stream = Effect.fn("Responses.stream")(function*(
        actor: Actors.Actor,
        formId: number,
        options: ResponseFilter & { readonly flat?: boolean | undefined } = {}
      ) {
        const { after, form, where } = yield* prepareList(actor, formId, options)
        const head = yield* listHead(actor, form)
        const flatten = options.flat ? Summaries.flattener(head.fields, yield* LinkBase) : undefined
        // Keyset pages rather than one long cursor: memory stays flat, and no
        // connection (PGlite has only one) is held while a slow client reads.
        const page = (condition: Statement.Fragment) =>
          sql<Row>`
            select ${sql.literal(columns)} from responses where ${condition}
            order by submitted_at desc, id desc limit ${STREAM_PAGE_SIZE}`
        const toRows = (batch: ReadonlyArray<Row>) => batch.map((row) => toRow(row, flatten))
        const nextOf = (batch: ReadonlyArray<Row>) => {
          const last = batch[batch.length - 1]
          return batch.length < STREAM_PAGE_SIZE || last === undefined
            ? Option.none()
            : Option.some(after(last.submitted_at, last.id))
        }
        // The first page is read before the answer starts, so a failing query
        // is an error status, not a response cut off half-way.
        const first = yield* page(where)
        const rest = Option.match(nextOf(first), {
          onNone: () => Stream.empty,
          onSome: (start) =>
            Stream.paginate(start, (condition) =>
              Effect.map(page(condition), (batch) => [toRows(batch), nextOf(batch)] as const))
        })
        const rows = Stream.concat(Stream.fromIterable(toRows(first)), rest)
        return { head, rows }
      })

      const findRow = (workspaceId: number, responseId: number, lock: boolean) =>
        Effect.flatMap(
          sql<Row>`
            select ${sql.literal(columns)} from responses where workspace_id = ${workspaceId} and id = ${responseId}
            ${lock ? sql`for update` : sql``}`,
          (rows) =>
            rows.length === 0
              ? Effect.fail(new ResponseNotFound({ message: `response ${responseId} not found` }))
              : Effect.succeed(rows[0]!)
        )

      const get = Effect.fn("Responses.get")(function*(actor: Actors.Actor, responseId: number) {
        const row = yield* findRow(actor.workspaceId, responseId, false)
        const [form, stageList, memberList, timeline, correspondence] = yield* Effect.all([
          forms.get(actor, row.form_id),
          stages.list(actor, row.form_id),
          members.list(actor.workspaceId),
          activities.listUnchecked(actor.workspaceId, responseId),
          respondentEmails.forResponse(actor.workspaceId, responseId)
        ], { concurrency: "unbounded" }).pipe(
          // The response exists, so its form does: a missing one is a broken invariant.
          Effect.catchTag("FormNotFound", (error) => Effect.die(error))
        )
        return {
          response: toRow(row, undefined),
          form: { id: form.id, title: form.title, publicId: form.publicId, status: form.status },
          fields: form.fields,
          stages: stageList,
          members: memberList,
          activities: timeline,
          emails: correspondence.emails,
          replies: correspondence.replies
        }
      })

      const update = Effect.fn("Responses.update")(function*(
        actor: Actors.Actor,
        responseId: number,
        input: UpdateResponseInput
      ) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* findRow(actor.workspaceId, responseId, true)
          const changes: Array<ResponseChange> = []
          const written: Array<NewActivity> = []
          let newStage: { readonly id: number; readonly name: string } | null | undefined
          if (input.stageId !== undefined && input.stageId !== row.stage_id) {
            if (input.stageId !== null) {
              const found = yield* sql<{ readonly id: number; readonly name: string }>`
                select id, name from stages
                where workspace_id = ${actor.workspaceId} and form_id = ${row.form_id} and id = ${input.stageId}`
              if (found.length === 0) {
                return yield* new InvalidInput({
                  message: `stageId: stage ${input.stageId} does not belong to form ${row.form_id}`,
                  details: [{ path: "stageId", message: `stage ${input.stageId} does not belong to form ${row.form_id}` }]
                })
              }
              newStage = found[0]!
            } else {
              newStage = null
            }
            changes.push({ field: "stageId", from: row.stage_id, to: input.stageId })
            written.push({ type: "stage_changed", payload: { from: row.stage_id, to: input.stageId } })
          }
          if (input.assigneeId !== undefined && input.assigneeId !== row.assignee_id) {
            if (input.assigneeId !== null) {
              const found = yield* members.get(actor.workspaceId, input.assigneeId).pipe(Effect.option)
              if (Option.isNone(found)) {
                return yield* new InvalidInput({
                  message: `assigneeId: account ${input.assigneeId} is not a member of this workspace`,
                  details: [{
                    path: "assigneeId",
                    message: `account ${input.assigneeId} is not a member of this workspace`
                  }]
                })
              }
            }
            changes.push({ field: "assigneeId", from: row.assignee_id, to: input.assigneeId })
            written.push({ type: "assigned", payload: { from: row.assignee_id, to: input.assigneeId } })
          }
          const tags = input.tags === undefined ? row.tags : normalizeTags(input.tags)
          if (!sameTags(tags, row.tags)) {
            const before = new Set(row.tags)
            const after = new Set(tags)
            changes.push({ field: "tags", from: row.tags, to: tags })
            written.push({
              type: "tags_changed",
              payload: {
                from: row.tags,
                to: tags,
                added: tags.filter((t) => !before.has(t)),
                removed: row.tags.filter((t) => !after.has(t))
              }
            })
          }
          if (Arr.isArrayNonEmpty(written)) {
            const tagLine = tags.join(" ").toLowerCase()
            const updated = yield* sql<Row>`
              update responses set
                stage_id = ${input.stageId === undefined ? row.stage_id : input.stageId},
                assignee_id = ${input.assigneeId === undefined ? row.assignee_id : input.assigneeId},
                tags = ${tags}::text[],
                search_text = ${tagLine} || substr(search_text, strpos(search_text, ${"\n"})),
                updated_at = ${now}
              where workspace_id = ${actor.workspaceId} and id = ${responseId}
              returning ${sql.literal(columns)}`
            yield* countTags(actor.workspaceId, row.form_id, tags, 1)
            yield* countTags(actor.workspaceId, row.form_id, row.tags, -1)
            yield* activities.record(actor, responseId, now, written)
            if (newStage !== undefined) {
              const formRows = yield* sql<{ readonly title: string }>`
                select title from forms where workspace_id = ${actor.workspaceId} and id = ${row.form_id}`
              const fields = yield* forms.fields(actor.workspaceId, row.form_id)
              yield* events.record(
                actor.workspaceId,
                now,
                eventPayload(
                  "response.stage_changed",
                  { id: row.form_id, title: formRows[0]!.title },
                  fields,
                  updated[0]!,
                  newStage,
                  yield* SentLinkBase
                )
              )
            }
          }
          return { ok: true, formId: row.form_id, changes }
        }))
      })

      const remove = Effect.fn("Responses.remove")(function*(actor: Actors.Actor, responseId: number) {
        yield* Actors.requireWrite(actor)
        const blobKeys = yield* sql.withTransaction(Effect.gen(function*() {
          const keys = yield* files.forgetResponse(actor.workspaceId, responseId)
          const rows = yield* sql<
            { readonly form_id: number; readonly tags: ReadonlyArray<string>; readonly finished: boolean }
          >`
            delete from responses where workspace_id = ${actor.workspaceId} and id = ${responseId}
            returning form_id, tags, finished`
          const row = rows[0]
          if (row === undefined) return yield* new ResponseNotFound({ message: `response ${responseId} not found` })
          // Only submitted responses are counted.
          if (row.finished) yield* countResponses(actor.workspaceId, row.form_id, -1)
          yield* countTags(actor.workspaceId, row.form_id, row.tags, -1)
          return keys
        }))
        // Only once the deletion has committed: a blob is never gone while its record is still there.
        yield* files.deleteBlobs(blobKeys)
      })

      return Responses.of({ submit, savePartial, partialAnswers, purgePartials, list, stream, get, update, remove })
    })
  )
}

/** How long a partial response is kept after its last change by default: 30 days. */
export const defaultPartialMaxAgeDays = 30

/**
 * Deletes partial responses older than `maxAgeDays` (default
 * {@link defaultPartialMaxAgeDays}) now and every hour while the layer lives.
 * `Qforms.make` runs it; include it when you build your own server from the layers.
 *
 * @example
 * ```ts
 * const Purger = Responses.layerPartialPurger({ maxAgeDays: 7 })
 * ```
 */
export const layerPartialPurger = (options: { readonly maxAgeDays?: number | undefined } = {}): Layer.Layer<
  never,
  never,
  Responses
> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const responses = yield* Responses
    const maxAgeMs = (options.maxAgeDays ?? defaultPartialMaxAgeDays) * 24 * 60 * 60 * 1000
    const once = responses.purgePartials(maxAgeMs).pipe(
      Effect.tap((n) => n > 0 ? Effect.logInfo(`qforms: deleted ${n} partial responses older than the limit`) : Effect.void),
      Effect.catchCause((cause) => Effect.logWarning("qforms: purging partial responses failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(once, Effect.sleep("1 hour"))))
  }))
