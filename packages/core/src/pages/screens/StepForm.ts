/**
 * What the form of every step carries, whatever its screen (the welcome and
 * access code screens, a question, a page of several): the hidden inputs
 * (answer token, place, honeypot), the buttons' words, and the language
 * switcher of a form offered in several languages.
 */
import { buttonWords, type ButtonWords, type FormWithFields } from "../../forms/index.ts"
import { nativeName } from "../../languages/index.ts"
import type { Voice } from "../Voice.ts"
import { type Html, html, attr } from "../../web/index.ts"

/** The name of the honeypot input: people never see it, naive bots fill it. */
export const honeypotName = "website"

/** The page's button words: the theme's, else the page's own in its language. */
export const wordsOf = (form: FormWithFields, voice: Voice): ButtonWords =>
  buttonWords(form.settings.theme, {
    start: voice.say("page.start"),
    next: voice.say("page.next"),
    submit: voice.say("page.submit"),
    back: voice.say("page.back")
  })

/**
 * The page's language switcher, when the form is offered in several: a select
 * of the languages (each named in itself) and a button that posts the step
 * with `move=lang`, showing the same screen in the chosen language (no
 * JavaScript needed; nothing typed on the screen is lost).
 */
export const languageSwitcher = (voice: Voice): Html | null =>
  voice.offered.length < 2
    ? null
    : html`<div class="languages"><label for="lang">${voice.say("page.language")}</label>
<select id="lang" name="lang" data-lang>
${voice.offered.map(
  (language) =>
    html`<option value="${language}" lang="${language}"${attr("selected", language === voice.language && "selected")}>${nativeName(language)}</option>\n`
)}</select>
<button type="submit" name="move" value="lang" class="lang" formnovalidate>${voice.say("page.changeLanguage")}</button></div>`

/** The hidden inputs every step form carries. */
export const stepInputs = (token: string, at: string, voice: Voice) =>
  html`<input type="hidden" name="token" value="${token}">
<input type="hidden" name="at" value="${at}">
<div class="hp" aria-hidden="true"><label>${voice.say("page.honeypot")} <input type="text" name="${honeypotName}" tabindex="-1" autocomplete="off"></label></div>`
