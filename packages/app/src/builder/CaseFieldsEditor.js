// @ts-check
// A form's case fields: the team's own fields of its cases (text, number, date, select, member), never shown to
// the respondent. The form's settings define them (`PUT /api/forms/{id}/case-fields` replaces the whole list), and
// the case page's *Fields* panel (`case/CaseFieldsPanel.js`) sets a case's values (`PATCH /api/responses/{id}`
// with `caseFields`).
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { MoveButtons, moved } from "../shared/Ordering.js"
import { t } from "../shared/Words.js"
import { keyFrom, toFields, types, unusedKey } from "./CaseFieldDrafts.js"

/** @typedef {import("../shared/Types.js").CaseField} CaseField */
/** @typedef {CaseField["type"]} CaseFieldType */
/** @typedef {import("./CaseFieldDrafts.js").Draft} Draft */

/**
 * The form's case fields in its settings: add, change, order and remove, then save the whole list.
 * @param {{ formId: number, canWrite: boolean }} props
 */
export const CaseFieldsEditor = ({ formId, canWrite }) => {
  const [fields, setFields] = useState(/** @type {ReadonlyArray<Draft> | null} */ (null))
  const [fresh, setFresh] = useState(/** @type {ReadonlySet<number>} */ (new Set()))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    api.get(`/forms/${formId}/case-fields`).then(
      /** @param {{ fields: ReadonlyArray<CaseField> }} r */
      (r) => setFields(r.fields),
      (e) => setError(messageOf(e))
    )
  }, [formId])
  const list = fields ?? []
  /** @param {number} index @param {Partial<Draft>} change */
  const set = (index, change) =>
    setFields(
      list.map((field, i) => {
        if (i !== index) return field
        const next = { ...field, ...change }
        // A new field's key follows its label until it is saved; a saved one keeps its key (its values hang on it).
        return change.label !== undefined && fresh.has(index)
          ? {
              ...next,
              key: unusedKey(
                keyFrom(change.label),
                list.filter((_, j) => j !== index)
              )
            }
          : next
      })
    )
  /** @param {number} index @param {number} delta */
  const move = (index, delta) => {
    setFields(moved(list, index, delta))
    setFresh(new Set([...fresh].map((i) => (i === index ? index + delta : i === index + delta ? index : i))))
  }
  const add = () => {
    setFresh(new Set([...fresh, list.length]))
    setFields([...list, { key: unusedKey("field", list), label: "", type: "text" }])
    requestAnimationFrame(() => document.getElementById(`cf-label-${list.length}`)?.focus())
  }
  const save = () =>
    api.put(`/forms/${formId}/case-fields`, { fields: toFields(list) }).then(
      /** @param {{ fields: ReadonlyArray<CaseField> }} r */
      (r) => {
        setFields(r.fields)
        setFresh(new Set())
        setNotice(t("caseFields.saved"))
        setError(null)
      },
      (e) => {
        setNotice(null)
        setError(messageOf(e))
      }
    )
  /** @type {Readonly<Record<CaseFieldType, string>>} */
  const typeNames = {
    text: t("caseFields.typeText"),
    number: t("caseFields.typeNumber"),
    date: t("caseFields.typeDate"),
    select: t("caseFields.typeSelect"),
    member: t("caseFields.typeMember")
  }
  return html`<section aria-labelledby="case-fields-title">
    <h2 id="case-fields-title">${t("caseFields.title")}</h2>
    <p class="muted">${t("caseFields.help")}</p>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${
      fields === null
        ? html`<p class="loading">${t("builder.loading")}</p>`
        : list.length === 0
          ? html`<p>${t("caseFields.none")}</p>`
          : html`<ol class="stack">${list.map(
              (field, index) => html`<li class="card stack" key=${index}>
          <div class="row">
            <label for=${`cf-label-${index}`}>${t("caseFields.label", { position: index + 1 })}</label>
            <input id=${`cf-label-${index}`} type="text" maxlength="100" value=${field.label} disabled=${!canWrite}
              onInput=${(e) => set(index, { label: e.currentTarget.value })} />
            <label for=${`cf-type-${index}`}>${t("caseFields.type")}</label>
            <select id=${`cf-type-${index}`} value=${field.type} disabled=${!canWrite}
              onChange=${(e) => set(index, { type: /** @type {CaseFieldType} */ (e.currentTarget.value) })}>
              ${types.map((type) => html`<option value=${type}>${typeNames[type]}</option>`)}
            </select>
            <span class="muted">${t("caseFields.key", { key: field.key })}</span>
          </div>
          ${
            field.type === "select"
              ? html`<label for=${`cf-options-${index}`}>${t("caseFields.options")}</label>
            <textarea id=${`cf-options-${index}`} rows="3" disabled=${!canWrite}
              value=${field.optionsText ?? (field.options ?? []).join("\n")}
              onInput=${(e) => set(index, { optionsText: e.currentTarget.value })}></textarea>`
              : null
          }
          ${
            canWrite
              ? html`<div class="row">
            <${MoveButtons} index=${index} count=${list.length} up=${t("caseFields.moveUp", { position: index + 1 })}
              down=${t("caseFields.moveDown", { position: index + 1 })} move=${(/** @type {number} */ delta) => move(index, delta)} />
            <button class="danger" aria-label=${t("caseFields.remove", { position: index + 1 })} onClick=${() => {
              setFields(list.filter((_, i) => i !== index))
              setFresh(new Set([...fresh].filter((i) => i !== index).map((i) => (i > index ? i - 1 : i))))
            }}>${t("builder.delete")}</button>
          </div>`
              : null
          }
        </li>`
            )}</ol>`
    }
    ${
      canWrite && fields !== null
        ? html`<div class="row">
      <button onClick=${add}>${t("caseFields.add")}</button>
      <button class="primary" onClick=${save}>${t("caseFields.save")}</button>
    </div>`
        : null
    }
  </section>`
}
