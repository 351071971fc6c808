/**
 * The public page's steps: what one step posts and how it is read (url-encoded
 * or multipart, with its file), each question's typed answer from the posted
 * texts, and the answer state moving through the form with its logic
 * (recall, hidden values from the URL) — evaluated here on every step for the
 * page with or without JavaScript: one engine, no copy in the browser.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { AnswerState } from "../cases/index.ts"
import {
  type AnswerValue,
  type Field,
  FileAnswer,
  FormLogic,
  type FormWithFields,
  QuestionTypes,
  type Say,
  sayEnglish,
  Summaries,
  validateAnswers
} from "../forms/index.ts"
import type { Entered } from "./screens/Controls.ts"
import { honeypotName } from "./screens/StepForm.ts"

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

/** What one step posts. */
export interface StepInput {
  readonly token: string
  /** `welcome`, or the id of the question on screen. */
  readonly at: string
  readonly action: string
  /** Every `a` value (several for checkboxes). */
  readonly answers: ReadonlyArray<string>
  /** The parts of a contact or address, or the rows of a matrix, posted as `a.<part>` / `a.<row>` (several for a matrix with checkboxes). */
  readonly parts: Readonly<Record<string, ReadonlyArray<string>>>
  readonly honeypot: string
  /** Everything posted, for a page of several questions (see {@link pageAnswers}). */
  readonly pairs: ReadonlyArray<readonly [string, string]>
  /** A file sent with the step (no-JavaScript flow): stored, or why not. */
  readonly upload?: Result.Result<FileAnswer, UploadRefusal> | undefined
}

/** Why the file of a step was not stored: the message beside the question, and the status and headers of that page. */
export interface UploadRefusal {
  readonly message: string
  readonly status?: number | undefined
  readonly headers?: Record<string, string> | undefined
}

export const refusal = (message: string, status?: number, headers?: Record<string, string>): UploadRefusal => ({
  message,
  status,
  headers
})

/**
 * The typed answer of a question from the texts the page posted, as its type
 * reads them (checked afterwards by `validateAnswers`); by default the first
 * text, when it is not blank.
 */
export const parseAnswer = (
  field: Field,
  answers: ReadonlyArray<string>,
  parts: Readonly<Record<string, ReadonlyArray<string>>> = {}
): unknown => {
  const parse = QuestionTypes.typeOf(field).parse
  if (parse !== undefined) return parse(field, answers, parts)
  return answers[0] === undefined || answers[0].trim() === "" ? undefined : answers[0]
}

/**
 * What is wrong with what the page posted, in its own form before it is an
 * answer (as the question's type sees it: "Other" chosen with its box left
 * empty; for a ranking, a place given twice or not one of those offered).
 * Undefined when nothing is.
 */
export const postedProblem = (
  field: Field,
  answers: ReadonlyArray<string>,
  parts: Readonly<Record<string, ReadonlyArray<string>>>,
  say: Say = sayEnglish
): string | undefined => QuestionTypes.typeOf(field).postedProblem?.(field, answers, parts, say)

/**
 * Checks one question's answer with the API's validator: the answer to keep (undefined when empty), or the
 * message, said by `say` (the page's language; English by default).
 */
export const checkOne = (
  field: Field,
  value: unknown,
  say: Say = sayEnglish
): Result.Result<AnswerValue | undefined, string> => {
  const key = String(field.id)
  const checked = validateAnswers([field], value === undefined ? {} : { [key]: value }, say)
  return Result.isSuccess(checked)
    ? Result.succeed(checked.success[key])
    : Result.fail(checked.failure[0]?.message ?? say("answer.invalid"))
}

/** What the screen shows for a kept answer. */
export const enteredOf = (value: unknown): Entered => {
  if (value === undefined || value === null) return { texts: [] }
  if (Predicate.isString(value)) return { texts: [value] }
  if (Predicate.isNumber(value)) return { texts: [String(value)] }
  if (Predicate.isBoolean(value)) return { texts: [value ? "yes" : "no"] }
  if (Array.isArray(value)) return { texts: value.filter(Predicate.isString) }
  const file = Schema.decodeUnknownResult(FileAnswer)(value)
  if (Result.isSuccess(file)) return { texts: [], file: file.success }
  return Predicate.isObject(value)
    ? {
        texts: [],
        parts: Object.fromEntries(
          Object.entries(value).map(([key, part]) => [
            key,
            Predicate.isString(part)
              ? [part]
              : Array.isArray(part)
                ? part.filter(Predicate.isString)
                : part === true // a typed signature's consent
                  ? ["yes"]
                  : Predicate.isNumber(part) // an amount
                    ? [String(part)]
                    : []
          ])
        )
      }
    : { texts: [] }
}

/** The values without one question's answer, or with the new one. */
export const withAnswer = (
  values: AnswerState["values"],
  field: Field,
  value: AnswerValue | undefined
): AnswerState["values"] => {
  const key = String(field.id)
  const { [key]: _, ...rest } = values
  return value === undefined ? rest : { ...rest, [key]: value }
}

// ---------------------------------------------------------------------------
// Form logic on the page (evaluated here, on every step, for both the
// JavaScript and the plain-HTML page: one engine, no copy in the browser)
// ---------------------------------------------------------------------------

/** The hidden values of a state that the form (still) declares. */
export const hiddenOf = (form: FormWithFields, state: AnswerState): Record<string, string> => {
  const declared = new Set(form.hiddenFields.map((h) => h.name))
  return Object.fromEntries(Object.entries(state.hidden ?? {}).filter(([name]) => declared.has(name)))
}

