// @ts-check
// A form's assignment rules: who gets a new case (by an answer, in turn, or the one with the fewest open cases).
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { MoveButtons, moved } from "../shared/Ordering.js"
import { takesAnswer } from "../shared/QuestionTypes.js"
import { t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").AssignmentRule} AssignmentRule */
/** @typedef {import("../shared/Types.js").Member} Member */
/** @typedef {import("../shared/Types.js").Field} Field */

/** A new rule of a kind, with the first member and question filled in. @param {AssignmentRule["kind"]} kind @param {ReadonlyArray<Member>} members @param {ReadonlyArray<Field>} fields @returns {AssignmentRule} */
const fresh = (kind, members, fields) =>
  kind === "byAnswer"
    ? { kind, fieldId: fields[0]?.id ?? 0, equals: "", assigneeId: members[0]?.accountId ?? 0 }
    : { kind, memberIds: members.slice(0, 1).map((m) => m.accountId) }

/** @param {{ formId: number, canWrite: boolean }} props */
export const AssignmentEditor = ({ formId, canWrite }) => {
  const [rules, setRules] = useState(/** @type {ReadonlyArray<AssignmentRule> | null} */ (null))
  const [members, setMembers] = useState(/** @type {ReadonlyArray<Member>} */ ([]))
  const [fields, setFields] = useState(/** @type {ReadonlyArray<Field>} */ ([]))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    Promise.all([api.get(`/forms/${formId}/assignment-rules`), api.get("/members"), api.get(`/forms/${formId}`)]).then(
      /** @param {[{ rules: ReadonlyArray<AssignmentRule> }, { members: ReadonlyArray<Member> }, { fields: ReadonlyArray<Field> }]} r */
      ([r, m, f]) => {
        setMembers(m.members.filter((member) => member.role !== "viewer"))
        setFields(f.fields.filter((field) => takesAnswer(field.type)))
        setRules(r.rules)
      },
      (e) => setError(messageOf(e))
    )
  }, [formId])
  const list = rules ?? []
  /** @param {number} index @param {AssignmentRule} rule */
  const set = (index, rule) => setRules(list.map((r, i) => (i === index ? rule : r)))
  /** @param {number} index @param {number} delta */
  const move = (index, delta) => setRules(moved(list, index, delta))
  const save = () =>
    api.put(`/forms/${formId}/assignment-rules`, { rules: list }).then(
      /** @param {{ rules: ReadonlyArray<AssignmentRule> }} r */
      (r) => {
        setRules(r.rules)
        setNotice(t("builder.assignSaved"))
        setError(null)
      },
      (e) => {
        setNotice(null)
        setError(messageOf(e))
      }
    )
  /** @param {number} id */
  const nameOf = (id) => {
    const member = members.find((m) => m.accountId === id)
    return member === undefined
      ? String(id)
      : `${member.name ?? member.email}${member.away ? ` (${t("builder.assignAway")})` : ""}`
  }
  /** @param {AssignmentRule} rule @param {number} index */
  const body = (rule, index) => {
    if (rule.kind === "byAnswer") {
      const answer = typeof rule.equals === "string" ? rule.equals : rule.equals.join(", ")
      return html`<div class="row">
        <label>${t("builder.assignQuestion")} <select value=${rule.fieldId} disabled=${!canWrite}
          onChange=${(e) => set(index, { ...rule, fieldId: Number(e.target.value) })}>
          ${fields.map((f) => html`<option value=${f.id}>${f.label}</option>`)}</select></label>
        <label>${t("builder.assignEquals")} <input type="text" value=${answer} disabled=${!canWrite}
          onChange=${(e) => {
            const parts = e.target.value
              .split(",")
              .map((/** @type {string} */ p) => p.trim())
              .filter((/** @type {string} */ p) => p !== "")
            set(index, { ...rule, equals: parts.length === 1 ? (parts[0] ?? "") : parts })
          }} /></label>
        <label>${t("builder.assignTo")} <select value=${rule.assigneeId} disabled=${!canWrite}
          onChange=${(e) => set(index, { ...rule, assigneeId: Number(e.target.value) })}>
          ${members.map((m) => html`<option value=${m.accountId}>${nameOf(m.accountId)}</option>`)}</select></label>
      </div>`
    }
    return html`<fieldset><legend>${t("builder.assignMembers")}</legend>
      ${members.map(
        (m) => html`<label key=${m.accountId}><input type="checkbox" disabled=${!canWrite}
          checked=${rule.memberIds.includes(m.accountId)}
          onChange=${(e) =>
            set(index, {
              ...rule,
              memberIds: e.target.checked
                ? [...rule.memberIds, m.accountId]
                : rule.memberIds.filter((id) => id !== m.accountId)
            })} /> ${nameOf(m.accountId)}</label>`
      )}
    </fieldset>`
  }
  return html`<section aria-labelledby="assign-title">
    <h2 id="assign-title">${t("builder.assignTitle")}</h2>
    <p class="muted">${t("builder.assignHelp")}</p>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${
      rules === null
        ? html`<p class="loading">${t("builder.loading")}</p>`
        : html`<ol class="stack">${list.map(
            (rule, index) => html`<li class="card stack" key=${index}>
          <label>${t("builder.assignKind", { position: index + 1 })} <select value=${rule.kind} disabled=${!canWrite}
            onChange=${(e) => set(index, fresh(e.target.value, members, fields))}>
            <option value="byAnswer">${t("builder.assignByAnswer")}</option>
            <option value="roundRobin">${t("builder.assignRoundRobin")}</option>
            <option value="leastOpen">${t("builder.assignLeastOpen")}</option>
          </select></label>
          ${body(rule, index)}
          ${
            canWrite
              ? html`<div class="row">
            <${MoveButtons} index=${index} count=${list.length} up=${t("builder.assignMoveUp", { position: index + 1 })}
              down=${t("builder.assignMoveDown", { position: index + 1 })} move=${(/** @type {number} */ delta) => move(index, delta)} />
            <button class="danger" aria-label=${t("builder.assignRemove", { position: index + 1 })} onClick=${() => setRules(list.filter((_, i) => i !== index))}>${t("builder.delete")}</button>
          </div>`
              : null
          }
        </li>`
          )}</ol>`
    }
    ${
      canWrite && rules !== null
        ? html`<div class="row">
      <button onClick=${() => setRules([...list, fresh("roundRobin", members, fields)])}>${t("builder.assignAdd")}</button>
      <button class="primary" onClick=${save}>${t("builder.assignSave")}</button>
    </div>`
        : null
    }
  </section>`
}
