/**
 * The markup the page views of several question types share: the question's
 * label with its required mark and help, the ids a control is described by,
 * a group of radio buttons or checkboxes in a fieldset, a one-line input, the
 * whole numbers of a scale as choices, and the respondent's order of a list's
 * choices. Every string from a form is user content and goes through the
 * escaping `html` template.
 *
 * @module
 */
import { attr, type Html, html } from "../../kernel/index.ts"
import type { PageView, QuestionField, Say } from "./QuestionType.ts"

/** The required mark after a required question's label. */
export const requiredMark = (field: QuestionField, say: Say) =>
  field.required
    ? html`<span class="req" aria-hidden="true">*</span><span class="sr-only"> ${say("page.required")}</span>`
    : null

/** The ids a question's control is described by: its help, a hint, the error. */
export const describedBy = (field: QuestionField, error: string | undefined, extra?: string) =>
  [field.options?.help ? "help" : "", extra ?? "", error ? "error" : ""].filter((s) => s !== "").join(" ") || null

/** `aria-invalid` when the question's check failed. */
export const invalid = (error: string | undefined) => attr("aria-invalid", error ? "true" : false)

/** The question as the label of its one control (`for="a"`), and its help. */
export const questionLabel = (field: QuestionField, say: Say): Html =>
  html`<label class="question" id="question" for="a">${field.label}${requiredMark(field, say)}</label>
${field.options?.help ? html`<p class="help" id="help">${field.options.help}</p>` : null}`

/** The question as the legend of its fieldset, and its help. */
export const legend = (field: QuestionField, say: Say): Html =>
  html`<legend class="question" id="question">${field.label}${requiredMark(field, say)}</legend>
${field.options?.help ? html`<p class="help" id="help">${field.options.help}</p>` : null}`

/**
 * A one-line input (text, e-mail, phone, address, number, date, time): its
 * type, autofill token, whether it takes a number (`min`, `max`, `step` from
 * the options) and its longest text.
 */
export const inputBox = (
  field: QuestionField,
  view: PageView,
  spec: {
    readonly type: string
    readonly autocomplete?: string | undefined
    readonly numeric?: boolean
    readonly maxLength?: number | undefined
  }
): Html => {
  const options = field.options
  const numeric = spec.numeric === true
  return html`${questionLabel(field, view.voice.say)}
<input id="a" name="a" type="${spec.type}" value="${view.entered.texts[0] ?? ""}" autofocus${attr("required", field.required && "required")}${attr(
    "autocomplete",
    spec.autocomplete
  )}${attr("placeholder", options?.placeholder)}${attr("min", numeric ? options?.min : undefined)}${attr(
    "max",
    numeric ? options?.max : undefined
  )}${attr("step", numeric ? (options?.step ?? "any") : undefined)}${attr(
    "inputmode",
    numeric ? "decimal" : undefined
  )}${attr("maxlength", spec.maxLength)}${attr("aria-describedby", describedBy(field, view.error))}${invalid(view.error)}>`
}

/** One choice of a {@link group}. */
export interface GroupChoice {
  readonly value: string
  readonly label: string
  readonly other?: boolean
  readonly disabled?: boolean
  /** A picture beside the label (decoration: the label names the choice). */
  readonly image?: string | undefined
}

/** A group of radio buttons or checkboxes in a fieldset whose legend is the question. */
export const group = (
  say: Say,
  field: QuestionField,
  error: string | undefined,
  kind: "radio" | "checkbox",
  choices: ReadonlyArray<GroupChoice>,
  checked: ReadonlyArray<string>,
  className: string,
  hint?: string,
  after?: Html
) =>
  html`<fieldset${attr("aria-describedby", describedBy(field, error, hint ? "choice-hint" : undefined))}${attr(
    "aria-invalid",
    error ? "true" : false
  )}>
${legend(field, say)}
${hint ? html`<p class="hint" id="choice-hint">${hint}</p>` : null}
<div class="choices ${className}${choices.some((c) => c.image !== undefined) ? " pictures" : ""}">
${choices.map(
  (choice, index) =>
    html`<label class="choice"><input type="${kind}" name="a" value="${choice.value}"${attr(
      "checked",
      checked.includes(choice.value) ? "checked" : false
    )}${attr("autofocus", (checked.length === 0 ? index === 0 : checked[0] === choice.value) ? "autofocus" : false)}${attr(
      "aria-invalid",
      error ? "true" : false
    )}${attr("data-other", choice.other === true && "")}${attr("disabled", choice.disabled === true && "disabled")}> ${
      choice.image === undefined ? null : html`<img src="${choice.image}" alt="" loading="lazy"> `
    }<span>${choice.label}</span></label>\n`
)}</div>
${after ?? null}
</fieldset>`

/** The whole numbers from `min` to `max` as radio choices: ratings and scales. */
export const numberChoices = (min: number, max: number): ReadonlyArray<GroupChoice> =>
  Array.from({ length: max - min + 1 }, (_, i) => ({ value: String(min + i), label: String(min + i) }))

/**
 * The order a respondent sees a question's choices in: as written, or, with
 * `randomize`, shuffled by `seed` (when the respondent started, from their
 * answer token), so that it stays the same on every screen they see.
 */
export const ordered = (field: QuestionField, seed: number | undefined): ReadonlyArray<string> => {
  const choices = field.options?.choices ?? []
  if (field.options?.randomize !== true || seed === undefined) return choices
  // mulberry32, seeded by the respondent and the question.
  let t = (seed ^ Math.imul(field.id, 0x9e3779b1)) >>> 0
  const next = () => {
    t = (t + 0x6d2b79f5) >>> 0
    let r = Math.imul(t ^ (t >>> 15), 1 | t)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
  const out = [...choices]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    const swap = out[i]!
    out[i] = out[j]!
    out[j] = swap
  }
  return out
}
