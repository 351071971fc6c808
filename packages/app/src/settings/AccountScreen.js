// @ts-check
// The account's own page: who is signed in, the application's language, and a password change (a qforms
// session's; a host's identity has none here).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { call, messageOf } from "../shared/Api.js"
import { LanguageChooser } from "./LanguageChooser.js"
import { t } from "../shared/Words.js"
import { Status } from "../shared/Status.js"

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */

/** @param {{ session: SessionInfo }} props */
export const AccountScreen = ({ session }) => {
  const [current, setCurrent] = useState("")
  const [next, setNext] = useState("")
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  /** @param {SubmitEvent} event */
  const submit = async (event) => {
    event.preventDefault()
    setError(null)
    setNotice(null)
    try {
      await call("POST", "/app/password", { currentPassword: current, newPassword: next })
      setCurrent("")
      setNext("")
      setNotice(t("account.passwordChanged"))
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<h1 tabindex="-1">${t("account.title")}</h1>
    <p>${session.account.name ?? ""} ${session.account.email} · ${t("shell.role", { role: session.role })}</p>
    <${LanguageChooser} session=${session} />
    ${
      session.via === "session"
        ? html`<form class="stack card" onSubmit=${submit}>
      <h2>${t("account.password")}</h2>
      <${Status} error=${error} notice=${notice} />
      <label for="current-password">${t("account.currentPassword")}</label>
      <input id="current-password" type="password" autocomplete="current-password" value=${current} onInput=${(e) => setCurrent(e.target.value)} />
      <label for="new-password">${t("account.newPassword")}</label>
      <input id="new-password" type="password" autocomplete="new-password" minlength="10" required value=${next} onInput=${(e) => setNext(e.target.value)} />
      <div><button class="primary" type="submit">${t("account.changePassword")}</button></div>
    </form>`
        : html`<p>${t("account.viaHost")}</p>`
    }`
}
