/**
 * Answer edits: a member changes answers of a submitted response
 * (`PATCH /api/responses/{id}` with `answers`). The new answers go through
 * what a submission goes through: the form's logic (answers to questions it
 * now skips are dropped, a question it now asks may be required), the same
 * checks with the same messages (`validateAnswers`), and the variables
 * (scores) and ending worked out again (`SubmissionChecks.outcome`), so no
 * derived value is left as it was.
 *
 * Everything here is pure; `Responses.update` stores the result.
 *
 * @module
 */
import * as Result from "effect/Result"
import {
  type AnswerInput,
  type AnswerIssue,
  type AnswerValue,
  byPosition,
  cleanAnswers,
  type Field,
  FormLogic,
  isConsent,
  type Say,
  sayEnglish,
  type SubmittedForm,
  takesUploads,
  validateAnswers
} from "../forms/index.ts"
import * as SubmissionChecks from "./SubmissionChecks.ts"

/** What an edit stores: every stored value (answers, hidden values, variables, ending) and what changed. */
export interface AnswerEdit {
  /** The response's values as they are to be stored. */
  readonly values: Record<string, AnswerValue>
  /** The questions whose answers changed, in the form's order (empty: the edit changes nothing). */
  readonly changed: ReadonlyArray<Field>
  /** The changed questions' answers before, by question id (null: unanswered). */
  readonly from: Record<string, AnswerValue | null>
  /** The changed questions' answers after, by question id (null: unanswered). */
  readonly to: Record<string, AnswerValue | null>
}

/** A value as canonical JSON (object keys sorted): jsonb does not keep the order of an object's keys. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )

/**
 * The answers of a response with `edits` applied, checked as a submission's
 * are; or the issues, each with its path in the request (`answers.<id>`).
 * The answers' checks speak through `say` (English by default, as the API;
 * the respondent's status page passes the page's language).
 *
 * @example
 * ```ts
 * const edit = AnswerEdits.apply(form, row.answers, { "3": "Refund" })
 * if (Result.isSuccess(edit)) edit.success.changed.map((field) => field.label) // ["Topic"]
 * ```
 */
export const apply = (
  form: Pick<SubmittedForm, "fields" | "settings" | "hiddenFields">,
  stored: Readonly<Record<string, AnswerValue>>,
  edits: Readonly<Record<string, AnswerInput>>,
  say: Say = sayEnglish
): Result.Result<AnswerEdit, ReadonlyArray<AnswerIssue>> => {
  const fields = form.fields
  const byId = new Map(fields.map((field) => [String(field.id), field]))
  const refused: Array<AnswerIssue> = []
  for (const key of Object.keys(edits)) {
    const field = byId.get(key)
    if (field === undefined) {
      refused.push({ path: `answers.${key}`, fieldId: null, message: `unknown question ${key}` })
    } else if (takesUploads(field)) {
      refused.push({
        path: `answers.${key}`,
        fieldId: field.id,
        message: `${JSON.stringify(field.label)}: answers to file questions cannot be edited`
      })
    } else if (isConsent(field)) {
      // Consent is the respondent's to give: a member cannot give or withdraw it for them.
      refused.push({
        path: `answers.${key}`,
        fieldId: field.id,
        message: `${JSON.stringify(field.label)}: consent answers cannot be edited: only the respondent gives consent`
      })
    }
  }
  if (refused.length > 0) return Result.fail(refused)
  // The answers as stored, then the edits; hidden values stay as they were given.
  const answers: Record<string, unknown> = {}
  const hidden: Record<string, string> = {}
  for (const [key, value] of Object.entries(stored)) {
    if (byId.has(key)) answers[key] = value
    else if (key.startsWith(FormLogic.hiddenPrefix) && typeof value === "string") {
      hidden[key.slice(FormLogic.hiddenPrefix.length)] = value
    }
  }
  for (const [key, value] of Object.entries(edits)) answers[key] = value
  // As a submission: the path through the form decides what is asked (Responses.submit).
  const facts = FormLogic.branches(fields) ? cleanAnswers(fields, answers) : answers
  const route = FormLogic.onPath(fields, {
    values: facts,
    hidden,
    variables: FormLogic.startingValues(form.settings.variables)
  })
  const validated = validateAnswers(route.fields, route.values, say)
  if (Result.isFailure(validated)) {
    return Result.fail(
      validated.failure.map((issue) => ({ ...issue, path: issue.path.replace(/^values(?=\.|$)/, "answers") }))
    )
  }
  const next = validated.success
  const changed = byPosition(fields).filter((field) => {
    const key = String(field.id)
    return canonical(stored[key] ?? null) !== canonical(next[key] ?? null)
  })
  // A file answer is never dropped by an edit: its file would stay attached to an answer no longer there.
  const lostFiles = changed.filter(takesUploads)
  if (lostFiles.length > 0) {
    return Result.fail(
      lostFiles.map((field) => ({
        path: `answers`,
        fieldId: field.id,
        message: `${JSON.stringify(field.label)}: this edit would skip a file question, whose answer cannot be removed`
      }))
    )
  }
  const from: Record<string, AnswerValue | null> = {}
  const to: Record<string, AnswerValue | null> = {}
  for (const field of changed) {
    from[String(field.id)] = stored[String(field.id)] ?? null
    to[String(field.id)] = next[String(field.id)] ?? null
  }
  const values = SubmissionChecks.stored(next, hidden, SubmissionChecks.outcome(form, route, next, hidden))
  return Result.succeed({ values, changed, from, to })
}
