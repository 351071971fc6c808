/**
 * The input(s) of each question on the public page, by type (text boxes,
 * choices with their Other box, ratings and scales, sliders, contact and
 * address parts, matrices, rankings, files, signatures, statements), with
 * what the respondent entered before and the message of a failed check. The
 * status edit page shows the same controls. Every string from a form is user
 * content and goes through the escaping `html` template.
 */
import {
  DEFAULT_RATING_MAX,
  type Field,
  type FileAnswer,
  OTHER_MAX,
  otherOf,
  partsOf,
  rankedPlaces,
  scaleOf,
  sliderOf
} from "../../forms/index.ts"
import type { MessageKey } from "../../languages/index.ts"
import type { Voice } from "../Voice.ts"
import { type Html, html, lines, attr } from "../../web/index.ts"
import { imageSrc } from "./Document.ts"

/** Past this many choices a `select` question is a dropdown instead of radio buttons. */
export const maxRadioChoices = 7

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
