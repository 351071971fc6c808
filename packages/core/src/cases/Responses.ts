/**
 * Responses: each submission to a form is a case with a stage, an assignee,
 * tags, internal notes and an activity timeline. A submission, its activity
 * and its `response.created` event commit together; so do a stage change and
 * its `response.stage_changed` event.
 *
 * This module is the service and its commands (submit, update, delete); the
 * rest of the concept lives beside it: the Schemas in `ResponseModels.ts`
 * (re-exported here), the stored row in `ResponseRows.ts`, partial responses
 * in `PartialResponses.ts`, the list's query in `ResponseQueries.ts`, the read
 * side (list, stream, detail) in `ResponseViews.ts`, and the counts in
 * `ResponseCounts.ts`.
 */
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Activities, type NewActivity } from "./Activities.ts"
import { AssignmentRulesService } from "./AssignmentRules.ts"
import * as Actors from "../identity/Actors.ts"
import { Contacts } from "./Contacts.ts"
import { type Conflict, type Forbidden, FormNotFound, InvalidInput, ResponseNotFound } from "../kernel/Errors.ts"
import { Events } from "../outbox/Events.ts"
import { toEventMember } from "../outbox/EventCatalogue.ts"
import { type AnswerInput, type AnswerValue, cleanAnswers, validateAnswers } from "../forms/Answers.ts"
import * as AnswerEdits from "./AnswerEdits.ts"
import { asksEmail, deriveRespondent } from "./Respondents.ts"
import { Files } from "../files/Files.ts"
import { SentLinkBase } from "../kernel/Links.ts"
import * as FormLogic from "../forms/FormLogic.ts"
import { type Field, takesUploads } from "../forms/Fields.ts"
import { Forms, type SubmittedForm } from "../forms/Forms.ts"
import { Members } from "../identity/Members.ts"
import { Mailer } from "../email/Mailer.ts"
import { RespondentEmails } from "../email/RespondentEmails.ts"
import * as PartialResponses from "./PartialResponses.ts"
import * as ResponseCounts from "./ResponseCounts.ts"
import * as ResponseDeletions from "./ResponseDeletions.ts"
import * as ResponseLimits from "./ResponseLimits.ts"
import * as Database from "../storage/Database.ts"
import {
  type ListOptions,
  normalizeTags,
  type ResponseChange,
  type ResponseDetail,
  type ResponseFilter,
  type ResponseList,
  type ResponseListHead,
  type ResponseRow,
  type ResponseSource,
  type SubmitInput,
  type UpdateResponseInput,
  type UpdateResponseResult
} from "./ResponseModels.ts"
import { columns, eventPayload, findRow, type Row, responseEventFields, searchText, toRow } from "./ResponseRows.ts"
import * as ResponseViews from "./ResponseViews.ts"
import * as SubmissionChecks from "./SubmissionChecks.ts"
import * as Summaries from "./Summaries.ts"

export { ResponseNotFound } from "../kernel/Errors.ts"
export * from "./ResponseModels.ts"
export { ResponseEmail, ResponseReply } from "../email/RespondentEmails.ts"

