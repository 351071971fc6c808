/**
 * Custom case fields: each form's list of fields the team keeps on its cases
 * (text, number, date, select, member), never shown to the respondent. The
 * definitions are a form's ordered list (`PUT` replaces it); a case's values
 * live in `responses.case_fields` (jsonb, keyed by the definition's key) and
 * change through the response's PATCH, one activity and a `response.updated`
 * change each. The list's `field=<key>:<value>` filter matches them.
 *
 * @module
 */
import * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, type Forbidden, FormNotFound, InvalidInput } from "../kernel/index.ts"
import { Database } from "../storage/index.ts"

/** The most case fields a form has. */
export const maxCaseFields = 30

/** The most `field` filters one list takes. */
export const maxFieldFilters = 5

/** A case field's key: a lower-case letter, then up to 39 lower-case letters, digits or `_`. */
export const CaseFieldKey = Schema.String.check(
  Schema.isPattern(/^[a-z][a-z0-9_]{0,39}$/, {
    message: "a key is a lower-case letter, then up to 39 lower-case letters, digits or _"
  })
).annotate({ description: "The field's key (`^[a-z][a-z0-9_]{0,39}$`), unique in the form." })

/** The kinds of case field. */
export const CaseFieldType = Schema.Literals(["text", "number", "date", "select", "member"])
export type CaseFieldType = typeof CaseFieldType.Type

const OptionText = Schema.String.check(
  Schema.makeFilter((text: string) => text.trim() !== "" || "an option is not empty"),
  Schema.isMaxLength(100, { message: "an option has at most 100 characters" })
)

/** One case field of a form: its key, label, type and (a select's only) options. */
export const CaseField = Schema.Struct({
  key: CaseFieldKey,
  label: Schema.String.check(
    Schema.makeFilter((text: string) => text.trim() !== "" || "a label is not empty"),
    Schema.isMaxLength(100, { message: "a label has at most 100 characters" })
  ),
  type: CaseFieldType,
  options: Schema.optionalKey(
    Schema.Array(OptionText).check(
      Schema.isMinLength(1, { message: "a select lists at least one option" }),
      Schema.isMaxLength(50, { message: "a select lists at most 50 options" }),
      Schema.makeFilter(
        (options: ReadonlyArray<string>) =>
          options.every((option, at) => options.indexOf(option) === at) || "a select's options are distinct"
      )
    )
  ).annotate({ description: "A `select`'s options (1–50 distinct texts of at most 100 characters); only a select's." })
})
  .check(
    Schema.makeFilter((field: { readonly type: CaseFieldType; readonly options?: ReadonlyArray<string> }) =>
      field.type === "select"
        ? field.options !== undefined || "a select lists its options"
        : field.options === undefined || `options: only a select has options, not a ${field.type} field`
    )
  )
  .annotate({ identifier: "CaseField" })
export type CaseField = typeof CaseField.Type

/** A form's case fields, in order (extension: `GET`/`PUT /forms/{formId}/case-fields`). */
export const CaseFields = Schema.Struct({
  fields: Schema.Array(CaseField).check(
    Schema.isMaxLength(maxCaseFields, { message: `a form has at most ${maxCaseFields} case fields` }),
    Schema.makeFilter((fields: ReadonlyArray<{ readonly key: string }>) => {
      const keys = fields.map((field) => field.key)
      const twice = keys.find((key, at) => keys.indexOf(key) !== at)
      return twice === undefined || `key ${twice} is used more than once`
    })
  )
}).annotate({ identifier: "CaseFields" })
export type CaseFields = typeof CaseFields.Type

/** A case field's value: text, a date (`YYYY-MM-DD`) or a select's option as text; a number; a member's account id. */
export const CaseFieldValue = Schema.Union([Schema.String, Schema.Number])
export type CaseFieldValue = typeof CaseFieldValue.Type

/** A case's values, by key (extension: `caseFields` of a response). */
export const CaseFieldValues = Schema.Record(Schema.String, CaseFieldValue).annotate({
  identifier: "CaseFieldValues",
  description:
    "Extension (case fields): the team's own fields of the case, by key (see `GET /forms/{formId}/case-fields`): " +
    "text, a `YYYY-MM-DD` date or a select's option as text, a number, a member's account id. A field not set is " +
    "absent. Never shown to the respondent."
})
export type CaseFieldValues = typeof CaseFieldValues.Type

