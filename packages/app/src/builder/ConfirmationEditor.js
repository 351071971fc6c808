// @ts-check
// A form's confirmation e-mail to the respondent (recall and `{{answers}}` in its text).
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { t, withParts } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").ConfirmationSettings} ConfirmationSettings */

/** @param {{ formId: number, canWrite: boolean }} props */
export const ConfirmationEditor = ({ formId, canWrite }) => {
  const [settings, setSettings] = useState(/** @type {ConfirmationSettings | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    api.get(`/forms/${formId}/confirmation`).then(setSettings, (e) => setError(messageOf(e)))
  }, [formId])
  /** @param {SubmitEvent} event */
  const save = (event) => {
    event.preventDefault()
    api.put(`/forms/${formId}/confirmation`, settings).then(
      /** @param {ConfirmationSettings} s */
      (s) => {
        setSettings(s)
        setNotice(t("confirmation.saved"))
        setError(null)
      },
      (e) => setError(messageOf(e))
    )
  }
  return html`<section aria-labelledby="confirmation-title">
    <h2 id="confirmation-title">${t("confirmation.title")}</h2>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${
      settings === null
        ? html`<p class="loading">${t("confirmation.loading")}</p>`
        : html`<form class="stack card" onSubmit=${save}>
      <label><input type="checkbox" disabled=${!canWrite} checked=${settings.enabled} onChange=${(e) => setSettings({ ...settings, enabled: e.target.checked })} /> ${t("confirmation.enabled")}</label>
      <label for="confirmation-subject">${t("confirmation.subject")}</label>
      <input id="confirmation-subject" type="text" disabled=${!canWrite} value=${settings.subject ?? ""} onInput=${(e) => setSettings({ ...settings, subject: e.target.value })} />
      <label for="confirmation-body">${withParts("confirmation.body", { recall: html`<code>{{field:ID}}</code>` })}</label>
      <textarea id="confirmation-body" disabled=${!canWrite} value=${settings.body ?? ""} onInput=${(e) => setSettings({ ...settings, body: e.target.value })}></textarea>
      ${canWrite ? html`<div><button class="primary" type="submit">${t("confirmation.save")}</button></div>` : null}
    </form>`
    }
  </section>`
}
