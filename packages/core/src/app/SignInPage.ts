/**
 * The sign-in page (the e-mail and password form, or, when the host signs
 * users in, a line saying so), which several routes answer with: sign-in
 * itself, a spent link or workspace choice, a password just reset, the shell
 * before sign-in. And a locked account's message.
 */
import { html } from "../web/index.ts"
import { type Here, nonce, page } from "./AppDocument.ts"

/** What the sign-in page shows besides its form: an error or a notice, the address typed, where to go after. */
export interface SignInExtra {
  readonly error?: string | undefined
  readonly notice?: string | undefined
  readonly email?: string | undefined
  readonly next?: string | undefined
}

/** The sign-in page; with `passwordSignIn` false it only says the host signs users in. */
export const signInPage = (
  passwordSignIn: boolean,
  status: number,
  here: Here,
  extra: SignInExtra,
  headers?: Record<string, string>
) =>
  page(
    status,
    {
      title: here.say("auth.signInTitle"),
      prefix: here.prefix,
      language: here.language,
      nonce: nonce(),
      body: html`<main class="auth" id="main">
<h1>${here.say("auth.signInHeading")}</h1>
${
  passwordSignIn
    ? html`<form method="post" action="${here.prefix}/app/sign-in" class="stack">
${extra.error === undefined ? null : html`<p class="error" role="alert" id="sign-in-error">${extra.error}</p>`}
${extra.notice === undefined ? null : html`<p class="notice" role="status">${extra.notice}</p>`}
<label for="email">${here.say("auth.email")}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${extra.email ?? ""}"${
        extra.error === undefined ? null : html` aria-describedby="sign-in-error"`
      }>
<label for="password">${here.say("auth.password")}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
${extra.next === undefined ? null : html`<input type="hidden" name="next" value="${extra.next}">`}
<button type="submit" class="primary">${here.say("auth.signIn")}</button>
</form>
<p><a href="${here.prefix}/app/forgot-password">${here.say("auth.forgotPassword")}</a></p>`
    : html`<p>${here.say("auth.hostSignIn")}</p>`
}
</main>`
    },
    headers
  )

/** A locked account's message in the page's language (the lockout counts in minutes). */
export const lockedMessage = (here: Here, retryAfterSeconds: number) =>
  here.say("auth.accountLocked", { minutes: Math.ceil(retryAfterSeconds / 60) })
