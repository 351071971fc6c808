/**
 * Text forms of answers: one answer, the flat `{ label: text }` map used by
 * `flat=1` lists, and the summary text used in webhook bodies.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import type { Field } from "./Fields.ts"
import type { AnswerValue } from "./Answers.ts"
import { shapeText } from "./questions/AnswerText.ts"
import { takesAnswer, typeOf } from "./questions/QuestionTypes.ts"
import { endingKey } from "./Endings.ts"
import { hiddenPrefix, variablePrefix } from "./FormLogic.ts"

const byPosition = (fields: ReadonlyArray<Field>): ReadonlyArray<Field> =>
  [...fields].sort((a, b) => a.position - b.position || a.id - b.id)

const answerOf = (values: Readonly<Record<string, AnswerValue>>, field: Field): AnswerValue | undefined => {
  const key = String(field.id)
  return Object.hasOwn(values, key) ? values[key] : undefined
}

/** The download link of an uploaded file (`questions/AnswerText.ts`). */
export { fileLink } from "./questions/AnswerText.ts"

/**
 * The text form of one answer: strings as-is, numbers via `String`, booleans
 * `Yes`/`No`, checkboxes and the parts of a contact or address joined with
 * `", "`, a ranking as `"1. First, 2. Second"`, a matrix as
 * `"Row: column; Row: column, column"`, ratings as `"4/5"` (out of
 * `options.max`, default 5), files by name and a drawn signature as "Drawn
 * signature" — followed by their download link in parentheses when
 * `linkBase` is given (`""` for relative links) —, a typed signature as
 * "Ada Lovelace (typed signature)", and `""` when missing.
 *
 * @example
 * ```ts
 * const rating: Field = { id: 3, type: "rating", label: "Score", required: false, position: 2, options: null }
 * formatAnswer(rating, 4) // "4/5"
 * formatAnswer(rating, undefined) // ""
 * formatAnswer(cv, { fileId: "file_abc", name: "cv.pdf", size: 1, type: "application/pdf" }, "https://x.example")
 * // "cv.pdf (https://x.example/api/files/file_abc)"
 * ```
 */
export const formatAnswer = (field: Field, value: AnswerValue | undefined, linkBase?: string): string => {
  if (value === undefined) return ""
  // A text is as it is and a yes/no is Yes or No whatever the type; the rest as the type writes it, or by its shape.
  if (Predicate.isString(value) || Predicate.isBoolean(value)) return shapeText(value)
  return typeOf(field).display?.(field, value, linkBase) ?? shapeText(value, linkBase)
}

/**
 * Non-statement questions in position order, with unique display keys (the
 * same for every response of a form), none of them one of `reserved` (other
 * columns of the same sheet).
 */
const keyedFields = (
  fields: ReadonlyArray<Field>,
  reserved: ReadonlyArray<string> = []
): ReadonlyArray<{ readonly field: Field; readonly key: string }> => {
  const used = new Set<string>(reserved)
  const keyed: Array<{ field: Field; key: string }> = []
  for (const field of byPosition(fields)) {
    if (!takesAnswer(field)) continue
    let key = field.label
    for (let n = 2; used.has(key); n++) key = `${field.label} (${n})`
    used.add(key)
    keyed.push({ field, key })
  }
  return keyed
}

/** The answered ones of `keyed` questions, with their display key, label and text. */
const answered = (
  keyed: ReadonlyArray<{ readonly field: Field; readonly key: string }>,
  values: Readonly<Record<string, AnswerValue>>,
  linkBase: string | undefined
): ReadonlyArray<{ readonly key: string; readonly label: string; readonly text: string }> => {
  const entries: Array<{ key: string; label: string; text: string }> = []
  for (const { field, key } of keyed) {
    const text = formatAnswer(field, answerOf(values, field), linkBase)
    if (text !== "") entries.push({ key, label: field.label, text })
  }
  // Hidden-field values (form logic) follow the questions, keyed `hidden:<name>`, then the variables
  // (`var:<name>`) and the ending's key (`ending`), under a key no question's took.
  const used = new Set(entries.map((e) => e.key))
  const add = (key: string, text: string) => {
    let unique = key
    for (let n = 2; used.has(unique); n++) unique = `${key} (${n})`
    used.add(unique)
    entries.push({ key: unique, label: key, text })
  }
  for (const [key, value] of Object.entries(values)) {
    if (key.startsWith(hiddenPrefix) && Predicate.isString(value) && value !== "") add(key, value)
  }
  for (const [key, value] of Object.entries(values)) {
    if (key.startsWith(variablePrefix) && (Predicate.isString(value) || Predicate.isNumber(value))) {
      add(key, String(value))
    }
  }
  const ending = values[endingKey]
  if (Predicate.isString(ending)) add(endingKey, ending)
  return entries
}

