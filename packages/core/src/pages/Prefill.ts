/**
 * Pre-filling a form from its page's link: `?prefill.<questionId>=value`
 * answers a question before the respondent sees it (repeat the key for
 * several choices: `?prefill.12=Mail&prefill.12=Phone`), and
 * `?prefill.<questionId>.<name>=value` gives one named part: a contact's or
 * address's part (`prefill.7.email=ada@example.com`), a matrix's row
 * (`prefill.9.Speed=Good`), a ranking's place (`prefill.8.Price=1`) or the
 * text of Other (`prefill.5=Other&prefill.5.other=Press`). Each value is read
 * as the page reads a posted answer and kept only when it is a valid answer;
 * anything else in the link is ignored, as a link is anyone's to write. Files,
 * signatures and `legal` questions are never pre-filled: those the respondent
 * gives themself.
 *
 * With the form's `skipPrefilled` setting, the questions pre-filled this way
 * are not asked again ({@link firstAsked}, {@link nextAsked},
 * {@link previousAsked}); by default they are shown, filled in.
 *
 * @module
 */
import * as Result from "effect/Result"
import type { AnswerState } from "../cases/index.ts"
import {
  type AnswerValue,
  type Field,
  FormLogic,
  type FormWithFields,
  isConsent,
  pageKeyOf,
  pagesOf,
  takesAnswer,
  takesUploads
} from "../forms/index.ts"
import { checkOne, factsOf, parseAnswer } from "./Steps.ts"

/** The prefix of a pre-filling parameter: `prefill.<questionId>` or `prefill.<questionId>.<name>`. */
export const PREFILL_PREFIX = "prefill."

/** The most values read for one question (a checkboxes question has at most 200 choices). */
const MAX_VALUES = 200

const prefillable = (field: Field): boolean => takesAnswer(field) && !takesUploads(field) && !isConsent(field)

/**
 * The valid answers a page link pre-fills, keyed by question id. Reads the
 * query string once, whatever its size (the server bounds a URL's length).
 *
 * @example
 * ```ts
 * prefillFromUrl(form, "/f/abc?prefill.12=Ada&prefill.13=not-an-email") // { "12": "Ada" }
 * ```
 */
export const prefillFromUrl = (form: FormWithFields, url: string): Record<string, AnswerValue> => {
  // Each question's values and named parts, in one pass over the query string.
  const byId = new Map<string, { readonly answers: Array<string>; readonly parts: Map<string, Array<string>> }>()
  for (const [key, value] of new URL(url, "http://qforms").searchParams) {
    if (!key.startsWith(PREFILL_PREFIX)) continue
    const rest = key.slice(PREFILL_PREFIX.length)
    const dot = rest.indexOf(".")
    const id = dot === -1 ? rest : rest.slice(0, dot)
    const given = byId.get(id) ?? { answers: [], parts: new Map<string, Array<string>>() }
    byId.set(id, given)
    const list = dot === -1 ? given.answers : (given.parts.get(rest.slice(dot + 1)) ?? [])
    if (dot !== -1) given.parts.set(rest.slice(dot + 1), list)
    if (list.length < MAX_VALUES) list.push(value)
  }
  const out: Record<string, AnswerValue> = {}
  if (byId.size === 0) return out
  for (const field of form.fields) {
    const given = byId.get(String(field.id))
    if (given === undefined || !prefillable(field)) continue
    const checked = checkOne(field, parseAnswer(field, given.answers, Object.fromEntries(given.parts)))
    if (Result.isSuccess(checked) && checked.success !== undefined) out[String(field.id)] = checked.success
  }
  return out
}

/** Whether a question is passed over: pre-filled from the link, still answered, on a form that skips such questions. */
const skipper = (form: FormWithFields, state: AnswerState) => {
  const skipped = new Set(form.settings.skipPrefilled === true ? (state.prefilled ?? []) : [])
  return (field: Field): boolean => skipped.has(String(field.id)) && Object.hasOwn(state.values, String(field.id))
}

/**
 * The questions the respondent is asked on the logic path as the answers so
 * far set it (questions not answered yet take no jump), passing over skipped
 * ones: what the page's progress counts.
 */
export const askedPath = (form: FormWithFields, state: AnswerState): ReadonlyArray<Field> => {
  const skip = skipper(form, state)
  return FormLogic.path(form.fields, factsOf(form, state)).filter((f) => !skip(f))
}

/** The first question the respondent is asked on the logic path (undefined when none is left to ask). */
export const firstAsked = (form: FormWithFields, state: AnswerState): Field | undefined => askedPath(form, state)[0]

/** The question asked after (`FormLogic.next`) or before (`FormLogic.previous`) `id` on the logic path, passing over skipped ones. */
const stepping =
  (step: typeof FormLogic.next) =>
  (form: FormWithFields, state: AnswerState, id: number): Field | undefined => {
    const skip = skipper(form, state)
    const facts = factsOf(form, state)
    let field = step(form.fields, facts, id)
    while (field !== undefined && skip(field)) field = step(form.fields, facts, field.id)
    return field
  }

/** The question asked after `id` on the logic path, passing over skipped ones. */
export const nextAsked = stepping(FormLogic.next)

/** The question asked before `id` on the logic path, passing over skipped ones. */
export const previousAsked = stepping(FormLogic.previous)

/**
 * Where a question stands on the respondent's path, walked once: its place
 * (from 0), how many questions the path has, and whether it is the first or
 * the last asked. A question off the path (the answers changed under it) has
 * its place in the form, and its neighbours as stepping finds them.
 */
export const placeOf = (
  form: FormWithFields,
  state: AnswerState,
  field: Field
): { readonly at: number; readonly of: number; readonly first: boolean; readonly last: boolean } => {
  const path = askedPath(form, state)
  const at = path.findIndex((f) => f.id === field.id)
  if (at !== -1) return { at, of: path.length, first: at === 0, last: at === path.length - 1 }
  return {
    at: form.fields.findIndex((f) => f.id === field.id),
    of: form.fields.length,
    first: previousAsked(form, state, field.id) === undefined,
    last: nextAsked(form, state, field.id) === undefined
  }
}

/**
 * The questions asked on the page of `field` (`settings.pages`), in order:
 * the page's questions on the respondent's path; `field` alone when it is a
 * page of its own or off the path.
 */
export const pageAsked = (form: FormWithFields, state: AnswerState, field: Field): ReadonlyArray<Field> => {
  if (field.page === undefined) return [field]
  const on = askedPath(form, state).filter((f) => pageKeyOf(f) === pageKeyOf(field))
  return on.some((f) => f.id === field.id) ? on : [field]
}

/**
 * Where a page stands on the respondent's path: its place among the pages
 * asked (from 0), how many there are, and whether it is the first or last.
 * A page off the path counts as {@link placeOf} counts a question.
 */
export const pagePlaceOf = (
  form: FormWithFields,
  state: AnswerState,
  shown: ReadonlyArray<Field>
): { readonly at: number; readonly of: number; readonly first: boolean; readonly last: boolean } => {
  const pages = pagesOf(askedPath(form, state))
  const at = pages.findIndex((p) => p.fields.some((f) => f.id === shown[0]!.id))
  if (at !== -1) return { at, of: pages.length, first: at === 0, last: at === pages.length - 1 }
  return {
    ...placeOf(form, state, shown[0]!),
    last: nextAsked(form, state, shown.at(-1)!.id) === undefined
  }
}
