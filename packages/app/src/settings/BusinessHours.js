// @ts-check
// The workspace's business hours, which the forms' SLA targets count in: a time zone, each day's intervals and
// holidays.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { t } from "../shared/Words.js"
import { useLoad } from "../shared/Load.js"
import { Status } from "../shared/Status.js"
import { formOf, hoursOf, weekDays } from "./BusinessHoursForm.js"

/**
 * The workspace's business hours (`businessHours` of `/api/workspace/settings`), which the forms' SLA targets count
 * in: a time zone, each day's intervals written "09:00-12:00, 13:00-17:00", and holidays. The server checks them
 * (overlaps, an end before the start, an unknown zone) and its message is shown. Owners and admins change them.
 * @param {{ canAdmin: boolean }} props
 */
export const BusinessHoursSettings = ({ canAdmin }) => {
  const [settings, reload, loadError] = useLoad(
    () => /** @type {Promise<import("../shared/Types.js").WorkspaceSettings>} */ (api.get("/workspace/settings"))
  )
  const [form, setForm] = useState(/** @type {Record<string, string> | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    if (settings === null || form !== null) return
    setForm(formOf(settings.businessHours))
  }, [settings])
  const save = async () => {
    if (settings === null || form === null) return
    setError(null)
    setNotice(null)
    const { businessHours: _, ...rest } = settings
    const businessHours = hoursOf(form)
    try {
      await api.put("/workspace/settings", businessHours === undefined ? rest : { ...rest, businessHours })
      setNotice(t("settings.hoursSaved"))
      await reload()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  /** @param {string} key */
  const set = (key) => (/** @type {Event & { currentTarget: HTMLInputElement }} */ e) =>
    form === null ? undefined : setForm({ ...form, [key]: e.currentTarget.value })
  return html`<section class="stack" aria-labelledby="hours-title">
    <h2 id="hours-title">${t("settings.hoursTitle")}</h2>
    <p class="muted">${t("settings.hoursHelp")}</p>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      form === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : html`<label for="hours-zone">${t("settings.hoursTimeZone")}</label>
    <input id="hours-zone" disabled=${!canAdmin} value=${form.timeZone} placeholder="Europe/Berlin" onInput=${set("timeZone")} />
    ${weekDays.map(
      (day) => html`<label for=${`hours-${day}`}>${t("settings.hoursDay", { day })}</label>
    <input id=${`hours-${day}`} disabled=${!canAdmin} value=${form[day]} placeholder="09:00-17:00" onInput=${set(day)} />`
    )}
    <label for="hours-holidays">${t("settings.hoursHolidays")}</label>
    <input id="hours-holidays" disabled=${!canAdmin} value=${form.holidays} placeholder="2026-12-25, 2026-12-26" onInput=${set("holidays")} />
    ${canAdmin ? html`<div><button class="primary" onClick=${save}>${t("settings.hoursSave")}</button></div>` : html`<p class="muted">${t("settings.themeAdminsOnly")}</p>`}`
    }
  </section>`
}
