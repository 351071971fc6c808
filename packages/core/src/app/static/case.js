// @ts-check
// The case page (the webhook `link`): answers, respondent, stage, assignee, tags, internal notes, activity timeline, files, e-mails.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, base, events, formatDate, messageOf } from "./api.js"
import { EmailComposer } from "./emails.js"

/** @typedef {import("./types.js").ResponseDetail} ResponseDetail */
/** @typedef {ResponseDetail["activities"][number]} Activity */
/** @typedef {{ fileId: string, name: string, size: number }} FileValue */

/** @param {unknown} value @returns {value is FileValue} */
const isFile = (value) =>
  value !== null && typeof value === "object" && "fileId" in value && typeof value.fileId === "string"

/** @param {{ value: unknown, type?: string }} props @returns {unknown} */
const Answer = ({ value, type }) => {
  if (value === undefined || value === null || value === "") return html`<span class="muted">(no answer)</span>`
  if (type === "signature" && isFile(value)) {
    const href = `${base}/api/files/${encodeURIComponent(value.fileId)}`
    return html`<a href=${href}><img class="signature" src=${href} alt="Drawn signature" width="300" height="100" /></a>`
  }
  if (type === "signature" && typeof value === "object" && "typedName" in value)
    return html`${String(value.typedName)} <span class="muted">(typed signature, agreed to as a signature)</span>`
  if (isFile(value))
    return html`<a href=${`${base}/api/files/${encodeURIComponent(value.fileId)}`}>${value.name}</a> <span class="muted">(${Math.ceil(value.size / 1024)} KB)</span>`
  if (Array.isArray(value) && type === "ranking")
    return html`<ol class="plain">${value.map((choice, index) => html`<li>${index + 1}. ${String(choice)}</li>`)}</ol>`
  if (Array.isArray(value))
    return value.map((v) => (isFile(v) ? html`<${Answer} value=${v} /> ` : html`<span class="tag">${String(v)}</span>`))
  if (typeof value === "boolean") return value ? "Yes" : "No"
  if (typeof value === "object") {
    // A matrix: each answered row with its column(s).
    if (type === "matrix")
      return html`<ul class="plain">${Object.entries(value).map(
        ([row, chosen]) => html`<li>${row}: ${Array.isArray(chosen) ? chosen.join(", ") : String(chosen)}</li>`
      )}</ul>`
    // The parts of a contact or address, in the order they were asked.
    return Object.values(value)
      .filter((part) => typeof part === "string" && part !== "")
      .join(", ")
  }
  return String(value)
}

/** @param {Activity} activity @param {ResponseDetail} detail */
const describe = (activity, detail) => {
  /** @param {unknown} id */
  const stage = (id) =>
    id === null || id === undefined ? "no stage" : (detail.stages.find((s) => s.id === id)?.name ?? `stage ${id}`)
  /** @param {unknown} id */
  const member = (id) =>
    id === null || id === undefined
      ? "nobody"
      : (detail.members.find((m) => m.accountId === id)?.name ??
        detail.members.find((m) => m.accountId === id)?.email ??
        `member ${id}`)
  /** @type {Record<string, any>} the payload's shape depends on the activity's type */
  const p = activity.payload
  switch (activity.type) {
    case "created":
      return `Submitted (${p.source ?? "form"})`
    case "stage_changed":
      return `Stage: ${stage(p.from)} → ${stage(p.to)}`
    case "assigned":
      return `Assigned: ${member(p.from)} → ${member(p.to)}`
    case "tags_changed":
      return `Tags: ${[...(p.added ?? []).map((t) => `+${t}`), ...(p.removed ?? []).map((t) => `−${t}`)].join(", ") || "changed"}`
    case "note":
      return `Note: ${p.body}`
    default:
      return activity.type
  }
}

/** @param {Activity["actor"]} actor */
const actorName = (actor) =>
  actor.type === "respondent"
    ? "Respondent"
    : actor.type === "system"
      ? "System"
      : `${actor.name ?? "A member"}${actor.via ? ` (${actor.via === "session" ? "app" : actor.via.replace("_", " ")})` : ""}`

