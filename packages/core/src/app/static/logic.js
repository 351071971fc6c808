// @ts-check
// Form logic in the builder: hidden fields, jumps after a question, and conditions to show one.
import { html } from "htm/preact"
import { useState } from "preact/hooks"

const operators = [
  ["equals", "equals"],
  ["notEquals", "does not equal"],
  ["contains", "contains"],
  ["notContains", "does not contain"],
  ["greaterThan", "is greater than"],
  ["lessThan", "is less than"],
  ["isEmpty", "is empty"],
  ["isNotEmpty", "is not empty"]
]

const conditionParts = (condition) => {
  const operator = operators.find(([op]) => condition !== undefined && op in condition)?.[0] ?? "equals"
  return { field: condition?.field ?? "", operator, value: condition?.[operator] ?? "" }
}
const conditionOf = ({ field, operator, value }) => ({
  field: typeof field === "string" && field.startsWith("hidden:") ? field : Number(field),
  [operator]: operator === "isEmpty" || operator === "isNotEmpty" ? true : value
})

const ConditionEditor = ({ id, condition, earlier, hidden, onChange, disabled }) => {
  const parts = conditionParts(condition)
  const set = (patch) => onChange(conditionOf({ ...parts, ...patch }))
  return html`<span class="row">
    <label class="sr-only" for=${`${id}-field`}>Question</label>
    <select id=${`${id}-field`} disabled=${disabled} value=${String(parts.field)} onChange=${(e) => set({ field: e.target.value })}>
      <option value="">Choose…</option>
      ${earlier.map((d) => html`<option value=${String(d.id)}>${d.label}</option>`)}
      ${hidden.map((h) => html`<option value=${`hidden:${h.name}`}>hidden: ${h.name}</option>`)}
    </select>
    <label class="sr-only" for=${`${id}-op`}>Operator</label>
    <select id=${`${id}-op`} disabled=${disabled} value=${parts.operator} onChange=${(e) => set({ operator: e.target.value })}>
      ${operators.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select>
    ${
      parts.operator === "isEmpty" || parts.operator === "isNotEmpty"
        ? null
        : html`<label class="sr-only" for=${`${id}-value`}>Value</label>
      <input id=${`${id}-value`} type="text" disabled=${disabled} value=${String(parts.value)} onInput=${(e) => set({ value: e.target.value })} />`
    }
  </span>`
}

/**
 * Logic of one question (saved questions only: rules refer to question ids): jumps after it is answered, and a
 * show-if condition. The server's engine validates on save and its message is shown as is.
 */
export const LogicEditor = ({ draft, index, drafts, hidden, update, disabled }) => {
  const earlier = drafts.slice(0, index + 1).filter((d) => d.id !== undefined)
  const later = drafts.slice(index + 1).filter((d) => d.id !== undefined)
  const rules = draft.logic ?? []
  const setRules = (next) => update({ ...draft, logic: next })
  if (draft.id === undefined) return html`<p class="muted">Save the form to add logic to this question.</p>`
  return html`<details>
    <summary>Logic${rules.length > 0 || draft.showIf ? ` (${rules.length} rule${rules.length === 1 ? "" : "s"}${draft.showIf ? ", show-if" : ""})` : ""}</summary>
    <div class="stack">
      ${rules.map(
        (rule, r) => html`<div class="row" key=${r}>
        If <${ConditionEditor} id=${`q${draft.key}-r${r}`} condition=${rule.if} earlier=${earlier} hidden=${hidden} disabled=${disabled}
          onChange=${(condition) => setRules(rules.map((x, i) => (i === r ? { ...x, if: condition } : x)))} />
        <label for=${`q${draft.key}-r${r}-jump`}>then go to</label>
        <select id=${`q${draft.key}-r${r}-jump`} disabled=${disabled} value=${String(rule.then?.jumpTo ?? "end")}
          onChange=${(e) => setRules(rules.map((x, i) => (i === r ? { ...x, then: { jumpTo: e.target.value === "end" ? "end" : Number(e.target.value) } } : x)))}>
          ${later.map((d) => html`<option value=${String(d.id)}>${d.label}</option>`)}<option value="end">the end</option></select>
        ${disabled ? null : html`<button class="danger" onClick=${() => setRules(rules.filter((_, i) => i !== r))} aria-label=${`Remove rule ${r + 1}`}>Remove</button>`}
      </div>`
      )}
      ${disabled ? null : html`<div><button onClick=${() => setRules([...rules, { if: { field: draft.id, equals: "" }, then: { jumpTo: "end" } }])}>Add a jump rule</button></div>`}
      <div class="row">
        <label><input type="checkbox" disabled=${disabled} checked=${draft.showIf !== undefined && draft.showIf !== null}
          onChange=${(e) => update({ ...draft, showIf: e.target.checked ? { field: earlier[0]?.id ?? "", isNotEmpty: true } : undefined })} /> Show only if</label>
        ${
          draft.showIf
            ? html`<${ConditionEditor} id=${`q${draft.key}-show`} condition=${draft.showIf} earlier=${drafts.slice(0, index).filter((d) => d.id !== undefined)} hidden=${hidden} disabled=${disabled}
          onChange=${(condition) => update({ ...draft, showIf: condition })} />`
            : null
        }
      </div>
    </div>
  </details>`
}

/** The form's hidden fields (values from the page URL or the API). */
export const HiddenFieldsEditor = ({ hidden, setHidden, disabled }) => {
  const [name, setName] = useState("")
  return html`<section aria-labelledby="hidden-title">
    <h2 id="hidden-title">Hidden fields</h2>
    <p class="muted">Filled from the page address, e.g. <code>/f/…?ref=newsletter</code>.</p>
    <ul class="row">${hidden.map((h) => html`<li class="tag">${h.name}${disabled ? null : html` <button class="link" aria-label=${`Remove hidden field ${h.name}`} onClick=${() => setHidden(hidden.filter((x) => x.name !== h.name))}>×</button>`}</li>`)}</ul>
    ${
      disabled
        ? null
        : html`<div class="row"><label for="hidden-name">Add hidden field</label>
      <input id="hidden-name" type="text" value=${name} onInput=${(e) => setName(e.target.value)} />
      <button disabled=${name.trim() === ""} onClick=${() => {
        setHidden([...hidden, { name: name.trim() }])
        setName("")
      }}>Add</button></div>`
    }
  </section>`
}
