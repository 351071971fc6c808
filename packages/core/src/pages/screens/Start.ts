/**
 * The screens before the first question: the welcome screen (title,
 * description, how many questions, Start) and, for a form with an access
 * code, the access code screen in front of it.
 */
import { type FormWithFields, takesAnswer } from "../../forms/index.ts"
import type { Voice } from "../Voice.ts"
import { type Html, html, lines, attr } from "../../web/index.ts"
import { languageSwitcher, stepInputs, wordsOf } from "./StepForm.ts"

/** The welcome screen: title, description, how many questions, Start. */
export const welcome = (form: FormWithFields, token: string, voice: Voice, notice?: string, note?: string): Html => {
  const questions = form.fields.filter(takesAnswer).length
  return html`<h1 id="title" tabindex="-1" data-focus>${form.title}</h1>
${form.description ? html`<p class="description">${lines(form.description)}</p>` : null}
${notice ? html`<p class="error" role="alert">${notice}</p>` : null}
${note ? html`<p class="note" role="status">${note}</p>` : null}
<form method="post">
${stepInputs(token, "welcome", voice)}
<p class="count">${voice.say("page.questionCount", { count: questions })}</p>
<div class="actions"><button type="submit" name="move" value="start" class="ok" autofocus>${wordsOf(form, voice).start}</button>
<span class="hint">${voice.say("page.pressEnter")}</span></div>
${languageSwitcher(voice)}
</form>`
}

/**
 * The access code screen of a form with the setting `accessCode`, before its
 * welcome screen: the code (a password input), the message of a wrong one,
 * Continue.
 */
export const accessCode = (form: FormWithFields, token: string, voice: Voice, error?: string): Html =>
  html`<h1 class="form-title">${form.title}</h1>
<form method="post" novalidate>
${stepInputs(token, "access", voice)}
<label class="question" for="a">${voice.say("page.accessCode")}</label>
<p class="help" id="a-help">${voice.say("page.accessCodeHelp")}</p>
<input id="a" name="a" type="password" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="200" required aria-describedby="a-help error"${attr("aria-invalid", error !== undefined && "true")}>
<p class="error" id="error" role="alert" aria-live="assertive">${error ?? ""}</p>
<div class="actions"><button type="submit" name="move" value="next" class="ok">${form.settings.theme?.buttons?.next ?? voice.say("page.continue")}</button>
<span class="hint">${voice.say("page.pressEnter")}</span></div>
${languageSwitcher(voice)}
</form>`
