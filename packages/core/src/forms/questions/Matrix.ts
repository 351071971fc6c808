/**
 * The `matrix` question type (rows × columns: rate each statement on the
 * same scale): one column per row (radio buttons), or several (`multiple`,
 * checkboxes); a required matrix needs every row, or `minRows` of them. The
 * answer is the chosen column (or columns, in their order) by row.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { attr, type Html, html, strictStruct } from "../../kernel/index.ts"
import { bad, ok } from "./AnswerChecks.ts"
import { PositiveIntOf, TextOptionFields } from "./OptionFields.ts"
import { describedBy, legend } from "./PageControls.ts"
import { postedUnder } from "./PostedAnswers.ts"
import { type Check, type PageView, type QuestionField, questionType } from "./QuestionType.ts"
import { widthOf } from "./SheetColumns.ts"

const MatrixLabel = (what: string, max: number) =>
  Schema.Trim.check(
    Schema.isNonEmpty({ message: `a ${what} must not be empty` }),
    Schema.isMaxLength(max, { message: `a ${what} must be at most ${max} characters` })
  )

/**
 * Options of a `matrix` question (rows × columns: rate each statement on the
 * same scale): `rows` (1..50 distinct, ≤ 200 chars), `columns` (2..20
 * distinct, ≤ 100 chars), `multiple` (several columns per row; one when
 * absent) and `minRows` (1..number of rows: how many rows a required matrix
 * needs; all when absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(MatrixOptions)({ rows: ["Speed", "Price"], columns: ["Bad", "OK", "Good"] })
 * ```
 */
export const MatrixOptions = strictStruct({
  ...TextOptionFields,
  /** The statements rated, one per row (1..50, distinct; the keys of the answer). */
  rows: Schema.Array(MatrixLabel("row", 200)).check(
    Schema.isMinLength(1, { message: "rows must contain at least 1 item" }),
    Schema.isMaxLength(50, { message: "rows must contain at most 50 items" }),
    Schema.isUnique({ message: "rows must not contain duplicates" })
  ),
  /** The choices offered in every row (2..20, distinct). */
  columns: Schema.Array(MatrixLabel("column", 100)).check(
    Schema.isMinLength(2, { message: "columns must contain at least 2 items" }),
    Schema.isMaxLength(20, { message: "columns must contain at most 20 items" }),
    Schema.isUnique({ message: "columns must not contain duplicates" })
  ),
  /** Several columns per row (checkboxes) instead of one (radio buttons). */
  multiple: Schema.optionalKey(Schema.Boolean),
  /** When the question is required, how many rows must be answered (every row when absent). */
  minRows: Schema.optionalKey(PositiveIntOf("minRows"))
}).check(
  Schema.makeFilter(
    (o) =>
      o.minRows !== undefined && o.minRows > o.rows.length
        ? { path: ["minRows"], issue: `minRows must be at most the number of rows (${o.rows.length})` }
        : undefined,
    { expected: "minRows ≤ number of rows" }
  )
)

/** Decoded {@link MatrixOptions}. @example `const o: MatrixOptions = { rows: ["Speed"], columns: ["Bad", "Good"] }` */
export type MatrixOptions = typeof MatrixOptions.Type

/** A matrix: an object of answered rows, each one column (or several, in the columns' order); enough rows. */
const checkMatrix = (field: QuestionField, value: unknown, q: string): Check => {
  const rows = field.options?.rows ?? []
  const columns = field.options?.columns ?? []
  const multiple = field.options?.multiple === true
  if (!Predicate.isObject(value) || Array.isArray(value)) {
    return bad(multiple ? "answer.matrixObjectMultiple" : "answer.matrixObject", { q })
  }
  const unknown = Object.keys(value).find((key) => !rows.includes(key))
  if (unknown !== undefined) return bad("answer.unknownRow", { q, row: JSON.stringify(unknown) })
  // Rows are the form's text: read as own keys only, written with fromEntries (a row may be called "__proto__").
  const out: Array<readonly [string, string | ReadonlyArray<string>]> = []
  let firstMissing: string | undefined
  for (const row of rows) {
    const raw = Object.hasOwn(value, row) ? value[row] : undefined
    const picked = Predicate.isString(raw) ? (raw.trim() === "" ? [] : [raw.trim()]) : raw
    if (picked === undefined || picked === null || (Array.isArray(picked) && picked.length === 0)) {
      firstMissing ??= row
      continue
    }
    if (!Array.isArray(picked) || !picked.every(Predicate.isString)) {
      return bad(multiple ? "answer.rowColumnList" : "answer.rowOneColumn", { q, row })
    }
    const chosen = picked.map((c) => c.trim())
    const stray = chosen.find((c) => !columns.includes(c))
    if (stray !== undefined) return bad("answer.unknownColumn", { q, row, column: JSON.stringify(stray) })
    if (!multiple && chosen.length > 1) return bad("answer.rowTakesOne", { q, row })
    if (new Set(chosen).size !== chosen.length) return bad("answer.rowRepeat", { q, row })
    out.push([row, multiple ? columns.filter((c) => chosen.includes(c)) : chosen[0]!])
  }
  const needed = field.required ? (field.options?.minRows ?? rows.length) : 0
  if (out.length < needed) {
    return needed === rows.length && firstMissing !== undefined
      ? bad("answer.rowRequired", { q, row: firstMissing })
      : bad("answer.minRows", { q, count: needed })
  }
  return ok(Object.fromEntries(out))
}

