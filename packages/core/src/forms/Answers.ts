/**
 * Answers to a form's questions: the stored answer values, what clients send,
 * and the validation of submitted answers against the questions (one message
 * per question, e.g. `"Email" must be an email address`). Each answer is
 * checked by its question's type (`questions/`, the registry's modules).
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { stripBidiControls } from "../kernel/index.ts"
import { type Message, type MessageKey, MessagesModule as Messages, type MessageValues } from "../languages/index.ts"
import { byPosition, type Field } from "./Fields.ts"
import type { Check } from "./questions/QuestionType.ts"
import {
  answerInputDescription,
  answerInputMembers,
  answerValueDescription,
  answerValueMembers,
  typeOf
} from "./questions/QuestionTypes.ts"

export {
  FileAnswer,
  FileAnswerInput,
  KeyedAnswer,
  TypedSignature
} from "./questions/AnswerShapes.ts"
export { extensionTypes } from "./questions/File.ts"
export { SIGNATURE_MAX_BYTES, TYPED_SIGNATURE_MAX } from "./questions/Signature.ts"

/**
 * An answer: text, number, boolean, selected choices, a file, or the parts of
 * a contact or address (and any shape a type adds). The schema
 * of every answer map (`values`) in requests, responses and the OpenAPI
 * document; which of these a question takes is checked by `validateAnswers`.
 *
 * @example
 * ```ts
 * const answers: Record<string, AnswerValue> = { "1": "Ada", "2": 4, "3": ["A", "B"] }
 * ```
 */
export const AnswerValue = Schema.Union(answerValueMembers).annotate({
  identifier: "AnswerValue",
  description: answerValueDescription
})
export type AnswerValue = typeof AnswerValue.Type

/**
 * Whether a value is a real answer: text that is not blank, a number, a yes
 * or no, at least one chosen option, a file, or a contact or address with a
 * part filled in. An empty text, an empty
 * selection or no value at all is not (such answers alone keep no partial
 * response).
 *
 * @example
 * ```ts
 * isRealAnswer("  ") // false
 * isRealAnswer(0) // true
 * ```
 */
export const isRealAnswer = (value: unknown): boolean => {
  if (value === undefined || value === null) return false
  if (Predicate.isString(value)) return stripBidiControls(value).trim() !== ""
  if (Array.isArray(value)) return value.some(isRealAnswer)
  // A file (its id is text) or the parts of a contact or address.
  if (Predicate.isObject(value)) return Object.values(value).some(isRealAnswer)
  return true
}

/**
 * An answer as submitted: like {@link AnswerValue}, with a file given by its
 * upload's `fileId`; `null` leaves an optional question unanswered.
 */
export const AnswerInput = Schema.NullOr(Schema.Union(answerInputMembers)).annotate({
  identifier: "AnswerInput",
  description: answerInputDescription
})
export type AnswerInput = typeof AnswerInput.Type

/**
 * Answers keyed by question id as sent: an {@link AnswerInput} per question;
 * `null` (like an empty string or array) leaves an optional question unanswered.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Answers.AnswerInputs)({ "12": "Ada", "13": null })
 * ```
 */
export const AnswerInputs = Schema.Record(Schema.String, AnswerInput).annotate({
  description: "Answers keyed by question id (`fields[].id`); `null` leaves an optional question unanswered."
})

/**
 * One problem with submitted answers. `path` is `values` or `values.<id>`;
 * `fieldId` is the question concerned (null for whole-object or unknown keys).
 *
 * @example
 * ```ts
 * const i: AnswerIssue = { path: "values.3", fieldId: 3, message: "\"Email\" is required" }
 * ```
 */
export interface AnswerIssue {
  readonly path: string
  readonly fieldId: number | null
  readonly message: string
}

/** Says a message in a language: the page's voice, or English (what the API says). */
export type Say = (key: MessageKey, values?: MessageValues) => string

/** Says a message in English. */
export const sayEnglish: Say = (key, values) => Messages.builtInMessages.say("en", key, values)

/** The messages naming a part of a contact or address: the part is named in the message's language. */
const partKeys: ReadonlySet<MessageKey> = new Set([
  "answer.partRequired",
  "answer.partText",
  "answer.partMax",
  "answer.partEmail",
  "answer.partPhone"
])

/**
 * A check's message in a language (a contact's or address's part named in it too).
 *
 * @example
 * ```ts
 * messageText({ key: "answer.required", values: { q: '"Email"' } }) // "\"Email\" is required"
 * ```
 */
