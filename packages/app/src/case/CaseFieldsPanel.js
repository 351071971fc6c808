// @ts-check
// A case's values of its form's case fields (the team's own fields: text, number, date, select, member), on the
// case page: each saved as it changes (`PATCH /api/responses/{id}` with `caseFields`).
import { html } from "htm/preact"
import { t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").CaseField} CaseField */
/** @typedef {import("../shared/Types.js").Member} Member */

/**
 * A case's values of its form's case fields, on the case page: each saved as it changes. Nothing without fields.
 * @param {{ definitions: ReadonlyArray<CaseField>, values: Readonly<Record<string, string | number>>,
 *   members: ReadonlyArray<Member>, canWrite: boolean,
 *   patch: (body: { caseFields: Record<string, string | number | null> }, done: string) => Promise<void> }} props
 */
export const CaseFieldsPanel = ({ definitions, values, members, canWrite, patch }) => {
  if (definitions.length === 0) return null
  /** @param {CaseField} field @param {string} raw */
  const save = (field, raw) => {
    const text = raw.trim()
    const value =
      text === "" ? null : field.type === "number" ? Number(text) : field.type === "member" ? Number(text) : raw
    if (value === (values[field.key] ?? null)) return
    patch({ caseFields: { [field.key]: value } }, t("caseFields.valueSaved", { label: field.label }))
  }
  /** @param {CaseField} field */
  const control = (field) => {
    const id = `case-field-${field.key}`
    const current = values[field.key]
    const shown = current === undefined ? "" : String(current)
    /** @param {Event & { currentTarget: HTMLInputElement | HTMLSelectElement }} e */
    const onChange = (e) => save(field, e.currentTarget.value)
    switch (field.type) {
      case "select":
        return html`<select id=${id} disabled=${!canWrite} value=${shown} onChange=${onChange}>
          <option value="">${t("caseFields.notSet")}</option>
          ${(field.options ?? []).map((option) => html`<option value=${option}>${option}</option>`)}
        </select>`
      case "member":
        return html`<select id=${id} disabled=${!canWrite} value=${shown} onChange=${onChange}>
          <option value="">${t("caseFields.notSet")}</option>
          ${members.map((m) => html`<option value=${String(m.accountId)}>${m.name ?? m.email}</option>`)}
        </select>`
      case "number":
        return html`<input id=${id} type="number" step="any" disabled=${!canWrite} value=${shown} onChange=${onChange} />`
      case "date":
        return html`<input id=${id} type="date" disabled=${!canWrite} value=${shown} onChange=${onChange} />`
      default:
        return html`<input id=${id} type="text" maxlength="1000" disabled=${!canWrite} value=${shown} onChange=${onChange} />`
    }
  }
  return html`<section class="stack" aria-labelledby="case-fields-heading">
    <h3 id="case-fields-heading">${t("caseFields.panel")}</h3>
    ${definitions.map(
      (field) => html`<div class="stack" key=${field.key}>
        <label for=${`case-field-${field.key}`}>${field.label}</label>
        ${control(field)}
      </div>`
    )}
  </section>`
}
