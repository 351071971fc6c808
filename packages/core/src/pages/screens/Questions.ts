/**
 * The question screens of the public page: one question's screen, and a page
 * of several questions (`settings.pages`) in which each question's markup is
 * made its own (`scoped`); each with the progress, the messages of failed
 * checks, OK and Back, and the language switcher.
 */
import { type FormWithFields, QuestionTypes } from "../../forms/index.ts"
import type { Voice } from "../Voice.ts"
import { Html, html, lines, attr } from "../../web/index.ts"
import { control, type Entered } from "./Controls.ts"
import { languageSwitcher, stepInputs, wordsOf } from "./StepForm.ts"

/**
 * One question's markup made its own on a page of several: its ids (and the
 * `for`, `aria-describedby` and `aria-labelledby` that point at them) get the
 * prefix `q<id>-`, its inputs post as `q<id>` and `q<id>.<part>` instead of
 * `a` and `a.<part>`, and only the page's first question keeps `autofocus`.
 * Safe on the rendered text: every value put into it was escaped, so a `"`
 * only ever closes an attribute the templates wrote.
 */
export const scoped = (markup: Html, fieldId: number, focus: boolean): Html => {
  const prefix = `q${fieldId}-`
  const text = markup.value
    .replace(/ (id|for)="([^"]*)"/g, (_, name: string, value: string) => ` ${name}="${prefix}${value}"`)
    .replace(
      / (aria-describedby|aria-labelledby)="([^"]*)"/g,
      (_, name: string, value: string) =>
        ` ${name}="${value
          .split(" ")
          .filter((token) => token !== "")
          .map((token) => `${prefix}${token}`)
          .join(" ")}"`
    )
    .replace(/ name="a(\.[^"]*)?"/g, (_, part: string | undefined) => ` name="q${fieldId}${part ?? ""}"`)
  return new Html(focus ? text : text.replace(/ autofocus(?:="autofocus")?(?=[ >])/g, ""))
}

/**
 * A page of several questions (`settings.pages`): the page's title and
 * description, then each question shown on it with its own message, posted
 * together; `at` is the page's first question.
 */
export const page = (options: {
  readonly form: FormWithFields
  /** The indexes (in `form.fields`) of the page's questions the respondent is shown, in order. */
  readonly indexes: ReadonlyArray<number>
  readonly token: string
  readonly entered: (fieldId: number) => Entered
  readonly errors: ReadonlyMap<number, string>
  readonly notice?: string | undefined
  readonly last: boolean
  readonly first: boolean
  readonly seed?: number | undefined
  readonly full?: (fieldId: number) => ReadonlySet<string>
  readonly place: { readonly at: number; readonly of: number }
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly voice: Voice
}): Html => {
  const { form, voice } = options
  const fields = options.indexes.map((i) => form.fields[i]!)
  const words = wordsOf(form, voice)
  const place = options.place
  const firstError = fields.find((f) => options.errors.has(f.id))
  return html`<h1 class="form-title">${form.title}</h1>
<div class="progress"><progress max="${place.of}" value="${place.at}" aria-label="${voice.say("page.progress")}"></progress><span>${voice.say("page.progressPlace", { at: place.at + 1, of: place.of })}</span></div>
${options.title ? html`<h2 class="page-title">${options.title}</h2>` : null}
${options.description ? html`<p class="description">${lines(options.description)}</p>` : null}
<form method="post" novalidate>
${stepInputs(options.token, String(fields[0]!.id), voice)}
${options.notice ? html`<p class="error" role="alert">${options.notice}</p>` : null}
${fields.map((field, n) => {
  const error = options.errors.get(field.id)
  const focus = firstError === undefined ? n === 0 : firstError.id === field.id
  return html`<div class="item" data-q="${String(field.id)}">
${scoped(
  html`${control(field, options.entered(field.id), error, options.seed, options.full?.(field.id) ?? new Set(), form.publicId, voice)}
<p class="error" id="error" role="alert" aria-live="assertive">${error ?? ""}</p>`,
  field.id,
  focus
)}
</div>
`
})}
<div class="actions"><button type="submit" name="move" value="next" class="ok">${options.last ? words.submit : words.next}</button>
${!options.first ? html`<button type="submit" name="move" value="back" class="back" formnovalidate>${words.back}</button>` : null}
</div>
${languageSwitcher(voice)}
</form>`
}

/** One question's screen: progress, the question and its input, the message of a failed check, OK and Back. */
export const question = (options: {
  readonly form: FormWithFields
  readonly index: number
  readonly token: string
  readonly entered: Entered
  readonly error?: string | undefined
  /** A message about the whole step (e.g. submitted too fast). */
  readonly notice?: string | undefined
  /** Whether the form ends after this question (form logic); by default, when it is the last one. */
  readonly last?: boolean | undefined
  /** Whether no question comes before this one (form logic); by default, when it is the first one. */
  readonly first?: boolean | undefined
  /** What shuffles the choices of a question with `randomize`: the same for one respondent (when they started). */
  readonly seed?: number | undefined
  /** The choices whose quota is used up: shown as full. */
  readonly full?: ReadonlySet<string> | undefined
  /** Where the question is on the respondent's path (from 0) and how long the path is; by default, its place in the form. */
  readonly place?: { readonly at: number; readonly of: number } | undefined
  readonly voice: Voice
}): Html => {
  const { form, index, voice } = options
  const field = form.fields[index]!
  const words = wordsOf(form, voice)
  const total = form.fields.length
  const last = options.last ?? index === total - 1
  const first = options.first ?? index === 0
  const place = options.place ?? { at: index, of: total }
  // A question whose file the page without JavaScript sends with the step posts multipart.
  const multipart = QuestionTypes.typeOf(field).upload?.withStep === true
  return html`<h1 class="form-title">${form.title}</h1>
<div class="progress"><progress max="${place.of}" value="${place.at}" aria-label="${voice.say("page.progress")}"></progress><span>${voice.say("page.progressPlace", { at: place.at + 1, of: place.of })}</span></div>
<form method="post"${attr("enctype", multipart && "multipart/form-data")} novalidate>
${stepInputs(options.token, String(field.id), voice)}
${options.notice ? html`<p class="error" role="alert">${options.notice}</p>` : null}
${control(field, options.entered, options.error, options.seed, options.full ?? new Set(), form.publicId, voice)}
<p class="error" id="error" role="alert" aria-live="assertive">${options.error ?? ""}</p>
<div class="actions"><button type="submit" name="move" value="next" class="ok">${last ? words.submit : words.next}</button>
${!first ? html`<button type="submit" name="move" value="back" class="back" formnovalidate>${words.back}</button>` : null}
<span class="hint">${voice.say("page.pressEnter")}</span></div>
${languageSwitcher(voice)}
</form>`
}
