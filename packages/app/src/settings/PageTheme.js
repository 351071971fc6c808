// @ts-check
// The workspace's default theme of its forms' public pages: worn by every form without a theme of its own.
import { html } from "htm/preact"
import { useEffect, useRef, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { ThemeEditor } from "../shared/ThemeEditor.js"
import { t } from "../shared/Words.js"
import { useLoad } from "../shared/Load.js"
import { Status } from "../shared/Status.js"

/**
 * The workspace's default theme of its forms' public pages (`/api/workspace/settings`): worn by every form without a
 * theme of its own. Owners and admins change it.
 * @param {{ canAdmin: boolean }} props
 */
export const PageTheme = ({ canAdmin }) => {
  const [settings, reload, loadError] = useLoad(
    () => /** @type {Promise<import("../shared/Types.js").WorkspaceSettings>} */ (api.get("/workspace/settings"))
  )
  const [theme, setTheme] = useState(/** @type {import("../shared/Types.js").WorkspaceSettings["theme"]} */ (undefined))
  const [seeded, setSeeded] = useState(false)
  const [dirty, setDirty] = useState(false)
  // The effect below runs after the render that loaded the settings: a ref, not that render's `dirty`, tells it
  // whether the person has changed something since (their change must not be overwritten by the saved theme).
  const changed = useRef(false)
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    if (settings === null) return
    if (!changed.current) setTheme(settings.theme)
    setSeeded(true)
  }, [settings])
  const save = async () => {
    setError(null)
    setNotice(null)
    try {
      await api.put("/workspace/settings", { ...settings, theme })
      changed.current = false
      setDirty(false)
      setNotice(t("settings.themeSaved"))
      await reload()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<section class="stack" aria-labelledby="page-theme-title">
    <h2 id="page-theme-title">${t("settings.themeTitle")}</h2>
    <p class="muted">${t("settings.themeHelp")}</p>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      settings === null || !seeded
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : html`<${ThemeEditor} theme=${theme} disabled=${!canAdmin} legend=${t("settings.defaultTheme")} onChange=${(
            next
          ) => {
            changed.current = true
            setTheme(next)
            setDirty(true)
          }} />
    ${canAdmin ? html`<div><button class="primary" disabled=${!dirty} onClick=${save}>${t("settings.saveTheme")}</button></div>` : html`<p class="muted">${t("settings.themeAdminsOnly")}</p>`}`
    }
  </section>`
}
