// @ts-check
// The case page (the webhook `link`): answers, respondent, stage, assignee, tags, internal notes, activity timeline, files, e-mails.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, base, copy, events, messageOf, navigate } from "../shared/Api.js"
import { CaseFieldsPanel } from "./CaseFieldsPanel.js"
import { EmailComposer } from "./EmailComposer.js"
import { MergedBanner, MergePanel, UndoMerge, undoable } from "./Merge.js"
import { neighbour, ShortcutHelp, useShortcuts } from "../shared/Shortcuts.js"
import { takesAnswer, typeInfo } from "../shared/QuestionTypes.js"
import { SlaBadge } from "../shared/SlaBadge.js"
import { formatDateTime, formatMoney, formatRelative, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").ResponseDetail} ResponseDetail */
/** @typedef {ResponseDetail["activities"][number]} Activity */
/** @typedef {{ fileId: string, name: string, size: number }} FileValue */
/** @typedef {import("../shared/Types.js").FieldTypeInfo} FieldTypeInfo */

/** When something happened, relative, the exact moment in its title. @param {string | null | undefined} iso */
const When = (iso) =>
  iso ? html`<time datetime=${iso} title=${formatDateTime(iso)}>${formatRelative(iso)}</time>` : null

/** Parts of one answer (a contact's, a matrix row's columns, a tag change's) in a list. @param {ReadonlyArray<string>} parts */
const joined = (parts) => parts.join(t("case.listSeparator"))

/** @param {unknown} value @returns {value is FileValue} */
const isFile = (value) =>
  value !== null && typeof value === "object" && "fileId" in value && typeof value.fileId === "string"

/**
 * An answer by its shape, and as its type shows it (`shown`: a ranking's places, a matrix's rows, a signature).
 * @param {{ value: unknown, shown?: FieldTypeInfo["shown"] }} props @returns {unknown}
 */
const Answer = ({ value, shown }) => {
  if (value === undefined || value === null || value === "")
    return html`<span class="muted">${t("case.noAnswer")}</span>`
  if (shown === "drawnOrTyped" && isFile(value)) {
    const href = `${base}/api/files/${encodeURIComponent(value.fileId)}`
    return html`<a href=${href}><img class="drawn-signature" src=${href} alt=${t("case.drawnSignature")} width="300" height="100" /></a>`
  }
  if (shown === "drawnOrTyped" && typeof value === "object" && "typedName" in value)
    return html`${String(value.typedName)} <span class="muted">${t("case.typedSignature")}</span>`
  if (isFile(value))
    return html`<a href=${`${base}/api/files/${encodeURIComponent(value.fileId)}`}>${value.name}</a> <span class="muted">${t("case.fileSize", { kilobytes: Math.ceil(value.size / 1024) })}</span>`
  if (Array.isArray(value) && shown === "ranked")
    return html`<ol class="plain">${value.map((choice, index) => html`<li>${t("case.rankedChoice", { rank: index + 1, choice: String(choice) })}</li>`)}</ol>`
  if (Array.isArray(value))
    return value.map((v) => (isFile(v) ? html`<${Answer} value=${v} /> ` : html`<span class="tag">${String(v)}</span>`))
  if (typeof value === "boolean") return value ? t("case.yes") : t("case.no")
  if (typeof value === "object") {
    // An amount of money: in its currency's format.
    if (
      "amount" in value &&
      "currency" in value &&
      typeof value.amount === "number" &&
      typeof value.currency === "string"
    )
      return formatMoney(value.amount, value.currency)
    // A matrix: each answered row with its column(s).
    if (shown === "byRow")
      return html`<ul class="plain">${Object.entries(value).map(
        ([row, chosen]) =>
          html`<li>${t("case.matrixRow", { row, chosen: Array.isArray(chosen) ? joined(chosen.map(String)) : String(chosen) })}</li>`
      )}</ul>`
    // The parts of a contact or address, in the order they were asked.
    return joined(Object.values(value).filter((part) => typeof part === "string" && part !== ""))
  }
  return String(value)
}

/** @param {Activity} activity @param {ResponseDetail} detail */
const describe = (activity, detail) => {
  /** @param {unknown} id */
  const stage = (id) =>
    id === null || id === undefined
      ? t("case.noStageLower")
      : (detail.stages.find((s) => s.id === id)?.name ?? t("case.stageNumber", { id: String(id) }))
  /** @param {unknown} id */
  const member = (id) =>
    id === null || id === undefined
      ? t("case.nobody")
      : (detail.members.find((m) => m.accountId === id)?.name ??
        detail.members.find((m) => m.accountId === id)?.email ??
        t("case.memberNumber", { id: String(id) }))
  /** @type {Record<string, any>} the payload's shape depends on the activity's type */
  const p = activity.payload
  switch (activity.type) {
    case "created":
      return t("case.activitySubmitted", { source: String(p.source ?? "form") })
    case "stage_changed":
      return t("case.activityStage", { from: stage(p.from), to: stage(p.to) })
    case "assigned":
      return t("case.activityAssigned", { from: member(p.from), to: member(p.to) })
    case "tags_changed": {
      /** @type {Array<string>} */
      const changes = [...(p.added ?? []).map((tag) => `+${tag}`), ...(p.removed ?? []).map((tag) => `−${tag}`)]
      return changes.length === 0 ? t("case.activityTagsChanged") : t("case.activityTags", { changes: joined(changes) })
    }
    case "answers_changed":
      return t("case.activityAnswers", { questions: joined(Array.isArray(p.questions) ? p.questions : []) })
    case "merged":
      return t("case.activityMerged", {
        id: String(p.duplicateId ?? ""),
        questions: Array.isArray(p.questions) && p.questions.length > 0 ? joined(p.questions) : "—",
        tags: Array.isArray(p.tags) && p.tags.length > 0 ? joined(p.tags) : "—"
      })
    case "unmerged":
      return t("case.activityUnmerged", { id: String(p.duplicateId ?? "") })
    case "status_link_issued":
      return t(p.replaced === true ? "case.activityStatusLinkReplaced" : "case.activityStatusLinkIssued")
    case "status_link_revoked":
      return t("case.activityStatusLinkRevoked")
    case "case_field_changed": {
      const field = (detail.caseFieldDefinitions ?? []).find((one) => one.key === p.key)
      /** @param {unknown} value */
      const shown = (value) =>
        value === null || value === undefined ? "—" : field?.type === "member" ? member(value) : String(value)
      return t("case.activityCaseField", {
        label: String(field?.label ?? p.label ?? p.key ?? ""),
        from: shown(p.from),
        to: shown(p.to)
      })
    }
    case "anonymised":
      return t("case.activityAnonymised", { days: String(p.olderThanDays ?? "") })
    case "note":
      return t("case.activityNote", { body: String(p.body ?? "") })
    case "email_sent":
      return t("case.activityEmailSent", { to: String(p.to ?? ""), subject: String(p.subject ?? "") })
    case "email_reply":
      return t("case.activityEmailReply", { from: String(p.from ?? ""), subject: String(p.subject ?? "") })
    default:
      return activity.type
  }
}

/** @param {Activity["actor"]} actor */
const actorName = (actor) =>
  actor.type === "respondent"
    ? t("case.actorRespondent")
    : actor.type === "system"
      ? t("case.actorSystem")
      : actor.via
        ? t("case.actorVia", { name: actor.name ?? t("case.aMember"), via: actor.via })
        : (actor.name ?? t("case.aMember"))

/** @param {{ route: import("../shell/Routes.js").Route, canWrite: boolean }} props */
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
    if (key.startsWith("hidden:")) out.push([t("case.hiddenField", { name: key.slice(7) }), String(value)])
    else if (key.startsWith("var:"))
      out.push([key === "var:score" ? t("case.score") : t("case.variable", { name: key.slice(4) }), String(value)])
    else if (key === "ending") out.push([t("case.endingShown"), String(value)])
  }
  return out
}

