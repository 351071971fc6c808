// @ts-check
// The workspace's webhook deliveries that gave up, with a bulk replay (owners and admins), and its failure alerts.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { TableScroll } from "../shared/TableScroll.js"
import { api, messageOf } from "../shared/Api.js"
import { formatDateTime, t } from "../shared/Words.js"
import { useLoad } from "../shared/Load.js"
import { Status } from "../shared/Status.js"
import { toggled } from "./CheckedList.js"

/** @typedef {import("../shared/Types.js").DeadLetterList} DeadLetterList */
/** @typedef {import("../shared/Types.js").WebhookAlertList} WebhookAlertList */
/** @typedef {import("../shared/Types.js").ReplayResult} ReplayResult */

/**
 * The workspace's webhook deliveries that gave up, with a bulk replay (owners and admins), and its failure alerts.
 * @param {{ canAdmin: boolean, version: number, onReplayed: () => void }} props
 */
export const DeadLetters = ({ canAdmin, version, onReplayed }) => {
  const [dead, reload, loadError] = useLoad(
    () => /** @type {Promise<DeadLetterList>} */ (api.get("/webhooks/dead-letters?limit=50")),
    [version]
  )
  const [alerts] = useLoad(
    () => /** @type {Promise<WebhookAlertList>} */ (api.get("/webhooks/alerts?limit=20")),
    [version]
  )
  const [chosen, setChosen] = useState(/** @type {ReadonlyArray<number>} */ ([]))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  /** @param {number} id @param {boolean} on */
  const choose = (id, on) => setChosen(toggled(chosen, id, on))
  const replay = () =>
    api.post("/webhooks/dead-letters/replay", { deliveryIds: chosen }).then(
      /** @param {ReplayResult} r */
      (r) => {
        setNotice(t("settings.replayed", { replayed: String(r.replayed.length), skipped: String(r.skipped.length) }))
        setChosen([])
        reload()
        onReplayed()
      },
      (err) => setError(messageOf(err))
    )
  return html`<div class="stack">
    <h3 id="dead-title">${t("settings.deadLettersTitle")}</h3>
    <p>${t("settings.deadLettersHelp")}</p>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      dead === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : dead.deliveries.length === 0
          ? html`<p>${t("settings.noDeadLetters")}</p>`
          : html`<${TableScroll} label=${t("settings.deadLettersTitle")}><table>
      <thead><tr>${canAdmin ? html`<th scope="col">${t("settings.colReplay")}</th>` : null}<th scope="col">${t("settings.hookForm")}</th><th scope="col">${t("settings.colEvent")}</th><th scope="col">${t("settings.colAttempts")}</th><th scope="col">${t("settings.colCreated")}</th></tr></thead>
      <tbody>${dead.deliveries.map((d) => {
        const last = d.attempts[d.attempts.length - 1]
        return html`<tr key=${d.id}>
        ${canAdmin ? html`<td><input type="checkbox" checked=${chosen.includes(d.id)} onChange=${(e) => choose(d.id, e.target.checked)} aria-label=${t("settings.chooseDeadLetter", { id: String(d.id) })} /></td>` : null}
        <td>${d.formTitle ?? t("settings.allForms")}</td><td>${d.event}${d.responseId ? ` #${d.responseId}` : ""}</td>
        <td>${String(d.attempts.length)}${last ? html`<br />${last.statusCode === null ? (last.error ?? "—") : String(last.statusCode)}` : null}</td>
        <td>${formatDateTime(d.createdAt)}</td>
      </tr>`
      })}</tbody></table><//>
      ${canAdmin ? html`<div class="row"><button class="primary" disabled=${chosen.length === 0} onClick=${replay}>${t("settings.replaySelected", { count: String(chosen.length) })}</button></div>` : null}`
    }
    <h3>${t("settings.alertsTitle")}</h3>
    ${
      alerts === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : alerts.alerts.length === 0
          ? html`<p>${t("settings.noAlerts")}</p>`
          : html`<ul class="stack">${alerts.alerts.map(
              (a) =>
                html`<li key=${a.id}>${formatDateTime(a.createdAt)}: ${
                  a.kind === "failing"
                    ? t("settings.alertFailing", {
                        url: a.target,
                        form: a.formTitle ?? t("settings.allForms"),
                        count: String(a.failures)
                      })
                    : t("settings.alertDisabled", {
                        url: a.target,
                        form: a.formTitle ?? t("settings.allForms"),
                        reason: a.reason ?? ""
                      })
                }</li>`
            )}</ul>`
    }
  </div>`
}
