// @ts-check
// The application's header: the skip link, the navigation (the current screen's item marked), the workspace
// switcher of a person in several workspaces, who is signed in, and sign-out.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { base, call, messageOf } from "../shared/Api.js"
import { t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */
/** @typedef {import("./Routes.js").Route} Route */

// A person in several workspaces switches here: the server opens a fresh session in the chosen one, then the
// application reloads on the forms of that workspace (every screen's data belongs to one workspace).
/** @param {{ session: SessionInfo }} props */
const WorkspaceSwitcher = ({ session }) => {
  const [error, setError] = useState(/** @type {string | null} */ (null))
  if (session.via !== "session" || !session.workspaces || session.workspaces.length < 2) return null
  /** @param {Event & { currentTarget: HTMLSelectElement }} event */
  const change = (event) => {
    const workspaceId = Number(event.currentTarget.value)
    call("POST", "/app/workspace", { workspaceId }).then(
      () => location.assign(`${base}/app`),
      (failure) => setError(messageOf(failure))
    )
  }
  return html`<span class="workspace-switcher">
    <select aria-label=${t("shell.workspace")} onChange=${change} value=${String(session.workspaceId)}>
      ${session.workspaces.map((w) => html`<option value=${String(w.id)}>${w.name}</option>`)}
    </select>
    ${error ? html`<span class="error" role="alert">${error}</span>` : null}
  </span>`
}

/** @param {{ route: Route, session: SessionInfo }} props */
export const Nav = ({ route, session }) => {
  /** @param {string} href @param {string} label @param {boolean} active */
  const item = (href, label, active) =>
    html`<li><a href=${`${base}${href}`} aria-current=${active ? "page" : undefined}>${label}</a></li>`
  return html`<header class="top">
    <a class="skip" href="#main">${t("shell.skip")}</a>
    <a class="brand" href=${`${base}/app`}>qforms</a>
    <nav aria-label=${t("shell.mainNav")}><ul>
      ${item("/app", t("shell.forms"), route.screen === "forms" || route.screen === "builder" || route.screen === "inbox" || route.screen === "case")}
      ${item("/app/inbox", t("shell.inbox"), route.screen === "workspaceInbox")}
      ${item("/app/settings", t("shell.settings"), route.screen === "settings")}
      ${item("/app/account", t("shell.account"), route.screen === "account")}
    </ul></nav>
    <div class="who">
      <${WorkspaceSwitcher} session=${session} />
      <span>${session.account.name ?? session.account.email} <span class="badge">${t("shell.role", { role: session.role })}</span></span>
      ${
        session.via === "session"
          ? html`<form method="post" action=${`${base}/app/sign-out`}>
        <input type="hidden" name="csrf" value=${session.csrfToken} />
        <button type="submit">${t("shell.signOut")}</button>
      </form>`
          : null
      }
    </div>
  </header>`
}
