/**
 * Forms: a title, a status and ordered questions (see `Fields.ts`). Only a
 * `published` form takes responses. `updatedAt` moves on any change to the
 * form, its questions or its stages, never when a response arrives.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as Actors from "./Actors.ts"
import { type Forbidden, FormNotFound, InvalidInput } from "./Errors.ts"
import { type AnyFieldOptions, Field, FieldInput, type FieldType } from "./Fields.ts"
import { Files } from "./Files.ts"
import * as FormLogic from "./FormLogic.ts"
import { Stages } from "./Stages.ts"
import { Id } from "./Ids.ts"
import { trimWithoutBidiControls } from "./DisplayText.ts"

export { FormNotFound } from "./Errors.ts"

/** A form's status (spec: FormStatus). Only `published` accepts responses. */
export const FormStatus = Schema.Literals(["draft", "published", "closed"])
export type FormStatus = typeof FormStatus.Type

/** A form as listed, created and updated (spec: FormSummary / Form). */
export const FormSummary = Schema.Struct({
  id: Schema.Int,
  publicId: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: FormStatus,
  folderId: Schema.NullOr(Schema.Int),
  responseCount: Schema.Int,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "FormSummary" })
export type FormSummary = typeof FormSummary.Type

/** A form with its questions (spec: FormWithFields). */
export const FormWithFields = Schema.Struct({
  id: Schema.Int,
  publicId: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: FormStatus,
  fields: Schema.Array(Field),
  /** Extension (form logic): values taken from the page URL or the submission, by name. */
  hiddenFields: Schema.Array(FormLogic.HiddenField)
}).annotate({ identifier: "FormWithFields" })
export type FormWithFields = typeof FormWithFields.Type

/**
 * A created form (spec: Form, the answer of `POST /forms`) with, as an
 * extension, its questions: their ids are the keys of the answers to submit.
 */
export const CreatedForm = Schema.Struct({
  ...FormSummary.fields,
  fields: Schema.Array(Field).annotate({ description: "Extension: the form's questions, in order, with their ids." })
}).annotate({ identifier: "CreatedForm" })
export type CreatedForm = typeof CreatedForm.Type

/** A form title: trimmed, 1 to 200 characters. */
export const FormTitle = Schema.String.check(
  Schema.isMaxLength(200, { message: "title must be at most 200 characters" })
).pipe(
  Schema.decodeTo(
    Schema.Trimmed.check(Schema.isNonEmpty({ message: "title must not be empty" })),
    trimWithoutBidiControls
  )
)
const Description = Schema.String.check(
  Schema.isMaxLength(10_000, { message: "description must be at most 10000 characters" })
)
const FolderId = Id
const FieldInputs = Schema.Array(FieldInput).check(
  Schema.isMaxLength(200, { message: "a form has at most 200 questions" })
)

/** What creating a form takes; every field is optional (title defaults to "Untitled form"). */
export const CreateFormInput = Schema.Struct({
  title: Schema.optionalKey(FormTitle),
  description: Schema.optionalKey(Schema.NullOr(Description)),
  folderId: Schema.optionalKey(Schema.NullOr(FolderId)),
  fields: Schema.optionalKey(FieldInputs),
  hiddenFields: Schema.optionalKey(FormLogic.HiddenFields)
}).annotate({ identifier: "CreateForm" })
export type CreateFormInput = typeof CreateFormInput.Type

/** What changing a form takes: any subset. `fields` replaces the question list. */
export const UpdateFormInput = Schema.Struct({
  title: Schema.optionalKey(FormTitle),
  description: Schema.optionalKey(Schema.NullOr(Description)),
  status: Schema.optionalKey(FormStatus),
  folderId: Schema.optionalKey(Schema.NullOr(FolderId)),
  fields: Schema.optionalKey(FieldInputs),
  /** Replaces the hidden fields. */
  hiddenFields: Schema.optionalKey(FormLogic.HiddenFields)
}).annotate({ identifier: "UpdateForm" })
export type UpdateFormInput = typeof UpdateFormInput.Type

/** A form as the public page and submissions see it (any workspace, by public id). */
export interface PublicForm {
  readonly workspaceId: number
  readonly form: FormWithFields
}

/** A new public id: 20 URL-safe characters (120 random bits). */
export const makePublicId = (): string => randomBytes(15).toString("base64url")

