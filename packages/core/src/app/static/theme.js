// @ts-check
// The theme of public form pages, edited in the builder (a form's) and in the settings (the workspace's default):
// light or dark, own colours (checked for contrast by the server when saved), font, corner radius, a logo from the
// image library, button words.
import { html } from "htm/preact"
import { ImagePicker } from "./images.js"

/** @typedef {import("./types.js").FormWithFields} FormWithFields */

/** @param {string} text */
const numberOrUndefined = (text) => (text === "" ? undefined : Number(text))

/** @typedef {NonNullable<FormWithFields["settings"]["theme"]>} Theme */

/** The colours a theme starts from when "Own colours" is ticked: the page's light palette. */
const startingColours = { background: "#ffffff", text: "#1a1a1a", accent: "#0b57d0", buttonText: "#ffffff" }

/** @type {ReadonlyArray<readonly ["background" | "text" | "accent" | "buttonText", string]>} */
const colourKeys = [
  ["background", "Background"],
  ["text", "Text"],
  ["accent", "Buttons and focus"],
  ["buttonText", "Button text"]
]

/**
 * The form's theme: light or dark, own colours (checked for contrast when saved), font, corner radius, the words of
 * the page's buttons.
 * @param {{ theme: Theme | undefined, onChange: (theme: Theme | undefined) => void, disabled: boolean, legend?: string }} props
 */
export const ThemeEditor = ({ theme, onChange, disabled, legend = "Theme of the public page" }) => {
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
      <div class="stack"><label for="theme-mode">Light or dark</label>
        <select id="theme-mode" disabled=${disabled} value=${current.mode ?? "auto"}
          onChange=${(e) => set({ ...current, mode: e.target.value === "auto" ? undefined : e.target.value })}>
          <option value="auto">As the respondent's device</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select></div>
      <div class="stack"><label for="theme-font">Font</label>
        <select id="theme-font" disabled=${disabled} value=${current.font ?? "system"}
          onChange=${(e) => set({ ...current, font: e.target.value === "system" ? undefined : e.target.value })}>
          <option value="system">System</option>
          <option value="serif">Serif</option>
          <option value="rounded">Rounded</option>
          <option value="monospace">Monospace</option>
        </select></div>
      <div class="stack"><label for="theme-radius">Corner radius (px)</label>
        <input id="theme-radius" type="number" min="0" max="24" step="1" disabled=${disabled} value=${current.radius ?? ""}
          onInput=${(e) => set({ ...current, radius: numberOrUndefined(e.target.value) })} /></div>
    </div>
    <label><input type="checkbox" id="theme-own" disabled=${disabled} checked=${own}
      onChange=${(e) =>
        set(
          e.target.checked
            ? { ...current, ...startingColours }
            : { ...current, background: undefined, text: undefined, accent: undefined, buttonText: undefined }
        )} /> Own colours (checked for readable contrast when saved)</label>
    ${
      own
        ? html`<div class="row">${colourKeys.map(
            ([k, label]) => html`<div class="stack"><label for=${`theme-${k}`}>${label}</label>
              <input id=${`theme-${k}`} type="color" disabled=${disabled} value=${current[k] ?? startingColours[k]}
                onInput=${(e) => set({ ...current, [k]: e.target.value })} /></div>`
          )}</div>`
        : null
    }
    <${ImagePicker} id="theme-logo" label="Logo" value=${current.logo} disabled=${disabled}
      onChange=${(/** @type {string | undefined} */ logo) =>
        set({ ...current, logo, logoAlt: logo === undefined ? undefined : current.logoAlt })} />
    ${
      current.logo === undefined
        ? null
        : html`<div class="stack"><label for="theme-logo-alt">What the logo says, for screen readers (empty: decoration)</label>
      <input id="theme-logo-alt" type="text" maxlength="200" disabled=${disabled} value=${current.logoAlt ?? ""}
        onInput=${(e) => set({ ...current, logoAlt: e.target.value.trim() === "" ? undefined : e.target.value })} /></div>`
    }
    <div class="row">${buttonKeys.map(
      ([k, label]) => html`<div class="stack"><label for=${`theme-button-${k}`}>${label}</label>
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

/** The buttons whose words a theme may change, with the page's own words. */
const buttonKeys = /** @type {const} */ ([
  ["start", "Start button"],
  ["next", "Next button"],
  ["submit", "Submit button"],
  ["back", "Back button"]
])
const buttonDefaults = { start: "Start", next: "OK", submit: "Submit", back: "Back" }
