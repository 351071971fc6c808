// @ts-check
// A delivery log (a webhook's or a notification channel's): every delivery with its attempts, and a retry per
// delivery. The settings' webhooks and the builder's notification channels show it.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { TableScroll } from "./TableScroll.js"
import { api, messageOf } from "./Api.js"
import { formatDateTime, formatNumber, t } from "./Words.js"
import { useLoad } from "./Load.js"
import { Status } from "./Status.js"

/** @typedef {import("./Types.js").Delivery} Delivery */
/** @typedef {import("./Types.js").DeliveryLog} DeliveryLogPage */

/**
 * A delivery log (a webhook's or a notification channel's), with retry.
 * @param {{ title: string, logPath: string, retryPath: (delivery: Delivery) => string, onClose: () => void }} props
 */
export const DeliveryLog = ({ title, logPath, retryPath, onClose }) => {
  const [log, reload, loadError] = useLoad(
    () => /** @type {Promise<DeliveryLogPage>} */ (api.get(`${logPath}?limit=50`)),
    [logPath]
  )
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  /** @param {Delivery} delivery */
  const retry = (delivery) =>
    api.post(retryPath(delivery)).then(
      () => {
        setNotice(t("settings.deliverySentAgain", { id: String(delivery.id) }))
        reload()
      },
      (e) => setError(messageOf(e))
    )
  return html`<div class="card stack" role="region" aria-label=${t("settings.deliveryLogOf", { title })}>
    <div class="spread"><h3>${t("settings.deliveryLogTitle", { title })}</h3><button onClick=${onClose}>${t("settings.closeLog")}</button></div>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      log === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : log.deliveries.length === 0
          ? html`<p>${t("settings.noDeliveries")}</p>`
          : html`<${TableScroll} label=${t("settings.deliveriesOf", { title })}><table>
      <thead><tr><th scope="col">${t("settings.colEvent")}</th><th scope="col">${t("settings.colStatus")}</th><th scope="col">${t("settings.colAttempts")}</th><th scope="col">${t("settings.colCreated")}</th><th scope="col">${t("settings.colActions")}</th></tr></thead>
      <tbody>${log.deliveries.map(
        (d) => html`<tr key=${d.id}>
        <td>${d.event}${d.responseId ? ` #${d.responseId}` : ""}</td><td>${t("settings.deliveryState", { state: d.status })}</td>
        <td>${d.attempts.map((a) => html`<div>${t("settings.attempt", { time: formatDateTime(a.at), outcome: a.statusCode === null ? (a.error ?? "—") : String(a.statusCode), duration: formatNumber(a.durationMs) })}</div>`)}</td>
        <td>${formatDateTime(d.createdAt)}</td>
        <td><button onClick=${() => retry(d)} aria-label=${t("settings.retryDelivery", { id: String(d.id) })}>${t("settings.retry")}</button></td>
      </tr>`
      )}</tbody></table><//>`
    }
  </div>`
}