const sameTags = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((tag, index) => tag === b[index])

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
export class Responses extends Context.Service<
  Responses,
  {
    /**
     * Validates and stores a submission to a published form, with its activity
     * and `response.created` event. Follows the form's logic: answers to
     * skipped questions are dropped and skipped questions are not required.
     * With `partialId`, the page's partial response becomes this one. With
     * `form`, the form as the caller has just read it (the public page, by its
     * public id) is used instead of reading it again.
     */
    readonly submit: (
      actor: Actors.Actor,
      formId: number,
      input: SubmitInput,
      source: ResponseSource,
      options?: {
        readonly partialId?: number | undefined
        readonly form?: SubmittedForm | undefined
        /** The language the answers were given in (the page's); else the input's `language`. */
        readonly language?: string | undefined
        /** When the respondent opened the page (its answer token's): the summary's time to complete. */
        readonly startedAt?: Date | undefined
      }
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
    readonly get: (
      actor: Actors.Actor,
      responseId: number
    ) => Effect.Effect<ResponseDetail, ResponseNotFound | SqlError.SqlError>
    /**
     * Sets stage, assignee, tags and/or answers (a submitted response's, checked as a submission's are);
     * writes an activity and an event for each real change, nothing for a change that changes nothing.
     */
    readonly update: (
      actor: Actors.Actor,
      responseId: number,
      input: UpdateResponseInput
    ) => Effect.Effect<UpdateResponseResult, ResponseNotFound | InvalidInput | Forbidden | SqlError.SqlError>
    readonly remove: (
      actor: Actors.Actor,
      responseId: number
    ) => Effect.Effect<void, ResponseNotFound | Forbidden | SqlError.SqlError>
  }
>()("@qforms/core/Responses") {
  static readonly layer = Layer.effect(
    Responses,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const forms = yield* Forms
      const members = yield* Members
      const contacts = yield* Contacts
      const activities = yield* Activities
      const assignmentRules = yield* AssignmentRulesService
      const events = yield* Events
      const files = yield* Files
      const respondentEmails = yield* RespondentEmails
      const { countResponsesInsert, countTags, randomShard } = yield* ResponseCounts.make
      const settleDeleted = yield* ResponseDeletions.make
      const { checkHidden, invalid, openForm, stored } = yield* SubmissionChecks.make
      const partials = yield* PartialResponses.make
      const limits = yield* ResponseLimits.make
      const views = yield* ResponseViews.make

      const submit = Effect.fn("Responses.submit")(function* (
        actor: Actors.Actor,
        formId: number,
        input: SubmitInput,
        source: ResponseSource,
        options: {
          readonly partialId?: number | undefined
          readonly form?: SubmittedForm | undefined
          readonly language?: string | undefined
          readonly startedAt?: Date | undefined
        } = {}
      ) {
        const language = options.language ?? input.language ?? null
        yield* Actors.requireSubmit(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        // A start later than now or over a day before (an answer token lives a day) is not one to measure by.
        const startedAt =
          options.startedAt !== undefined &&
          options.startedAt.getTime() <= now.getTime() &&
          now.getTime() - options.startedAt.getTime() <= 24 * 60 * 60 * 1000
            ? options.startedAt
            : null
        const form = yield* openForm(actor, formId, options.form)
        const closing = ResponseLimits.pastClosing(form.settings, now.getTime())
        if (closing !== undefined) return yield* ResponseLimits.refusal(closing)
        const hidden = yield* checkHidden(form.hiddenFields, input.hidden ?? {})
        const fields = form.fields
        // The path through the form decides what is asked: answers to skipped
        // questions are dropped, and a skipped required question is not required.
        // Logic reads the answers as they are stored ("9:05" as "09:05"), as on the page.
        const facts = FormLogic.branches(fields) ? cleanAnswers(fields, input.values) : input.values
        const route = FormLogic.onPath(fields, {
          values: facts,
          hidden,
          variables: FormLogic.startingValues(form.settings.variables)
        })
        // Most submissions are written by one statement (below), which is a transaction of its own. File
        // answers (their uploads are locked, then attached), a partial response to finish, or a confirmation
        // e-mail to queue add statements, and then all of it runs in one transaction. A form deleted in the
        // meantime fails the write's foreign key: 409, as any write to a row deleted at the same moment.
        // The one statement shares its connection with other statements (the pool pipelines them), so it
        // must not wait on a lock: it holds the form first without waiting, and while a deletion (or another
        // change that locks the whole form) holds it, the submission runs as a transaction of its own, which
        // waits on a connection of its own.
        // A form with assignment rules: the case's assignee is chosen (a round robin's turn taken) in the
        // submission's transaction, so a submission that fails gives its turn back.
        const assigning = yield* assignmentRules.hasRules(actor.workspaceId, formId)
        const needsTransaction =
          assigning ||
          options.partialId !== undefined ||
          route.fields.some(takesUploads) ||
          ResponseLimits.limited(form) ||
          ((yield* Mailer).configured && route.fields.some(asksEmail))
        const write = (inTransaction: boolean) =>
          Effect.gen(function* () {
            if (inTransaction && !(yield* forms.holdForSubmission(actor.workspaceId, formId))) {
              return yield* new FormNotFound({ message: `form ${formId} not found` })
            }
            // File answers name uploads: each must be an upload to that question
            // of this form, not yet attached; its stored name, size and type
            // replace whatever the client sent.
            const uploads = yield* files.resolveAnswers(actor.workspaceId, formId, fields, route.values)
            const validated = validateAnswers(route.fields, uploads.values)
            if (uploads.issues.length > 0 || Result.isFailure(validated)) {
              const fileFields = new Set(uploads.issues.map((issue) => issue.fieldId))
              return yield* invalid([
                ...uploads.issues,
                ...(Result.isFailure(validated)
                  ? validated.failure.filter((issue) => !fileFields.has(issue.fieldId))
                  : [])
              ])
            }
            const values = stored(
              validated.success,
              hidden,
              SubmissionChecks.outcome(form, route, validated.success, hidden)
            )
            const respondent = deriveRespondent(fields, values)
            // A form with a response limit, quotas or one response per e-mail: its submissions are counted
            // one after the other.
            if (inTransaction) {
              yield* limits.claimPlace(actor.workspaceId, formId, form, validated.success, respondent.email)
            }
            // The contact and the new response's id in one statement, so the row's name, its event and its
            // activity are known before the one statement that writes them.
            const nextId = sql`nextval(pg_get_serial_sequence('responses', 'id'))::int`
            const [found] =
              respondent.email === null
                ? yield* sql<{ readonly response_id: number; readonly contact_id: null; readonly contact_name: null }>`
                select ${nextId} as response_id, null::int as contact_id, null::text as contact_name`
                : yield* sql<{
                    readonly response_id: number
                    readonly contact_id: number
                    readonly contact_name: string | null
                  }>`
                with contact as (${contacts.upsertStatement(
                  actor.workspaceId,
                  { email: respondent.email, name: respondent.name },
                  now
                )})
                select ${nextId} as response_id, contact.id as contact_id, contact.name as contact_name from contact`
            const contactId = found!.contact_id
            const name = respondent.name ?? found!.contact_name
            const text = searchText([], name, respondent.email, fields, values)
            // A partial response of the page becomes the finished one (tags a member may have set are kept).
            const finishing =
              options.partialId === undefined
                ? []
                : yield* sql<Row>`
            update responses set contact_id = ${contactId}, submitted_at = ${now}, updated_at = ${now},
              name = ${name}, email = ${respondent.email}, source = ${source}, answers = ${JSON.stringify(values)}::jsonb,
              search_text = lower(array_to_string(tags, ' ')) || ${"\n"} || ${text.slice(text.indexOf("\n") + 1)},
              finished = true, language = ${language}, started_at = ${startedAt}
            where workspace_id = ${actor.workspaceId} and form_id = ${formId} and id = ${options.partialId}
              and not finished
            returning ${sql.literal(columns)}`
            const id = finishing[0]?.id ?? found!.response_id
            // An assignee a member gave the partial response already is kept.
            const assignment =
              assigning && (finishing[0]?.assignee_id ?? null) === null
                ? yield* assignmentRules.choose(actor.workspaceId, formId, values)
                : Option.none()
            const assigneeId = Option.match(assignment, {
              onNone: () => finishing[0]?.assignee_id ?? null,
              onSome: (chosen) => chosen.assigneeId
            })
            const created: Row = {
              id,
              form_id: formId,
              submitted_at: now,
              updated_at: now,
              name,
              email: respondent.email,
              stage_id: null,
              assignee_id: assigneeId,
              tags: [],
              source,
              answers: values,
              finished: true,
              language
            }
            const event = yield* events.recordWith(
              actor.workspaceId,
              now,
              eventPayload(
                "response.created",
                { id: formId, title: form.title },
                fields,
                created,
                null,
                yield* SentLinkBase
              ),
              { tags: created.tags }
            )
            // The response (unless a partial one became it), its count, its activity and its event with the
            // deliveries it causes: one statement. The row comes back from the database, as stored.
            const shard = yield* randomShard
            const writes = [
              sql`counted as (${countResponsesInsert(actor.workspaceId, formId, shard, 1)})`,
              sql`activity as (${activities.insert(actor, id, now, [
                { type: "created", payload: { source } },
                ...Option.match(assignment, {
                  onNone: () => [],
                  onSome: (chosen): ReadonlyArray<NewActivity> => [
                    { type: "assigned", payload: { from: null, to: chosen.assigneeId, rule: chosen.kind } }
                  ]
                })
              ])})`,
              event.ctes
            ]
            // The insert reads the hold's row, so the hold comes first; the other parts run after the main query.
            const row =
              finishing[0] ??
              (yield* sql<Row>`
            with held as (${
              inTransaction ? sql`select 1 as held` : forms.holdForSubmissionNow(actor.workspaceId, formId)
            }), response as (
              insert into responses (id, workspace_id, form_id, contact_id, submitted_at, updated_at, name, email,
                tags, source, answers, search_text, language, started_at, assignee_id)
              overriding system value
              select ${id}, ${actor.workspaceId}, ${formId}, ${contactId}, ${now}, ${now}, ${name},
                ${respondent.email}, ${[]}::text[], ${source}, ${JSON.stringify(values)}::jsonb, ${text}, ${language},
                ${startedAt}::timestamptz, ${assigneeId}::int
              from held
              returning ${sql.literal(columns)}
            ), ${sql.csv(writes)}
            select response.* from response, notice`)[0]
            // (The form is gone, yet no part of the statement failed its foreign key: never seen, but not a 500.)
            if (row === undefined) return yield* new FormNotFound({ message: `form ${formId} not found` })
            if (finishing.length > 0) yield* sql`with ${sql.csv(writes)} select 1 from notice`
            const assigned =
              finishing.length > 0 && Option.isSome(assignment)
                ? ((yield* sql<Row>`
                    update responses set assignee_id = ${assignment.value.assigneeId}
                    where workspace_id = ${actor.workspaceId} and id = ${row.id}
                    returning ${sql.literal(columns)}`)[0] ?? row)
                : row
            // The rule's assignment is a `response.assigned` event after `response.created`, in the same
            // transaction: it commits or rolls back with the response.
            if (Option.isSome(assignment)) {
              yield* events.record(
                actor.workspaceId,
                now,
                {
                  event: "response.assigned",
                  ...responseEventFields(
                    { id: formId, title: form.title },
                    fields,
                    assigned,
                    null,
                    yield* SentLinkBase
                  ),
                  assignee: yield* eventMember(actor.workspaceId, assignment.value.assigneeId),
                  previousAssignee: null
                },
                { tags: assigned.tags }
              )
            }
            yield* files.attach(actor.workspaceId, row.id, uploads.fileIds, now)
            yield* respondentEmails.queueConfirmation(
              actor,
              { id: row.id, formId, email: row.email, values: row.answers, language: row.language },
              form,
              now
            )
            return toRow(assigned, undefined)
          })
        return yield* needsTransaction
          ? sql.withTransaction(write(true))
          : write(false).pipe(Effect.catchIf(Database.isLockNotAvailable, () => sql.withTransaction(write(true))))
      })

      /** A member as events name them; null for none, or one who has left the workspace. */
      const eventMember = (workspaceId: number, accountId: number | null) =>
        Effect.map(members.find(workspaceId, accountId), (member) => (member === null ? null : toEventMember(member)))

      /**
       * The events of an update, in its transaction: `response.stage_changed` (the contract's), then
       * `response.assigned` and `response.tagged` (extensions), each with the response as it is now.
       */
      const recordChangeEvents = Effect.fnUntraced(function* (
        workspaceId: number,
        now: Date,
        updated: Row,
        change: {
          readonly stage: { readonly id: number; readonly name: string } | null | undefined
          readonly assignee: boolean
          readonly previousAssigneeId: number | null
          readonly previousTags: ReadonlyArray<string>
          readonly answers: AnswerEdits.AnswerEdit | undefined
        }
      ) {
        const tagsChanged = !sameTags(updated.tags, change.previousTags)
        if (change.stage === undefined && !change.assignee && !tagsChanged && change.answers === undefined) return
        const formRows = yield* sql<{ readonly title: string }>`
          select title from forms where workspace_id = ${workspaceId} and id = ${updated.form_id}`
        const fields = yield* forms.fields(workspaceId, updated.form_id)
        const linkBase = yield* SentLinkBase
        const stage =
          change.stage !== undefined
            ? change.stage
            : updated.stage_id === null
              ? null
              : ((yield* sql<{ readonly id: number; readonly name: string }>`
                  select id, name from stages where workspace_id = ${workspaceId} and id = ${updated.stage_id}`)[0] ??
                null)
        const response = responseEventFields(
          { id: updated.form_id, title: formRows[0]!.title },
          fields,
          updated,
          stage,
          linkBase
        )
        const match = { tags: updated.tags }
        if (change.stage !== undefined) {
          yield* events.record(workspaceId, now, { event: "response.stage_changed", ...response }, match)
        }
        if (change.assignee) {
          yield* events.record(
            workspaceId,
            now,
            {
              event: "response.assigned",
              ...response,
              assignee: yield* eventMember(workspaceId, updated.assignee_id),
              previousAssignee: yield* eventMember(workspaceId, change.previousAssigneeId)
            },
            match
          )
        }
        if (tagsChanged) {
          const before = new Set(change.previousTags)
          const after = new Set(updated.tags)
          yield* events.record(
            workspaceId,
            now,
            {
              event: "response.tagged",
              ...response,
              tags: updated.tags,
              added: updated.tags.filter((t) => !before.has(t)),
              removed: change.previousTags.filter((t) => !after.has(t))
            },
            match
          )
        }
        const edit = change.answers
        if (edit !== undefined) {
          const text = (field: Field, value: AnswerValue | null) =>
            value === null ? null : Summaries.formatAnswer(field, value, linkBase)
          yield* events.record(
            workspaceId,
            now,
            {
              event: "response.updated",
              ...response,
              changes: edit.changed.map((field) => ({
                questionId: field.id,
                question: field.label,
                from: text(field, edit.from[String(field.id)] ?? null),
                to: text(field, edit.to[String(field.id)] ?? null)
              }))
            },
            match
          )
        }
      })

      /**
       * A change of a submitted response's answers, in the update's transaction: the values to store (checked,
       * with the variables and ending worked out again), the respondent's name and e-mail read from them and
       * their contact; undefined when the answers stay as they are.
       */
      const editAnswers = Effect.fnUntraced(function* (
        workspaceId: number,
        row: Row,
        edits: Readonly<Record<string, AnswerInput>>,
        now: Date
      ) {
        if (!row.finished) {
          const message = `response ${row.id} is not submitted yet: only a submitted response's answers can be edited`
          return yield* new InvalidInput({ message, details: [{ path: "answers", message }] })
        }
        const found = yield* forms.forSubmission(workspaceId, row.form_id)
        if (Option.isNone(found)) return yield* new ResponseNotFound({ message: `response ${row.id} not found` })
        const form = found.value
        const applied = AnswerEdits.apply(form, row.answers, edits)
        if (Result.isFailure(applied)) return yield* invalid(applied.failure)
        const edit = applied.success
        if (edit.changed.length === 0) return undefined
        const respondent = deriveRespondent(form.fields, edit.values)
        const contact =
          respondent.email === null
            ? undefined
            : (yield* contacts.upsertStatement(workspaceId, { email: respondent.email, name: respondent.name }, now))[0]
        return {
          ...edit,
          fields: form.fields,
          name: respondent.name ?? contact?.name ?? null,
          email: respondent.email,
          contactId: contact?.id ?? null
        }
      })

      const update = Effect.fn("Responses.update")(function* (
        actor: Actors.Actor,
        responseId: number,
        input: UpdateResponseInput
      ) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const row = yield* findRow(sql, actor.workspaceId, responseId, true)
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
                    details: [
                      { path: "stageId", message: `stage ${input.stageId} does not belong to form ${row.form_id}` }
                    ]
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
                    details: [
                      {
                        path: "assigneeId",
                        message: `account ${input.assigneeId} is not a member of this workspace`
                      }
                    ]
                  })
                }
              }
              changes.push({ field: "assigneeId", from: row.assignee_id, to: input.assigneeId })
              written.push({ type: "assigned", payload: { from: row.assignee_id, to: input.assigneeId } })
            }
            const edit =
              input.answers === undefined ? undefined : yield* editAnswers(actor.workspaceId, row, input.answers, now)
            if (edit !== undefined) {
              changes.push({ field: "answers", from: edit.from, to: edit.to })
              written.push({
                type: "answers_changed",
                payload: { questions: edit.changed.map((field) => field.label), from: edit.from, to: edit.to }
              })
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
                ${
                  edit === undefined
                    ? sql`search_text = ${tagLine} || substr(search_text, strpos(search_text, ${"\n"})),`
                    : sql`answers = ${JSON.stringify(edit.values)}::jsonb, name = ${edit.name}, email = ${edit.email},
                      contact_id = ${edit.contactId},
                      search_text = ${searchText(tags, edit.name, edit.email, edit.fields, edit.values)},`
                }
                updated_at = ${now}
              where workspace_id = ${actor.workspaceId} and id = ${responseId}
              returning ${sql.literal(columns)}`
              yield* countTags(actor.workspaceId, row.form_id, tags, 1)
              yield* countTags(actor.workspaceId, row.form_id, row.tags, -1)
              yield* activities.record(actor, responseId, now, written)
              yield* recordChangeEvents(actor.workspaceId, now, updated[0]!, {
                stage: newStage,
                assignee: input.assigneeId !== undefined && input.assigneeId !== row.assignee_id,
                previousAssigneeId: row.assignee_id,
                previousTags: row.tags,
                answers: edit
              })
            }
            return { ok: true, formId: row.form_id, changes }
          })
        )
      })

      const remove = Effect.fn("Responses.remove")(function* (actor: Actors.Actor, responseId: number) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        const blobKeys = yield* sql.withTransaction(
          Effect.gen(function* () {
            const keys = yield* files.forgetResponse(actor.workspaceId, responseId)
            const rows = yield* sql<{
              readonly form_id: number
              readonly form_title: string
              readonly tags: ReadonlyArray<string>
              readonly stage_id: number | null
              readonly finished: boolean
            }>`
            delete from responses r using forms f
            where r.workspace_id = ${actor.workspaceId} and r.id = ${responseId}
              and f.workspace_id = r.workspace_id and f.id = r.form_id
            returning r.form_id, f.title as form_title, r.tags, r.stage_id, r.finished`
            const row = rows[0]
            if (row === undefined) return yield* new ResponseNotFound({ message: `response ${responseId} not found` })
            yield* settleDeleted(actor.workspaceId, now, [
              {
                id: responseId,
                formId: row.form_id,
                formTitle: row.form_title,
                finished: row.finished,
                stageId: row.stage_id,
                tags: row.tags
              }
            ])
            return keys
          })
        )
        // Only once the deletion has committed: a blob is never gone while its record is still there.
        yield* files.deleteBlobs(blobKeys)
      })

      return Responses.of({ submit, ...partials, ...views, update, remove })
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
export const layerPartialPurger = (
  options: { readonly maxAgeDays?: number | undefined } = {}
): Layer.Layer<never, never, Responses> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const responses = yield* Responses
      const maxAgeMs = (options.maxAgeDays ?? defaultPartialMaxAgeDays) * 24 * 60 * 60 * 1000
      const once = responses.purgePartials(maxAgeMs).pipe(
        Effect.tap((n) =>
          n > 0 ? Effect.logInfo(`qforms: deleted ${n} partial responses older than the limit`) : Effect.void
        ),
        Effect.catchCause((cause) => Effect.logWarning("qforms: purging partial responses failed", cause))
      )
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(once, Effect.sleep("1 hour"))))
    })
  )