/** What a change sets: values by key, `null` clearing one. */
export const CaseFieldChanges = Schema.Record(Schema.String, Schema.NullOr(CaseFieldValue)).annotate({
  description:
    "Extension (case fields): values to set by key (`null` clears); keys not named keep their values. Each is " +
    "checked by its field's type: text (at most 1000 characters), number, date (`YYYY-MM-DD`), select (one of " +
    "the options), member (a member's account id)."
})
export type CaseFieldChanges = typeof CaseFieldChanges.Type

/** One `field` filter: `<key>:<value>` (the value equals), or `<key>:none` (not set). */
export const CaseFieldFilter = Schema.String.check(
  Schema.isPattern(/^[a-z][a-z0-9_]{0,39}:[\s\S]{1,1000}$/, {
    message: "field must be <key>:<value> or <key>:none (e.g. field=priority:high)"
  })
)

/** The list's `field` query parameter: one filter, or up to five (repeated), all of which must hold. */
export const CaseFieldFilters = Schema.Union([
  CaseFieldFilter,
  Schema.Array(CaseFieldFilter).check(
    Schema.isMaxLength(maxFieldFilters, { message: `at most ${maxFieldFilters} field filters` })
  )
]).annotate({
  description:
    "Extension (case fields): `<key>:<value>` for cases whose case field equals the value, `<key>:none` for " +
    `cases where it is not set; repeat for several (all must hold, at most ${maxFieldFilters}).`
})

/** A parsed `field` filter: the key, and the value (undefined: not set). */
export interface FieldFilter {
  readonly key: string
  readonly value: string | undefined
}

/** The parsed `field` filters of a query (as `CaseFieldFilters` decoded them). */
export const parseFilters = (filters: string | ReadonlyArray<string> | undefined): ReadonlyArray<FieldFilter> =>
  (filters === undefined ? [] : typeof filters === "string" ? [filters] : filters).map((filter) => {
    const at = filter.indexOf(":")
    const value = filter.slice(at + 1)
    return { key: filter.slice(0, at), value: value === "none" ? undefined : value }
  })

