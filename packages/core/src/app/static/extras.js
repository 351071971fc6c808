// Screens for features other parts of qforms provide: per-form notifications, the confirmation e-mail,
// form logic (hidden fields, jumps, show-if) and writing to the respondent. Each one shows only when the
// server has the endpoint (an older server answers "no route": the section then says it is unavailable).
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, has } from "./api.js"
import { DeliveryLog } from "./settings.js"

const unavailable = (error) => error?.status === 404 && /^no route/.test(error.message) || error?.status === 405

const channelTypes = [["slack", "Slack"], ["discord", "Discord"], ["teams", "Microsoft Teams"], ["sheet", "Spreadsheet"], ["email", "E-mail"], ["url", "Any URL"]]
const eventNames = ["response.created", "response.stage_changed"]

export const NotificationsEditor = ({ formId, canWrite }) => {
  const [channels, setChannels] = useState(null)
  const [missing, setMissing] = useState(false)
  const [error, setError] = useState(null)
  const [notice, setNotice] = useState(null)
  const [type, setType] = useState("slack")
  const [open, setOpen] = useState(null)
  const load = () => api.get(`/forms/${formId}/notifications`).then((r) => setChannels(r.channels), (e) => unavailable(e) ? setMissing(true) : setError(e.message))
  useEffect(() => { has("get", "/forms/{id}/notifications").then((yes) => yes ? load() : setMissing(true)) }, [formId])
  if (missing) return null
  const set = (index, patch) => setChannels(channels.map((c, i) => i === index ? { ...c, ...patch } : c))
  const save = () => api.put(`/forms/${formId}/notifications`, { channels }).then((r) => { setChannels(r.channels); setNotice("Notifications saved."); setError(null) }, (e) => setError(e.message))
  return html`<section aria-labelledby="notifications-title">
    <h2 id="notifications-title">Notifications</h2>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${channels === null ? html`<p class="loading">Loading…</p>` : html`<ul class="stack">
      ${channels.map((channel, index) => html`<li class="card stack" key=${channel.id ?? `new-${index}`}>
        <strong>${channelTypes.find(([t]) => t === channel.type)?.[1] ?? channel.type}</strong>
        ${channel.type === "email"
          ? html`<label for=${`ch-${index}-to`}>To (comma-separated)</label><input id=${`ch-${index}-to`} type="text" disabled=${!canWrite} value=${(channel.to ?? []).join(", ")} onInput=${(e) => set(index, { to: e.target.value.split(",").map((s) => s.trim()).filter((s) => s !== "") })} />`
          : html`<label for=${`ch-${index}-url`}>URL</label><input id=${`ch-${index}-url`} type="url" disabled=${!canWrite} value=${channel.url ?? ""} onInput=${(e) => set(index, { url: e.target.value })} />`}
        <fieldset><legend>Events</legend>${eventNames.map((name) => html`<label><input type="checkbox" disabled=${!canWrite} checked=${(channel.events ?? ["response.created"]).includes(name)}
          onChange=${(e) => set(index, { events: e.target.checked ? [...new Set([...(channel.events ?? []), name])] : (channel.events ?? []).filter((x) => x !== name) })} /> ${name}</label> `)}</fieldset>
        <label><input type="checkbox" disabled=${!canWrite} checked=${channel.enabled !== false} onChange=${(e) => set(index, { enabled: e.target.checked })} /> Enabled</label>
        <div class="row">
          ${channel.id ? html`<button onClick=${() => setOpen(channel)}>Delivery log</button>` : null}
          ${canWrite ? html`<button class="danger" onClick=${() => setChannels(channels.filter((_, i) => i !== index))}>Remove</button>` : null}
        </div>
      </li>`)}
    </ul>
    ${open ? html`<${DeliveryLog} title=${open.url ?? (open.to ?? []).join(", ")} logPath=${`/forms/${formId}/notifications/${open.id}/deliveries`}
      retryPath=${(d) => `/forms/${formId}/notifications/${open.id}/deliveries/${d.id}/retry`} onClose=${() => setOpen(null)} />` : null}
    ${canWrite ? html`<div class="row">
      <label for="new-channel">Add a channel</label>
      <select id="new-channel" value=${type} onChange=${(e) => setType(e.target.value)}>${channelTypes.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select>
      <button onClick=${() => setChannels([...channels, type === "email" ? { type, enabled: true, events: ["response.created"], to: [] } : { type, enabled: true, events: ["response.created"], url: "" }])}>Add</button>
      <button class="primary" onClick=${save}>Save notifications</button>
    </div>` : null}`}
  </section>`
}