/** Answered, non-statement questions in position order, with unique display keys. */
const answeredEntries = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>,
  linkBase: string | undefined
) => answered(keyedFields(fields), values, linkBase)

/**
 * Answers keyed by question label, in question order (by `position`).
 * Only answered questions appear; statements are skipped. When questions share
 * a label, later ones get `" (2)"`, `" (3)"`, … appended; the numbering
 * counts every non-statement question, answered or not, so keys are stable
 * across responses of the same form. Hidden-field values follow, keyed
 * `hidden:<name>`, then variables (`var:<name>`) and the ending's key
 * (`ending`). With `linkBase`, a file answer is its
 * name and download link (see {@link formatAnswer}).
 *
 * @example
 * ```ts
 * flatAnswers(fields, { "1": "Ada Lovelace", "2": true })
 * // { "Name": "Ada Lovelace", "Subscribe?": "Yes" }
 * ```
 */
export const flatAnswers = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>,
  linkBase?: string
): Record<string, string> => Object.fromEntries(answeredEntries(fields, values, linkBase).map((e) => [e.key, e.text]))

/**
 * A plain-text summary: for each answered question in order, a line
 * `■ <label>` and then the answer (multi-line answers keep their lines);
 * blocks are separated by one blank line, with no trailing newline. `""` when
 * nothing is answered. `linkBase` as in {@link flatAnswers}.
 *
 * @example
 * ```ts
 * summary(fields, { "1": "Ada Lovelace", "2": "ada@example.com" })
 * // "■ Name\nAda Lovelace\n\n■ Email\nada@example.com"
 * ```
 */
export const summary = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>,
  linkBase?: string
): string =>
  answeredEntries(fields, values, linkBase)
    .map((e) => `■ ${e.label}\n${e.text}`)
    .join("\n\n")

/**
 * {@link flatAnswers} and {@link summary} of many responses of one form at
 * once: the questions are ordered and keyed once, and each response's
 * answers are formatted once for both (lists of any length, `flat=1`).
 * `linkBase` as in {@link flatAnswers}.
 *
 * @example
 * ```ts
 * const flatten = flattener(fields)
 * const { answers, summary } = flatten({ "1": "Ada Lovelace", "2": true })
 * // answers: { "Name": "Ada Lovelace", "Subscribe?": "Yes" }, summary: "■ Name\nAda Lovelace\n\n■ Subscribe?\nYes"
 * ```
 */
export const flattener = (fields: ReadonlyArray<Field>, linkBase?: string) => {
  const keyed = keyedFields(fields)
  return (
    values: Readonly<Record<string, AnswerValue>>
  ): { readonly answers: Record<string, string>; readonly summary: string } => {
    const entries = answered(keyed, values, linkBase)
    return {
      answers: Object.fromEntries(entries.map((e) => [e.key, e.text])),
      summary: entries.map((e) => `■ ${e.label}\n${e.text}`).join("\n\n")
    }
  }
}

/**
 * The display keys of a form's questions in question order (statements
 * skipped, repeated labels numbered as in {@link flatAnswers}), with their
 * labels: the columns of a sheet row, the order of a chat message. Labels
 * equal to one of `reserved` (the sheet's other columns) are numbered too.
 *
 * @example
 * ```ts
 * answerKeys(fields) // [{ key: "Name", label: "Name" }, { key: "Name (2)", label: "Name" }]
 * answerKeys(fields, ["Name"]) // [{ key: "Name (2)", label: "Name" }, { key: "Name (3)", label: "Name" }]
 * ```
 */
export const answerKeys = (
  fields: ReadonlyArray<Field>,
  reserved: ReadonlyArray<string> = []
): ReadonlyArray<{ readonly key: string; readonly label: string }> =>
  keyedFields(fields, reserved).map(({ field, key }) => ({ key, label: field.label }))
