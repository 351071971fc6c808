/**
 * The screens of the public form page, as HTML: the welcome screen, one
 * screen per question (every question type), the thank-you screen, and the
 * pages for an unknown, closed or failed form. Every string from a form is
 * user content and goes through the escaping `html` template.
 */
import {
  buttonWords,
  type ButtonWords,
  DEFAULT_RATING_MAX,
  type Field,
  type FileAnswer,
  type FilledEnding,
  type FormWithFields,
  OTHER_MAX,
  otherOf,
  partsOf,
  rankedPlaces,
  scaleOf,
  sliderOf
} from "../forms/index.ts"
import { type MessageKey, nativeName } from "../languages/index.ts"
import * as Assets from "./Assets.ts"
import type { Voice } from "./Voice.ts"
import { Html, html, lines } from "../web/index.ts"

/** Past this many choices a `select` question is a dropdown instead of radio buttons. */
export const maxRadioChoices = 7

/** The name of the honeypot input: people never see it, naive bots fill it. */
export const honeypotName = "website"

/** A whole document around a screen, with the style and script under the response's CSP nonce. */
export const document = (options: {
  readonly title: string
  readonly nonce: string
  readonly body: Html
  /** Whether to include the enhancement script (not on pages without a form). */
  readonly script: boolean
  /** More style after the page's own: a form's theme (`Assets.themeCss`), made of checked values only. */
  readonly style?: string | undefined
  /** Where the page takes the respondent at once (an ending's redirect), by the document's refresh. */
  readonly redirect?: string | undefined
  /** The page's language and direction (default English, left to right). */
  readonly language?: string | undefined
  readonly direction?: "ltr" | "rtl" | undefined
  /** The messages the page's script shows, in the page's language (`client.*`). */
  readonly words?: Readonly<Record<string, string>> | undefined
}): string =>
  html`<!doctype html>
<html lang="${options.language ?? "en"}" dir="${options.direction ?? "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
${options.redirect === undefined ? null : html`<meta http-equiv="refresh" content="0; url=${options.redirect}">`}
<title>${options.title}</title>
<style nonce="${options.nonce}">${new Html(Assets.css + (options.style ?? ""))}</style>
</head>
<body>
<main id="qf" tabindex="-1"${options.words === undefined ? null : html` data-words="${JSON.stringify(options.words)}"`}>
${options.body}
</main>
${options.script ? html`<script nonce="${options.nonce}">${new Html(Assets.script())}</script>` : null}
</body>
</html>
`.value

/**
 * Where the page shows an image of its form (`/f/{publicId}/images/{imageId}`), relative to the page's own
 * URL `…/f/{publicId}` so that it holds under any prefix the host mounts the page at.
 */
export const imageSrc = (form: { readonly publicId: string }, imageId: string): string =>
  `${encodeURIComponent(form.publicId)}/images/${encodeURIComponent(imageId)}`

/**
 * A screen of a form with its theme's logo at the top (`theme.logo`; its `logoAlt` for screen readers, else
 * decoration), or the screen alone.
 */
export const branded = (form: FormWithFields, body: Html): Html => {
  const theme = form.settings.theme
  if (theme?.logo === undefined) return body
  return html`<div class="brand"><img src="${imageSrc(form, theme.logo)}" alt="${theme.logoAlt ?? ""}"></div>
${body}`
}

/** The messages of the page's script (`static/page.js`), for {@link document}'s `words`. */
export const clientMessageKeys: ReadonlyArray<MessageKey> = [
  "client.moveUp",
  "client.moveDown",
  "client.keepOrder",
  "client.orderIsAnswer",
  "client.signatureDrawHint",
  "client.signatureDrawn",
  "client.drawingCleared",
  "client.drawingUnreadable",
  "client.signatureFailed",
  "client.signatureLost",
  "client.uploading",
  "client.uploaded",
  "client.uploadFailed",
  "client.uploadLost"
]

/** The page's button words: the theme's, else the page's own in its language. */
const wordsOf = (form: FormWithFields, voice: Voice): ButtonWords =>
  buttonWords(form.settings.theme, {
    start: voice.say("page.start"),
    next: voice.say("page.next"),
    submit: voice.say("page.submit"),
    back: voice.say("page.back")
  })

/**
 * The page's language switcher, when the form is offered in several: a select
 * of the languages (each named in itself) and a button that posts the step
 * with `move=lang`, showing the same screen in the chosen language (no
 * JavaScript needed; nothing typed on the screen is lost).
 */
