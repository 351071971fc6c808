// @ts-check
// Settings → Audit log: the workspace's security-relevant events (`GET /api/audit-log`), newest first, filtered by
// action, surface and days, a page at a time; the same filters download as CSV (`/api/audit-log/export.csv`).
// Owners and admins only (the server refuses anyone else too).
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, base, messageOf, query } from "../shared/Api.js"
import { TableScroll } from "../shared/TableScroll.js"
import { formatDateTime, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").AuditEntry} AuditEntry */
/** @typedef {import("../shared/Types.js").AuditLogPage} AuditLogPage */

/** Every action, with its words, in the order of the filter's list. */
const actions = /** @type {const} */ ([
  ["auth.sign_in", "audit.actionAuthSignIn"],
  ["auth.sign_in_failed", "audit.actionAuthSignInFailed"],
  ["api_key.created", "audit.actionApiKeyCreated"],
  ["api_key.revoked", "audit.actionApiKeyRevoked"],
  ["member.added", "audit.actionMemberAdded"],
  ["member.removed", "audit.actionMemberRemoved"],
  ["member.role_changed", "audit.actionMemberRoleChanged"],
  ["invitation.created", "audit.actionInvitationCreated"],
  ["invitation.accepted", "audit.actionInvitationAccepted"],
  ["invitation.revoked", "audit.actionInvitationRevoked"],
  ["responses.exported", "audit.actionResponsesExported"],
  ["workspace.settings_changed", "audit.actionWorkspaceSettingsChanged"],
  ["webhook.created", "audit.actionWebhookCreated"],
  ["webhook.changed", "audit.actionWebhookChanged"],
  ["webhook.deleted", "audit.actionWebhookDeleted"],
  ["privacy.erasure", "audit.actionPrivacyErasure"],
  ["privacy.export", "audit.actionPrivacyExport"],
  ["retention.run", "audit.actionRetentionRun"],
  ["audit.exported", "audit.actionAuditExported"]
])

const surfaces = /** @type {const} */ ([
  ["api", "audit.surfaceApi"],
  ["app", "audit.surfaceApp"],
  ["mcp", "audit.surfaceMcp"],
  ["cli", "audit.surfaceCli"],
  ["system", "audit.surfaceSystem"]
])

/** @param {string} action */
const actionWords = (action) => {
  const found = actions.find(([id]) => id === action)
  return found ? t(found[1]) : action
}

/** @param {string} surface */
const surfaceWords = (surface) => {
  const found = surfaces.find(([id]) => id === surface)
  return found ? t(found[1]) : surface
}

/** @param {AuditEntry} entry */
const who = (entry) =>
  entry.actor.label ??
  (entry.actor.kind === "cli" ? t("audit.cli") : entry.actor.kind === "system" ? t("audit.system") : "")

/**
 * The filters as the API takes them: a day's start in the reader's time zone for `from`, its end for `to`.
 * @param {{ action: string, surface: string, from: string, to: string }} filters
 */
const apiQuery = (filters) => ({
  action: filters.action,
  surface: filters.surface,
  from: filters.from === "" ? "" : new Date(`${filters.from}T00:00:00`).toISOString(),
  to: filters.to === "" ? "" : new Date(`${filters.to}T23:59:59.999`).toISOString()
})

/** @param {{ canAdmin: boolean }} props */
export const AuditLog = ({ canAdmin }) => {
  const [draft, setDraft] = useState({ action: "", surface: "", from: "", to: "" })
  const [filters, setFilters] = useState(draft)
  const [entries, setEntries] = useState(/** @type {ReadonlyArray<AuditEntry> | null} */ (null))
  const [cursor, setCursor] = useState(/** @type {string | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [busy, setBusy] = useState(false)

  /** @param {string | null} after */
  const load = async (after) => {
    setBusy(true)
    setError(null)
    try {
      /** @type {AuditLogPage} */
      const page = await api.get(`/audit-log${query({ ...apiQuery(filters), cursor: after })}`)
      setEntries((current) => (after === null || current === null ? page.entries : [...current, ...page.entries]))
      setCursor(page.nextCursor)
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  useEffect(() => {
    if (canAdmin) void load(null)
  }, [canAdmin, filters])

  if (!canAdmin)
    return html`<section aria-labelledby="audit-title"><h2 id="audit-title">${t("audit.title")}</h2><p>${t("audit.adminsOnly")}</p></section>`
  /** @param {SubmitEvent} event */
  const apply = (event) => {
    event.preventDefault()
    setFilters(draft)
  }
  /** @param {"action" | "surface" | "from" | "to"} name @param {Event} event */
  const set = (name, event) =>
    setDraft({ ...draft, [name]: /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target).value })
  return html`<section class="stack" aria-labelledby="audit-title">
    <h2 id="audit-title">${t("audit.title")}</h2>
    <p>${t("audit.intro")}</p>
    <form class="row" aria-label=${t("audit.filters")} onSubmit=${apply}>
      <label>${t("audit.action")} <select value=${draft.action} onChange=${(e) => set("action", e)}>
        <option value="">${t("audit.any")}</option>
        ${actions.map(([id, words]) => html`<option key=${id} value=${id}>${t(words)}</option>`)}
      </select></label>
      <label>${t("audit.surface")} <select value=${draft.surface} onChange=${(e) => set("surface", e)}>
        <option value="">${t("audit.any")}</option>
        ${surfaces.map(([id, words]) => html`<option key=${id} value=${id}>${t(words)}</option>`)}
      </select></label>
      <label>${t("audit.from")} <input type="date" value=${draft.from} onInput=${(e) => set("from", e)} /></label>
      <label>${t("audit.to")} <input type="date" value=${draft.to} onInput=${(e) => set("to", e)} /></label>
      <button type="submit">${t("audit.apply")}</button>
      <a class="button" download href=${`${base}/api/audit-log/export.csv${query(apiQuery(filters))}`}>${t("audit.downloadCsv")}</a>
    </form>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${entries === null && busy ? html`<p>${t("audit.loading")}</p>` : null}</div>
    ${
      entries === null
        ? null
        : entries.length === 0
          ? html`<p>${t("audit.none")}</p>`
          : html`<${TableScroll} label=${t("audit.table")}><table>
      <caption>${t("audit.table")}</caption>
      <thead><tr>
        <th scope="col">${t("audit.colWhen")}</th><th scope="col">${t("audit.colWho")}</th>
        <th scope="col">${t("audit.colAction")}</th><th scope="col">${t("audit.colSurface")}</th>
        <th scope="col">${t("audit.colAddress")}</th><th scope="col">${t("audit.colTarget")}</th>
      </tr></thead>
      <tbody>${entries.map(
        (entry) => html`<tr key=${entry.id}>
          <td><time datetime=${entry.occurredAt}>${formatDateTime(entry.occurredAt)}</time></td>
          <td>${who(entry)}</td>
          <td>${actionWords(entry.action)}</td>
          <td>${surfaceWords(entry.surface)}</td>
          <td>${entry.address ?? ""}</td>
          <td>${entry.target === null ? "" : `${entry.target.type} ${entry.target.id}`}</td>
        </tr>`
      )}</tbody></table><//>`
    }
    ${cursor === null ? null : html`<button type="button" disabled=${busy} onClick=${() => load(cursor)}>${t("audit.more")}</button>`}
  </section>`
}
