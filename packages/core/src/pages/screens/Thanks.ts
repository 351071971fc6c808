/**
 * The screen once a response is sent: the form's ending chosen for it, or the
 * built-in thank-you.
 */
import type { FilledEnding, FormWithFields } from "../../forms/index.ts"
import type { Voice } from "../Voice.ts"
import { type Html, html, lines, attr } from "../../web/index.ts"

/**
 * The id of the response a thank-you screen follows (`data-response`), which the page's script passes to an
 * embedding host (`submitted`); none after a dropped bot's submission.
 */
const sentAs = (responseId: number | undefined) => attr("data-response", responseId !== undefined && String(responseId))

/**
 * The screen once a response is sent: the form's ending chosen for it
 * (`forms/Endings.ts`, recall filled in), or the built-in "Thank you!". An
 * ending with a redirect shows a link there too (`data-redirect`: the
 * script follows it; without the script the document's refresh does). With
 * `responseId`, the heading carries it for an embedding host (`sentAs`).
 */
export const thanks = (form: FormWithFields, voice: Voice, ending?: FilledEnding, responseId?: number): Html =>
  ending === undefined
    ? html`<p class="form-title">${form.title}</p>
<h1 id="title" tabindex="-1" data-focus${sentAs(responseId)}>${voice.say("page.thanksTitle")}</h1>
<p>${voice.say("page.thanksText")}</p>`
    : html`<p class="form-title">${form.title}</p>
<h1 id="title" tabindex="-1" data-focus${sentAs(responseId)}>${ending.title}</h1>
${ending.message === undefined ? null : html`<p class="description">${lines(ending.message)}</p>`}
${ending.button === undefined ? null : html`<p class="actions"><a class="button ok" href="${ending.button.url}">${ending.button.label}</a></p>`}
${ending.redirectUrl === undefined ? null : html`<p class="note" role="status">${voice.say("page.redirecting")} <a href="${ending.redirectUrl}" data-redirect>${voice.say("page.continue")}</a></p>`}`