const languageSwitcher = (voice: Voice): Html | null =>
  voice.offered.length < 2
    ? null
    : html`<div class="languages"><label for="lang">${voice.say("page.language")}</label>
<select id="lang" name="lang" data-lang>
${voice.offered.map(
  (language) =>
    html`<option value="${language}" lang="${language}"${attr("selected", language === voice.language && "selected")}>${nativeName(language)}</option>\n`
)}</select>
<button type="submit" name="move" value="lang" class="lang" formnovalidate>${voice.say("page.changeLanguage")}</button></div>`

/** The hidden inputs every step form carries. */
const stepInputs = (token: string, at: string, voice: Voice) =>
  html`<input type="hidden" name="token" value="${token}">
<input type="hidden" name="at" value="${at}">
<div class="hp" aria-hidden="true"><label>${voice.say("page.honeypot")} <input type="text" name="${honeypotName}" tabindex="-1" autocomplete="off"></label></div>`

/** The welcome screen: title, description, how many questions, Start. */
export const welcome = (form: FormWithFields, token: string, voice: Voice, notice?: string, note?: string): Html => {
  const questions = form.fields.filter((f) => f.type !== "statement").length
  return html`<h1 id="title" tabindex="-1" data-focus>${form.title}</h1>
${form.description ? html`<p class="description">${lines(form.description)}</p>` : null}
${notice ? html`<p class="error" role="alert">${notice}</p>` : null}
${note ? html`<p class="note" role="status">${note}</p>` : null}
<form method="post">
${stepInputs(token, "welcome", voice)}
<p class="count">${voice.say("page.questionCount", { count: questions })}</p>
<div class="actions"><button type="submit" name="move" value="start" class="ok" autofocus>${wordsOf(form, voice).start}</button>
<span class="hint">${voice.say("page.pressEnter")}</span></div>
${languageSwitcher(voice)}
</form>`
}

/**
 * The access code screen of a form with the setting `accessCode`, before its
 * welcome screen: the code (a password input), the message of a wrong one,
 * Continue.
 */
export const accessCode = (form: FormWithFields, token: string, voice: Voice, error?: string): Html =>
  html`<h1 class="form-title">${form.title}</h1>
<form method="post" novalidate>
${stepInputs(token, "access", voice)}
<label class="question" for="a">${voice.say("page.accessCode")}</label>
<p class="help" id="a-help">${voice.say("page.accessCodeHelp")}</p>
<input id="a" name="a" type="password" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="200" required aria-describedby="a-help error"${attr("aria-invalid", error !== undefined && "true")}>
<p class="error" id="error" role="alert" aria-live="assertive">${error ?? ""}</p>
<div class="actions"><button type="submit" name="move" value="next" class="ok">${form.settings.theme?.buttons?.next ?? voice.say("page.continue")}</button>
<span class="hint">${voice.say("page.pressEnter")}</span></div>
${languageSwitcher(voice)}
</form>`

/**
 * The id of the response a thank-you screen follows (`data-response`), which the page's script passes to an
 * embedding host (`submitted`); none after a dropped bot's submission.
 */
const sentAs = (responseId: number | undefined) => attr("data-response", responseId !== undefined && String(responseId))

/**
 * The screen once a response is sent: the form's ending chosen for it
 * (`forms/Endings.ts`, recall filled in), or the built-in "Thank you!". An
 * ending with a redirect shows a link there too (`data-redirect`: the
 * script follows it; without the script the document's refresh does). With
 * `responseId`, the heading carries it for an embedding host (`sentAs`).
 */
export const thanks = (form: FormWithFields, voice: Voice, ending?: FilledEnding, responseId?: number): Html =>
  ending === undefined
    ? html`<p class="form-title">${form.title}</p>
<h1 id="title" tabindex="-1" data-focus${sentAs(responseId)}>${voice.say("page.thanksTitle")}</h1>
<p>${voice.say("page.thanksText")}</p>`
    : html`<p class="form-title">${form.title}</p>
<h1 id="title" tabindex="-1" data-focus${sentAs(responseId)}>${ending.title}</h1>
${ending.message === undefined ? null : html`<p class="description">${lines(ending.message)}</p>`}
${ending.button === undefined ? null : html`<p class="actions"><a class="button ok" href="${ending.button.url}">${ending.button.label}</a></p>`}
${ending.redirectUrl === undefined ? null : html`<p class="note" role="status">${voice.say("page.redirecting")} <a href="${ending.redirectUrl}" data-redirect>${voice.say("page.continue")}</a></p>`}`

