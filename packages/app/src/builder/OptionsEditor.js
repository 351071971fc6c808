// @ts-check
// A question's options: an editor for each option key its type takes (the server's Schemas, as the page tells
// them), in one order (OptionLayout.js) — choices (with their limits, order, Other, quotas, points and pictures), a
// ranking's places, a matrix's rows and columns, a currency, bounds and a scale's end labels, a contact's or
// address's parts, a file's types and size, help and placeholder. Where a type words an editor its own way, the
// catalogue has the label's key followed by the type's name (`builder.max.rating`).
import { html } from "htm/preact"
import { ImagePicker } from "../shared/ImagePicker.js"
import { typeInfo } from "../shared/QuestionTypes.js"
import { has, t } from "../shared/Words.js"
import { numberOrUndefined } from "./InputValues.js"
import { optionLines } from "./OptionLayout.js"

/** @typedef {import("./Drafts.js").Draft} Draft */
/** @typedef {import("./Drafts.js").DraftOptions} DraftOptions */
/** @typedef {import("../shared/Types.js").FieldTypeInfo} FieldTypeInfo */

/**
 * What an option's editor draws with: the question, its type as the page tells it, an input's id by name, a key's
 * new value, the words of a label's key (the type's own when the catalogue has them).
 * @typedef {{ draft: Draft, type: FieldTypeInfo, update: (draft: Draft) => void, disabled: boolean,
 *   id: (name: string) => string, set: (key: string, value: unknown) => void, word: (key: string) => string }} Editing
 */

/** The texts of lines (or of a list split at `separator`), trimmed, empty ones left out. @param {string} text @param {string} separator */
const split = (text, separator) =>
  text
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== "")

/** A number, or nothing when empty. @param {Editing} e @param {string} key @param {string} label */
const num = (e, key, label) => html`<div class="stack"><label for=${e.id(key)}>${e.word(label)}</label>
    <input id=${e.id(key)} type="number" disabled=${e.disabled} value=${e.draft.options[key] ?? ""} onInput=${(ev) => e.set(key, numberOrUndefined(ev.target.value))} /></div>`

/** A short text, or nothing when blank. @param {Editing} e @param {string} key @param {string} label @param {string} placeholder */
const text = (e, key, label, placeholder) => html`<div class="stack"><label for=${e.id(key)}>${e.word(label)}</label>
    <input id=${e.id(key)} type="text" maxlength="100" disabled=${e.disabled} placeholder=${placeholder} value=${e.draft.options[key] ?? ""} onInput=${(ev) => e.set(key, ev.target.value.trim() === "" ? undefined : ev.target.value)} /></div>`

/** A list, one a line. @param {Editing} e @param {string} key @param {string} label */
const lines = (e, key, label) => html`<div class="stack"><label for=${e.id(key)}>${e.word(label)}</label>
    <textarea id=${e.id(key)} disabled=${e.disabled} value=${(e.draft.options[key] ?? []).join("\n")}
      onInput=${(ev) => e.set(key, split(ev.target.value, "\n"))}></textarea></div>`

/** A list, comma-separated. @param {Editing} e @param {string} key @param {string} label @param {string} placeholder */
const commas = (e, key, label, placeholder) => html`<div class="stack"><label for=${e.id(key)}>${e.word(label)}</label>
    <input id=${e.id(key)} type="text" disabled=${e.disabled} placeholder=${placeholder} value=${(e.draft.options[key] ?? []).join(", ")}
      onInput=${(ev) => e.set(key, split(ev.target.value, ","))} /></div>`

/** A yes or no: true, or nothing. @param {Editing} e @param {string} key @param {string} label */
const flag = (
  e,
  key,
  label
) => html`<label><input type="checkbox" id=${e.id(key)} disabled=${e.disabled} checked=${e.draft.options[key] === true}
      onChange=${(ev) => e.set(key, ev.target.checked ? true : undefined)} /> ${e.word(label)}</label>`

/** A text as typed (help, placeholder). @param {Editing} e @param {string} key @param {string} label */
const plain = (e, key, label) =>
  html`<div class="stack"><label for=${e.id(key)}>${e.word(label)}</label><input id=${e.id(key)} type="text" disabled=${e.disabled} value=${e.draft.options[key] ?? ""} onInput=${(ev) => e.set(key, ev.target.value)} /></div>`

/** A number per choice (quotas, points), edited as "choice: number" lines. @param {Editing} e @param {string} key @param {string} label */
const perChoice = (e, key, label) => html`<div class="stack"><label for=${e.id(key)}>${e.word(label)}</label>
      <textarea id=${e.id(key)} disabled=${e.disabled}
        value=${Object.entries(e.draft.options[key] ?? {})
          .map(([choice, n]) => `${choice}: ${n}`)
          .join("\n")}
        onChange=${(ev) => {
          /** @type {Record<string, number>} */
          const numbers = {}
          for (const line of ev.target.value.split("\n")) {
            const at = line.lastIndexOf(":")
            const choice = line.slice(0, at).trim()
            const n = Number(line.slice(at + 1).trim())
            if (at > 0 && choice !== "" && line.slice(at + 1).trim() !== "" && Number.isFinite(n)) numbers[choice] = n
          }
          e.set(key, Object.keys(numbers).length === 0 ? undefined : numbers)
        }}></textarea></div>`

