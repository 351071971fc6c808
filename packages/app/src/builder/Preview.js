// @ts-check
// The public page's one-question-at-a-time flow, drawn from the unsaved questions (a page's questions together).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { t } from "../shared/Words.js"
import { typeInfo, typeName } from "../shared/QuestionTypes.js"
import { screensOf } from "./Drafts.js"

/** @typedef {import("./Drafts.js").Draft} Draft */

/** The public page's one-question-at-a-time flow, drawn from the unsaved questions. */
/** @param {{ title: string, drafts: ReadonlyArray<Draft> }} props */
export const Preview = ({ title, drafts }) => {
  const [index, setIndex] = useState(-1)
  // Questions on the same page are previewed together; a question without a page is a screen of its own.
  const screens = screensOf(drafts)
  const at = Math.min(index, screens.length - 1)
  const screen = screens[at]
  /** @param {Draft} draft */
  const question = (draft) => {
    /** @type {ReadonlyArray<string>} */
    const choices = draft.options.choices ?? []
    /** The choices, then Other with its box when offered, and a note when they are shuffled. @param {unknown[]} shown @param {string} mark */
    const withOther = (shown, mark) => [
      ...shown,
      draft.options.allowOther === true
        ? html`<span class="choice">${mark} ${draft.options.otherLabel || t("builder.previewOther")}: <span class="muted">${t("builder.previewYourAnswer")}</span></span>`
        : null,
      draft.options.randomize === true ? html`<p class="muted">${t("builder.previewRandomized")}</p>` : null
    ]
    /** @param {ReadonlyArray<string>} columns @param {string} mark */
    const scaleOf = (columns, mark) =>
      html`<div class="row">${columns.map((c) => html`<span class="choice">${mark} ${c}</span>`)}</div>`
    const partsPreview = () => {
      const parts = typeInfo(draft.type).parts ?? []
      /** @type {ReadonlyArray<string>} */
      const asked = draft.options.parts ?? parts.filter((p) => p.asked).map((p) => p.name)
      return asked.map(
        (name) => html`<span class="choice muted">${parts.find((p) => p.name === name)?.label ?? name}</span>`
      )
    }
    /** @param {number} min @param {number} max */
    const scale = (min, max) =>
      html`<div class="row">${Array.from({ length: Math.max(0, max - min + 1) }, (_, i) => html`<span class="choice">${min + i}</span>`)}</div>`
    const look = typeInfo(draft.type).look
    /** A scale's or range's end: the question's own option when it has one, else the type's. */
    const min = "min" in look ? (draft.options.min ?? look.min) : 0
    const max = "max" in look ? (draft.options.max ?? look.max) : 0
    /** How each look is sketched (the registry says which a type has: `shell.fieldTypes[].look`). */
    const sketches = {
      none: () => null,
      choice: () =>
        withOther(
          choices.map((c) => html`<span class="choice">○ ${c}</span>`),
          "○"
        ),
      choices: () =>
        withOther(
          choices.map((c) => html`<span class="choice">☐ ${c}</span>`),
          "☐"
        ),
      scale: () => scale(min, max),
      range: () =>
        html`<div class="row"><span>${draft.options.minLabel ?? min}</span><span class="choice muted" aria-hidden="true">——●——</span><span>${draft.options.maxLabel ?? max}</span></div>`,
      yesNo: () =>
        html`<div class="row"><span class="choice">${t("builder.previewYes")}</span><span class="choice">${t("builder.previewNo")}</span></div>`,
      consent: () => html`<span class="choice">☐ ${t("builder.previewAccept")}</span>`,
      grid: () =>
        (draft.options.rows ?? []).map(
          (/** @type {string} */ row) =>
            html`<p class="muted">${row}</p>${scaleOf(draft.options.columns ?? [], draft.options.multiple === true ? "☐" : "○")}`
        ),
      ranked: () =>
        html`<ol>${choices.slice(0, draft.options.top ?? choices.length).map((c) => html`<li class="choice">${c}</li>`)}</ol>`,
      parts: () => partsPreview(),
      upload: () => html`<span class="choice">${t("builder.previewChooseFile")}</span>`,
      drawing: () =>
        html`<span class="choice muted">✍ ${t("builder.previewSignatureDraw")}</span><span class="choice">☐ ${t("builder.previewSignatureAgree")}</span>`,
      lines: () =>
        html`<span class="choice muted">${draft.options.placeholder || t("builder.previewLongAnswer")}</span>`,
      line: () => html`<span class="choice muted">${draft.options.placeholder || typeName(draft.type)}</span>`
    }
    const input = sketches[look.kind]
    return html`<p class="q">${draft.label || t("builder.previewNoText")}${draft.required ? html`<span aria-hidden="true"> *</span>` : null}</p>
      ${draft.options.help ? html`<p class="muted">${draft.options.help}</p>` : null}
      ${input()}`
  }
  const body = () =>
    at < 0 || screen === undefined
      ? html`<p class="q">${title}</p><p class="muted">${t("builder.previewWelcome")}</p>`
      : html`<p class="muted">${t("builder.previewPosition", { position: at + 1, total: screens.length })}</p>${screen.map((d) => question(d))}`
  return html`<section class="preview" aria-labelledby="preview-title">
    <h2 id="preview-title">${t("builder.previewTitle")}</h2>
    <div aria-live="polite">${body()}</div>
    <div class="row">
      <button onClick=${() => setIndex(Math.max(-1, at - 1))} disabled=${at < 0}>${t("builder.previewBack")}</button>
      <button onClick=${() => setIndex(Math.min(screens.length - 1, at + 1))} disabled=${at >= screens.length - 1}>${t("builder.previewNext")}</button>
    </div>
  </section>`
}
