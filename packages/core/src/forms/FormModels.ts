/**
 * What forms are to clients: a form as listed and as read with its questions,
 * a created form, what a client sends to create or update one, and what a
 * submission and the public page read of it. The service that keeps them is
 * `Forms.ts`, which exports these too.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import * as Schema from "effect/Schema"
import { Id, trimWithoutBidiControls } from "../kernel/index.ts"
import { Field, FieldInput } from "./Fields.ts"
import * as FormLogic from "./FormLogic.ts"
import { FormStatus } from "./FormStatus.ts"
import { FormSettings } from "./FormSettings.ts"
import { Translations } from "./Translations.ts"

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
  hiddenFields: Schema.Array(FormLogic.HiddenField),
  /** Extension: how the public page behaves (see `FormSettings.ts`). */
  settings: FormSettings,
  /** Extension: the form in other languages (see `Translations.ts`); `{}` for none. */
  translations: Schema.optionalKey(Translations)
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
  hiddenFields: Schema.optionalKey(FormLogic.HiddenFields),
  settings: Schema.optionalKey(FormSettings),
  /** The form in other languages, by language tag (see `Translations.ts`). */
  translations: Schema.optionalKey(Translations)
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
  hiddenFields: Schema.optionalKey(FormLogic.HiddenFields),
  /** Replaces the settings (every key left out takes its default). */
  settings: Schema.optionalKey(FormSettings),
  /**
   * Replaces the translations. Left out, they are kept, less what the form no longer has (a question, choice,
   * page or ending taken out by this change).
   */
  translations: Schema.optionalKey(Translations)
}).annotate({ identifier: "UpdateForm" })
export type UpdateFormInput = typeof UpdateFormInput.Type

/** What a submission is checked against: the form's title, status, hidden fields, questions and settings (limits). */
export type SubmittedForm = Pick<
  FormWithFields,
  "title" | "status" | "hiddenFields" | "fields" | "settings" | "translations"
>

/** A form as the public page and submissions see it (any workspace, by public id). */
export interface PublicForm {
  readonly workspaceId: number
  readonly form: FormWithFields
}

/** A new public id: 20 URL-safe characters (120 random bits). */
export const makePublicId = (): string => randomBytes(15).toString("base64url")