/**
 * The control a member changes a question's answer with (its type's, as the page tells it: a text's, a number's or
 * a moment's input, a long text's lines, a list's choice or choices); undefined: the answer is kept as it is.
 * @param {{ type: FieldTypeInfo["type"] }} field
 */
const editOf = (field) => typeInfo(field.type).edit

/** An answer as the editor holds it: text for inputs, the chosen choices for several. @param {unknown} value @param {FieldTypeInfo["edit"]} edit */
const draftOf = (value, edit) =>
  edit?.kind === "choices"
    ? Array.isArray(value)
      ? value
      : []
    : value === undefined || value === null
      ? ""
      : String(value)

/**
 * The answers of a submitted response as a form a member corrects: those with a plain control (texts, numbers,
 * moments, choices);
 * Save sends only the answers that changed (an emptied one as null), checked by the server as a submission's.
 * @param {{ detail: ResponseDetail, onSave: (answers: Record<string, unknown>) => void, onCancel: () => void }} props
 */
const AnswersEditor = ({ detail, onSave, onCancel }) => {
  const values = detail.response.values
  const fields = detail.fields.filter((f) => takesAnswer(f.type))
  const [draft, setDraft] = useState(() =>
    Object.fromEntries(fields.map((f) => [String(f.id), draftOf(values[String(f.id)], editOf(f))]))
  )
  /** @param {string} key @param {string | Array<string>} value */
  const set = (key, value) => setDraft({ ...draft, [key]: value })
  /** @param {SubmitEvent} event */
  const submit = (event) => {
    event.preventDefault()
    /** @type {Record<string, unknown>} */
    const answers = {}
    for (const field of fields) {
      const edit = editOf(field)
      if (edit === undefined) continue
      const key = String(field.id)
      const typed = draft[key]
      const empty = typed === "" || (Array.isArray(typed) && typed.length === 0)
      const after = empty ? null : edit.kind === "line" && edit.numeric === true ? Number(typed) : typed
      if (JSON.stringify(after) !== JSON.stringify(values[key] ?? null)) answers[key] = after
    }
    onSave(answers)
  }
  /** @param {ResponseDetail["fields"][number]} field */
  const control = (field) => {
    const key = String(field.id)
    const id = `edit-${key}`
    const value = draft[key]
    const choices = field.options?.choices ?? []
    const edit = editOf(field)
    if (edit === undefined)
      return html`<div><strong>${field.label}</strong> <span class="muted">${t("case.notEditable")}</span><br /><${Answer} value=${values[key]} shown=${typeInfo(field.type).shown} /></div>`
    if (edit.kind === "choices") {
      const picked = Array.isArray(value) ? value : []
      return html`<fieldset><legend>${field.label}</legend>${[
        ...choices,
        ...picked.filter((c) => !choices.includes(c))
      ].map(
        (choice, index) =>
          html`<label for=${`${id}-${index}`}><input id=${`${id}-${index}`} type="checkbox" checked=${picked.includes(choice)}
            onChange=${(e) => set(key, e.target.checked ? [...picked, choice] : picked.filter((c) => c !== choice))} /> ${choice}</label>`
      )}</fieldset>`
    }
    const label = html`<label for=${id}>${field.label}${field.required ? " *" : ""}</label>`
    if (edit.kind === "choice") {
      const text = String(value ?? "")
      return html`<div class="stack">${label}<select id=${id} value=${text} onChange=${(e) => set(key, e.target.value)}>
        <option value="">${t("case.chooseNone")}</option>
        ${[...choices, ...(text !== "" && !choices.includes(text) ? [text] : [])].map((c) => html`<option value=${c}>${c}</option>`)}
      </select></div>`
    }
    if (edit.kind === "lines")
      return html`<div class="stack">${label}<textarea id=${id} value=${String(value ?? "")} onInput=${(e) => set(key, e.target.value)}></textarea></div>`
    return html`<div class="stack">${label}<input id=${id} type=${edit.type} step=${edit.numeric === true ? "any" : undefined}
      value=${String(value ?? "")} onInput=${(e) => set(key, e.target.value)} /></div>`
  }
  return html`<form class="stack" aria-labelledby="answers-title" novalidate onSubmit=${submit}>
    ${fields.map(control)}
    <div class="row"><button class="primary" type="submit">${t("case.saveAnswers")}</button>
    <button type="button" onClick=${onCancel}>${t("case.cancelEdit")}</button></div>
  </form>`
}