export const factsOf = (form: FormWithFields, state: AnswerState): FormLogic.Facts => ({
  values: state.values,
  hidden: hiddenOf(form, state),
  variables: FormLogic.startingValues(form.settings.variables)
})

/** The declared hidden fields given in the page's URL (`/f/{publicId}?ref=newsletter`). */
export const hiddenFromUrl = (form: FormWithFields, url: string): Record<string, string> => {
  const params = new URL(url, "http://qforms").searchParams
  const out: Record<string, string> = {}
  for (const { name } of form.hiddenFields) {
    const value = params.get(name)
    if (value !== null && value.trim() !== "") out[name] = value.slice(0, FormLogic.maxHiddenValueLength)
  }
  return out
}

/** The form as the respondent sees it now: earlier answers recalled into labels and help texts. */
export const recalled = (form: FormWithFields, state: AnswerState): FormWithFields => recalledAt(form, state)

/**
 * {@link recalled} for a page of several questions (`shown`): they are shown
 * together, before any of them is answered, so each recalls the variables as
 * they are when the page is reached.
 */
export const recalledPage = (
  form: FormWithFields,
  state: AnswerState,
  shown: ReadonlyArray<{ readonly id: number }>
): FormWithFields => recalledAt(form, state, new Set(shown.map((f) => f.id)), shown[0]?.id)

const recalledAt = (
  form: FormWithFields,
  state: AnswerState,
  page: ReadonlySet<number> = new Set(),
  pageStart?: number
): FormWithFields => {
  const facts = factsOf(form, state)
  // A question recalls the variables as the respondent reaches it (a page's, as its page is reached).
  const reached = FormLogic.walk(form.fields, facts).reached
  const fill = (text: string, id?: number) =>
    FormLogic.recall(
      text,
      form.fields,
      id === undefined
        ? facts
        : {
            ...facts,
            variables: reached.get(page.has(id) && pageStart !== undefined ? pageStart : id) ?? facts.variables
          },
      Summaries.formatAnswer
    )
  return {
    ...form,
    description: form.description === null ? null : fill(form.description),
    fields: form.fields.map((f) => ({
      ...f,
      label: fill(f.label, f.id),
      options: f.options?.help === undefined ? f.options : { ...f.options, help: fill(f.options.help, f.id) }
    }))
  }
}

// ---------------------------------------------------------------------------
// Reading a step
// ---------------------------------------------------------------------------

/** A step that cannot be read: the status and what to tell the respondent. */
export class StepRefused extends Schema.TaggedError<StepRefused>()("StepRefused", {
  status: Schema.Int,
  message: Schema.String
}) {}

/** Whether a request is a multipart step post (its body limit is the page's own, see {@link layer}). */
export const isMultipartStep = (path: string, contentType: string | undefined): boolean =>
  /^\/f\/[^/]+\/?$/.test(path) && (contentType ?? "").toLowerCase().startsWith("multipart/form-data")

/** The largest file any question accepts (`maxSizeMb` is at most 100). */
export const MAX_FILE_BYTES = 100 * 1024 * 1024

/** The `a.<name>` pairs by name (a part's or a matrix row's name is at most 200 characters), values in order. */
const postedParts = (
  pairs: ReadonlyArray<readonly [string, string]>,
  prefix = "a"
): Record<string, ReadonlyArray<string>> => {
  const out = new Map<string, Array<string>>()
  const start = `${prefix}.`
  for (const [key, value] of pairs) {
    if (!key.startsWith(start) || key.length > start.length + 200) continue
    const name = key.slice(start.length)
    const list = out.get(name)
    if (list === undefined) out.set(name, [value])
    else list.push(value)
  }
  return Object.fromEntries(out)
}

/**
 * The answers of a page of several questions (`screens/Questions.ts`): each
 * question's posted texts (`q<id>`) and parts (`q<id>.<part>`), as a step of
 * one question posts them under `a`.
 *
 * @example
 * ```ts
 * pageAnswers([["q4", "Ada"], ["q5.city", "Oslo"]], [4, 5]).get(5) // { answers: [], parts: { city: ["Oslo"] } }
 * ```
 */
export const pageAnswers = (
  pairs: ReadonlyArray<readonly [string, string]>,
  fieldIds: ReadonlyArray<number>
): ReadonlyMap<number, Pick<StepInput, "answers" | "parts">> =>
  new Map(
    fieldIds.map((id) => [
      id,
      {
        answers: pairs.filter(([k]) => k === `q${id}`).map(([, v]) => v.replace(/\r\n?/g, "\n")),
        parts: postedParts(pairs, `q${id}`)
      }
    ])
  )

export const collectStep = (
  pairs: ReadonlyArray<readonly [string, string]>,
  upload: StepInput["upload"]
): Result.Result<StepInput, string> => {
  const get = (name: string) => pairs.find(([k]) => k === name)?.[1] ?? ""
  if (pairs.some(([, v]) => v.includes("\u0000"))) return Result.fail("answers must not contain the NUL character")
  return Result.succeed({
    token: get("token"),
    at: get("at"),
    action: get("move") || "next",
    // Browsers send a textarea's line breaks as CRLF; answers keep plain LF, as the API gets them.
    answers: pairs.filter(([k]) => k === "a").map(([, v]) => v.replace(/\r\n?/g, "\n")),
    parts: postedParts(pairs),
    pairs,
    honeypot: get(honeypotName),
    upload
  })
}
