/**
 * How forms and their questions are stored: their rows, read back through
 * the Schemas they were written with (`storage/StoredJson.ts`), and the form
 * logic of questions being saved written as jsonb. Read and written by
 * `Forms.ts`.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import { Field, type FieldInput, type FieldType } from "./Fields.ts"
import * as FormLogic from "./FormLogic.ts"
import type { FormStatus } from "./FormStatus.ts"
import { FormSettings } from "./FormSettings.ts"
import { Translations } from "./Translations.ts"
import { StoredJson } from "../storage/index.ts"

import type { FormSummary } from "./FormModels.ts"

export interface FormRow {
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

/** What a status event reads of a form's row. */
export interface StatusRow {
  readonly id: number
  readonly title: string
  readonly public_id: string
  readonly status: FormStatus
}

export interface FieldRow {
  readonly id: number
  readonly type: FieldType
  readonly label: string
  readonly required: boolean
  readonly position: number
  /** jsonb: decoded by {@link toField}. */
  readonly options: unknown
  readonly logic: unknown
  readonly show_if: unknown
  readonly calculate: unknown
  readonly page: string | null
  /** Absent in rows read before migration 0039's column was selected (the delivery claim's subset). */
  readonly sensitive?: boolean | undefined
}

export const toSummary = (row: FormRow): FormSummary => ({
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

export const decodeField = StoredJson.decode(Field, "a row of fields (options, logic, show_if, calculate)")
export const decodeHiddenFields = StoredJson.decode(FormLogic.HiddenFields, "forms.hidden_fields")
export const decodeSettings = StoredJson.decode(FormSettings, "forms.settings")
export const decodeTranslations = StoredJson.decode(Translations, "forms.translations")

/** A stored question, its jsonb options and logic decoded with the Field Schema (see `storage/StoredJson.ts`). */
export const toField = (row: FieldRow): Effect.Effect<Field> =>
  decodeField({
    id: row.id,
    type: row.type,
    label: row.label,
    required: row.required,
    position: row.position,
    options: row.options,
    ...(Array.isArray(row.logic) && row.logic.length > 0 ? { logic: row.logic } : {}),
    ...(row.show_if !== null ? { showIf: row.show_if } : {}),
    ...(Array.isArray(row.calculate) && row.calculate.length > 0 ? { calculate: row.calculate } : {}),
    ...(row.page !== null && row.page !== undefined ? { page: row.page } : {}),
    ...(row.sensitive === true ? { sensitive: true } : {})
  })

/** Stored jsonb of a question's logic: null when none. */
export const logicJson = (input: FieldInput): string | null =>
  input.logic === undefined || input.logic.length === 0 ? null : JSON.stringify(input.logic)
export const showIfJson = (input: FieldInput): string | null =>
  input.showIf === undefined || input.showIf === null ? null : JSON.stringify(input.showIf)
export const calculateJson = (input: FieldInput): string | null =>
  input.calculate === undefined || input.calculate.length === 0 ? null : JSON.stringify(input.calculate)

/** The rows of the questions being added (those without an id), at their positions, for `jsonb_to_recordset`. */
export const newFieldRows = (workspaceId: number, formId: number, inputs: ReadonlyArray<FieldInput>) =>
  inputs.flatMap((input, position) =>
    input.id === undefined
      ? [
          {
            workspace_id: workspaceId,
            form_id: formId,
            type: input.type,
            label: input.label,
            required: input.required,
            position,
            options: input.options,
            logic: input.logic === undefined || input.logic.length === 0 ? null : input.logic,
            show_if: input.showIf ?? null,
            calculate: input.calculate === undefined || input.calculate.length === 0 ? null : input.calculate,
            page: input.page ?? null,
            sensitive: input.sensitive === true
          }
        ]
      : []
  )
