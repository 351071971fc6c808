// @ts-check
// The account's choice of language for the application (`PUT /app/account/language`): a language, or none to
// follow the browser. The page reloads in the new language (the server hands each page its words).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { call, messageOf } from "../shared/Api.js"
import { t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */

/** @param {{ session: SessionInfo }} props */
export const LanguageChooser = ({ session }) => {
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [busy, setBusy] = useState(false)
  /** @param {Event & { currentTarget: HTMLSelectElement }} event */
  const change = (event) => {
    const value = event.currentTarget.value
    setBusy(true)
    setError(null)
    call("PUT", "/app/account/language", { language: value === "" ? null : value }).then(
      () => location.reload(),
      (failure) => {
        setBusy(false)
        setError(messageOf(failure))
      }
    )
  }
  return html`<div class="stack card">
    <h2>${t("shell.languageHeading")}</h2>
    <label for="app-language">${t("shell.interfaceLanguage")}</label>
    <select id="app-language" aria-describedby="app-language-help" disabled=${busy} onChange=${change} value=${session.languagePreference ?? ""}>
      <option value="">${t("shell.interfaceLanguageAuto", {
        language: session.languages.find((l) => l.tag === session.browserLanguage)?.name ?? session.browserLanguage
      })}</option>
      ${session.languages.map((l) => html`<option value=${l.tag} lang=${l.tag}>${l.name}</option>`)}
    </select>
    <p class="muted" id="app-language-help">${t("shell.interfaceLanguageHelp")}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </div>`
}
