/**
 * What a submission (finished or partial) is checked against before it is
 * stored: the form must be published, hidden values must be declared ones,
 * and answer issues become one `InvalidInput` naming each question.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Actors, Conflict, FormNotFound, InvalidInput } from "../kernel/index.ts"
import { type AnswerValue, EndingsModule as Endings, FormLogic, Forms, type SubmittedForm } from "../forms/index.ts"

/** What a finished response keeps of its walk through the form: the variables it keeps and its ending. */
export interface Outcome {
  readonly variables: Readonly<Record<string, FormLogic.VariableValue>>
  readonly ending: string | undefined
}

/**
 * The outcome of a finished response: the variables the form keeps
 * (`FormLogic.keptVariables`) at their final values, and the key of the
 * ending it sees (`Endings.choose`), read from the answers as stored.
 */
export const outcome = (
  form: Pick<SubmittedForm, "fields" | "settings">,
  route: { readonly variables: Readonly<Record<string, FormLogic.VariableValue>>; readonly ending: string | undefined },
  values: Readonly<Record<string, AnswerValue>>,
  hidden: Readonly<Record<string, string>>
): Outcome => {
  const variables: Record<string, FormLogic.VariableValue> = {}
  for (const name of FormLogic.keptVariables(form.settings.variables, form.fields)) {
    const value = route.variables[name]
    if (value !== undefined) variables[name] = value
  }
  const ending = Endings.choose(form.settings.endings, route.ending, { values, hidden, variables: route.variables })
  return { variables, ending: ending?.key }
}

/**
 * The answers with the hidden values, as stored (`hidden:<name>` keys), and what a finished response
 * adds: its variables (`var:<name>`) and the key of its ending (`ending`).
 *
 * @example
 * ```ts
 * stored({ "1": "Ada" }, { ref: "mail" }) // { "1": "Ada", "hidden:ref": "mail" }
 * ```
 */
export const stored = (
  values: Record<string, AnswerValue>,
  hidden: Readonly<Record<string, string>>,
  finished?: Outcome
): Record<string, AnswerValue> => {
  const out: Record<string, AnswerValue> = { ...values }
  for (const [name, value] of Object.entries(hidden)) out[FormLogic.hiddenKey(name)] = value
  if (finished !== undefined) {
    for (const [name, value] of Object.entries(finished.variables)) out[FormLogic.variableKey(name)] = value
    if (finished.ending !== undefined) out[Endings.endingKey] = finished.ending
  }
  return out
}

/** The checks, on the forms of the current `SqlClient`. */
export const make = Effect.gen(function* () {
  const forms = yield* Forms

  /**
   * The published form of a submission with its questions (read in one
   * query, unless the caller has just read it: `known`), or why it takes none.
   */
  const openForm = Effect.fnUntraced(function* (actor: Actors.Actor, formId: number, known?: SubmittedForm) {
    const found = known === undefined ? yield* forms.forSubmission(actor.workspaceId, formId) : Option.some(known)
    if (Option.isNone(found)) return yield* new FormNotFound({ message: `form ${formId} not found` })
    const form = found.value
    if (form.status !== "published") {
      return yield* new Conflict({
        message: `form ${formId} is ${form.status}: only a published form accepts responses`
      })
    }
    return form
  })

  /** The hidden values of a submission: only declared names (others are a 400). */
  const checkHidden = (
    declared: ReadonlyArray<FormLogic.HiddenField>,
    given: Readonly<Record<string, string>>
  ): Effect.Effect<Record<string, string>, InvalidInput> => {
    const names = new Set(declared.map((h) => h.name))
    const unknown = Object.keys(given).filter((name) => !names.has(name))
    if (unknown.length > 0) {
      const issues = unknown.map((name) => ({
        path: `hidden.${name}`,
        message: `"${name}" is not a hidden field of this form`
      }))
      return Effect.fail(new InvalidInput({ message: issues.map((i) => i.message).join("; "), details: issues }))
    }
    return Effect.succeed(Object.fromEntries(Object.entries(given).filter(([, value]) => value !== "")))
  }

  const invalid = (issues: ReadonlyArray<{ readonly path: string; readonly message: string }>) =>
    new InvalidInput({
      message: issues.map((issue) => issue.message).join("; "),
      details: issues.map((issue) => ({ path: issue.path, message: issue.message }))
    })

  return { openForm, checkHidden, invalid, stored }
})
