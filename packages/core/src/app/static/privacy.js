// @ts-check
// Settings → Privacy: erasing a person (`POST /api/privacy/erasures`). Type the address, confirm, see what was
// erased, kind by kind. Owners and admins only (the server refuses anyone else too).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { api, messageOf } from "./api.js"
import { TableScroll } from "./table.js"
import { formatNumber, t } from "./words.js"

/** @typedef {import("./types.js").ErasureResult} ErasureResult */

/** The kinds of the result, in the order shown, with their words. */
const kinds = /** @type {const} */ ([
  ["responses", "privacy.kindResponses"],
  ["partialResponses", "privacy.kindPartialResponses"],
  ["files", "privacy.kindFiles"],
  ["emailsSent", "privacy.kindEmailsSent"],
  ["emailReplies", "privacy.kindEmailReplies"],
  ["contacts", "privacy.kindContacts"],
  ["deliveriesCancelled", "privacy.kindDeliveriesCancelled"],
  ["notesFlagged", "privacy.kindNotesFlagged"]
])

/** @param {{ canAdmin: boolean }} props */
export const Privacy = ({ canAdmin }) => {
  const [email, setEmail] = useState("")
  const [confirming, setConfirming] = useState(/** @type {string | null} */ (null))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [done, setDone] = useState(/** @type {{ email: string, result: ErasureResult } | null} */ (null))
  if (!canAdmin)
    return html`<section aria-labelledby="privacy-title"><h2 id="privacy-title">${t("privacy.title")}</h2><p>${t("privacy.adminsOnly")}</p></section>`
  /** @param {SubmitEvent} event */
  const review = (event) => {
    event.preventDefault()
    setError(null)
    setDone(null)
    setConfirming(email.trim())
  }
  const erase = async () => {
    if (confirming === null) return
    setBusy(true)
    setError(null)
    try {
      /** @type {ErasureResult} */
      const result = await api.post("/privacy/erasures", { email: confirming })
      setDone({ email: confirming, result })
      setEmail("")
      setConfirming(null)
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  return html`<section class="stack" aria-labelledby="privacy-title">
    <h2 id="privacy-title">${t("privacy.title")}</h2>
    <p>${t("privacy.intro")}</p>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${done ? html`<p class="notice">${t("privacy.done", { email: done.email })}</p>` : null}</div>
    <form class="row" onSubmit=${review}>
      <label for="erase-email">${t("privacy.email")}</label>
      <input id="erase-email" type="email" required maxlength="320" autocomplete="off" value=${email} onInput=${(e) => setEmail(e.target.value)} />
      <button type="submit" class="danger" disabled=${busy}>${t("privacy.review")}</button>
    </form>
    ${
      confirming === null
        ? null
        : html`<div class="card stack" role="alertdialog" aria-labelledby="erase-confirm-text">
      <p id="erase-confirm-text"><strong>${t("privacy.confirmText", { email: confirming })}</strong></p>
      <div class="row">
        <button type="button" class="danger" disabled=${busy} onClick=${erase}>${t("privacy.confirm")}</button>
        <button type="button" disabled=${busy} onClick=${() => setConfirming(null)}>${t("privacy.cancel")}</button>
      </div>
    </div>`
    }
    ${
      done === null
        ? null
        : html`<${TableScroll} label=${t("privacy.resultTable")}><table>
      <caption>${t("privacy.resultTable")}</caption>
      <thead><tr><th scope="col">${t("privacy.colKind")}</th><th scope="col">${t("privacy.colCount")}</th></tr></thead>
      <tbody>${kinds.map(
        ([kind, words]) =>
          html`<tr key=${kind}><th scope="row">${t(words)}</th><td>${formatNumber(done.result[kind].count)}</td></tr>`
      )}</tbody></table><//>`
    }
  </section>`
}
