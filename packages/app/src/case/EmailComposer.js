// @ts-check
// Writing to the respondent from the case page (offered when the server can send e-mail).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { api, messageOf, shell } from "../shared/Api.js"
import { t } from "../shared/Words.js"

/** @param {{ responseId: number, to: string | null, onSent: () => void }} props */
export const EmailComposer = ({ responseId, to, onSent }) => {
  const [subject, setSubject] = useState("")
  const [body, setBody] = useState("")
  const [error, setError] = useState(/** @type {string | null} */ (null))
  if (!shell.mail) return html`<p class="muted">${t("emails.noMail")}</p>`
  if (!to) return html`<p class="muted">${t("emails.noAddress")}</p>`
  /** @param {SubmitEvent} event */
  const send = (event) => {
    event.preventDefault()
    setError(null)
    api.post(`/responses/${responseId}/emails`, { subject, body }).then(
      () => {
        setSubject("")
        setBody("")
        onSent()
      },
      (e) => setError(messageOf(e))
    )
  }
  return html`<form class="stack card" onSubmit=${send} aria-label=${t("emails.formLabel")}>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <label for="email-subject">${t("emails.subject")}</label>
    <input id="email-subject" type="text" required value=${subject} onInput=${(/** @type {InputEvent & { currentTarget: HTMLInputElement }} */ e) => setSubject(e.currentTarget.value)} />
    <label for="email-body">${t("emails.messageTo", { email: to })}</label>
    <textarea id="email-body" required value=${body} onInput=${(/** @type {InputEvent & { currentTarget: HTMLTextAreaElement }} */ e) => setBody(e.currentTarget.value)}></textarea>
    <div><button class="primary" type="submit">${t("emails.send")}</button></div>
  </form>`
}
