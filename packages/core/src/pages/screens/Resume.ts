/**
 * Going on on another device: the offer under a question to e-mail a resume
 * link, and what a request for one answers.
 */
import type { FormWithFields } from "../../forms/index.ts"
import type { Voice } from "../Voice.ts"
import { type Html, html } from "../../web/index.ts"

/**
 * The offer under a question to go on on another device: a plain form that posts the answer token and an
 * e-mail address to `{publicId}/resume-link`, relative to the document (so it works under any prefix): `base`
 * is `""` for a document at `/f/{publicId}`, `"../"` for one at `/f/{publicId}/resume-link`. Folded
 * (`<details>`) unless it shows a problem.
 */
export const resumeOffer = (
  publicId: string,
  token: string,
  voice: Voice,
  base: "" | "../",
  problem?: { readonly error: string; readonly email: string }
): Html => html`<details class="resume"${problem === undefined ? null : html` open`}>
<summary>${voice.say("page.resumeLinkLegend")}</summary>
<form method="post" action="${base}${encodeURIComponent(publicId)}/resume-link" data-plain novalidate>
<input type="hidden" name="token" value="${token}">
<p class="help" id="resume-help">${voice.say("page.resumeLinkHelp")}</p>
<p><label for="resume-email">${voice.say("page.resumeLinkEmail")}</label>
<input id="resume-email" type="email" name="email" autocomplete="email" maxlength="254" value="${problem?.email ?? ""}" aria-describedby="resume-help${problem === undefined ? "" : " resume-error"}"${problem === undefined ? null : html` aria-invalid="true"`}></p>
${problem === undefined ? null : html`<p class="error" id="resume-error" role="alert">${problem.error}</p>`}
<div class="actions"><button type="submit" class="back">${voice.say("page.resumeLinkSend")}</button></div>
</form>
</details>`

/**
 * What a request for a resume link answers (whatever was sent): "sent", and the way back to the question
 * (`base` as for {@link resumeOffer}).
 */
export const resumeSent = (form: FormWithFields, voice: Voice, base: "" | "../"): Html =>
  html`<p class="form-title">${form.title}</p>
<h1 id="title" tabindex="-1" data-focus>${voice.say("page.resumeLinkSentTitle")}</h1>
<p role="status">${voice.say("page.resumeLinkSentText")}</p>
<p class="actions"><a class="button ok" href="${base}${encodeURIComponent(form.publicId)}?continue=1">${voice.say("page.continueAnswering")}</a></p>`