/** A picture per choice (`options.images`), each from the workspace's image library. @param {Editing} e */
const choicePictures = (e) => {
  /** @type {Record<string, string>} */
  const images = e.draft.options.images ?? {}
  /** @type {ReadonlyArray<string>} */
  const choices = e.draft.options.choices ?? []
  return html`<details class="stack choice-pictures" open=${Object.keys(images).length > 0}>
      <summary>${t("builder.choicePictures")}</summary>
      ${choices.map(
        (
          choice,
          index
        ) => html`<${ImagePicker} id=${e.id(`image-${index}`)} label=${t("builder.choicePicture", { choice })}
          value=${images[choice]} disabled=${e.disabled}
          onChange=${(/** @type {string | undefined} */ imageId) => {
            const next = Object.fromEntries(
              Object.entries({ ...images, [choice]: imageId }).filter(
                ([c, v]) => v !== undefined && choices.includes(c)
              )
            )
            e.set("images", Object.keys(next).length === 0 ? undefined : next)
          }} />`
      )}
    </details>`
}

/** The parts a contact or address asks, in their order, and which may be left empty. @param {Editing} e */
const partsEditor = (e) => {
  const parts = e.type.parts ?? []
  const { draft, disabled, id } = e
  /** @param {DraftOptions} changes */
  const put = (changes) => e.update({ ...draft, options: { ...draft.options, ...changes } })
  /** @type {ReadonlyArray<string>} */
  const asked = draft.options.parts ?? parts.filter((p) => p.asked).map((p) => p.name)
  /** @type {ReadonlyArray<string>} */
  const optional = draft.options.optionalParts ?? parts.filter((p) => p.optional).map((p) => p.name)
  /** @param {string} name @param {boolean} on */
  const ask = (name, on) => {
    put({
      parts: parts.map((p) => p.name).filter((n) => (n === name ? on : asked.includes(n))),
      optionalParts: optional.filter((n) => n !== name || on)
    })
  }
  return html`<fieldset class="stack"><legend>${t("builder.partsAsked")}</legend>
    ${parts.map(
      (p) => html`<div class="row">
        <label><input type="checkbox" id=${id(`part-${p.name}`)} disabled=${disabled} checked=${asked.includes(p.name)}
          onChange=${(ev) => ask(p.name, ev.target.checked)} /> ${p.label}</label>
        <label><input type="checkbox" id=${id(`optional-${p.name}`)} disabled=${disabled || !asked.includes(p.name)} checked=${optional.includes(p.name)}
          onChange=${(ev) =>
            put({
              optionalParts: parts
                .map((q) => q.name)
                .filter((n) => (n === p.name ? ev.target.checked : optional.includes(n)))
            })} /> <span aria-hidden="true">${t("builder.partOptional")}</span><span class="sr-only">${t("builder.partOptionalFor", { part: p.label })}</span></label>
      </div>`
    )}
  </fieldset>`
}

/**
 * The editor of each option key, given the key (keys edited within another's, such as Other's label, have none of
 * their own). A label's key followed by a type's name is that type's own words for it.
 * @type {Readonly<Record<string, (e: Editing, key: string) => unknown>>}
 */
const editors = {
  choices: (e, key) => lines(e, key, "builder.choices"),
  minSelections: (e, key) => num(e, key, "builder.minSelections"),
  maxSelections: (e, key) => num(e, key, "builder.maxSelections"),
  randomize: (e, key) => flag(e, key, "builder.randomize"),
  allowOther: (e, key) =>
    html`${flag(e, key, "builder.allowOther")}
      ${e.draft.options[key] === true ? text(e, "otherLabel", "builder.otherLabel", t("builder.otherPlaceholder")) : null}`,
  quotas: (e, key) => perChoice(e, key, "builder.quotas"),
  points: (e, key) => perChoice(e, key, "builder.points"),
  images: choicePictures,
  top: (e, key) => num(e, key, "builder.rankTop"),
  rows: (e, key) => lines(e, key, "builder.rows"),
  columns: (e, key) => lines(e, key, "builder.columns"),
  multiple: (e, key) => flag(e, key, "builder.matrixMultiple"),
  minRows: (e, key) => num(e, key, "builder.matrixMinRows"),
  // The currency's ISO 4217 code, and the codes to choose from.
  currency: (e, key) => text(e, key, "builder.currency", "EUR"),
  currencies: (e, key) => commas(e, key, "builder.currencies", "EUR, USD, GBP"),
  min: (e, key) => num(e, key, "builder.min"),
  max: (e, key) => num(e, key, "builder.max"),
  step: (e, key) => num(e, key, "builder.step"),
  // A scale's end labels: placeholders only where its type has words for them (the defaults the page shows).
  minLabel: (e, key) => text(e, key, "builder.minLabel", e.word("builder.minLabelPlaceholder")),
  maxLabel: (e, key) => text(e, key, "builder.maxLabel", e.word("builder.maxLabelPlaceholder")),
  parts: partsEditor,
  accept: (e, key) => commas(e, key, "builder.accept", "image/*, .pdf"),
  maxSizeMb: (e, key) => num(e, key, "builder.maxSizeMb"),
  help: (e, key) => plain(e, key, "builder.help"),
  // A placeholder is shown in the answer's input: a question without an answer has none.
  placeholder: (e, key) => (e.type.answered ? plain(e, key, "builder.placeholder") : null)
}

/** @param {{ draft: Draft, update: (draft: Draft) => void, disabled: boolean }} props */
export const OptionsEditor = ({ draft, update, disabled }) => {
  const type = typeInfo(draft.type)
  /** @type {Editing} */
  const e = {
    draft,
    type,
    update,
    disabled,
    id: (name) => `q${draft.key}-${name}`,
    set: (key, value) => update({ ...draft, options: { ...draft.options, [key]: value } }),
    word: (key) => {
      const own = `${key}.${draft.type}`
      return has(own) ? t(own) : has(key) ? t(key) : ""
    }
  }
  return html`<div class="grid">
    ${optionLines(type.options).map(({ keys, row }) => {
      const drawn = keys.map((key) => editors[key]?.(e, key) ?? null)
      return row ? html`<div class="row">${drawn}</div>` : drawn
    })}
  </div>`
}
