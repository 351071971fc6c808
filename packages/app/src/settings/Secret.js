// @ts-check
// A secret shown this once (an API key, a webhook's signing secret, an invitation or sign-in link), with a copy
// button.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { copy } from "../shared/Api.js"
import { t } from "../shared/Words.js"

/** @param {{ label: string, value: string, onDone: () => void }} props */
export const Secret = ({ label, value, onDone }) => {
  const [copied, setCopied] = useState("")
  return html`<div class="card stack" role="region" aria-label=${label}>
    <strong>${t("settings.secretShownOnce", { label })}</strong>
    <div class="secret" data-secret>${value}</div>
    <div class="row">
      <button class="primary" onClick=${async () => setCopied((await copy(value)) ? t("settings.copied") : t("settings.copyByHand"))}>${t("settings.copy")}</button>
      <button onClick=${onDone}>${t("settings.done")}</button>
      <span aria-live="polite">${copied}</span>
    </div>
  </div>`
}
