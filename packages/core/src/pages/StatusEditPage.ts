/**
 * The page on which a respondent changes their answers after submitting
 * (`/s/{token}/edit`, routed by `pages/StatusPage.ts`, stored by
 * `cases/StatusEdits.ts`): every question on the respondent's path through
 * the form that they may change, filled in, as one plain HTML form (no
 * script). Each question is the public page's own control (`screens/Controls.ts`,
 * its names scoped to `q<id>` as on a page of several questions), with its
 * message next to it when a check refused it.
 *
 * @module
 */
import * as Result from "effect/Result"
import { type AnswerValue, type Field, FormLogic, type FormWithFields, takesAnswer } from "../forms/index.ts"
import { isEditable } from "../cases/index.ts"
import { type Html, html } from "../web/index.ts"
import { control, type Entered } from "./screens/Controls.ts"
import { scoped } from "./screens/Questions.ts"
import * as Steps from "./Steps.ts"
import type { Voice } from "./Voice.ts"

/** The name of the hidden inputs that list the questions a post shows (an unticked box posts nothing). */
export const SHOWN = "shown"

/** What the respondent posted for one question: its texts and parts, as the public page's controls post them. */
export interface Posted {
  readonly answers: ReadonlyArray<string>
  readonly parts: Readonly<Record<string, ReadonlyArray<string>>>
}

/**
 * The answers a post of the edit page gives, by question id (null: left empty), for the questions it showed
 * that the respondent may change; and the problems of what was posted before any check (an Other box left
 * empty, a place given twice).
 *
 * @example
 * ```ts
 * const { edits, problems } = StatusEditPage.read(form, [["shown", "3"], ["q3", "Refund"]], voice.say)
 * edits // { "3": "Refund" }
 * ```
 */
export const read = (
  form: Pick<FormWithFields, "fields">,
  pairs: ReadonlyArray<readonly [string, string]>,
  say: Voice["say"]
): {
  readonly edits: Record<string, unknown>
  readonly posted: ReadonlyMap<number, Posted>
  readonly problems: ReadonlyMap<number, string>
} => {
  const shownIds = new Set(pairs.filter(([key]) => key === SHOWN).map(([, value]) => value))
  const fields = form.fields.filter((field) => shownIds.has(String(field.id)) && isEditable(field))
  const posted = Steps.pageAnswers(
    pairs,
    fields.map((field) => field.id)
  )
  const edits: Record<string, unknown> = {}
  const problems = new Map<number, string>()
  for (const field of fields) {
    const given = posted.get(field.id) ?? { answers: [], parts: {} }
    const problem = Steps.postedProblem(field, given.answers, given.parts, say)
    if (problem !== undefined) problems.set(field.id, problem)
    edits[String(field.id)] = Steps.parseAnswer(field, given.answers, given.parts) ?? null
  }
  return { edits, posted, problems }
}

/** The values the page's logic reads: the stored answers, then each posted answer that passes its check. */
const valuesFor = (
  form: FormWithFields,
  stored: Readonly<Record<string, AnswerValue>>,
  edits: Readonly<Record<string, unknown>> | undefined,
  say: Voice["say"]
): Record<string, AnswerValue> => {
  const values: Record<string, AnswerValue> = {}
  for (const field of form.fields) {
    const key = String(field.id)
    const value = stored[key]
    if (value !== undefined) values[key] = value
  }
  if (edits === undefined) return values
  for (const field of form.fields) {
    const key = String(field.id)
    if (!Object.hasOwn(edits, key)) continue
    const checked = Steps.checkOne(field, edits[key] ?? undefined, say)
    delete values[key]
    if (Result.isSuccess(checked) && checked.success !== undefined) values[key] = checked.success
  }
  return values
}

const hiddenOf = (stored: Readonly<Record<string, AnswerValue>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(stored).flatMap(([key, value]) =>
      key.startsWith(FormLogic.hiddenPrefix) && typeof value === "string"
        ? [[key.slice(FormLogic.hiddenPrefix.length), value] as const]
        : []
    )
  )

/**
 * The edit page's body: the form's title, until when the answers may change, the questions filled in (or with
 * what was posted, and each refused one's message), Save and a link back to the status page.
 *
 * @example
 * ```ts
 * const body = StatusEditPage.render({ form, voice, stored: row.answers, until: "2026-11-29 10:00 UTC", back: "../abc" })
 * ```
 */
export const render = (options: {
  /** The form in the page's language (`Voice.speaker`). */
  readonly form: FormWithFields
  readonly voice: Voice
  /** The response's stored values (answers, `hidden:<name>` values, variables). */
  readonly stored: Readonly<Record<string, AnswerValue>>
  /** Until when the answers may change, as the page writes it. */
  readonly until: string
  /** Where Save posts and the link back to the status page lead (relative to the edit page). */
  readonly action: string
  readonly back: string
  /** A refused post: what was posted, as typed; the messages by question id, and one about the whole form. */
  readonly refused?:
    | {
        readonly edits: Readonly<Record<string, unknown>>
        readonly posted: ReadonlyMap<number, Posted>
        readonly errors: ReadonlyMap<number, string>
        readonly notice: string
      }
    | undefined
}): Html => {
  const { voice, stored, refused } = options
  const values = valuesFor(options.form, stored, refused?.edits, voice.say)
  const hidden = hiddenOf(stored)
  const form = Steps.recalled(options.form, { form: options.form.publicId, startedAt: 0, values, hidden })
  const route = FormLogic.onPath(form.fields, {
    values,
    hidden,
    variables: FormLogic.startingValues(form.settings.variables)
  })
  const shown = route.fields.filter(isEditable)
  const kept = route.fields.some((field) => !isEditable(field) && takesAnswer(field))
  const errors = refused?.errors ?? new Map<number, string>()
  const firstError = shown.find((field) => errors.has(field.id))
  const entered = (field: Field): Entered => {
    const posted = refused?.posted.get(field.id)
    return posted === undefined
      ? Steps.enteredOf(stored[String(field.id)])
      : { texts: posted.answers, parts: posted.parts }
  }
  return html`<h1 id="title" tabindex="-1" data-focus>${voice.say("status.changeAnswers")}</h1>
<p class="form-title">${form.title}</p>
<p>${voice.say("status.editUntil", { until: options.until })}</p>
${kept ? html`<p>${voice.say("status.editKept")}</p>` : null}
<form method="post" action="${options.action}" novalidate>
${refused === undefined ? null : html`<p class="error" id="notice" role="alert">${refused.notice}</p>`}
${shown.map((field) => {
  const error = errors.get(field.id)
  return html`<div class="item" data-q="${String(field.id)}">
<input type="hidden" name="${SHOWN}" value="${String(field.id)}">
${scoped(
  html`${control(field, entered(field), error, undefined, new Set(), form.publicId, voice)}
<p class="error" id="error" role="alert" aria-live="assertive">${error ?? ""}</p>`,
  field.id,
  firstError !== undefined && firstError.id === field.id
)}
</div>
`
})}
<div class="actions"><button type="submit" class="ok">${voice.say("status.editSave")}</button></div>
</form>
<p><a href="${options.back}">${voice.say("status.editBack")}</a></p>`
}