interface FormRow {
  readonly id: number
  readonly public_id: string
  readonly title: string
  readonly description: string | null
  readonly status: FormStatus
  readonly folder_id: number | null
  readonly response_count: number
  readonly created_at: Date
  readonly updated_at: Date
}

interface FieldRow {
  readonly id: number
  readonly type: FieldType
  readonly label: string
  readonly required: boolean
  readonly position: number
  readonly options: AnyFieldOptions | null
  readonly logic: FormLogic.Logic | null
  readonly show_if: FormLogic.Condition | null
}

const toSummary = (row: FormRow): FormSummary => ({
  id: row.id,
  publicId: row.public_id,
  title: row.title,
  description: row.description,
  status: row.status,
  folderId: row.folder_id,
  responseCount: row.response_count,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString()
})

const toField = (row: FieldRow): Field => ({
  id: row.id,
  type: row.type,
  label: row.label,
  required: row.required,
  position: row.position,
  options: row.options,
  ...(row.logic !== null && row.logic.length > 0 ? { logic: row.logic } : {}),
  ...(row.show_if !== null ? { showIf: row.show_if } : {})
})

/** Checks the logic of the questions and hidden fields being saved: 400 naming the rule broken. */
const checkLogic = (
  inputs: ReadonlyArray<FormLogic.LogicInput>,
  hiddenFields: ReadonlyArray<FormLogic.HiddenField>
): Effect.Effect<void, InvalidInput> => {
  const issues = FormLogic.validate(inputs, hiddenFields)
  return issues.length === 0 ? Effect.void : Effect.fail(
    new InvalidInput({
      message: issues.map((i) => `${i.message} (rule ${i.rule})`).join("; "),
      details: issues.map((i) => ({ path: i.path, message: `${i.message} (rule ${i.rule})` }))
    })
  )
}

/** Stored jsonb of a question's logic: null when none. */
const logicJson = (input: FieldInput): string | null =>
  input.logic === undefined || input.logic.length === 0 ? null : JSON.stringify(input.logic)
