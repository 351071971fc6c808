// @ts-check
// A question's options as its type takes them: choices (with Other, quotas, points and pictures), a scale's ends,
// a matrix's rows and columns, a contact's or address's parts, a file's types and size, help and placeholder.
import { html } from "htm/preact"
import { ImagePicker } from "../shared/ImagePicker.js"
import { t } from "../shared/Words.js"
import { questionTypes } from "./QuestionTypes.js"
import { numberOrUndefined } from "./InputValues.js"

/** @typedef {import("./Drafts.js").Draft} Draft */
/** @typedef {import("./Drafts.js").DraftOptions} DraftOptions */

/**
 * The parts a contact or address asks, in their order, and which may be left empty.
 * @param {{ draft: Draft, update: (draft: Draft) => void, disabled: boolean,
 *   parts: NonNullable<import("../shared/Types.js").FieldTypeInfo["parts"]>, id: (name: string) => string }} props
 */
const PartsEditor = ({ draft, update, disabled, parts, id }) => {
  /** @param {DraftOptions} changes */
  const put = (changes) => update({ ...draft, options: { ...draft.options, ...changes } })
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
          onChange=${(e) => ask(p.name, e.target.checked)} /> ${p.label}</label>
        <label><input type="checkbox" id=${id(`optional-${p.name}`)} disabled=${disabled || !asked.includes(p.name)} checked=${optional.includes(p.name)}
          onChange=${(e) =>
            put({
              optionalParts: parts
                .map((q) => q.name)
                .filter((n) => (n === p.name ? e.target.checked : optional.includes(n)))
            })} /> <span aria-hidden="true">${t("builder.partOptional")}</span><span class="sr-only">${t("builder.partOptionalFor", { part: p.label })}</span></label>
      </div>`
    )}
  </fieldset>`
}

