// @ts-check
// Settings → Privacy: exporting a person's data (`GET /api/privacy/export`, a ZIP downloaded) and erasing a person
// (`POST /api/privacy/erasures`). Type the address, confirm, see what was erased, kind by kind. Owners and admins
// only (the server refuses anyone else too).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { ApiError, api, base, messageOf } from "../shared/Api.js"
import { TableScroll } from "../shared/TableScroll.js"
import { formatNumber, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").ErasureResult} ErasureResult */

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

/**
 * Fetches the export of `email` and hands it to the browser as a download (the file name the server gives).
 * @param {string} email
 */
const downloadExport = async (email) => {
  /** @type {Response} */
  let response
  try {
    response = await fetch(`${base}/api/privacy/export?email=${encodeURIComponent(email)}`, {
      headers: { accept: "application/zip, application/json" },
      credentials: "same-origin"
    })
  } catch {
    throw new ApiError(0, t("shell.networkFailed"))
  }
  if (!response.ok) {
    const data = await response.json().catch(() => undefined)
    throw new ApiError(response.status, data?.error ?? t("shell.httpFailed", { status: String(response.status) }))
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "person-export.zip"
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement("a")
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/** The export form: an address, a download. */
const ExportPerson = () => {
  const [email, setEmail] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [done, setDone] = useState(/** @type {string | null} */ (null))
  /** @param {SubmitEvent} event */
  const submit = async (event) => {
    event.preventDefault()
    const address = email.trim()
    setBusy(true)
    setError(null)
    setDone(null)
    try {
      await downloadExport(address)
      setDone(address)
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  return html`<section class="stack" aria-labelledby="export-title">
    <h2 id="export-title">${t("privacy.exportTitle")}</h2>
    <p>${t("privacy.exportIntro")}</p>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${busy ? html`<p>${t("privacy.exporting")}</p>` : null}${done ? html`<p class="notice">${t("privacy.exportDone", { email: done })}</p>` : null}</div>
    <form class="row" onSubmit=${submit}>
      <label for="export-email">${t("privacy.exportEmail")}</label>
      <input id="export-email" type="email" required maxlength="320" autocomplete="off" value=${email} onInput=${(e) => setEmail(e.target.value)} />
      <button type="submit" disabled=${busy}>${t("privacy.exportButton")}</button>
    </form>
  </section>`
}

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
  return html`<div class="stack"><${ExportPerson} /><section class="stack" aria-labelledby="privacy-title">
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
  </section></div>`
}
