// @ts-check
// The signed-in member's own digest e-mail of a form (`GET|PUT /api/forms/{id}/digest`): off, daily or weekly
// (Mondays) at a local hour of their time zone (the browser's, kept with the choice), and "Send me one now"
// (`POST /api/forms/{id}/digest/send`). Shown at the top of the Summary view; not printed.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { formatDateTime, formatHour, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").DigestSettings} DigestSettings */
/** @typedef {DigestSettings["frequency"]} Frequency */

/** The browser's time zone, `UTC` if it cannot tell. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"

const hours = Array.from({ length: 24 }, (_, hour) => hour)

/**
 * The digest control of one form.
 * @param {{ formId: number }} props
 */
export const DigestControl = ({ formId }) => {
  const [settings, setSettings] = useState(/** @type {DigestSettings | null} */ (null))
  const [frequency, setFrequency] = useState(/** @type {Frequency} */ ("off"))
  const [hour, setHour] = useState(8)
  const [status, setStatus] = useState("")
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [busy, setBusy] = useState(false)

  /** @param {DigestSettings} next */
  const show = (next) => {
    setSettings(next)
    setFrequency(next.frequency)
    setHour(next.hour)
  }

  useEffect(() => {
    api.get(`/forms/${formId}/digest`).then(show, (failure) => setError(messageOf(failure)))
  }, [formId])

  /** @param {() => Promise<unknown>} work */
  const run = async (work) => {
    setBusy(true)
    setError(null)
    try {
      await work()
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      setBusy(false)
    }
  }

  const save = () =>
    run(async () => {
      /** @type {DigestSettings} */
      const next = await api.put(
        `/forms/${formId}/digest`,
        frequency === "off"
          ? { frequency }
          : {
              frequency,
              hour,
              timeZone: browserZone()
            }
      )
      show(next)
      setStatus(
        next.frequency === "off" ? t("digest.stopped") : t("digest.saved", { when: formatDateTime(next.nextAt) })
      )
    })

  const sendNow = () =>
    run(async () => {
      /** @type {{ to: string }} */
      const sent = await api.post(`/forms/${formId}/digest/send`)
      setStatus(t("digest.sent", { email: sent.to }))
    })

  if (settings === null) return error ? html`<p class="error" role="alert">${error}</p>` : null
  const id = `digest-${formId}`
  return html`<section class="digest no-print" aria-labelledby=${`${id}-heading`}>
    <h3 id=${`${id}-heading`}>${t("digest.heading")}</h3>
    ${
      settings.mailConfigured
        ? html`<p class="muted">${t("digest.explain", { email: settings.email })}</p>`
        : html`<p class="muted">${t("digest.noMail")}</p>`
    }
    <div class="row">
      <label for=${`${id}-frequency`}>${t("digest.frequency")}</label>
      <select id=${`${id}-frequency`} value=${frequency} disabled=${busy} onChange=${(/** @type {Event} */ e) => setFrequency(/** @type {Frequency} */ (/** @type {HTMLSelectElement} */ (e.currentTarget).value))}>
        <option value="off">${t("digest.off")}</option>
        <option value="daily">${t("digest.daily")}</option>
        <option value="weekly">${t("digest.weekly")}</option>
      </select>
      <label for=${`${id}-hour`}>${t("digest.hour")}</label>
      <select id=${`${id}-hour`} value=${String(hour)} disabled=${busy || frequency === "off"} onChange=${(/** @type {Event} */ e) => setHour(Number(/** @type {HTMLSelectElement} */ (e.currentTarget).value))}>
        ${hours.map((h) => html`<option value=${String(h)}>${formatHour(String(h))}</option>`)}
      </select>
      <button type="button" disabled=${busy} onClick=${save}>${t("digest.save")}</button>
      <button type="button" disabled=${busy || !settings.mailConfigured} onClick=${sendNow}>${t("digest.sendNow")}</button>
    </div>
    ${
      settings.frequency !== "off" && settings.nextAt
        ? html`<p class="muted">${t("digest.next", { when: formatDateTime(settings.nextAt), zone: settings.timeZone })}</p>`
        : null
    }
    <p role="status" class="muted">${status}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </section>`
}
