/**
 * Forms: a title, a status and ordered questions (see `Fields.ts`). Only a
 * `published` form takes responses. `updatedAt` moves on any change to the
 * form, its questions or its stages, never when a response arrives. What
 * forms are to clients is `FormModels.ts` (exported here too), their rows
 * `FormRows.ts`, the checks of a form being saved `FormChecks.ts`.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { Actors, type Forbidden, FormNotFound, InvalidInput } from "../kernel/index.ts"
import type { Field, FieldInput } from "./Fields.ts"
import { FormFiles } from "./FormFiles.ts"
import { imageIdsOf } from "./ImageRefs.ts"
import { responseCount } from "./FormResponseCount.ts"
import * as FormCache from "./FormCache.ts"
import * as FormLogic from "./FormLogic.ts"
import { Stages } from "./Stages.ts"
import type { FormStatus } from "./FormStatus.ts"
import type { FormSettings } from "./FormSettings.ts"
import * as FormTranslations from "./Translations.ts"
import type { Translation, Translations } from "./Translations.ts"
import { Database } from "../storage/index.ts"
import { Events } from "../events/index.ts"

import {
  type CreateFormInput,
  type FormSummary,
  type FormWithFields,
  type PublicForm,
  type SubmittedForm,
  type UpdateFormInput,
  makePublicId
} from "./FormModels.ts"
import { checkLogic, checkTranslations, missingImages } from "./FormChecks.ts"
import {
  type FieldRow,
  type FormRow,
  type StatusRow,
  calculateJson,
  newFieldRows,
  decodeHiddenFields,
  decodeSettings,
  decodeTranslations,
  logicJson,
  showIfJson,
  toField,
  toSummary
} from "./FormRows.ts"

export { FormNotFound } from "../kernel/index.ts"

export { FormStatus } from "./FormStatus.ts"

export * from "./FormModels.ts"

type ReadErrors = FormNotFound | SqlError.SqlError

/**
 * Forms and their questions.
 *
 * @example
 * ```ts
 * const forms = yield* Forms
 * const form = yield* forms.create(actor, {
 *   title: "Contact us",
 *   fields: [{ type: "email", label: "Email", required: true, options: null }]
 * })
 * yield* forms.update(actor, form.id, { status: "published" })
 * ```
 */