/** @param {{ route: import("./main.js").Route, canWrite: boolean }} props */
/**
 * What a response holds beyond its answers, as label and text: hidden values (`hidden:<name>`), the form's
 * variables at the end (`var:<name>`, such as a quiz's score) and the ending it was shown (`ending`).
 * @param {Readonly<Record<string, unknown>>} values
 * @returns {Array<[string, string]>}
 */
const outcome = (values) => {
  /** @type {Array<[string, string]>} */
  const out = []
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== "string" && typeof value !== "number") continue
    if (key.startsWith("hidden:")) out.push([`Hidden field ${key.slice(7)}`, String(value)])
    else if (key.startsWith("var:"))
      out.push([key === "var:score" ? "Score" : `Variable ${key.slice(4)}`, String(value)])
    else if (key === "ending") out.push(["Ending shown", String(value)])
  }
  return out
}

export const CaseScreen = ({ route, canWrite }) => {
  const id = route.responseId ?? 0
  const [detail, setDetail] = useState(/** @type {ResponseDetail | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [note, setNote] = useState("")
  const [tag, setTag] = useState("")

  const load = () => api.get(`/responses/${id}`).then(setDetail, (e) => setError(messageOf(e)))
  useEffect(() => {
    load()
  }, [id])
  useEffect(
    () =>
      detail === null
        ? undefined
        : events(detail.form.id, (event) => {
            if (event.responseId === id) load()
          }),
    [detail?.form.id]
  )

  /** @param {object} body @param {string} done */
  const patch = async (body, done) => {
    setError(null)
    try {
      await api.patch(`/responses/${id}`, body)
      await load()
      setNotice(done)
    } catch (e) {
      setError(messageOf(e))
    }
  }
  /** @param {SubmitEvent} event */
  const addNote = async (event) => {
    event.preventDefault()
    setError(null)
    try {
      await api.post(`/responses/${id}/notes`, { body: note })
      setNote("")
      await load()
      setNotice("Note added.")
    } catch (e) {
      setError(messageOf(e))
    }
  }

  if (detail === null)
    return error
      ? html`<h1 tabindex="-1">Response</h1><p class="error" role="alert">${error}</p>`
      : html`<p class="loading">Loading…</p>`
  const row = detail.response
  const tags = row.tags
  return html`<p><a href=${`${base}/app/forms/${detail.form.id}/responses`}>← ${detail.form.title}: all responses</a></p>
    <h1 tabindex="-1">${row.name ?? row.email ?? `Response ${row.id}`}</h1>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    <div class="case">
      <div>
        <section class="card" aria-labelledby="answers-title">
          <h2 id="answers-title">Answers</h2>
          <p class="muted">Submitted ${formatDate(row.submittedAt)} · source ${row.source}</p>
          <dl class="answers">${detail.fields.filter((f) => f.type !== "statement").map((field) => html`<dt>${field.label}</dt><dd><${Answer} value=${row.values[String(field.id)]} type=${field.type} /></dd>`)}</dl>
          ${outcome(row.values).length === 0 ? null : html`<h3>Outcome</h3><dl class="answers">${outcome(row.values).map(([label, text]) => html`<dt>${label}</dt><dd>${text}</dd>`)}</dl>`}
        </section>
        <section aria-labelledby="notes-title">
          <h2 id="notes-title">Internal notes</h2>
          <p class="muted">Notes are never shown to the respondent.</p>
          ${
            canWrite
              ? html`<form class="stack" onSubmit=${addNote}>
            <label for="note">Add a note</label>
            <textarea id="note" required maxlength="5000" value=${note} onInput=${(e) => setNote(e.target.value)}></textarea>
            <div><button class="primary" type="submit" disabled=${note.trim() === ""}>Add note</button></div>
          </form>`
              : null
          }
        </section>
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">Activity</h2>
          <ol class="timeline">${detail.activities.map((a) => html`<li key=${a.id}><strong>${actorName(a.actor)}</strong> · <span class="muted">${formatDate(a.createdAt)}</span><br />${describe(a, detail)}</li>`)}</ol>
        </section>
        <section aria-labelledby="emails-title">
          <h2 id="emails-title">E-mails with the respondent</h2>
          ${
            detail.emails.length === 0 && detail.replies.length === 0
              ? html`<p class="muted">No e-mails yet.</p>`
              : html`<ol class="timeline">
            ${[
              ...detail.emails.map((m) => ({
                at: m.sentAt ?? "",
                item: html`<li><strong>Sent to ${m.to}</strong> · <span class="muted">${formatDate(m.sentAt)} · ${m.status} · ${m.opens} open(s), ${m.clicks.length} click(s)</span><br /><em>${m.subject}</em><pre>${m.text}</pre></li>`
              })),
              ...detail.replies.map((r) => ({
                at: r.receivedAt,
                item: html`<li><strong>Reply from ${r.from}</strong> · <span class="muted">${formatDate(r.receivedAt)}</span><br /><em>${r.subject}</em><pre>${r.text}</pre>
                ${r.files.map((f) => html`<a href=${`${base}/api/files/${encodeURIComponent(f.fileId)}`}>${f.name}</a> `)}</li>`
              }))
            ]
              .sort((a, b) => a.at.localeCompare(b.at))
              .map((x) => x.item)}
          </ol>`
          }
          ${
            canWrite
              ? html`<${EmailComposer} responseId=${id} to=${row.email} onSent=${() => {
                  load()
                  setNotice("E-mail sent.")
                }} />`
              : null
          }
        </section>
      </div>
      <aside class="card stack" aria-label="Case">
        <h2>Case</h2>
        <p><strong>Respondent</strong><br />${row.name ?? "—"}<br />${row.email ? html`<a href=${`mailto:${row.email}`}>${row.email}</a>` : null}</p>
        <label for="case-stage">Stage</label>
        <select id="case-stage" disabled=${!canWrite} value=${row.stageId === null ? "" : String(row.stageId)}
          onChange=${(e) => patch({ stageId: e.target.value === "" ? null : Number(e.target.value) }, "Stage changed.")}>
          <option value="">No stage</option>
          ${detail.stages.map((s) => html`<option value=${String(s.id)}>${s.name}${s.isClosed ? " (closed)" : ""}</option>`)}
        </select>
        <label for="case-assignee">Assignee</label>
        <select id="case-assignee" disabled=${!canWrite} value=${row.assigneeId === null ? "" : String(row.assigneeId)}
          onChange=${(e) => patch({ assigneeId: e.target.value === "" ? null : Number(e.target.value) }, "Assignee changed.")}>
          <option value="">Unassigned</option>
          ${detail.members.map((m) => html`<option value=${String(m.accountId)}>${m.name ?? m.email}</option>`)}
        </select>
        <div>
          <strong id="tags-label">Tags</strong>
          <ul class="row" aria-labelledby="tags-label">${
            tags.length === 0
              ? html`<li class="muted">none</li>`
              : tags.map(
                  (t) => html`<li class="tag">${t}
            ${canWrite ? html` <button class="link" aria-label=${`Remove tag ${t}`} onClick=${() => patch({ tags: tags.filter((x) => x !== t) }, `Tag ${t} removed.`)}>×</button>` : null}</li>`
                )
          }</ul>
        </div>
        ${
          canWrite
            ? html`<form class="row" onSubmit=${(e) => {
                e.preventDefault()
                patch({ tags: [...new Set([...tags, tag.trim()])] }, `Tag ${tag.trim()} added.`).then(() => setTag(""))
              }}>
          <label for="case-tag">Add tag</label>
          <input id="case-tag" type="text" maxlength="30" required value=${tag} onInput=${(e) => setTag(e.target.value)} />
          <button type="submit" disabled=${tag.trim() === ""}>Add</button>
        </form>`
            : null
        }
      </aside>
    </div>`
}