const showIfJson = (input: FieldInput): string | null =>
  input.showIf === undefined || input.showIf === null ? null : JSON.stringify(input.showIf)

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
export class Forms extends Context.Service<Forms, {
  /** The workspace's forms, newest change first. */
  readonly list: (actor: Actors.Actor) => Effect.Effect<ReadonlyArray<FormSummary>, SqlError.SqlError>
  readonly get: (actor: Actors.Actor, formId: number) => Effect.Effect<FormWithFields, ReadErrors>
  readonly getSummary: (actor: Actors.Actor, formId: number) => Effect.Effect<FormSummary, ReadErrors>
  /** A form's questions in order (no workspace check beyond the id pair). */
  readonly fields: (workspaceId: number, formId: number) => Effect.Effect<ReadonlyArray<Field>, SqlError.SqlError>
  /** A form by its public id, in whatever workspace it is. */
  readonly getPublic: (publicId: string) => Effect.Effect<PublicForm, ReadErrors>
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
}>()("@qforms/core/Forms") {
  static readonly layer = Layer.effect(
    Forms,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const stages = yield* Stages
      const files = yield* Files

      const summaryColumns = sql`
        f.id, f.public_id, f.title, f.description, f.status, f.folder_id, f.created_at, f.updated_at,
        (select coalesce(sum(c.n), 0)::int from form_response_counts c where c.form_id = f.id) as response_count`

      const notFound = (formId: number) => new FormNotFound({ message: `form ${formId} not found` })

      const list = Effect.fn("Forms.list")(function*(actor: Actors.Actor) {
        const rows = yield* sql<FormRow>`
          select ${summaryColumns} from forms f
          where f.workspace_id = ${actor.workspaceId}
          order by f.updated_at desc, f.id desc`
        return rows.map(toSummary)
      })

      const getSummary = Effect.fn("Forms.getSummary")(function*(actor: Actors.Actor, formId: number) {
        const rows = yield* sql<FormRow>`
          select ${summaryColumns} from forms f where f.workspace_id = ${actor.workspaceId} and f.id = ${formId}`
        if (rows.length === 0) return yield* notFound(formId)
        return toSummary(rows[0]!)
      })

      const fields = Effect.fn("Forms.fields")(function*(workspaceId: number, formId: number) {
        const rows = yield* sql<FieldRow>`
          select id, type, label, required, position, options, logic, show_if from fields
          where workspace_id = ${workspaceId} and form_id = ${formId} order by position, id`
        return rows.map(toField)
      })

      const withFields = (
        workspaceId: number,
        row: Omit<FormRow, "response_count"> & { readonly hidden_fields: ReadonlyArray<FormLogic.HiddenField> }
      ) =>
        Effect.map(fields(workspaceId, row.id), (list): FormWithFields => ({
          id: row.id,
          publicId: row.public_id,
          title: row.title,
          description: row.description,
          status: row.status,
          fields: list,
          hiddenFields: row.hidden_fields
        }))

      const get = Effect.fn("Forms.get")(function*(actor: Actors.Actor, formId: number) {
        const rows = yield* sql<
          Omit<FormRow, "response_count"> & { readonly hidden_fields: ReadonlyArray<FormLogic.HiddenField> }
        >`
          select id, public_id, title, description, status, folder_id, created_at, updated_at, hidden_fields
          from forms where workspace_id = ${actor.workspaceId} and id = ${formId}`
        if (rows.length === 0) return yield* notFound(formId)
        return yield* withFields(actor.workspaceId, rows[0]!)
      })

      const getPublic = Effect.fn("Forms.getPublic")(function*(publicId: string) {
        const rows = yield* sql<
          Omit<FormRow, "response_count"> & {
            readonly workspace_id: number
            readonly hidden_fields: ReadonlyArray<FormLogic.HiddenField>
          }
        >`
          select id, workspace_id, public_id, title, description, status, folder_id, created_at, updated_at,
            hidden_fields
          from forms where public_id = ${publicId}`
        if (rows.length === 0) return yield* new FormNotFound({ message: `form ${publicId} not found` })
        const row = rows[0]!
        return { workspaceId: row.workspace_id, form: yield* withFields(row.workspace_id, row) }
      })

      /** Replaces a form's questions; inside the caller's transaction. */
      const replaceFields = Effect.fnUntraced(function*(
        workspaceId: number,
        formId: number,
        inputs: ReadonlyArray<FieldInput>
      ) {
        const existing = new Set(
          (yield* sql<{ readonly id: number }>`select id from fields where form_id = ${formId} for update`).map((r) =>
            r.id
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
          return yield* new InvalidInput({ message: issues.map((i) => `${i.path}: ${i.message}`).join("; "), details: issues })
        }
        const removed = [...existing].filter((id) => !kept.has(id))
        if (removed.length > 0) {
          yield* sql`delete from fields where form_id = ${formId} and ${sql.in("id", removed)}`
        }
        yield* Effect.forEach(inputs, (input, position) =>
          input.id === undefined ? Effect.void : Effect.asVoid(sql`
            update fields set type = ${input.type}, label = ${input.label}, required = ${input.required},
              position = ${position}, options = ${input.options === null ? null : JSON.stringify(input.options)}::jsonb,
              logic = ${logicJson(input)}::jsonb, show_if = ${showIfJson(input)}::jsonb
            where form_id = ${formId} and id = ${input.id}`), { discard: true })
        const added = inputs.flatMap((input, position) =>
          input.id === undefined
            ? [{
              workspace_id: workspaceId,
              form_id: formId,
              type: input.type,
              label: input.label,
              required: input.required,
              position,
              options: input.options,
              logic: input.logic === undefined || input.logic.length === 0 ? null : input.logic,
              show_if: input.showIf ?? null
            }]
            : []
        )
        const idAt = new Map<number, number>()
        inputs.forEach((input, position) => {
          if (input.id !== undefined) idAt.set(position, input.id)
        })
        if (added.length > 0) {
          const rows = yield* sql<{ readonly id: number; readonly position: number }>`
            insert into fields (workspace_id, form_id, type, label, required, position, options, logic, show_if)
            select workspace_id, form_id, type, label, required, position, options, logic, show_if
            from jsonb_to_recordset(${JSON.stringify(added)}::jsonb)
              as t(workspace_id int, form_id int, type text, label text, required bool, position int, options jsonb,
                logic jsonb, show_if jsonb)
            returning id, position`
          for (const row of rows) idAt.set(row.position, row.id)
        }
        // Logic that named questions of this request by their `ref` now names their ids.
        const ids = new Map<string, number>()
        inputs.forEach((input, position) => {
          const id = idAt.get(position)
          if (input.ref !== undefined && id !== undefined) ids.set(input.ref, id)
        })
        yield* Effect.forEach(inputs, (input, position) => {
          const id = idAt.get(position)
          if (id === undefined || !FormLogic.hasRefs(input.logic, input.showIf)) return Effect.void
          const logic = input.logic === undefined ? undefined : FormLogic.resolveRefs(input.logic, ids)
          const showIf = input.showIf === undefined || input.showIf === null
            ? null
            : FormLogic.resolveCondition(input.showIf, ids)
          return Effect.asVoid(sql`
            update fields set
              logic = ${logic === undefined || logic.length === 0 ? null : JSON.stringify(logic)}::jsonb,
              show_if = ${showIf === null ? null : JSON.stringify(showIf)}::jsonb
            where form_id = ${formId} and id = ${id}`)
        }, { discard: true })
      })

      const create = Effect.fn("Forms.create")(function*(
        actor: Actors.Actor,
        input: CreateFormInput,
        options: { readonly status?: FormStatus | undefined } = {}
      ) {
        yield* Actors.requireWrite(actor)
        yield* checkLogic(input.fields ?? [], input.hiddenFields ?? [])
        const now = new Date(yield* Clock.currentTimeMillis)
        const publicId = yield* Effect.sync(makePublicId)
        const formId = yield* sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql<{ readonly id: number }>`
            insert into forms (workspace_id, public_id, title, description, status, folder_id, created_at, updated_at,
              hidden_fields)
            values (${actor.workspaceId}, ${publicId}, ${input.title ?? "Untitled form"}, ${input.description ?? null},
              ${options.status ?? "draft"}, ${input.folderId ?? null}, ${now}, ${now},
              ${JSON.stringify(input.hiddenFields ?? [])}::jsonb)
            returning id`
          const formId = rows[0]!.id
          yield* replaceFields(actor.workspaceId, formId, input.fields ?? [])
          yield* stages.createDefaults(actor.workspaceId, formId)
          return formId
        }))
        return yield* Effect.orDie(getSummary(actor, formId))
      })

      const update = Effect.fn("Forms.update")(function*(actor: Actors.Actor, formId: number, input: UpdateFormInput) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* sql.withTransaction(Effect.gen(function*() {
          const keep = <A>(column: string, value: A | undefined) =>
            value === undefined ? sql`${sql(column)}` : sql`${value as never}`
          const rows = yield* sql`
            update forms set
              title = ${keep("title", input.title)},
              description = ${keep("description", input.description)},
              status = ${keep("status", input.status)},
              folder_id = ${keep("folder_id", input.folderId)},
              hidden_fields = ${
            input.hiddenFields === undefined ? sql`hidden_fields` : sql`${JSON.stringify(input.hiddenFields)}::jsonb`
          },
              updated_at = ${now}
            where workspace_id = ${actor.workspaceId} and id = ${formId}
            returning id, hidden_fields`
          if (rows.length === 0) return yield* notFound(formId)
          if (input.fields !== undefined || input.hiddenFields !== undefined) {
            const saved = input.fields ?? (yield* fields(actor.workspaceId, formId))
            yield* checkLogic(saved, rows[0]!.hidden_fields as ReadonlyArray<FormLogic.HiddenField>)
          }
          if (input.fields !== undefined) yield* replaceFields(actor.workspaceId, formId, input.fields)
        }))
        return yield* getSummary(actor, formId)
      })

      const remove = Effect.fn("Forms.remove")(function*(actor: Actors.Actor, formId: number) {
        yield* Actors.requireWrite(actor)
        const blobKeys = yield* sql.withTransaction(Effect.gen(function*() {
          // The form first: a submission holds it (key share) before it locks its files, so
          // taking them in the same order cannot deadlock.
          const rows = yield* sql`
            select id from forms where workspace_id = ${actor.workspaceId} and id = ${formId} for update`
          if (rows.length === 0) return yield* notFound(formId)
          const keys = yield* files.forgetForm(actor.workspaceId, formId)
          yield* sql`delete from forms where workspace_id = ${actor.workspaceId} and id = ${formId}`
          return keys
        }))
        // Only once the deletion has committed: a blob is never gone while its record is still there.
        yield* files.deleteBlobs(blobKeys)
      })

      return Forms.of({ list, get, getSummary, fields, getPublic, create, update, remove })
    })
  )
}
