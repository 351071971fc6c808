// @ts-check
// The workspace's settings, one tab each: members, API keys, webhooks, the page theme, business hours, privacy and
// the audit log.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { AuditLog } from "./AuditLog.js"
import { Privacy } from "../privacy/Privacy.js"
import { t } from "../shared/Words.js"
import { ApiKeys } from "./ApiKeys.js"
import { BusinessHoursSettings } from "./BusinessHours.js"
import { Members } from "./Members.js"
import { PageTheme } from "./PageTheme.js"
import { Webhooks } from "./Webhooks.js"

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */

/** @param {{ session: SessionInfo, canAdmin: boolean }} props */
export const SettingsScreen = ({ session, canAdmin }) => {
  const [tab, setTab] = useState("members")
  /** @type {ReadonlyArray<readonly [string, string]>} */
  const tabs = [
    ["members", t("settings.tabMembers")],
    ["keys", t("settings.tabApiKeys")],
    ["webhooks", t("settings.tabWebhooks")],
    ["theme", t("settings.tabPageTheme")],
    ["hours", t("settings.tabHours")],
    ["privacy", t("settings.tabPrivacy")],
    ["audit", t("settings.tabAudit")]
  ]
  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    const index = tabs.findIndex(([id]) => id === tab)
    const next = event.key === "ArrowRight" ? index + 1 : event.key === "ArrowLeft" ? index - 1 : null
    if (next === null) return
    const [id] = tabs[(next + tabs.length) % tabs.length] ?? ["members"]
    setTab(id)
    requestAnimationFrame(() => document.getElementById(`tab-${id}`)?.focus())
  }
  return html`<h1 tabindex="-1">${t("settings.title")}</h1>
    <div class="tabs" role="tablist" aria-label=${t("settings.title")} onKeyDown=${onKey}>
      ${tabs.map(([id, label]) => html`<button role="tab" id=${`tab-${id}`} aria-selected=${tab === id ? "true" : "false"} aria-controls="settings-panel" tabindex=${tab === id ? "0" : "-1"} onClick=${() => setTab(id)}>${label}</button>`)}
    </div>
    <div id="settings-panel" role="tabpanel" aria-labelledby=${`tab-${tab}`}>
      ${
        tab === "members"
          ? html`<${Members} session=${session} canAdmin=${canAdmin} />`
          : tab === "keys"
            ? html`<${ApiKeys} canAdmin=${canAdmin} />`
            : tab === "theme"
              ? html`<${PageTheme} canAdmin=${canAdmin} />`
              : tab === "hours"
                ? html`<${BusinessHoursSettings} canAdmin=${canAdmin} />`
                : tab === "privacy"
                  ? html`<${Privacy} canAdmin=${canAdmin} />`
                  : tab === "audit"
                    ? html`<${AuditLog} canAdmin=${canAdmin} />`
                    : html`<${Webhooks} canAdmin=${canAdmin} />`
      }
    </div>`
}