export class Forms extends Context.Service<
  Forms,
  {
    /** The workspace's forms, newest change first. */
    readonly list: (actor: Actors.Actor) => Effect.Effect<ReadonlyArray<FormSummary>, SqlError.SqlError>
    /**
     * A form with its questions. `get`, `getPublic` and `forSubmission` read
     * through this process's {@link FormCache}: a form read once is served
     * from memory until it changes.
     */
    readonly get: (actor: Actors.Actor, formId: number) => Effect.Effect<FormWithFields, ReadErrors>
    readonly getSummary: (actor: Actors.Actor, formId: number) => Effect.Effect<FormSummary, ReadErrors>
    /** A form's questions in order (no workspace check beyond the id pair). */
    readonly fields: (workspaceId: number, formId: number) => Effect.Effect<ReadonlyArray<Field>, SqlError.SqlError>
    /** A form by its public id, in whatever workspace it is. */
    readonly getPublic: (publicId: string) => Effect.Effect<PublicForm, ReadErrors>
    /**
     * What a submission needs of a form: its title, status, hidden fields and
     * questions (cached, or read in one query). None when the workspace has
     * no such form.
     * Not locked: a write that refers to the form fails its foreign key if the
     * form is deleted meanwhile (see {@link holdForSubmission}).
     */
    readonly forSubmission: (
      workspaceId: number,
      formId: number
    ) => Effect.Effect<Option.Option<SubmittedForm>, SqlError.SqlError>
    /**
     * Locks the form against deletion (`for key share`: edits do not wait)
     * until the caller's transaction ends; false when it is gone. A submission
     * that locks rows of its own (its uploads) takes this first, in the order
     * a deletion takes them, so the two cannot deadlock.
     */
    readonly holdForSubmission: (workspaceId: number, formId: number) => Effect.Effect<boolean, SqlError.SqlError>
    /**
     * The same hold as a statement for the CTE of a submission written in one
     * statement (`held as (${holdForSubmissionNow(…)})`; a row when the form
     * is there), which fails at once (SQLSTATE 55P03,
     * `Database.isLockNotAvailable`) instead of waiting while a deletion holds
     * the form: the statement shares its connection with others, which would
     * all wait behind it.
     */
    readonly holdForSubmissionNow: (workspaceId: number, formId: number) => Statement.Statement<{ readonly held: 1 }>
    /** Creates a draft form with its questions and the default stages. */
    readonly create: (
      actor: Actors.Actor,
      input: CreateFormInput,
      options?: { readonly status?: FormStatus | undefined }
    ) => Effect.Effect<FormSummary, Forbidden | InvalidInput | SqlError.SqlError>
    /** Changes any subset; `fields` replaces the questions, keeping those that keep their id (and their answers). */
    readonly update: (
      actor: Actors.Actor,
      formId: number,
      input: UpdateFormInput
    ) => Effect.Effect<FormSummary, ReadErrors | Forbidden | InvalidInput>
    /** Deletes the form with its questions, stages, responses, notes, activities, pending events and uploaded files. */
    readonly remove: (actor: Actors.Actor, formId: number) => Effect.Effect<void, ReadErrors | Forbidden>
    /**
     * Sets the form's translation into one language (replacing the one there was): 400 naming what it has that
     * the form does not, or when the form has 30 other languages already.
     */
    readonly putTranslation: (
      actor: Actors.Actor,
      formId: number,
      language: string,
      translation: Translation
    ) => Effect.Effect<Translation, ReadErrors | Forbidden | InvalidInput>
    /** Takes a language's translation away from the form (404 when it has none). */
    readonly removeTranslation: (
      actor: Actors.Actor,
      formId: number,
      language: string
    ) => Effect.Effect<void, ReadErrors | Forbidden | FormTranslations.TranslationNotFound>
  }
