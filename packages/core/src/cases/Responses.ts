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
 * side (list, stream, detail) in `ResponseViews.ts`, changes of one case or
 * many in `ResponseUpdates.ts`, the tag counts in `ResponseCounts.ts`, and the
 * fold of what is derived (tallies, the form's count) in `ResponseFold.ts`.
 */
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
import {
  Actors,
  Conflict,
  type Forbidden,
  FormNotFound,
  type InvalidInput,
  ResponseNotFound,
  SentLinkBase
} from "../kernel/index.ts"
import { Contacts } from "./Contacts.ts"
import { Events } from "../events/index.ts"
import {
  type AnswerValue,
  cleanAnswers,
  FormLogic,
  Forms,
  Sla,
  Stages,
  type SubmittedForm,
  takesUploads,
  validateAnswers,
  WorkspaceSettingsStore
} from "../forms/index.ts"
import { asksEmail, deriveRespondent } from "./Respondents.ts"
import { Files } from "../files/index.ts"
import { Mailer } from "../mail/index.ts"
import { CaseMail } from "./CaseMail.ts"
import * as PartialResponses from "./PartialResponses.ts"
import * as ResponseDeletions from "./ResponseDeletions.ts"
import * as ResponseLimits from "./ResponseLimits.ts"
import { Database } from "../storage/index.ts"
import type {
  BulkUpdate,
  BulkUpdateResult,
  ListOptions,
  ResponseDetail,
  ResponseFilter,
  ResponseList,
  ResponseListHead,
  ResponseRow,
  ResponseSource,
  SubmitInput,
  UpdateResponseInput,
  UpdateResponseResult,
  WorkspaceListOptions,
  WorkspaceResponseList
} from "./ResponseModels.ts"
import { columns, eventPayload, type Row, responseEventFields, searchText, toRow } from "./ResponseRows.ts"
import * as ResponseUpdates from "./ResponseUpdates.ts"
import * as ResponseViews from "./ResponseViews.ts"
import * as SubmissionChecks from "./SubmissionChecks.ts"
import { fingerprintOf, isKeyTaken, SubmissionKeys, type Used } from "./SubmissionKeys.ts"
import { Members } from "../identity/index.ts"

export { ResponseNotFound } from "../kernel/index.ts"
export * from "./ResponseModels.ts"
export { ResponseEmail, ResponseReply } from "./CaseMail.ts"

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
        /**
         * The client's `Idempotency-Key` (see SubmissionKeys.ts): a submission sent again with it answers the
         * response the first one stored; with another body, 409.
         */
        readonly idempotencyKey?: string | undefined
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
     * The workspace-wide list (the inbox across forms): submitted responses of every form, or of `formId`,
     * newest first, filtered, a page at a time (default 50); each row names its form. `assignee: "me"` is
     * the caller's account; `open` keeps cases in no stage or an open one; `stage` needs `formId`.
     *
     * @example
     * const page = yield* responses.listWorkspace(actor, { assignee: "me", open: true, limit: 20 })
     * const next = yield* responses.listWorkspace(actor, { assignee: "me", open: true, limit: 20, cursor: page.nextCursor! })
     */
    readonly listWorkspace: (
      actor: Actors.Actor,
      options?: WorkspaceListOptions
    ) => Effect.Effect<WorkspaceResponseList, FormNotFound | InvalidInput | SqlError.SqlError>
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
    /**
     * Sets the stage and/or the assignee of many cases, and/or adds and removes
     * tags, in one transaction: every one of the ids (404 naming the missing
     * ones), or the cases the filters match (at most
     * {@link ResponseUpdates.maxBulkResponses}). Each case that changes gets
     * its activities and events, as with {@link update}; all or nothing.
     */
    readonly updateMany: (
      actor: Actors.Actor,
      input: BulkUpdate
    ) => Effect.Effect<BulkUpdateResult, ResponseNotFound | InvalidInput | Forbidden | SqlError.SqlError>
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
      const contacts = yield* Contacts
      const activities = yield* Activities
      const assignmentRules = yield* AssignmentRulesService
      const events = yield* Events
      const files = yield* Files
      const respondentEmails = yield* CaseMail
      const workspaceSettings = yield* WorkspaceSettingsStore
      const settleDeleted = yield* ResponseDeletions.make
      const { checkHidden, invalid, openForm, stored } = yield* SubmissionChecks.make
      const partials = yield* PartialResponses.make
      const limits = yield* ResponseLimits.make
      const keys = yield* SubmissionKeys
      const views = yield* ResponseViews.make
      const { eventMember, ...updates } = yield* ResponseUpdates.make

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
          readonly idempotencyKey?: string | undefined
        } = {}
      ) {
        const language = options.language ?? input.language ?? null
        yield* Actors.requireSubmit(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        // A submission sent again with its Idempotency-Key answers what the first one stored.
        const key = options.idempotencyKey
        const fingerprint = key === undefined ? "" : fingerprintOf(formId, input)
        const replay = (used: Used) =>
          Effect.gen(function* () {
            const [row] =
              used.fingerprint === fingerprint
                ? yield* sql<Row>`select ${sql.literal(columns)} from responses
                    where workspace_id = ${actor.workspaceId} and id = ${used.responseId}`
                : []
            if (row !== undefined) return toRow(row, undefined, undefined, now.getTime())
            return yield* new Conflict({
              message:
                "this Idempotency-Key was used for another submission: a retry sends the same body, a new submission a new key"
            })
          })
        if (key !== undefined) {
          const used = yield* keys.find(actor.workspaceId, key)
          if (Option.isSome(used)) return yield* replay(used.value)
        }
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
        // The SLA's due times, from the form's targets as they are now (a later change applies to new cases).
        const due =
          form.settings.sla === undefined || form.settings.sla === null
            ? Sla.dueTimes(undefined, undefined, now)
            : Sla.dueTimes(yield* workspaceSettings.businessHoursOf(actor.workspaceId), form.settings.sla, now)
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
              finished = true, language = ${language}, started_at = ${startedAt},
              first_response_due_at = ${due.firstResponseDueAt}, first_response_warn_at = ${due.firstResponseWarnAt},
              resolve_due_at = ${due.resolveDueAt}, resolve_warn_at = ${due.resolveWarnAt}
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
            // The response (unless a partial one became it), its activity and its event with the deliveries it
            // causes: one statement. The row comes back from the database, as stored. What is derived from it
            // (tallies, the form's count) is folded in later (ResponseFold.ts): its trigger only queues it.
            const writes = [
              sql`activity as (${activities.insert(actor, id, now, [
                { type: "created", payload: { source } },
                ...Option.match(assignment, {
                  onNone: () => [],
                  onSome: (chosen): ReadonlyArray<NewActivity> => [
                    { type: "assigned", payload: { from: null, to: chosen.assigneeId, rule: chosen.kind } }
                  ]
                })
              ])})`,
              event.ctes,
              ...(key === undefined ? [] : [keys.record(actor.workspaceId, key, fingerprint, id, now)])
            ]
            // The insert reads the hold's row, so the hold comes first; the other parts run after the main query.
            const row =
              finishing[0] ??
              (yield* sql<Row>`
            with held as (${
              inTransaction ? sql`select 1 as held` : forms.holdForSubmissionNow(actor.workspaceId, formId)
            }), response as (
              insert into responses (id, workspace_id, form_id, contact_id, submitted_at, updated_at, name, email,
                tags, source, answers, search_text, language, started_at, first_response_due_at,
                first_response_warn_at, resolve_due_at, resolve_warn_at, assignee_id)
              overriding system value
              select ${id}, ${actor.workspaceId}, ${formId}, ${contactId}, ${now}, ${now}, ${name},
                ${respondent.email}, ${[]}::text[], ${source}, ${JSON.stringify(values)}::jsonb, ${text}, ${language},
                ${startedAt}::timestamptz, ${due.firstResponseDueAt}::timestamptz, ${due.firstResponseWarnAt}::timestamptz,
                ${due.resolveDueAt}::timestamptz, ${due.resolveWarnAt}::timestamptz, ${assigneeId}::int
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
            return toRow(assigned, undefined, undefined, now.getTime())
          })
        const written = needsTransaction
          ? sql.withTransaction(write(true))
          : write(false).pipe(Effect.catchIf(Database.isLockNotAvailable, () => sql.withTransaction(write(true))))
        // The same key sent twice at once: this one waited for the other's key row, then found it taken.
        return yield* key === undefined
          ? written
          : written.pipe(
              Effect.catchIf(isKeyTaken, (error) =>
                Effect.flatMap(keys.find(actor.workspaceId, key), (used) =>
                  Option.isSome(used) ? replay(used.value) : Effect.fail(error)
                )
              )
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
            returning r.form_id, f.title as form_title,
              -- A response merged into another (ResponseMerges.ts) left the counts already: it settles as nothing.
              case when r.merged_into is null then r.tags else '{}'::text[] end as tags, r.stage_id,
              r.finished and r.merged_into is null as finished`
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

      return Responses.of({ submit, ...partials, ...views, ...updates, remove })
    })
  )
    .pipe(
      Layer.provide([
        Activities.layer,
        AssignmentRulesService.layer,
        Contacts.layer,
        Events.layer,
        Files.layer,
        Forms.layer,
        Members.layer,
        WorkspaceSettingsStore.layer,
        SubmissionKeys.layer
      ])
    )
    .pipe(Layer.provide([Stages.layer]))
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