/**
 * The offer under a question to go on on another device: a plain form that posts the answer token and an
 * e-mail address to `{publicId}/resume-link`, relative to the document (so it works under any prefix): `base`
 * is `""` for a document at `/f/{publicId}`, `"../"` for one at `/f/{publicId}/resume-link`. Folded
 * (`<details>`) unless it shows a problem.
 */
export const resumeOffer = (
  publicId: string,
  token: string,
  voice: Voice,
  base: "" | "../",
  problem?: { readonly error: string; readonly email: string }
): Html => html`<details class="resume"${problem === undefined ? null : html` open`}>
<summary>${voice.say("page.resumeLinkLegend")}</summary>
<form method="post" action="${base}${encodeURIComponent(publicId)}/resume-link" data-plain novalidate>
<input type="hidden" name="token" value="${token}">
<p class="help" id="resume-help">${voice.say("page.resumeLinkHelp")}</p>
<p><label for="resume-email">${voice.say("page.resumeLinkEmail")}</label>
<input id="resume-email" type="email" name="email" autocomplete="email" maxlength="254" value="${problem?.email ?? ""}" aria-describedby="resume-help${problem === undefined ? "" : " resume-error"}"${problem === undefined ? null : html` aria-invalid="true"`}></p>
${problem === undefined ? null : html`<p class="error" id="resume-error" role="alert">${problem.error}</p>`}
<div class="actions"><button type="submit" class="back">${voice.say("page.resumeLinkSend")}</button></div>
</form>
</details>`

/**
 * What a request for a resume link answers (whatever was sent): "sent", and the way back to the question
 * (`base` as for {@link resumeOffer}).
 */
export const resumeSent = (form: FormWithFields, voice: Voice, base: "" | "../"): Html =>
  html`<p class="form-title">${form.title}</p>
<h1 id="title" tabindex="-1" data-focus>${voice.say("page.resumeLinkSentTitle")}</h1>
<p role="status">${voice.say("page.resumeLinkSentText")}</p>
<p class="actions"><a class="button ok" href="${base}${encodeURIComponent(form.publicId)}?continue=1">${voice.say("page.continueAnswering")}</a></p>`

/** A page that is not a form screen: unknown form, closed form, refused step. */
export const message = (title: string, text: string, link?: { readonly href: string; readonly label: string }): Html =>
  html`<h1 id="title" tabindex="-1" data-focus>${title}</h1>
<p>${text}</p>
${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : null}`

/** What a question screen shows in its input: the raw text(s), and an uploaded file. */
export interface Entered {
  readonly texts: ReadonlyArray<string>
  readonly file?: FileAnswer | undefined
  /** The parts of a contact or address by name, or the chosen columns of a matrix by row. */
  readonly parts?: Readonly<Record<string, ReadonlyArray<string>>> | undefined
}

const requiredMark = (field: Field, voice: Voice) =>
  field.required
    ? html`<span class="req" aria-hidden="true">*</span><span class="sr-only"> ${voice.say("page.required")}</span>`
    : null

const describedBy = (field: Field, error: string | undefined, extra?: string) =>
  [field.options?.help ? "help" : "", extra ?? "", error ? "error" : ""].filter((s) => s !== "").join(" ") || null

const inputTypes: Partial<Record<Field["type"], { readonly type: string; readonly autocomplete?: string }>> = {
  short_text: { type: "text" },
  email: { type: "email", autocomplete: "email" },
  tel: { type: "tel", autocomplete: "tel" },
  url: { type: "url", autocomplete: "url" },
  number: { type: "number" },
  date: { type: "date" },
  time: { type: "time" },
  datetime: { type: "datetime-local" }
}

const attr = (name: string, value: string | number | null | undefined | false) =>
  value === null || value === undefined || value === false ? null : html` ${name}="${String(value)}"`

/**
 * The order a respondent sees a question's choices in: as written, or, with
 * `randomize`, shuffled by `seed` (when the respondent started, from their
 * answer token), so that it stays the same on every screen they see.
 */