export const ConfirmationEditor = ({ formId, canWrite }) => {
  const [settings, setSettings] = useState(null)
  const [missing, setMissing] = useState(false)
  const [error, setError] = useState(null)
  const [notice, setNotice] = useState(null)
  useEffect(() => {
    has("get", "/forms/{id}/confirmation").then((yes) => yes
      ? api.get(`/forms/${formId}/confirmation`).then(setSettings, (e) => unavailable(e) ? setMissing(true) : setError(e.message))
      : setMissing(true))
  }, [formId])
  if (missing) return null
  const save = (event) => {
    event.preventDefault()
    api.put(`/forms/${formId}/confirmation`, settings).then((s) => { setSettings(s); setNotice("Confirmation e-mail saved."); setError(null) }, (e) => setError(e.message))
  }
  return html`<section aria-labelledby="confirmation-title">
    <h2 id="confirmation-title">Confirmation e-mail</h2>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${settings === null ? html`<p class="loading">Loading…</p>` : html`<form class="stack card" onSubmit=${save}>
      <label><input type="checkbox" disabled=${!canWrite} checked=${settings.enabled} onChange=${(e) => setSettings({ ...settings, enabled: e.target.checked })} /> Send a confirmation to respondents who give an e-mail address</label>
      <label for="confirmation-subject">Subject</label>
      <input id="confirmation-subject" type="text" disabled=${!canWrite} value=${settings.subject ?? ""} onInput=${(e) => setSettings({ ...settings, subject: e.target.value })} />
      <label for="confirmation-body">Body (<code>{{field:ID}}</code> recalls an answer)</label>
      <textarea id="confirmation-body" disabled=${!canWrite} value=${settings.body ?? ""} onInput=${(e) => setSettings({ ...settings, body: e.target.value })}></textarea>
      ${canWrite ? html`<div><button class="primary" type="submit">Save confirmation e-mail</button></div>` : null}
    </form>`}
  </section>`
}

const operators = [["equals", "equals"], ["notEquals", "does not equal"], ["contains", "contains"], ["notContains", "does not contain"],
  ["greaterThan", "is greater than"], ["lessThan", "is less than"], ["isEmpty", "is empty"], ["isNotEmpty", "is not empty"]]

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
    ${parts.operator === "isEmpty" || parts.operator === "isNotEmpty" ? null : html`<label class="sr-only" for=${`${id}-value`}>Value</label>
      <input id=${`${id}-value`} type="text" disabled=${disabled} value=${String(parts.value)} onInput=${(e) => set({ value: e.target.value })} />`}
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
      ${rules.map((rule, r) => html`<div class="row" key=${r}>
        If <${ConditionEditor} id=${`q${draft.key}-r${r}`} condition=${rule.if} earlier=${earlier} hidden=${hidden} disabled=${disabled}
          onChange=${(condition) => setRules(rules.map((x, i) => i === r ? { ...x, if: condition } : x))} />
        <label for=${`q${draft.key}-r${r}-jump`}>then go to</label>
        <select id=${`q${draft.key}-r${r}-jump`} disabled=${disabled} value=${String(rule.then?.jumpTo ?? "end")}
          onChange=${(e) => setRules(rules.map((x, i) => i === r ? { ...x, then: { jumpTo: e.target.value === "end" ? "end" : Number(e.target.value) } } : x))}>
          ${later.map((d) => html`<option value=${String(d.id)}>${d.label}</option>`)}<option value="end">the end</option></select>
        ${disabled ? null : html`<button class="danger" onClick=${() => setRules(rules.filter((_, i) => i !== r))} aria-label=${`Remove rule ${r + 1}`}>Remove</button>`}
      </div>`)}
      ${disabled ? null : html`<div><button onClick=${() => setRules([...rules, { if: { field: draft.id, equals: "" }, then: { jumpTo: "end" } }])}>Add a jump rule</button></div>`}
      <div class="row">
        <label><input type="checkbox" disabled=${disabled} checked=${draft.showIf !== undefined && draft.showIf !== null}
          onChange=${(e) => update({ ...draft, showIf: e.target.checked ? { field: earlier[0]?.id ?? "", isNotEmpty: true } : undefined })} /> Show only if</label>
        ${draft.showIf ? html`<${ConditionEditor} id=${`q${draft.key}-show`} condition=${draft.showIf} earlier=${drafts.slice(0, index).filter((d) => d.id !== undefined)} hidden=${hidden} disabled=${disabled}
          onChange=${(condition) => update({ ...draft, showIf: condition })} />` : null}
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
    ${disabled ? null : html`<div class="row"><label for="hidden-name">Add hidden field</label>
      <input id="hidden-name" type="text" value=${name} onInput=${(e) => setName(e.target.value)} />
      <button disabled=${name.trim() === ""} onClick=${() => { setHidden([...hidden, { name: name.trim() }]); setName("") }}>Add</button></div>`}
  </section>`
}

/** Writing to the respondent from the case page. */
export const EmailComposer = ({ responseId, to, onSent }) => {
  const [subject, setSubject] = useState("")
  const [body, setBody] = useState("")
  const [error, setError] = useState(null)
  const [available, setAvailable] = useState(false)
  useEffect(() => { has("post", "/responses/{id}/emails").then(setAvailable) }, [])
  if (!available) return null
  if (!to) return html`<p class="muted">The respondent gave no e-mail address.</p>`
  const send = (event) => {
    event.preventDefault()
    setError(null)
    api.post(`/responses/${responseId}/emails`, { subject, body }).then(() => { setSubject(""); setBody(""); onSent() },
      (e) => setError(unavailable(e) ? "Sending e-mail is not available on this server." : e.message))
  }
  return html`<form class="stack card" onSubmit=${send} aria-label="Write to the respondent">
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <label for="email-subject">Subject</label>
    <input id="email-subject" type="text" required value=${subject} onInput=${(e) => setSubject(e.target.value)} />
    <label for="email-body">Message to ${to}</label>
    <textarea id="email-body" required value=${body} onInput=${(e) => setBody(e.target.value)}></textarea>
    <div><button class="primary" type="submit">Send e-mail</button></div>
  </form>`
}