const isRealDate = (text: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

/** The problem with `value` for `field`, or undefined when it fits (a member is checked by the caller). */
export const problemOf = (field: CaseField, value: CaseFieldValue): string | undefined => {
  switch (field.type) {
    case "text":
      return typeof value === "string" && value.length <= 1000 ? undefined : "must be text of at most 1000 characters"
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a finite number"
    case "date":
      return typeof value === "string" && isRealDate(value) ? undefined : "must be a date as YYYY-MM-DD"
    case "select":
      return typeof value === "string" && (field.options ?? []).includes(value)
        ? undefined
        : `must be one of ${(field.options ?? []).map((option) => JSON.stringify(option)).join(", ")}`
    case "member":
      return typeof value === "number" && Number.isInteger(value) && value > 0
        ? undefined
        : "must be the account id of a member of this workspace"
  }
}

interface DefinitionRow {
  readonly key: string
  readonly label: string
  readonly type: CaseFieldType
  readonly options: unknown
}

const toField = (row: DefinitionRow): CaseField => {
  const options = typeof row.options === "string" ? JSON.parse(row.options) : row.options
  return {
    key: row.key,
    label: row.label,
    type: row.type,
    ...(Array.isArray(options) ? { options: options as ReadonlyArray<string> } : {})
  }
}

/** The case fields of a form of the workspace, in order, on `sql` (inside the caller's transaction, if any). */
export const definitionsOf = (sql: SqlClient.SqlClient, workspaceId: number, formId: number) =>
  Effect.map(
    sql<DefinitionRow>`
      select key, label, type, options from case_field_definitions
      where workspace_id = ${workspaceId} and form_id = ${formId} order by position`,
    (rows) => rows.map(toField)
  )

/**
 * A form's case field definitions.
 *
 * @example
 * ```ts
 * const caseFields = yield* CaseFieldsService
 * yield* caseFields.replace(actor, formId, {
 *   fields: [{ key: "priority", label: "Priority", type: "select", options: ["low", "high"] }]
 * })
 * ```
 */
export class CaseFieldsService extends Context.Service<
  CaseFieldsService,
  {
    /** The form's case fields, in order (any member of the workspace). */
    readonly list: (
      actor: Actors.Actor,
      formId: number
    ) => Effect.Effect<ReadonlyArray<CaseField>, FormNotFound | SqlError.SqlError>
    /**
     * Replaces the form's case fields (who may edit its stages). The values of a key no longer defined, or
     * whose type changed, and a select's values no longer among its options, are removed in the same transaction.
     */
    readonly replace: (
      actor: Actors.Actor,
      formId: number,
      input: CaseFields
    ) => Effect.Effect<ReadonlyArray<CaseField>, FormNotFound | InvalidInput | Forbidden | SqlError.SqlError>
    /** The case fields of a form of the workspace, in order (none for a form not found). */
    readonly definitions: (
      workspaceId: number,
      formId: number
    ) => Effect.Effect<ReadonlyArray<CaseField>, SqlError.SqlError>
  }
>()("@qforms/core/CaseFields") {
  static readonly layer = Layer.effect(
    CaseFieldsService,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const definitions = (workspaceId: number, formId: number) => definitionsOf(sql, workspaceId, formId)

      const list = Effect.fn("CaseFields.list")(function* (actor: Actors.Actor, formId: number) {
        const form = yield* sql`select id from forms where workspace_id = ${actor.workspaceId} and id = ${formId}`
        if (form.length === 0) return yield* new FormNotFound({ message: `form ${formId} not found` })
        return yield* definitions(actor.workspaceId, formId)
      })

      const replace = Effect.fn("CaseFields.replace")(function* (
        actor: Actors.Actor,
        formId: number,
        input: CaseFields
      ) {
        yield* Actors.requireWrite(actor)
        const workspaceId = actor.workspaceId
        return yield* Database.retryingCollisions(
          sql.withTransaction(
            Effect.gen(function* () {
              // Two replacements of one form's fields take turns on the form's row.
              const locked = yield* sql`
                select id from forms where workspace_id = ${workspaceId} and id = ${formId} for no key update`
              if (locked.length === 0) return yield* new FormNotFound({ message: `form ${formId} not found` })
              const before = yield* definitions(workspaceId, formId)
              const next = new Map(input.fields.map((field) => [field.key, field]))
              const dropped = before.filter((old) => next.get(old.key)?.type !== old.type).map((old) => old.key)
              if (Arr.isArrayNonEmpty(dropped)) {
                yield* sql`
                  update responses set case_fields = case_fields - ${dropped}::text[]
                  where workspace_id = ${workspaceId} and form_id = ${formId}
                    and case_fields <> case_fields - ${dropped}::text[]`
              }
              for (const old of before) {
                const now = next.get(old.key)
                if (old.type !== "select" || now === undefined || now.type !== "select") continue
                const kept = now.options ?? []
                if ((old.options ?? []).every((option) => kept.includes(option))) continue
                yield* sql`
                  update responses set case_fields = case_fields - ${old.key}::text
                  where workspace_id = ${workspaceId} and form_id = ${formId}
                    and case_fields ->> ${old.key}::text is not null
                    and not (case_fields ->> ${old.key}::text = any(${kept}::text[]))`
              }
              yield* sql`delete from case_field_definitions where workspace_id = ${workspaceId} and form_id = ${formId}`
              const inserts = input.fields.map((field, position) => ({
                workspace_id: workspaceId,
                form_id: formId,
                position,
                key: field.key,
                label: field.label.trim(),
                type: field.type,
                options: field.options === undefined ? null : JSON.stringify(field.options)
              }))
              if (Arr.isArrayNonEmpty(inserts)) yield* sql`insert into case_field_definitions ${sql.insert(inserts)}`
              return yield* definitions(workspaceId, formId)
            })
          )
        )
      })

      return CaseFieldsService.of({ list, replace, definitions })
    })
  )
}

/** The `InvalidInput` naming `caseFields.<key>`. */
export const invalidValue = (key: string, message: string) =>
  new InvalidInput({
    message: `caseFields.${key}: ${message}`,
    details: [{ path: `caseFields.${key}`, message }]
  })