const ordered = (field: Field, seed: number | undefined): ReadonlyArray<string> => {
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

/** The Other choice of a question that offers it: its value and label, the text typed for it, and whether it is chosen. */
interface OtherChoice {
  /** What the page posts for it: the form's own label of the choice. */
  readonly value: string
  /** What the respondent reads. */
  readonly label: string
  readonly text: string
  readonly chosen: boolean
}

const otherChoice = (field: Field, entered: Entered, voice: Voice): OtherChoice | undefined => {
  const label = otherOf(field)
  if (label === undefined) return undefined
  // The built-in label is the page's word; one the form set is the form's text.
  const shown =
    field.options?.otherLabel === undefined ? voice.say("question.other") : voice.wording.choice(field, label)
  const choices = field.options?.choices ?? []
  // A kept answer holds the typed text itself; a refused step holds the label and the box's text.
  const kept = entered.texts.find((t) => t.trim() !== "" && t !== label && !choices.includes(t))
  return {
    value: label,
    label: shown,
    text: entered.parts?.other?.[0] ?? kept ?? "",
    chosen: entered.texts.includes(label) || kept !== undefined
  }
}

/** The text box of the Other choice. */
const otherBox = (other: OtherChoice, error: string | undefined, voice: Voice): Html =>
  html`<div class="part other"><label for="a-other">${voice.say("question.otherAnswer", { choice: other.label })}</label>
<input id="a-other" name="a.other" type="text" value="${other.text}" maxlength="${OTHER_MAX}" data-other-text${attr(
    "aria-describedby",
    error ? "error" : null
  )}${attr("aria-invalid", error ? "true" : false)}></div>`

/** A group of radio buttons or checkboxes in a fieldset whose legend is the question. */
const group = (
  voice: Voice,
  field: Field,
  error: string | undefined,
  kind: "radio" | "checkbox",
  choices: ReadonlyArray<{
    readonly value: string
    readonly label: string
    readonly other?: boolean
    readonly disabled?: boolean
    /** A picture beside the label (decoration: the label names the choice). */
    readonly image?: string | undefined
  }>,
  checked: ReadonlyArray<string>,
  className: string,
  hint?: string,
  other?: OtherChoice
) =>
  html`<fieldset${attr("aria-describedby", describedBy(field, error, hint ? "choice-hint" : undefined))}${attr(
    "aria-invalid",
    error ? "true" : false
  )}>
<legend class="question" id="question">${field.label}${requiredMark(field, voice)}</legend>
${field.options?.help ? html`<p class="help" id="help">${field.options.help}</p>` : null}
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
${other === undefined ? null : otherBox(other, error, voice)}
</fieldset>`

/** A question's choices in the respondent's order, then its Other choice; and which of them are checked. */
const choiceList = (
  field: Field,
  entered: Entered,
  seed: number | undefined,
  full: ReadonlySet<string>,
  publicId: string,
  voice: Voice
) => {
  const choices = ordered(field, seed)
  const other = otherChoice(field, entered, voice)
  const images = field.options?.images ?? {}
  const imageOf = (c: string) => (Object.hasOwn(images, c) ? imageSrc({ publicId }, images[c]!) : undefined)
  return {
    other,
    pictures: Object.keys(images).length > 0,
    choices: [
      // A choice whose quota is used up is shown, marked full, and cannot be chosen.
      ...choices.map((c) => {
        const label = voice.wording.choice(field, c)
        return full.has(c)
          ? {
              value: c,
              label: voice.say("question.full", { choice: label }),
              other: false,
              disabled: true,
              image: imageOf(c)
            }
          : { value: c, label, other: false, image: imageOf(c) }
      }),
      ...(other === undefined ? [] : [{ value: other.value, label: other.label, other: true }])
    ],
    checked: [...entered.texts.filter((t) => choices.includes(t)), ...(other?.chosen ? [other.value] : [])]
  }
}

/** The whole numbers from `min` to `max` as radio choices: ratings and scales. */
const numberChoices = (min: number, max: number) =>
  Array.from({ length: max - min + 1 }, (_, i) => ({ value: String(min + i), label: String(min + i) }))

const checkboxHint = (field: Field, voice: Voice): string | undefined => {
  const min = field.options?.minSelections
  const max = field.options?.maxSelections
  if (min !== undefined && max !== undefined)
    return min === max
      ? voice.say("question.chooseExactly", { count: min })
      : voice.say("question.chooseRange", { min, max })
  if (min !== undefined && min > 0) return voice.say("question.chooseAtLeast", { min })
  if (max !== undefined) return voice.say("question.chooseUpTo", { max })
  return voice.say("question.chooseAny")
}

const fileHint = (field: Field, voice: Voice): string => {
  const size = field.options?.maxSizeMb ?? 10
  const accept = field.options?.accept
  return accept !== undefined && accept.length > 0
    ? voice.say("question.fileHintTypes", { size, types: accept.join(", ") })
    : voice.say("question.fileHint", { size })
}

/** A matrix: one group per row (its legend the row), the same columns in each, radio buttons or checkboxes. */
const matrix = (field: Field, entered: Entered, error: string | undefined, voice: Voice): Html => {
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
<legend class="question" id="question">${field.label}${requiredMark(field, voice)}</legend>
${field.options?.help ? html`<p class="help" id="help">${field.options.help}</p>` : null}
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

/**
 * A ranking: a place select per choice (the page without JavaScript); the
 * page's script turns it into a list moved with buttons or dragged, which
 * sets the same selects.
 */
const ranking = (
  field: Field,
  entered: Entered,
  error: string | undefined,
  seed: number | undefined,
  voice: Voice
): Html => {
  const choices = ordered(field, seed)
  const places = rankedPlaces(field)
  const hint =
    places === choices.length ? voice.say("question.rankAll") : voice.say("question.rankTop", { count: places })
  // The places posted (a step that failed), or those of a kept answer.
  const placeOf = (choice: string): string => {
    const posted =
      entered.parts !== undefined && Object.hasOwn(entered.parts, choice) ? entered.parts[choice] : undefined
    if (posted !== undefined) return posted[0] ?? ""
    const index = entered.texts.indexOf(choice)
    return index === -1 ? "" : String(index + 1)
  }
  return html`<fieldset${attr("aria-describedby", describedBy(field, error, "choice-hint"))}>
<legend class="question" id="question">${field.label}${requiredMark(field, voice)}</legend>
${field.options?.help ? html`<p class="help" id="help">${field.options.help}</p>` : null}
<p class="hint" id="choice-hint">${hint}</p>
<div class="ranking" data-ranking data-places="${places}">
${choices.map((choice, index) => {
  const place = placeOf(choice)
  return html`<div class="rank-item"><select id="rank-${index}" name="a.${choice}"${attr(
    "autofocus",
    index === 0 && "autofocus"
  )}${attr("aria-invalid", error ? "true" : false)}>
<option value="">${voice.say("question.noPlace")}</option>
${Array.from({ length: places }, (_, i) => {
  const value = String(i + 1)
  return html`<option value="${value}"${attr("selected", place === value && "selected")}>${value}</option>`
})}</select> <label for="rank-${index}">${voice.wording.choice(field, choice)}</label></div>\n`
})}</div>
</fieldset>`
}

/**
 * A signature: a full name typed with a consent box, which works everywhere;
 * the page's script adds a pad to draw on (pointer, touch or pen) whose PNG,
 * once drawn, is the answer instead. A drawing kept from before is carried in
 * the hidden answer until it is cleared or a name is typed.
 */
const signature = (field: Field, entered: Entered, error: string | undefined, voice: Voice): Html => {
  const typed = entered.parts?.typedName?.[0] ?? ""
  const consent = entered.parts?.consent?.[0] === "yes"
  const drawn = entered.file
  const invalid = attr("aria-invalid", error ? "true" : false)
  return html`<fieldset${attr("aria-describedby", describedBy(field, error, "signature-hint"))}>
<legend class="question" id="question">${field.label}${requiredMark(field, voice)}</legend>
${field.options?.help ? html`<p class="help" id="help">${field.options.help}</p>` : null}
<p class="hint" id="signature-hint">${voice.say("question.signatureHint")}</p>
<div class="signature" data-signature data-field="${field.id}" hidden>
<canvas class="pad" width="600" height="200" role="img" aria-label="${voice.say("question.signaturePad")}"></canvas>
<button type="button" class="clear">${voice.say("question.signatureClear")}</button>
</div>
<input type="hidden" name="a" value="${drawn ? JSON.stringify(drawn) : ""}">
<p class="signature-status" id="signature-status" aria-live="polite">${drawn ? voice.say("question.signatureKept") : ""}</p>
<div class="part"><label for="a-typedName">${voice.say("question.fullName")}</label>
<input id="a-typedName" name="a.typedName" type="text" value="${typed}" autocomplete="name" maxlength="200" autofocus${attr("placeholder", field.options?.placeholder)}${attr(
    "aria-describedby",
    error ? "error" : null
  )}${invalid}></div>
<label class="choice legal"><input type="checkbox" name="a.consent" value="yes"${attr(
    "checked",
    consent && "checked"
  )}> ${voice.say("question.signatureConsent")}</label>
</fieldset>`
}

/** The input(s) of one question. */
export const control = (
  field: Field,
  entered: Entered,
  error: string | undefined,
  seed: number | undefined,
  full: ReadonlySet<string>,
  publicId: string,
  voice: Voice
): Html => {
  const options = field.options
  const first = entered.texts[0] ?? ""
  const invalid = attr("aria-invalid", error ? "true" : false)
  const label = html`<label class="question" id="question" for="a">${field.label}${requiredMark(field, voice)}</label>
${options?.help ? html`<p class="help" id="help">${options.help}</p>` : null}`
  switch (field.type) {
    case "short_text":
    case "email":
    case "tel":
    case "url":
    case "number":
    case "date":
    case "time":
    case "datetime": {
      const spec = inputTypes[field.type]!
      const numeric = field.type === "number"
      return html`${label}
<input id="a" name="a" type="${spec.type}" value="${first}" autofocus${attr("required", field.required && "required")}${attr(
        "autocomplete",
        spec.autocomplete
      )}${attr("placeholder", options?.placeholder)}${attr("min", numeric ? options?.min : undefined)}${attr(
        "max",
        numeric ? options?.max : undefined
      )}${attr("step", numeric ? (options?.step ?? "any") : undefined)}${attr(
        "inputmode",
        numeric ? "decimal" : undefined
      )}${attr("maxlength", field.type === "short_text" ? 1000 : undefined)}${attr(
        "aria-describedby",
        describedBy(field, error)
      )}${invalid}>`
    }
    case "long_text":
      return html`${label}
<textarea id="a" name="a" rows="5" autofocus maxlength="10000"${attr("required", field.required && "required")}${attr(
        "placeholder",
        options?.placeholder
      )}${attr("aria-describedby", describedBy(field, error, "newline-hint"))}${invalid}>${first}</textarea>
<p class="hint" id="newline-hint">${voice.say("question.newLine")}</p>`
    case "select": {
      const list = choiceList(field, entered, seed, full, publicId, voice)
      // Many choices fit a dropdown, unless they have pictures (a dropdown cannot show them).
      if (list.choices.length > maxRadioChoices && !list.pictures) {
        const chosen = list.checked[0]
        return html`${label}
<select id="a" name="a" autofocus${attr("required", field.required && "required")}${attr(
          "aria-describedby",
          describedBy(field, error)
        )}${invalid}>
<option value="">${voice.say("question.selectPlaceholder")}</option>
${list.choices.map(
  (c) =>
    html`<option value="${c.value}"${attr("selected", c.value === chosen ? "selected" : false)}${attr(
      "data-other",
      c.other === true && ""
    )}${attr("disabled", "disabled" in c && c.disabled === true && "disabled")}>${c.label}</option>\n`
)}</select>
${list.other === undefined ? null : otherBox(list.other, error, voice)}`
      }
      return group(voice, field, error, "radio", list.choices, list.checked, "", undefined, list.other)
    }
    case "checkboxes": {
      const list = choiceList(field, entered, seed, full, publicId, voice)
      return group(
        voice,
        field,
        error,
        "checkbox",
        list.choices,
        list.checked,
        "",
        checkboxHint(field, voice),
        list.other
      )
    }
    case "rating": {
      const max = options?.max ?? DEFAULT_RATING_MAX
      return group(
        voice,
        field,
        error,
        "radio",
        numberChoices(1, max),
        entered.texts,
        "rating",
        voice.say("question.scale", {
          min: 1,
          max,
          minLabel: voice.say("question.lowest"),
          maxLabel: voice.say("question.highest")
        })
      )
    }
    case "nps":
    case "opinion_scale": {
      const scale = scaleOf(field)
      // An NPS question without labels of its own has the page's, in the page's language.
      const nps = field.type === "nps"
      const hint = voice.say("question.scale", {
        min: scale.min,
        max: scale.max,
        minLabel:
          (nps && options?.minLabel === undefined ? voice.say("question.npsLow") : scale.minLabel) ??
          voice.say("question.lowest"),
        maxLabel:
          (nps && options?.maxLabel === undefined ? voice.say("question.npsHigh") : scale.maxLabel) ??
          voice.say("question.highest")
      })
      return group(voice, field, error, "radio", numberChoices(scale.min, scale.max), entered.texts, "rating", hint)
    }
    case "slider": {
      // A number box the page's script pairs with a range track (a slider without JavaScript would
      // always post a value, even for a question left unanswered).
      const slider = sliderOf(field)
      const end = (value: number, label: string | undefined) =>
        label === undefined ? value : voice.say("question.sliderEnd", { value, label })
      const min = end(slider.min, slider.minLabel)
      const max = end(slider.max, slider.maxLabel)
      const hint =
        slider.step === 1
          ? voice.say("question.sliderRange", { min, max })
          : voice.say("question.sliderRangeStep", { min, max, step: slider.step })
      return html`${label}
<div class="slider" data-slider><input id="a" name="a" type="number" value="${first}" autofocus min="${slider.min}" max="${
        slider.max
      }" step="${slider.step}" inputmode="decimal"${attr("required", field.required && "required")}${attr(
        "placeholder",
        options?.placeholder
      )}${attr("aria-describedby", describedBy(field, error, "slider-hint"))}${invalid}></div>
<p class="hint" id="slider-hint">${hint}</p>`
    }
    case "contact":
    case "address":
      return html`<fieldset${attr("aria-describedby", describedBy(field, error))}>
<legend class="question" id="question">${field.label}${requiredMark(field, voice)}</legend>
${options?.help ? html`<p class="help" id="help">${options.help}</p>` : null}
<div class="parts" data-parts>
${partsOf(field).map(
  (part, index) =>
    html`<div class="part"><label for="a-${part.name}">${voice.say(`part.${part.name}` as MessageKey)}${
      part.optional ? html` <span class="optional">${voice.say("page.optional")}</span>` : null
    }</label>
<input id="a-${part.name}" name="a.${part.name}" type="${
      part.name === "email" ? "email" : part.name === "phone" ? "tel" : "text"
    }" value="${entered.parts?.[part.name]?.[0] ?? ""}" autocomplete="${part.autocomplete}" maxlength="${part.maxLength}"${attr(
      "autofocus",
      index === 0 && "autofocus"
    )}${attr("required", field.required && !part.optional && "required")}${attr(
      "aria-describedby",
      error ? "error" : null
    )}${invalid}></div>
`
)}</div>
</fieldset>`
    case "matrix":
      return matrix(field, entered, error, voice)
    case "ranking":
      return ranking(field, entered, error, seed, voice)
    case "legal":
      return group(
        voice,
        field,
        error,
        "checkbox",
        [{ value: "yes", label: voice.say("question.accept") }],
        entered.texts,
        "legal"
      )
    case "yes_no":
      return group(
        voice,
        field,
        error,
        "radio",
        [
          { value: "yes", label: voice.say("question.yes") },
          { value: "no", label: voice.say("question.no") }
        ],
        entered.texts,
        "yes-no"
      )
    case "file": {
      const current = entered.file
      return html`${label}
<input type="hidden" name="a" value="${current ? JSON.stringify(current) : ""}">
<input id="a" name="file" type="file" autofocus data-field="${field.id}"${attr(
        "accept",
        options?.accept && options.accept.length > 0 ? options.accept.join(",") : undefined
      )}${attr("aria-describedby", describedBy(field, error, "file-hint upload-status"))}${invalid}>
<p class="hint" id="file-hint">${fileHint(field, voice)}</p>
<progress class="upload" max="1" value="${current ? 1 : 0}" aria-label="${voice.say("question.uploadProgress")}"${attr(
        "hidden",
        current ? false : "hidden"
      )}></progress>
<p class="upload-status" id="upload-status" aria-live="polite">${current ? voice.say("question.uploaded", { name: current.name }) : ""}</p>`
    }
    case "signature":
      return signature(field, entered, error, voice)
    case "statement":
      return html`<h2 class="question" id="question" tabindex="-1" data-focus>${field.label}</h2>
${options?.help ? html`<p class="help">${lines(options.help)}</p>` : null}`
  }
}

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
  const multipart = field.type === "file"
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
