// @ts-check
// Writing to the respondent from the case page (offered when the server can send e-mail).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { api, messageOf, shell } from "./api.js"

/** @param {{ responseId: number, to: string | null, onSent: () => void }} props */
export const EmailComposer = ({ responseId, to, onSent }) => {
  const [subject, setSubject] = useState("")
  const [body, setBody] = useState("")
  const [error, setError] = useState(/** @type {string | null} */ (null))
  if (!shell.mail)
    return html`<p class="muted">Writing to the respondent needs e-mail, which this server has not configured (SMTP).</p>`
  if (!to) return html`<p class="muted">The respondent gave no e-mail address.</p>`
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
  return html`<form class="stack card" onSubmit=${send} aria-label="Write to the respondent">
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <label for="email-subject">Subject</label>
    <input id="email-subject" type="text" required value=${subject} onInput=${(/** @type {InputEvent & { currentTarget: HTMLInputElement }} */ e) => setSubject(e.currentTarget.value)} />
    <label for="email-body">Message to ${to}</label>
    <textarea id="email-body" required value=${body} onInput=${(/** @type {InputEvent & { currentTarget: HTMLTextAreaElement }} */ e) => setBody(e.currentTarget.value)}></textarea>
    <div><button class="primary" type="submit">Send e-mail</button></div>
  </form>`
}
