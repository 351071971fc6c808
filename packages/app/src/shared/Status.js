// @ts-check
// A section's outcome, announced politely: the failure (an alert) or the notice of what was done.
import { html } from "htm/preact"

/** @param {{ error: string | null, notice: string | null }} props */
export const Status = ({ error, notice }) =>
  html`<div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>`