>()("@qforms/core/Forms") {
  static readonly layer = Layer.effect(
    Forms,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const stages = yield* Stages
      const events = yield* Events
      const files = yield* FormFiles

      /**
       * Inside the saving transaction: 400 naming each image the form would show (its theme's logo, its choices'
       * pictures) that is not in the workspace's library. The check's share lock keeps the images from being
       * deleted until the save commits.
       */
      const checkImages = Effect.fn("Forms.checkImages")(function* (
        workspaceId: number,
        saved: ReadonlyArray<{ readonly options?: FieldInput["options"] | null }>,
        settings: FormSettings | undefined
      ) {
        const missing = new Set(
          yield* files.missingImages(
            workspaceId,
            imageIdsOf(
              saved as ReadonlyArray<{ readonly options?: { readonly images?: Record<string, string> } }>,
              settings
            )
          )
        )
        if (missing.size > 0) return yield* missingImages(missing, saved, settings)
      })
      /** The saved texts of a form, inside the saving transaction (its questions with their ids). */
      const translatable = Effect.fnUntraced(function* (workspaceId: number, formId: number) {
        const rows = yield* sql<{
          readonly title: string
          readonly description: string | null
          readonly settings: unknown
          readonly translations: unknown
        }>`select title, description, settings, translations from forms
          where workspace_id = ${workspaceId} and id = ${formId}`
        if (rows.length === 0) return yield* notFound(formId)
        const row = rows[0]!
        return {
          title: row.title,
          description: row.description,
          fields: yield* fields(workspaceId, formId),
          settings: yield* decodeSettings(row.settings),
          translations: yield* decodeTranslations(row.translations)
        }
      })

      /** Saves the translations, inside the saving transaction. */
      const saveTranslations = (workspaceId: number, formId: number, translations: Translations) =>
        sql`update forms set translations = ${JSON.stringify(translations)}::jsonb
          where workspace_id = ${workspaceId} and id = ${formId}`

      const cache = yield* FormCache.make<FormWithFields>()

      const summaryColumns = sql`
        f.id, f.public_id, f.title, f.description, f.status, f.folder_id, f.created_at, f.updated_at,
        ${responseCount(sql, sql`f.workspace_id`, sql`f.id`)}::int as response_count`

      const notFound = (formId: number) => new FormNotFound({ message: `form ${formId} not found` })

      const list = Effect.fn("Forms.list")(function* (actor: Actors.Actor) {
        const rows = yield* sql<FormRow>`
          select ${summaryColumns} from forms f
          where f.workspace_id = ${actor.workspaceId}
          order by f.updated_at desc, f.id desc`
        return rows.map(toSummary)
      })

      const getSummary = Effect.fn("Forms.getSummary")(function* (actor: Actors.Actor, formId: number) {
        const rows = yield* sql<FormRow>`
          select ${summaryColumns} from forms f where f.workspace_id = ${actor.workspaceId} and f.id = ${formId}`
        if (rows.length === 0) return yield* notFound(formId)
        return toSummary(rows[0]!)
      })

      const fields = Effect.fn("Forms.fields")(function* (workspaceId: number, formId: number) {
        const rows = yield* sql<FieldRow>`
          select id, type, label, required, position, options, logic, show_if, calculate, page, sensitive from fields
          where workspace_id = ${workspaceId} and form_id = ${formId} order by position, id`
        return yield* Effect.forEach(rows, toField)
      })

      /**
       * The questions of the form `f` of a query (in its workspace) as one json
       * column: a form and its questions in one round trip. json_build_object keeps the plain
       * columns' JSON types (numbers, strings, booleans); the jsonb ones are
       * decoded by {@link toField}, as from `fields` itself.
       */
      const fieldsOfForm = sql`coalesce((
          select json_agg(json_build_object('id', q.id, 'type', q.type, 'label', q.label, 'required', q.required,
            'position', q.position, 'options', q.options, 'logic', q.logic, 'show_if', q.show_if,
            'calculate', q.calculate, 'page', q.page, 'sensitive', q.sensitive)
            order by q.position, q.id)
          from fields q where q.workspace_id = f.workspace_id and q.form_id = f.id), '[]') as fields`

      const withFields = (
        row: Omit<FormRow, "response_count"> & {
          readonly hidden_fields: unknown
          readonly settings: unknown
          readonly translations: unknown
          readonly fields: ReadonlyArray<FieldRow>
        }
      ) =>
        Effect.all([
          Effect.forEach(row.fields, toField),
          decodeHiddenFields(row.hidden_fields),
          decodeSettings(row.settings),
          decodeTranslations(row.translations)
        ]).pipe(
          Effect.map(
            ([list, hiddenFields, settings, translations]): FormWithFields => ({
              id: row.id,
              publicId: row.public_id,
              title: row.title,
              description: row.description,
              status: row.status,
              fields: list,
              hiddenFields,
              settings,
              translations
            })
          )
        )

      /**
       * The form `where` picks, with its questions and workspace, read in one
       * query and kept in the cache (unless a change came in while it was read).
       */
      const load = Effect.fnUntraced(function* (where: Statement.Fragment) {
        const stamp = cache.stamp()
        const rows = yield* sql<
          Omit<FormRow, "response_count"> & {
            readonly workspace_id: number
            readonly hidden_fields: unknown
            readonly settings: unknown
            readonly translations: unknown
            readonly fields: ReadonlyArray<FieldRow>
          }
        >`
          select f.id, f.workspace_id, f.public_id, f.title, f.description, f.status, f.folder_id, f.created_at,
            f.updated_at, f.hidden_fields, f.settings, f.translations, ${fieldsOfForm}
          from forms f where ${where}`
        if (rows.length === 0) return Option.none<PublicForm>()
        const row = rows[0]!
        const form = yield* withFields(row)
        cache.put(stamp, row.workspace_id, form)
        return Option.some<PublicForm>({ workspaceId: row.workspace_id, form })
      })

      /** A form of the workspace with its questions: cached, or loaded. */
      const readForm = (workspaceId: number, formId: number) => {
        const cached = cache.get(workspaceId, formId)
        return cached !== undefined
          ? Effect.succeed(Option.some(cached))
          : Effect.map(
              load(sql`f.workspace_id = ${workspaceId} and f.id = ${formId}`),
              Option.map((found) => found.form)
            )
      }

      const get = Effect.fn("Forms.get")(function* (actor: Actors.Actor, formId: number) {
        const found = yield* readForm(actor.workspaceId, formId)
        if (Option.isNone(found)) return yield* notFound(formId)
        return found.value
      })

      const getPublic = Effect.fn("Forms.getPublic")(function* (publicId: string) {
        const found = cache.getPublic(publicId) ?? Option.getOrUndefined(yield* load(sql`f.public_id = ${publicId}`))
        if (found === undefined) return yield* new FormNotFound({ message: `form ${publicId} not found` })
        return found
      })

      const forSubmission = Effect.fn("Forms.forSubmission")(function* (workspaceId: number, formId: number) {
        return yield* readForm(workspaceId, formId)
      })

      const holdForSubmission = Effect.fn("Forms.holdForSubmission")(function* (workspaceId: number, formId: number) {
        const rows = yield* sql`
          select 1 from forms where workspace_id = ${workspaceId} and id = ${formId} for key share`
        return rows.length > 0
      })

      const holdForSubmissionNow = (workspaceId: number, formId: number) =>
        sql<{ readonly held: 1 }>`
          select 1 as held from forms where workspace_id = ${workspaceId} and id = ${formId} for key share nowait`

      /** Replaces a form's questions; inside the caller's transaction. */
      const replaceFields = Effect.fnUntraced(function* (
        workspaceId: number,
        formId: number,
        inputs: ReadonlyArray<FieldInput>
      ) {
        const existing = new Set(
          (yield* sql<{ readonly id: number }>`select id from fields where form_id = ${formId} for update`).map(
            (r) => r.id
          )
        )
        const kept = new Set<number>()
        const issues: Array<{ path: string; message: string }> = []
        inputs.forEach((input, index) => {
          if (input.id === undefined) return
          if (!existing.has(input.id)) {
            issues.push({ path: `fields.${index}.id`, message: `question ${input.id} is not in form ${formId}` })
          } else if (kept.has(input.id)) {
            issues.push({ path: `fields.${index}.id`, message: `question ${input.id} is listed twice` })
          }
          kept.add(input.id)
        })
        if (issues.length > 0) {
          return yield* new InvalidInput({
            message: issues.map((i) => `${i.path}: ${i.message}`).join("; "),
            details: issues
          })
        }
        const removed = [...existing].filter((id) => !kept.has(id))
        if (removed.length > 0) {
          yield* sql`delete from fields where form_id = ${formId} and ${sql.in("id", removed)}`
        }
        yield* Effect.forEach(
          inputs,
          (input, position) =>
            input.id === undefined
              ? Effect.void
              : Effect.asVoid(sql`
            update fields set type = ${input.type}, label = ${input.label}, required = ${input.required},
              position = ${position}, options = ${input.options === null ? null : JSON.stringify(input.options)}::jsonb,
              logic = ${logicJson(input)}::jsonb, show_if = ${showIfJson(input)}::jsonb,
              calculate = ${calculateJson(input)}::jsonb, page = ${input.page ?? null},
              sensitive = ${input.sensitive === true}
            where form_id = ${formId} and id = ${input.id}`),
          { discard: true }
        )
        const added = newFieldRows(workspaceId, formId, inputs)
        const idAt = new Map<number, number>()
        inputs.forEach((input, position) => {
          if (input.id !== undefined) idAt.set(position, input.id)
        })
        if (added.length > 0) {
          const rows = yield* sql<{ readonly id: number; readonly position: number }>`
            insert into fields (workspace_id, form_id, type, label, required, position, options, logic, show_if,
              calculate, page, sensitive)
            select workspace_id, form_id, type, label, required, position, options, logic, show_if, calculate, page,
              sensitive
            from jsonb_to_recordset(${JSON.stringify(added)}::jsonb)
              as t(workspace_id int, form_id int, type text, label text, required bool, position int, options jsonb,
                logic jsonb, show_if jsonb, calculate jsonb, page text, sensitive bool)
            returning id, position`
          for (const row of rows) idAt.set(row.position, row.id)
        }
        // Logic that named questions of this request by their `ref` now names their ids.
        const ids = new Map<string, number>()
        inputs.forEach((input, position) => {
          const id = idAt.get(position)
          if (input.ref !== undefined && id !== undefined) ids.set(input.ref, id)
        })
        yield* Effect.forEach(
          inputs,
          (input, position) => {
            const id = idAt.get(position)
            if (id === undefined || !FormLogic.hasRefs(input.logic, input.showIf, input.calculate)) return Effect.void
            const logic = input.logic === undefined ? undefined : FormLogic.resolveRefs(input.logic, ids)
            const showIf =
              input.showIf === undefined || input.showIf === null ? null : FormLogic.resolveCondition(input.showIf, ids)
            const calculate =
              input.calculate === undefined ? undefined : FormLogic.resolveCalculations(input.calculate, ids)
            return Effect.asVoid(sql`
            update fields set
              logic = ${logic === undefined || logic.length === 0 ? null : JSON.stringify(logic)}::jsonb,
              show_if = ${showIf === null ? null : JSON.stringify(showIf)}::jsonb,
              calculate = ${calculate === undefined || calculate.length === 0 ? null : JSON.stringify(calculate)}::jsonb
            where form_id = ${formId} and id = ${id}`)
          },
          { discard: true }
        )
      })

      /**
       * `form.published` or `form.closed` when a form's status became one of them (a new form counts as coming
       * from `draft`), in the change's transaction.
       */
      const recordStatusEvent = (workspaceId: number, now: Date, row: StatusRow, previous: FormStatus | undefined) => {
        if (previous === undefined || previous === row.status || row.status === "draft") return Effect.void
        return events.record(workspaceId, now, {
          event: row.status === "published" ? "form.published" : "form.closed",
          form: { id: row.id, title: row.title, publicId: row.public_id, status: row.status },
          previousStatus: previous
        })
      }

      const create = Effect.fn("Forms.create")(function* (
        actor: Actors.Actor,
        input: CreateFormInput,
        options: { readonly status?: FormStatus | undefined } = {}
      ) {
        yield* Actors.requireWrite(actor)
        yield* checkLogic(input.fields ?? [], input.hiddenFields ?? [], input.settings)
        const now = new Date(yield* Clock.currentTimeMillis)
        const publicId = yield* Effect.sync(makePublicId)
        const formId = yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<StatusRow>`
            insert into forms (workspace_id, public_id, title, description, status, folder_id, created_at, updated_at,
              hidden_fields, settings)
            values (${actor.workspaceId}, ${publicId}, ${input.title ?? "Untitled form"}, ${input.description ?? null},
              ${options.status ?? "draft"}, ${input.folderId ?? null}, ${now}, ${now},
              ${JSON.stringify(input.hiddenFields ?? [])}::jsonb, ${JSON.stringify(input.settings ?? {})}::jsonb)
            returning id, title, public_id, status`
            const formId = rows[0]!.id
            yield* recordStatusEvent(actor.workspaceId, now, rows[0]!, "draft")
            yield* checkImages(actor.workspaceId, input.fields ?? [], input.settings)
            yield* replaceFields(actor.workspaceId, formId, input.fields ?? [])
            if (input.translations !== undefined && Object.keys(input.translations).length > 0) {
              // The form was inserted just before, in this transaction.
              const saved = yield* translatable(actor.workspaceId, formId).pipe(
                Effect.catchTag("FormNotFound", Effect.die)
              )
              yield* checkTranslations(saved, input.translations)
              yield* saveTranslations(actor.workspaceId, formId, input.translations)
            }
            yield* stages.createDefaults(actor.workspaceId, formId)
            return formId
          })
        )
        return yield* Effect.orDie(getSummary(actor, formId))
      })

      /**
       * Runs a change of the form (a transaction, run again if PostgreSQL breaks a deadlock with it: a deletion
       * cascades to rows other writes lock first), then drops the form from this process's cache (other
       * processes hear the notice).
       */
      const changing = <A, E, R>(workspaceId: number, formId: number, change: Effect.Effect<A, E, R>) =>
        Effect.ensuring(
          Database.retryingCollisions(change),
          Effect.sync(() => cache.drop(workspaceId, formId))
        )

      const update = Effect.fn("Forms.update")(function* (actor: Actors.Actor, formId: number, input: UpdateFormInput) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* changing(
          actor.workspaceId,
          formId,
          sql.withTransaction(
            Effect.gen(function* () {
              const keep = <A>(column: string, value: A | undefined) =>
                value === undefined ? sql`${sql(column)}` : sql`${value as never}`
              const before =
                input.status === undefined
                  ? []
                  : yield* sql<{ readonly status: FormStatus }>`
                    select status from forms where workspace_id = ${actor.workspaceId} and id = ${formId} for update`
              const rows = yield* sql<
                StatusRow & {
                  readonly hidden_fields: unknown
                  readonly settings: unknown
                  readonly untranslated: boolean
                }
              >`
            update forms set
              title = ${keep("title", input.title)},
              description = ${keep("description", input.description)},
              status = ${keep("status", input.status)},
              folder_id = ${keep("folder_id", input.folderId)},
              hidden_fields = ${
                input.hiddenFields === undefined
                  ? sql`hidden_fields`
                  : sql`${JSON.stringify(input.hiddenFields)}::jsonb`
              },
              settings = ${input.settings === undefined ? sql`settings` : sql`${JSON.stringify(input.settings)}::jsonb`},
              updated_at = ${now}
            where workspace_id = ${actor.workspaceId} and id = ${formId}
            returning id, title, public_id, status, hidden_fields, settings, translations = '{}'::jsonb as untranslated`
              if (rows.length === 0) return yield* notFound(formId)
              yield* recordStatusEvent(actor.workspaceId, now, rows[0]!, before[0]?.status)
              if (input.fields !== undefined || input.hiddenFields !== undefined || input.settings !== undefined) {
                const saved = input.fields ?? (yield* fields(actor.workspaceId, formId))
                yield* checkLogic(
                  saved,
                  rows[0]!.hidden_fields as ReadonlyArray<FormLogic.HiddenField>,
                  rows[0]!.settings as FormSettings
                )
                yield* checkImages(actor.workspaceId, saved, rows[0]!.settings as FormSettings)
              }
              if (input.fields !== undefined) yield* replaceFields(actor.workspaceId, formId, input.fields)
              if (input.translations !== undefined) {
                yield* checkTranslations(yield* translatable(actor.workspaceId, formId), input.translations)
                yield* saveTranslations(actor.workspaceId, formId, input.translations)
              } else if (
                (input.fields !== undefined || input.settings !== undefined) &&
                rows[0]!.untranslated !== true
              ) {
                // What the form no longer has goes from its translations, so they always fit it (a form without
                // translations has nothing to read again).
                const saved = yield* translatable(actor.workspaceId, formId)
                const pruned = Object.fromEntries(
                  Object.entries(saved.translations).map(([language, t]) => [
                    language,
                    FormTranslations.prune(saved, t)
                  ])
                )
                if (JSON.stringify(pruned) !== JSON.stringify(saved.translations)) {
                  yield* saveTranslations(actor.workspaceId, formId, pruned)
                }
                yield* checkTranslations(saved, pruned)
              }
            })
          )
        )
        return yield* getSummary(actor, formId)
      })

      const remove = Effect.fn("Forms.remove")(function* (actor: Actors.Actor, formId: number) {
        yield* Actors.requireWrite(actor)
        const blobKeys = yield* changing(
          actor.workspaceId,
          formId,
          sql.withTransaction(
            Effect.gen(function* () {
              // The form first: a submission holds it (key share) before it locks its files, so
              // taking them in the same order cannot deadlock.
              const rows = yield* sql<StatusRow & { readonly responses: number }>`
            select id, title, public_id, status,
              (select count(*)::int from responses where workspace_id = ${actor.workspaceId} and form_id = ${formId})
                as responses
            from forms where workspace_id = ${actor.workspaceId} and id = ${formId} for update`
              if (rows.length === 0) return yield* notFound(formId)
              const form = rows[0]!
              const keys = yield* files.forgetForm(actor.workspaceId, formId)
              yield* sql`delete from forms where workspace_id = ${actor.workspaceId} and id = ${formId}`
              // After the deletion: only workspace-wide subscriptions are left to hear it.
              const now = new Date(yield* Clock.currentTimeMillis)
              yield* events.record(actor.workspaceId, now, {
                event: "form.deleted",
                form: { id: form.id, title: form.title, publicId: form.public_id, status: form.status },
                responses: form.responses,
                deletedAt: now.toISOString()
              })
              return keys
            })
          )
        )
        // Only once the deletion has committed: a blob is never gone while its record is still there.
        yield* files.deleteBlobs(blobKeys)
      })

      /**
       * A change of a form's translations by a writer: in one transaction with the form locked (404 when it is
       * gone), its cache dropped.
       */
      const changingTranslations = <E>(
        actor: Actors.Actor,
        formId: number,
        change: (now: Date) => Effect.Effect<unknown, E | ReadErrors>
      ) =>
        Effect.gen(function* () {
          yield* Actors.requireWrite(actor)
          const now = new Date(yield* Clock.currentTimeMillis)
          yield* changing(
            actor.workspaceId,
            formId,
            sql.withTransaction(
              Effect.gen(function* () {
                const locked = yield* sql`
                  select 1 from forms where workspace_id = ${actor.workspaceId} and id = ${formId} for update`
                if (locked.length === 0) return yield* notFound(formId)
                yield* change(now)
              })
            )
          )
        })

      const putTranslation = Effect.fn("Forms.putTranslation")(function* (
        actor: Actors.Actor,
        formId: number,
        language: string,
        translation: Translation
      ) {
        yield* changingTranslations(actor, formId, (now) =>
          Effect.gen(function* () {
            const saved = yield* translatable(actor.workspaceId, formId)
            const others = Object.keys(saved.translations).filter((l) => l !== language)
            if (others.length >= FormTranslations.MAX_TRANSLATIONS) {
              return yield* new InvalidInput({
                message: `a form has at most ${FormTranslations.MAX_TRANSLATIONS} translations`
              })
            }
            yield* checkTranslations(saved, { [language]: translation })
            yield* sql`update forms
              set translations = translations || jsonb_build_object(${language}::text, ${JSON.stringify(translation)}::jsonb),
                updated_at = ${now}
              where workspace_id = ${actor.workspaceId} and id = ${formId}`
          })
        )
        return translation
      })

      const removeTranslation = Effect.fn("Forms.removeTranslation")(function* (
        actor: Actors.Actor,
        formId: number,
        language: string
      ) {
        yield* changingTranslations(actor, formId, (now) =>
          Effect.gen(function* () {
            const removed =
              yield* sql`update forms set translations = translations - ${language}::text, updated_at = ${now}
              where workspace_id = ${actor.workspaceId} and id = ${formId} and (translations -> ${language}::text) is not null
              returning id`
            if (removed.length === 0) {
              return yield* new FormTranslations.TranslationNotFound({
                message: `form ${formId} has no translation into ${language}`
              })
            }
          })
        )
      })

      return Forms.of({
        list,
        get,
        getSummary,
        fields,
        getPublic,
        forSubmission,
        holdForSubmission,
        holdForSubmissionNow,
        create,
        update,
        remove,
        putTranslation,
        removeTranslation
      })
    })
  ).pipe(Layer.provide([Events.layer, Stages.layer]))
}
