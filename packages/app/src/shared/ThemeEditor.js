// @ts-check
// The theme of public form pages, edited in the builder (a form's) and in the settings (the workspace's default):
// light or dark, own colours (checked for contrast by the server when saved), font, corner radius, a logo from the
// image library, button words.
import { html } from "htm/preact"
import { ImagePicker } from "./ImagePicker.js"
import { t } from "./Words.js"

/** @typedef {import("./Types.js").FormWithFields} FormWithFields */

/** @param {string} text */
const numberOrUndefined = (text) => (text === "" ? undefined : Number(text))

/** @typedef {NonNullable<FormWithFields["settings"]["theme"]>} Theme */

/** The colours a theme starts from when "Own colours" is ticked: the page's light palette. */
const startingColours = { background: "#ffffff", text: "#1a1a1a", accent: "#0b57d0", buttonText: "#ffffff" }

/** @type {ReadonlyArray<readonly ["background" | "text" | "accent" | "buttonText", import("./Types.js").AppKey]>} */
const colourKeys = [
  ["background", "theme.background"],
  ["text", "theme.text"],
  ["accent", "theme.accent"],
  ["buttonText", "theme.buttonText"]
]

/**
 * The form's theme: light or dark, own colours (checked for contrast when saved), font, corner radius, the words of
 * the page's buttons.
 * @param {{ theme: Theme | undefined, onChange: (theme: Theme | undefined) => void, disabled: boolean, legend?: string }} props
 */
export const ThemeEditor = ({ theme, onChange, disabled, legend = t("theme.legend") }) => {
  const current = theme ?? {}
  /** @param {Record<string, unknown>} next */
  const set = (next) => {
    const kept = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined))
    onChange(Object.keys(kept).length === 0 ? undefined : /** @type {Theme} */ (kept))
  }
  const own = colourKeys.some(([k]) => current[k] !== undefined)
  return html`<fieldset class="stack">
    <legend>${legend}</legend>
    <div class="row">
      <div class="stack"><label for="theme-mode">${t("theme.mode")}</label>
        <select id="theme-mode" disabled=${disabled} value=${current.mode ?? "auto"}
          onChange=${(e) => set({ ...current, mode: e.target.value === "auto" ? undefined : e.target.value })}>
          <option value="auto">${t("theme.modeAuto")}</option>
          <option value="light">${t("theme.modeLight")}</option>
          <option value="dark">${t("theme.modeDark")}</option>
        </select></div>
      <div class="stack"><label for="theme-font">${t("theme.font")}</label>
        <select id="theme-font" disabled=${disabled} value=${current.font ?? "system"}
          onChange=${(e) => set({ ...current, font: e.target.value === "system" ? undefined : e.target.value })}>
          <option value="system">${t("theme.fontSystem")}</option>
          <option value="serif">${t("theme.fontSerif")}</option>
          <option value="rounded">${t("theme.fontRounded")}</option>
          <option value="monospace">${t("theme.fontMonospace")}</option>
        </select></div>
      <div class="stack"><label for="theme-radius">${t("theme.radius")}</label>
        <input id="theme-radius" type="number" min="0" max="24" step="1" disabled=${disabled} value=${current.radius ?? ""}
          onInput=${(e) => set({ ...current, radius: numberOrUndefined(e.target.value) })} /></div>
    </div>
    <label><input type="checkbox" id="theme-own" disabled=${disabled} checked=${own}
      onChange=${(e) =>
        set(
          e.target.checked
            ? { ...current, ...startingColours }
            : { ...current, background: undefined, text: undefined, accent: undefined, buttonText: undefined }
        )} /> ${t("theme.ownColours")}</label>
    ${
      own
        ? html`<div class="row">${colourKeys.map(
            ([k, label]) => html`<div class="stack"><label for=${`theme-${k}`}>${t(label)}</label>
              <input id=${`theme-${k}`} type="color" disabled=${disabled} value=${current[k] ?? startingColours[k]}
                onInput=${(e) => set({ ...current, [k]: e.target.value })} /></div>`
          )}</div>`
        : null
    }
    <${ImagePicker} id="theme-logo" label=${t("theme.logo")} value=${current.logo} disabled=${disabled}
      onChange=${(/** @type {string | undefined} */ logo) =>
        set({ ...current, logo, logoAlt: logo === undefined ? undefined : current.logoAlt })} />
    ${
      current.logo === undefined
        ? null
        : html`<div class="stack"><label for="theme-logo-alt">${t("theme.logoAlt")}</label>
      <input id="theme-logo-alt" type="text" maxlength="200" disabled=${disabled} value=${current.logoAlt ?? ""}
        onInput=${(e) => set({ ...current, logoAlt: e.target.value.trim() === "" ? undefined : e.target.value })} /></div>`
    }
    <div class="row">${buttonKeys.map(
      ([k, label]) => html`<div class="stack"><label for=${`theme-button-${k}`}>${t(label)}</label>
        <input id=${`theme-button-${k}`} type="text" maxlength="40" disabled=${disabled} placeholder=${buttonDefaults[k]}
          value=${current.buttons?.[k] ?? ""} onInput=${(e) => {
            const buttons = Object.fromEntries(
              Object.entries({ ...current.buttons, [k]: e.target.value }).filter(
                ([, v]) => typeof v === "string" && v.trim() !== ""
              )
            )
            set({ ...current, buttons: Object.keys(buttons).length === 0 ? undefined : buttons })
          }} /></div>`
    )}</div>
  </fieldset>`
}

/** The buttons whose words a theme may change (with their labels' messages), and the page's own words. */
const buttonKeys = /** @type {const} */ ([
  ["start", "theme.startButton"],
  ["next", "theme.nextButton"],
  ["submit", "theme.submitButton"],
  ["back", "theme.backButton"]
])
// The public page's English defaults, shown as placeholders (a page in another language says its own words).
const buttonDefaults = { start: "Start", next: "OK", submit: "Submit", back: "Back" }
