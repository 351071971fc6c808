// @ts-check
// The application shell: who is signed in, the navigation, and a tiny router over the History API.
import { html, render } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { base, call, messageOf, navigate, setCsrf } from "./shared/Api.js"
import { FormsScreen } from "./forms/FormsScreen.js"
import { BuilderScreen } from "./builder/BuilderScreen.js"
import { InboxScreen } from "./inbox/InboxScreen.js"
import { WorkspaceInboxScreen } from "./inbox/WorkspaceInboxScreen.js"
import { CaseScreen } from "./case/CaseScreen.js"
import { SettingsScreen, AccountScreen } from "./settings/SettingsScreen.js"
import { t } from "./shared/Words.js"

/** @typedef {import("./shared/Types.js").SessionInfo} SessionInfo */
/** @typedef {{ screen: string, title: string, formId?: number, responseId?: number }} Route */

const current = () => location.pathname.slice(base.length) + location.search

// Links inside the application move without a reload (modifier clicks keep the browser's behaviour).
document.addEventListener("click", (event) => {
  /** @type {HTMLAnchorElement | null} */
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null
  if (
    !link ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return
  const href = link.getAttribute("href") ?? ""
  if (
    link.target ||
    link.hasAttribute("download") ||
    !href.startsWith(`${base}/app`) ||
    href.startsWith(`${base}/app/sign`)
  )
    return
  event.preventDefault()
  navigate(href.slice(base.length))
})

/** @type {ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => Route]>} */
const routes = [
  [/^\/app\/?$/, () => ({ screen: "forms", title: t("shell.forms") })],
  [/^\/app\/inbox\/?$/, () => ({ screen: "workspaceInbox", title: t("shell.inbox") })],
  [
    /^\/app\/forms\/(\d+)\/responses\/?$/,
    (m) => ({ screen: "inbox", title: t("shell.titleResponses"), formId: Number(m[1]) })
  ],
  [/^\/app\/forms\/(\d+)\/?$/, (m) => ({ screen: "builder", title: t("shell.titleBuilder"), formId: Number(m[1]) })],
  [
    /^\/app\/responses\/(\d+)\/?$/,
    (m) => ({ screen: "case", title: t("shell.titleResponse"), responseId: Number(m[1]) })
  ],
  [/^\/app\/settings\/?$/, () => ({ screen: "settings", title: t("shell.settings") })],
  [/^\/app\/account\/?$/, () => ({ screen: "account", title: t("shell.account") })]
]

/** @param {string} path @returns {Route} */
const match = (path) => {
  const pathname = path.split("?")[0]
  for (const [pattern, make] of routes) {
    const m = pattern.exec(pathname)
    if (m) return make(m)
  }
  return { screen: "missing", title: t("shell.notFound") }
}

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
const Nav = ({ route, session }) => {
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

const App = () => {
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
  const route = match(path)
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

const root = document.getElementById("root")
if (root) {
  root.textContent = ""
  render(html`<${App} />`, root)
}