export const messageText = (message: Message, say: Say = sayEnglish): string => {
  const values = message.values
  const part = values?.["part"]
  return partKeys.has(message.key) && typeof part === "string"
    ? say(message.key, { ...values, part: say(`part.${part}` as MessageKey) })
    : say(message.key, values)
}

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (Predicate.isString(value) && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0) ||
  // The parts of a contact or address, or the rows of a matrix, all left empty.
  (Predicate.isObject(value) &&
    !Array.isArray(value) &&
    Object.values(value).every(
      (part) =>
        part === undefined ||
        part === null ||
        (Predicate.isString(part) && part.trim() === "") ||
        (Array.isArray(part) && part.length === 0)
    ))

/** What a required question without an answer is told (a `legal` question: that it must be accepted). */
const requiredMessage = (field: Field): Message => ({
  key: typeOf(field).requiredMessage ?? "answer.required",
  values: { q: JSON.stringify(field.label) }
})

/** An answer checked by its question's type. */
const checkAnswer = (field: Field, value: unknown): Check =>
  typeOf(field).check(field, value, JSON.stringify(field.label))

/**
 * The answers with each one that passes its question's check in its stored
 * form (trimmed, `9:05` as `09:05`, checkboxes in the choices' order); any
 * other value is kept as sent, for `validateAnswers` to name. Form logic
 * reads these, so that a submission through the API takes the same path as
 * the page, which checks each answer before it goes on.
 *
 * @example
 * ```ts
 * const fields: ReadonlyArray<Field> = [
 *   { id: 1, type: "time", label: "Arrival", required: true, position: 0, options: null }
 * ]
 * cleanAnswers(fields, { "1": "9:05", "2": "x" }) // { "1": "09:05", "2": "x" }
 * ```
 */
export const cleanAnswers = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, unknown>>
): Record<string, unknown> => {
  const byId = new Map(fields.map((field) => [String(field.id), field]))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) {
    const field = byId.get(key)
    const checked = field === undefined || isEmpty(value) ? undefined : checkAnswer(field, value)
    out[key] = checked !== undefined && Result.isSuccess(checked) ? checked.success : value
  }
  return out
}

/**
 * Validates submitted answers against a form's questions. Pure and total:
 * never throws, whatever `values` is.
 *
 * `values` must be an object keyed by question id. Empty answers (`undefined`,
 * `null`, blank strings, empty arrays) count as missing; missing optional
 * answers are omitted from the output. Strings are trimmed; checkbox answers
 * are returned in the choices' order. All issues are collected, at most one
 * per question, questions in position order, then unknown keys.
 *
 * @example
 * ```ts
 * const fields: ReadonlyArray<Field> = [
 *   { id: 1, type: "email", label: "Email", required: true, position: 0, options: null }
 * ]
 * validateAnswers(fields, { "1": " ada@example.com " }) // Result.succeed({ "1": "ada@example.com" })
 * validateAnswers(fields, {}) // Result.fail([{ path: "values.1", fieldId: 1, message: "\"Email\" is required" }])
 * ```
 */
export const validateAnswers = (
  fields: ReadonlyArray<Field>,
  values: unknown,
  say: Say = sayEnglish
): Result.Result<Record<string, AnswerValue>, ReadonlyArray<AnswerIssue>> => {
  if (!Predicate.isObject(values)) {
    return Result.fail([{ path: "values", fieldId: null, message: "values must be an object keyed by question id" }])
  }
  const issues: Array<AnswerIssue> = []
  const out: Record<string, AnswerValue> = {}
  const known = new Set<string>()
  for (const field of byPosition(fields)) {
    const key = String(field.id)
    known.add(key)
    const value = Object.hasOwn(values, key) ? values[key] : undefined
    if (isEmpty(value)) {
      if (field.required && typeOf(field).answered !== false) {
        issues.push({ path: `values.${key}`, fieldId: field.id, message: messageText(requiredMessage(field), say) })
      }
      continue
    }
    const checked = checkAnswer(field, value)
    if (Result.isSuccess(checked)) {
      out[key] = checked.success as AnswerValue
    } else {
      issues.push({ path: `values.${key}`, fieldId: field.id, message: messageText(checked.failure, say) })
    }
  }
  for (const key of Object.keys(values)) {
    if (!known.has(key)) {
      issues.push({ path: `values.${key}`, fieldId: null, message: `unknown question ${key}` })
    }
  }
  return issues.length > 0 ? Result.fail(issues) : Result.succeed(out)
}