/** @param {{ draft: Draft, update: (draft: Draft) => void, disabled: boolean }} props */
export const OptionsEditor = ({ draft, update, disabled }) => {
  /** @param {string} name */
  const id = (name) => `q${draft.key}-${name}`
  /** @param {string} key @param {unknown} value */
  const set = (key, value) => update({ ...draft, options: { ...draft.options, [key]: value } })
  const partsInfo = questionTypes.find((info) => info.type === draft.type)?.parts ?? []
  /** @param {string} key @param {string} label */
  /** A number per choice (quotas, points), edited as "choice: number" lines. */
  const perChoice = (key, label) => html`<div class="stack"><label for=${id(key)}>${label}</label>
      <textarea id=${id(key)} disabled=${disabled}
        value=${Object.entries(draft.options[key] ?? {})
          .map(([choice, n]) => `${choice}: ${n}`)
          .join("\n")}
        onChange=${(e) => {
          /** @type {Record<string, number>} */
          const numbers = {}
          for (const line of e.target.value.split("\n")) {
            const at = line.lastIndexOf(":")
            const choice = line.slice(0, at).trim()
            const n = Number(line.slice(at + 1).trim())
            if (at > 0 && choice !== "" && line.slice(at + 1).trim() !== "" && Number.isFinite(n)) numbers[choice] = n
          }
          set(key, Object.keys(numbers).length === 0 ? undefined : numbers)
        }}></textarea></div>`
  /** A picture per choice (`options.images`), each from the workspace's image library. */
  const choicePictures = () => {
    /** @type {Record<string, string>} */
    const images = draft.options.images ?? {}
    return html`<details class="stack choice-pictures" open=${Object.keys(images).length > 0}>
      <summary>${t("builder.choicePictures")}</summary>
      ${(draft.options.choices ?? []).map(
        (
          choice,
          index
        ) => html`<${ImagePicker} id=${id(`image-${index}`)} label=${t("builder.choicePicture", { choice })}
          value=${images[choice]} disabled=${disabled}
          onChange=${(/** @type {string | undefined} */ imageId) => {
            const next = Object.fromEntries(
              Object.entries({ ...images, [choice]: imageId }).filter(
                ([c, v]) => v !== undefined && (draft.options.choices ?? []).includes(c)
              )
            )
            set("images", Object.keys(next).length === 0 ? undefined : next)
          }} />`
      )}
    </details>`
  }
  const num = (key, label) => html`<div class="stack"><label for=${id(key)}>${label}</label>
    <input id=${id(key)} type="number" disabled=${disabled} value=${draft.options[key] ?? ""} onInput=${(e) => set(key, numberOrUndefined(e.target.value))} /></div>`
  /** @param {string} key @param {string} label @param {string} placeholder */
  const text = (key, label, placeholder) => html`<div class="stack"><label for=${id(key)}>${label}</label>
    <input id=${id(key)} type="text" maxlength="100" disabled=${disabled} placeholder=${placeholder} value=${draft.options[key] ?? ""} onInput=${(e) => set(key, e.target.value.trim() === "" ? undefined : e.target.value)} /></div>`
  /** @param {string} key @param {string} label */
  const lines = (key, label) => html`<div class="stack"><label for=${id(key)}>${label}</label>
    <textarea id=${id(key)} disabled=${disabled} value=${(draft.options[key] ?? []).join("\n")}
      onInput=${(e) =>
        set(
          key,
          e.target.value
            .split("\n")
            .map((/** @type {string} */ c) => c.trim())
            .filter((/** @type {string} */ c) => c !== "")
        )}></textarea></div>`
  return html`<div class="grid">
    ${
      draft.type === "select" || draft.type === "checkboxes" || draft.type === "ranking"
        ? html`<div class="stack"><label for=${id("choices")}>${t("builder.choices")}</label>
      <textarea id=${id("choices")} disabled=${disabled} value=${(draft.options.choices ?? []).join("\n")}
        onInput=${(e) =>
          set(
            "choices",
            e.target.value
              .split("\n")
              .map((c) => c.trim())
              .filter((c) => c !== "")
          )}></textarea></div>`
        : null
    }
    ${draft.type === "checkboxes" ? html`<div class="row">${num("minSelections", t("builder.minSelections"))}${num("maxSelections", t("builder.maxSelections"))}</div>` : null}
    ${
      draft.type === "select" || draft.type === "checkboxes" || draft.type === "ranking"
        ? html`<div class="row"><label><input type="checkbox" id=${id("randomize")} disabled=${disabled} checked=${draft.options.randomize === true}
        onChange=${(e) => set("randomize", e.target.checked ? true : undefined)} /> ${t("builder.randomize")}</label>
      ${
        draft.type === "ranking"
          ? null
          : html`<label><input type="checkbox" id=${id("allowOther")} disabled=${disabled} checked=${draft.options.allowOther === true}
        onChange=${(e) => set("allowOther", e.target.checked ? true : undefined)} /> ${t("builder.allowOther")}</label>
      ${draft.options.allowOther === true ? text("otherLabel", t("builder.otherLabel"), t("builder.otherPlaceholder")) : null}`
      }</div>`
        : null
    }
    ${
      draft.type === "select" || draft.type === "checkboxes"
        ? html`${perChoice("quotas", t("builder.quotas"))}
      ${perChoice("points", t("builder.points"))}
      ${choicePictures()}`
        : null
    }
    ${draft.type === "ranking" ? num("top", t("builder.rankTop")) : null}
    ${
      draft.type === "matrix"
        ? html`<div class="row">${lines("rows", t("builder.rows"))}${lines("columns", t("builder.columns"))}</div>
      <div class="row"><label><input type="checkbox" id=${id("multiple")} disabled=${disabled} checked=${draft.options.multiple === true}
        onChange=${(e) => set("multiple", e.target.checked ? true : undefined)} /> ${t("builder.matrixMultiple")}</label>
      ${num("minRows", t("builder.matrixMinRows"))}</div>`
        : null
    }
    ${draft.type === "number" ? html`<div class="row">${num("min", t("builder.numberMin"))}${num("max", t("builder.numberMax"))}${num("step", t("builder.numberStep"))}</div>` : null}
    ${draft.type === "slider" ? html`<div class="row">${num("min", t("builder.sliderMin"))}${num("max", t("builder.sliderMax"))}${num("step", t("builder.sliderStep"))}</div>` : null}
    ${draft.type === "rating" ? num("max", t("builder.ratingMax")) : null}
    ${draft.type === "opinion_scale" ? html`<div class="row">${num("min", t("builder.scaleMin"))}${num("max", t("builder.scaleMax"))}</div>` : null}
    ${
      draft.type === "nps" || draft.type === "opinion_scale" || draft.type === "slider"
        ? html`<div class="row">${text("minLabel", t("builder.minLabel"), draft.type === "nps" ? t("builder.npsMinPlaceholder") : "")}${text(
            "maxLabel",
            t("builder.maxLabel"),
            draft.type === "nps" ? t("builder.npsMaxPlaceholder") : ""
          )}</div>`
        : null
    }
    ${partsInfo.length > 0 ? html`<${PartsEditor} draft=${draft} update=${update} disabled=${disabled} parts=${partsInfo} id=${id} />` : null}
    ${
      draft.type === "file"
        ? html`<div class="row"><div class="stack"><label for=${id("accept")}>${t("builder.accept")}</label>
      <input id=${id("accept")} type="text" disabled=${disabled} placeholder="image/*, .pdf" value=${(draft.options.accept ?? []).join(", ")}
        onInput=${(e) =>
          set(
            "accept",
            e.target.value
              .split(",")
              .map((c) => c.trim())
              .filter((c) => c !== "")
          )} /></div>
      ${num("maxSizeMb", t("builder.maxSizeMb"))}</div>`
        : null
    }
    <div class="row">
      <div class="stack"><label for=${id("help")}>${t("builder.help")}</label><input id=${id("help")} type="text" disabled=${disabled} value=${draft.options.help ?? ""} onInput=${(e) => set("help", e.target.value)} /></div>
      ${draft.type !== "statement" ? html`<div class="stack"><label for=${id("placeholder")}>${t("builder.placeholder")}</label><input id=${id("placeholder")} type="text" disabled=${disabled} value=${draft.options.placeholder ?? ""} onInput=${(e) => set("placeholder", e.target.value)} /></div>` : null}
    </div>
  </div>`
}
