// @ts-check
// A form's notifications: channels (Slack, Discord, Teams, a spreadsheet, e-mail, any URL) with their events,
// and each channel's delivery log.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { DeliveryLog } from "../shared/DeliveryLog.js"
import { t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").NotificationChannel} NotificationChannel */
/**
 * A channel being edited: one the server returned, or a new one without an id yet.
 * @typedef {{ id?: string, type: NotificationChannel["type"], enabled?: boolean, events?: ReadonlyArray<string>,
 *   url?: string, to?: ReadonlyArray<string>, includeSensitive?: boolean }} ChannelDraft
 */

/** The kinds of channel and their names for people (brand names stay as they are). */
const channelTypes = () =>
  /** @type {ReadonlyArray<readonly [NotificationChannel["type"], string]>} */ ([
    ["slack", "Slack"],
    ["discord", "Discord"],
    ["teams", "Microsoft Teams"],
    ["sheet", t("notifications.typeSheet")],
    ["email", t("notifications.typeEmail")],
    ["url", t("notifications.typeUrl")]
  ])
const eventNames = ["response.created", "response.stage_changed"]

/** @param {{ formId: number, canWrite: boolean }} props */
export const NotificationsEditor = ({ formId, canWrite }) => {
  const [channels, setChannels] = useState(/** @type {ReadonlyArray<ChannelDraft> | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [type, setType] = useState(/** @type {NotificationChannel["type"]} */ ("slack"))
  const [open, setOpen] = useState(/** @type {ChannelDraft | null} */ (null))
  useEffect(() => {
    api.get(`/forms/${formId}/notifications`).then(
      /** @param {import("../shared/Types.js").NotificationSettings} r */ (r) => setChannels(r.channels),
      (e) => setError(messageOf(e))
    )
  }, [formId])
  /** @param {number} index @param {Partial<ChannelDraft>} patch */
  const set = (index, patch) => setChannels((channels ?? []).map((c, i) => (i === index ? { ...c, ...patch } : c)))
  const save = () =>
    api.put(`/forms/${formId}/notifications`, { channels }).then(
      /** @param {import("../shared/Types.js").NotificationSettings} r */
      (r) => {
        setChannels(r.channels)
        setNotice(t("notifications.saved"))
        setError(null)
      },
      (e) => setError(messageOf(e))
    )
  return html`<section aria-labelledby="notifications-title">
    <h2 id="notifications-title">${t("notifications.title")}</h2>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${
      channels === null
        ? html`<p class="loading">${t("notifications.loading")}</p>`
        : html`<ul class="stack">
      ${channels.map(
        (channel, index) => html`<li class="card stack" key=${channel.id ?? `new-${index}`}>
        <strong>${channelTypes().find(([kind]) => kind === channel.type)?.[1] ?? channel.type}</strong>
        ${
          channel.type === "email"
            ? html`<label for=${`ch-${index}-to`}>${t("notifications.to")}</label><input id=${`ch-${index}-to`} type="text" disabled=${!canWrite} value=${(channel.to ?? []).join(", ")} onInput=${(
                e
              ) =>
                set(index, {
                  to: e.target.value
                    .split(",")
                    .map((s) => s.trim())
                    .filter((s) => s !== "")
                })} />`
            : html`<label for=${`ch-${index}-url`}>${t("notifications.url")}</label><input id=${`ch-${index}-url`} type="url" disabled=${!canWrite} value=${channel.url ?? ""} onInput=${(e) => set(index, { url: e.target.value })} />`
        }
        <fieldset><legend>${t("notifications.events")}</legend>${eventNames.map(
          (
            name
          ) => html`<label><input type="checkbox" disabled=${!canWrite} checked=${(channel.events ?? ["response.created"]).includes(name)}
          onChange=${(e) => set(index, { events: e.target.checked ? [...new Set([...(channel.events ?? []), name])] : (channel.events ?? []).filter((x) => x !== name) })} /> ${name}</label> `
        )}</fieldset>
        <label><input type="checkbox" disabled=${!canWrite} checked=${channel.enabled !== false} onChange=${(e) => set(index, { enabled: e.target.checked })} /> ${t("notifications.enabled")}</label>
        <label><input type="checkbox" disabled=${!canWrite} checked=${channel.includeSensitive === true} onChange=${(e) => set(index, { includeSensitive: e.target.checked })} /> ${t("notifications.includeSensitive")}</label>
        <div class="row">
          ${channel.id ? html`<button onClick=${() => setOpen(channel)}>${t("notifications.deliveryLog")}</button>` : null}
          ${canWrite ? html`<button class="danger" onClick=${() => setChannels((channels ?? []).filter((_, i) => i !== index))}>${t("notifications.remove")}</button>` : null}
        </div>
      </li>`
      )}
    </ul>
    ${
      open
        ? html`<${DeliveryLog} title=${open.url ?? (open.to ?? []).join(", ")} logPath=${`/forms/${formId}/notifications/${open.id}/deliveries`}
      retryPath=${(/** @type {{ id: number }} */ d) => `/forms/${formId}/notifications/${open.id}/deliveries/${d.id}/retry`} onClose=${() => setOpen(null)} />`
        : null
    }
    ${
      canWrite
        ? html`<div class="row">
      <label for="new-channel">${t("notifications.addChannel")}</label>
      <select id="new-channel" value=${type} onChange=${(e) => setType(e.target.value)}>${channelTypes().map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select>
      <button onClick=${() => setChannels([...(channels ?? []), type === "email" ? { type, enabled: true, events: ["response.created"], to: [] } : { type, enabled: true, events: ["response.created"], url: "" }])}>${t("notifications.add")}</button>
      <button class="primary" onClick=${save}>${t("notifications.save")}</button>
    </div>`
        : null
    }`
    }
  </section>`
}