/**
 * The respondent's status page link: issued here (shown once: only its hash is kept), copied, revoked.
 * @param {{ responseId: number, onNotice: (text: string) => void }} props
 */
const StatusLinkPanel = ({ responseId, onNotice }) => {
  const [url, setUrl] = useState(/** @type {string | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const run = async (/** @type {() => Promise<void>} */ action) => {
    setError(null)
    try {
      await action()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  const issue = () =>
    run(async () => {
      const issued = /** @type {{ url: string }} */ (await api.post(`/responses/${responseId}/status-link`))
      setUrl(issued.url)
    })
  const revoke = () =>
    run(async () => {
      await api.del(`/responses/${responseId}/status-link`)
      setUrl(null)
      onNotice(t("case.statusLinkRevoked"))
    })
  return html`<div class="stack">
    <strong id="status-link-label">${t("case.statusLink")}</strong>
    <p class="muted">${t("case.statusLinkHelp")}</p>
    ${error ? html`<p role="alert" class="error">${error}</p>` : null}
    ${
      url === null
        ? null
        : html`<label for="status-link-url">${t("case.statusLinkUrl")}</label>
    <input id="status-link-url" type="url" readonly value=${url} />
    <div><button type="button" onClick=${async () => onNotice((await copy(url)) ? t("case.statusLinkCopied") : t("case.statusLinkCopyByHand"))}>${t("case.statusLinkCopy")}</button></div>`
    }
    <div class="row">
      <button type="button" onClick=${issue}>${t("case.statusLinkIssue")}</button>
      <button type="button" onClick=${revoke}>${t("case.statusLinkRevoke")}</button>
    </div>
  </div>`
}

export const CaseScreen = ({ route, canWrite }) => {
  const id = route.responseId ?? 0
  const [detail, setDetail] = useState(/** @type {ResponseDetail | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [note, setNote] = useState("")
  const [tag, setTag] = useState("")
  const [editing, setEditing] = useState(false)
  const [help, setHelp] = useState(false)
  /** Focuses a control of the page; false when it is not there or disabled (a viewer's). @param {string} control */
  const focus = (control) => {
    const element = document.getElementById(control)
    if (element === null || element.hasAttribute("disabled")) return false
    element.focus()
    return true
  }
  /** Opens the next (1) or previous (-1) case of the list the inbox last showed. @param {1 | -1} step */
  const go = (step) => {
    const next = neighbour(id, step)
    if (next === undefined) {
      setNotice(t(step === 1 ? "shortcuts.lastResponse" : "shortcuts.firstResponse"))
      return true
    }
    navigate(`/app/responses/${next}`)
    return true
  }
  /** @type {ReadonlyArray<import("../shared/Shortcuts.js").Shortcut>} */
  const shortcuts = [
    { key: "j", label: t("shortcuts.nextResponse"), run: () => go(1) },
    { key: "k", label: t("shortcuts.previousResponse"), run: () => go(-1) },
    { key: "a", label: t("shortcuts.assign"), run: () => focus("case-assignee") },
    { key: "s", label: t("shortcuts.stage"), run: () => focus("case-stage") },
    { key: "t", label: t("shortcuts.tag"), run: () => focus("case-tag") },
    { key: "n", label: t("shortcuts.note"), run: () => focus("note") }
  ]
  useShortcuts(shortcuts, () => setHelp(true))

  const load = () => api.get(`/responses/${id}`).then(setDetail, (e) => setError(messageOf(e)))
  useEffect(() => {
    load()
  }, [id])
  useEffect(
    () =>
      detail === null
        ? undefined
        : events(detail.form.id, (event) => {
            if ("responseId" in event && event.responseId === id) load()
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
  /** @param {Record<string, unknown>} answers */
  const saveAnswers = async (answers) => {
    setError(null)
    if (Object.keys(answers).length === 0) {
      setEditing(false)
      setNotice(t("case.answersUnchanged"))
      return
    }
    try {
      await api.patch(`/responses/${id}`, { answers })
      await load()
      setEditing(false)
      setNotice(t("case.answersSaved"))
    } catch (e) {
      setError(messageOf(e))
    }
  }
  /** After an undo from the timeline: the case again, or why the server refused. @param {string | null} failure */
  const undone = (failure) => {
    if (failure !== null) {
      setError(failure)
      return
    }
    setError(null)
    load()
    setNotice(t("merge.undone"))
  }
  /** @param {SubmitEvent} event */
  const addNote = async (event) => {
    event.preventDefault()
    setError(null)
    try {
      await api.post(`/responses/${id}/notes`, { body: note })
      setNote("")
      await load()
      setNotice(t("case.noteAdded"))
    } catch (e) {
      setError(messageOf(e))
    }
  }

  if (detail === null)
    return error
      ? html`<h1 tabindex="-1">${t("case.response")}</h1><p class="error" role="alert">${error}</p>`
      : html`<p class="loading">${t("case.loading")}</p>`
  const row = detail.response
  const tags = row.tags
  return html`<div class="spread"><p><a href=${`${base}/app/forms/${detail.form.id}/responses`}>${t("case.backToResponses", { form: detail.form.title })}</a></p>
    <${ShortcutHelp} shortcuts=${shortcuts} open=${help} setOpen=${setHelp} /></div>
    <h1 tabindex="-1">${row.name ?? row.email ?? t("case.responseNumber", { id: String(row.id) })}</h1>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    <${MergedBanner} row=${row} canWrite=${canWrite} onUndone=${() => {
      load()
      setNotice(t("merge.undone"))
    }} />
    <div class="case">
      <div>
        <section class="card" aria-labelledby="answers-title">
          <h2 id="answers-title">${t("case.answers")}</h2>
          <p class="muted">${t("case.submittedFrom", { date: formatDateTime(row.submittedAt), source: row.source })}</p>
          ${row.sla ? html`<p><${SlaBadge} sla=${row.sla} /></p>` : null}
          ${
            editing
              ? html`<${AnswersEditor} detail=${detail} onSave=${saveAnswers} onCancel=${() => setEditing(false)} />`
              : html`<dl class="answers">${detail.fields.filter((f) => takesAnswer(f.type)).map((field) => html`<dt>${field.label}</dt><dd>${(row.redacted ?? []).includes(field.id) ? html`<span class="muted">${t("case.sensitiveMasked")}</span>` : html`<${Answer} value=${row.values[String(field.id)]} shown=${typeInfo(field.type).shown} />`}</dd>`)}</dl>
          ${canWrite && row.finished ? html`<p><button type="button" onClick=${() => setEditing(true)}>${t("case.editAnswers")}</button></p>` : null}`
          }
          ${outcome(row.values).length === 0 ? null : html`<h3>${t("case.outcome")}</h3><dl class="answers">${outcome(row.values).map(([label, text]) => html`<dt>${label}</dt><dd>${text}</dd>`)}</dl>`}
        </section>
        <section aria-labelledby="notes-title">
          <h2 id="notes-title">${t("case.internalNotes")}</h2>
          <p class="muted">${t("case.notesPrivate")}</p>
          ${
            canWrite
              ? html`<form class="stack" onSubmit=${addNote}>
            <label for="note">${t("case.addANote")}</label>
            <textarea id="note" required maxlength="5000" value=${note} onInput=${(e) => setNote(e.target.value)}></textarea>
            <div><button class="primary" type="submit" disabled=${note.trim() === ""}>${t("case.addNote")}</button></div>
          </form>`
              : null
          }
        </section>
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">${t("case.activity")}</h2>
          <ol class="timeline">${detail.activities.map((a) => html`<li key=${a.id}><strong>${actorName(a.actor)}</strong> · <span class="muted">${When(a.createdAt)}</span><br />${describe(a, detail)}${canWrite && undoable(a, detail.activities, Date.now()) ? html`<${UndoMerge} keptId=${id} activity=${a} onDone=${undone} />` : null}</li>`)}</ol>
        </section>
        <section aria-labelledby="emails-title">
          <h2 id="emails-title">${t("case.emails")}</h2>
          ${
            detail.emails.length === 0 && detail.replies.length === 0
              ? html`<p class="muted">${t("case.noEmails")}</p>`
              : html`<ol class="timeline">
            ${[
              ...detail.emails.map((m) => ({
                at: m.sentAt ?? "",
                item: html`<li><strong>${t("case.sentTo", { to: m.to })}</strong> · <span class="muted">${m.sentAt ? html`${When(m.sentAt)} · ` : null}${t("case.emailStatus", { status: m.status, opens: m.opens, clicks: m.clicks.length })}</span><br /><em>${m.subject}</em><pre>${m.text}</pre></li>`
              })),
              ...detail.replies.map((r) => ({
                at: r.receivedAt,
                item: html`<li><strong>${t("case.replyFrom", { from: r.from })}</strong> · <span class="muted">${When(r.receivedAt)}</span><br /><em>${r.subject}</em><pre>${r.text}</pre>
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
                  setNotice(t("case.emailSent"))
                }} />`
              : null
          }
        </section>
      </div>
      <aside class="card stack" aria-label=${t("case.case")}>
        <h2>${t("case.case")}</h2>
        <p><strong>${t("case.respondent")}</strong><br />${row.name ?? "—"}<br />${row.email ? html`<a href=${`mailto:${row.email}`}>${row.email}</a>` : null}</p>
        <label for="case-stage">${t("case.stage")}</label>
        <select id="case-stage" disabled=${!canWrite} value=${row.stageId === null ? "" : String(row.stageId)}
          onChange=${(e) => patch({ stageId: e.target.value === "" ? null : Number(e.target.value) }, t("case.stageChanged"))}>
          <option value="">${t("case.noStage")}</option>
          ${detail.stages.map((s) => html`<option value=${String(s.id)}>${s.isClosed ? t("case.closedStage", { stage: s.name }) : s.name}</option>`)}
        </select>
        <label for="case-assignee">${t("case.assignee")}</label>
        <select id="case-assignee" disabled=${!canWrite} value=${row.assigneeId === null ? "" : String(row.assigneeId)}
          onChange=${(e) => patch({ assigneeId: e.target.value === "" ? null : Number(e.target.value) }, t("case.assigneeChanged"))}>
          <option value="">${t("case.unassigned")}</option>
          ${detail.members.map((m) => html`<option value=${String(m.accountId)}>${m.name ?? m.email}</option>`)}
        </select>
        <${CaseFieldsPanel} definitions=${detail.caseFieldDefinitions ?? []} values=${row.caseFields} members=${detail.members} canWrite=${canWrite} patch=${patch} />
        <div>
          <strong id="tags-label">${t("case.tags")}</strong>
          <ul class="row" aria-labelledby="tags-label">${
            tags.length === 0
              ? html`<li class="muted">${t("case.noTags")}</li>`
              : tags.map(
                  (name) => html`<li class="tag">${name}
            ${canWrite ? html` <button class="link" aria-label=${t("case.removeTag", { tag: name })} onClick=${() => patch({ tags: tags.filter((x) => x !== name) }, t("case.tagRemoved", { tag: name }))}>×</button>` : null}</li>`
                )
          }</ul>
        </div>
        ${
          canWrite
            ? html`<form class="row" onSubmit=${(e) => {
                e.preventDefault()
                patch({ tags: [...new Set([...tags, tag.trim()])] }, t("case.tagAdded", { tag: tag.trim() })).then(() =>
                  setTag("")
                )
              }}>
          <label for="case-tag">${t("case.addTag")}</label>
          <input id="case-tag" type="text" maxlength="30" required value=${tag} onInput=${(e) => setTag(e.target.value)} />
          <button type="submit" disabled=${tag.trim() === ""}>${t("case.add")}</button>
        </form>`
            : null
        }
        ${canWrite ? html`<${StatusLinkPanel} responseId=${id} onNotice=${setNotice} />` : null}
        ${
          canWrite && row.mergedInto === undefined && row.finished
            ? html`<${MergePanel} detail=${detail} onMerged=${(/** @type {number} */ kept) => {
                if (kept === id) {
                  load()
                  setNotice(t("merge.merged"))
                } else navigate(`/app/responses/${kept}`)
              }} />`
            : null
        }
      </aside>
    </div>`
}
