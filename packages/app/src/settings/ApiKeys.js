// @ts-check
// The workspace's API keys: made by owners and admins (the key shown once), listed, revoked.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { TableScroll } from "../shared/TableScroll.js"
import { api, messageOf } from "../shared/Api.js"
import { formatDateTime, t } from "../shared/Words.js"
import { useLoad } from "../shared/Load.js"
import { Status } from "../shared/Status.js"
import { Secret } from "./Secret.js"

/** @typedef {import("../shared/Types.js").ApiKey} ApiKey */

/** @param {{ canAdmin: boolean }} props */
export const ApiKeys = ({ canAdmin }) => {
  const [list, reload, loadError] = useLoad(() =>
    canAdmin
      ? api.get("/api-keys").then(/** @param {{ apiKeys: ReadonlyArray<ApiKey> }} r */ (r) => r.apiKeys)
      : Promise.resolve(/** @type {ReadonlyArray<ApiKey>} */ ([]))
  )
  const [name, setName] = useState("")
  const [created, setCreated] = useState(/** @type {string | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  if (!canAdmin)
    return html`<section aria-labelledby="keys-title"><h2 id="keys-title">${t("settings.apiKeysTitle")}</h2><p>${t("settings.apiKeysAdminsOnly")}</p></section>`
  /** @param {SubmitEvent} event */
  const create = async (event) => {
    event.preventDefault()
    setError(null)
    try {
      /** @type {{ key: string }} */
      const issued = await api.post("/api-keys", { name: name.trim() === "" ? null : name.trim() })
      setCreated(issued.key)
      setName("")
      reload()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  /** @param {ApiKey} key */
  const revoke = (key) => {
    if (!confirm(t("settings.revokeKeyConfirm", { prefix: key.prefix }))) return
    api.del(`/api-keys/${key.id}`).then(
      () => {
        setNotice(t("settings.keyRevoked", { prefix: key.prefix }))
        reload()
      },
      (e) => setError(messageOf(e))
    )
  }
  return html`<section aria-labelledby="keys-title">
    <h2 id="keys-title">${t("settings.apiKeysTitle")}</h2>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${created ? html`<${Secret} label=${t("settings.newApiKey")} value=${created} onDone=${() => setCreated(null)} />` : null}
    <form class="row" onSubmit=${create}>
      <label for="key-name">${t("settings.keyName")}</label>
      <input id="key-name" type="text" maxlength="100" value=${name} onInput=${(e) => setName(e.target.value)} placeholder=${t("settings.keyNamePlaceholder")} />
      <button type="submit" class="primary">${t("settings.createKey")}</button>
    </form>
    ${
      list === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : html`<${TableScroll} label=${t("settings.apiKeysTable")}><table>
      <thead><tr><th scope="col">${t("settings.colName")}</th><th scope="col">${t("settings.colPrefix")}</th><th scope="col">${t("settings.colCreated")}</th><th scope="col">${t("settings.colLastUsed")}</th><th scope="col">${t("settings.colStatus")}</th><th scope="col">${t("settings.colActions")}</th></tr></thead>
      <tbody>${list.map(
        (k) => html`<tr key=${k.id}>
        <td>${k.name ?? "—"}</td><td><code>${k.prefix}…</code></td><td>${formatDateTime(k.createdAt)}</td><td>${k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t("settings.never")}</td>
        <td>${k.revokedAt ? t("settings.keyRevokedOn", { date: formatDateTime(k.revokedAt) }) : t("settings.keyActive")}</td>
        <td>${k.revokedAt ? null : html`<button class="danger" aria-label=${t("settings.revokeKey", { name: k.name ?? k.prefix })} onClick=${() => revoke(k)}>${t("settings.revoke")}</button>`}</td>
      </tr>`
      )}</tbody></table><//>`
    }
  </section>`
}
