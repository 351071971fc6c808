// @ts-check
// The application shell: who is signed in, the navigation, and the screen of the current path (the History API's,
// followed as it changes).
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { BuilderScreen } from "../builder/BuilderScreen.js"
import { CaseScreen } from "../case/CaseScreen.js"
import { FormsScreen } from "../forms/FormsScreen.js"
import { InboxScreen } from "../inbox/InboxScreen.js"
import { WorkspaceInboxScreen } from "../inbox/WorkspaceInboxScreen.js"
import { AccountScreen } from "../settings/AccountScreen.js"
import { SettingsScreen } from "../settings/SettingsScreen.js"
import { base, call, messageOf, setCsrf } from "../shared/Api.js"
import { t } from "../shared/Words.js"
import { Nav } from "./Nav.js"
import { match } from "./Routes.js"

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */
/** @typedef {import("./Routes.js").Route} Route */

const current = () => location.pathname.slice(base.length) + location.search

export const App = () => {
  const [session, setSession] = useState(/** @type {SessionInfo | null} */ (null))
  const [failed, setFailed] = useState(/** @type {string | null} */ (null))
  const [path, setPath] = useState(current())
  useEffect(() => {
    call("GET", "/app/session").then(
      /** @param {SessionInfo} s */
      (s) => {
        setCsrf(s.csrfToken)
        setSession(s)
      },
      (error) => setFailed(messageOf(error))
    )
    const update = () => setPath(current())
    addEventListener("popstate", update)
    addEventListener("qforms:navigate", update)
    return () => {
      removeEventListener("popstate", update)
      removeEventListener("qforms:navigate", update)
    }
  }, [])
  const matched = match(path)
  /** @type {Route} */
  const route = { ...matched, title: t(matched.titleKey) }
  useEffect(() => {
    document.title = t("shell.documentTitle", { title: route.title })
    // Focus the new screen's heading so screen readers announce the change.
    requestAnimationFrame(() => /** @type {HTMLElement | null} */ (document.querySelector("main h1"))?.focus())
  }, [path])
  if (failed) {
    if (/signed in/.test(failed)) location.assign(`${base}/app/sign-in`)
    return html`<main class="page" id="main"><h1>qforms</h1><p class="error" role="alert">${failed}</p></main>`
  }
  if (!session) return html`<main class="page" id="main"><p class="loading">${t("shell.loading")}</p></main>`
  const canWrite = session.role !== "viewer"
  const canAdmin = session.role === "owner" || session.role === "admin"
  const props = { session, canWrite, canAdmin, route, key: path }
  const screen =
    {
      forms: () => html`<${FormsScreen} ...${props} />`,
      builder: () => html`<${BuilderScreen} ...${props} />`,
      inbox: () => html`<${InboxScreen} ...${props} />`,
      workspaceInbox: () => html`<${WorkspaceInboxScreen} ...${props} />`,
      case: () => html`<${CaseScreen} ...${props} />`,
      settings: () => html`<${SettingsScreen} ...${props} />`,
      account: () => html`<${AccountScreen} ...${props} />`,
      missing: () =>
        html`<h1 tabindex="-1">${t("shell.notFound")}</h1><p>${t("shell.notFoundText")} <a href=${`${base}/app`}>${t("shell.backToForms")}</a></p>`
    }[route.screen] ?? (() => null)
  return html`<${Nav} route=${route} session=${session} />
    <main class="page" id="main">${screen()}</main>`
}