/** A matrix: one group per row (its legend the row), the same columns in each, radio buttons or checkboxes. */
const matrixView = (field: QuestionField, { entered, error, voice }: PageView): Html => {
  const rows = field.options?.rows ?? []
  const columns = field.options?.columns ?? []
  const multiple = field.options?.multiple === true
  const minRows = field.options?.minRows
  const hint =
    field.required && minRows !== undefined && minRows < rows.length
      ? voice.say(multiple ? "question.matrixAnyAtLeast" : "question.matrixOneAtLeast", { count: minRows })
      : voice.say(multiple ? "question.matrixAny" : "question.matrixOne")
  // Rows are the form's text: looked up as own keys only (a row may be called "constructor").
  const chosenIn = (row: string) =>
    entered.parts !== undefined && Object.hasOwn(entered.parts, row) ? (entered.parts[row] ?? []) : []
  const firstChecked = rows.findIndex((row) => chosenIn(row).length > 0)
  const focusRow = firstChecked === -1 ? 0 : firstChecked
  return html`<fieldset${attr("aria-describedby", describedBy(field, error, "choice-hint"))}>
${legend(field, voice.say)}
<p class="hint" id="choice-hint">${hint}</p>
<div class="matrix">
${rows.map((row, r) => {
  const checked = chosenIn(row)
  return html`<fieldset class="matrix-row"${attr("aria-invalid", error ? "true" : false)}><legend>${voice.wording.row(field, row)}</legend>
<div class="choices rating">
${columns.map(
  (column, c) =>
    html`<label class="choice"><input type="${multiple ? "checkbox" : "radio"}" name="a.${row}" value="${column}"${attr(
      "checked",
      checked.includes(column) ? "checked" : false
    )}${attr(
      "autofocus",
      r === focusRow && (checked.length === 0 ? c === 0 : checked[0] === column) ? "autofocus" : false
    )}${attr("aria-invalid", error ? "true" : false)}> <span>${voice.wording.column(field, column)}</span></label>\n`
)}</div>
</fieldset>\n`
})}</div>
</fieldset>`
}

/** Rows × columns: each statement rated on the same scale. */
export const Matrix = questionType({
  type: "matrix",
  label: "Matrix (rows × columns)",
  options: MatrixOptions,
  optionsRequired: true,
  check: checkMatrix,
  parse: (field, _answers, posted) => {
    const multiple = field.options?.multiple === true
    const given = (field.options?.rows ?? []).flatMap((row) => {
      const chosen = postedUnder(posted, row)
      return chosen.length === 0 ? [] : [[row, multiple ? chosen : chosen[0]!] as const]
    })
    return given.length === 0 ? undefined : Object.fromEntries(given)
  },
  view: matrixView,
  // "Row: column; Row: column, column"
  display: (field, answer) => {
    if (Array.isArray(answer) || !Predicate.isObject(answer)) return undefined
    const given = new Map<string, unknown>(Object.entries(answer))
    return (field.options?.rows ?? [])
      .flatMap((row) => {
        const chosen = given.get(row)
        const text = Predicate.isString(chosen) ? chosen : Array.isArray(chosen) ? chosen.join(", ") : ""
        return text === "" ? [] : [`${row}: ${text}`]
      })
      .join("; ")
  },
  shown: (field, answer, wording) =>
    Array.isArray(answer) || !Predicate.isObject(answer)
      ? answer
      : Object.fromEntries(
          Object.entries(answer).map(([row, chosen]) => [
            wording.row(field, row),
            typeof chosen === "string"
              ? wording.column(field, chosen)
              : Array.isArray(chosen)
                ? chosen.map((c: string) => wording.column(field, c))
                : chosen
          ])
        ),
  // One column per row: its chosen column(s).
  sheet: (field, key) =>
    (field.options?.rows ?? []).map((row) => {
      const header = `${key}: ${row}`
      return {
        header,
        width: widthOf(header, 12),
        cell: (answer: unknown) => {
          if (!Predicate.isObject(answer) || Array.isArray(answer)) return null
          const chosen: unknown = Object.hasOwn(answer, row) ? (answer as Record<string, unknown>)[row] : undefined
          return Predicate.isString(chosen)
            ? chosen
            : Array.isArray(chosen)
              ? chosen.filter(Predicate.isString).join(", ")
              : null
        }
      }
    }),
  summary: { kind: "matrix" },
  tallyKeys: ({ typed, key, answer }) => {
    const rows = `jsonb_each(case when ${typed("object")} then ${answer} else '{}'::jsonb end)`
    return {
      scalars: [],
      arrays: [
        `array(select ${key("m:")} || left(r.key, 200) from ${rows} r where case jsonb_typeof(r.value) ` +
          `when 'array' then jsonb_array_length(r.value) > 0 when 'string' then true else false end)`,
        `array(select ${key("m:")} || left(r.key, 200) || chr(31) || left(c, 200) from ${rows} r ` +
          `cross join lateral jsonb_array_elements_text(case jsonb_typeof(r.value) when 'array' then r.value ` +
          `when 'string' then jsonb_build_array(r.value) else '[]'::jsonb end) c)`
      ]
    }
  },
  operators: ["contains", "notContains", "isEmpty", "isNotEmpty"],
  generator: {
    describe:
      "matrix (rate each of several items on the same scale: options.rows, the items; options.columns, the scale; " +
      "options.multiple for several columns per row)"
  }
})
