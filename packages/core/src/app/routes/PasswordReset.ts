/**
 * Password reset: asking always answers the same (202), whether the address
 * has an account or not; the work (a token, the e-mail) runs detached so that
 * the time taken tells nothing either. The link sets a new password.
 *
 * Routes:
 * - `GET /app/forgot-password`, `POST /app/password-reset` (always 202, whether
 *   or not the address has an account), `GET|POST /app/reset/:token`.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { Mailer } from "../../mail/index.ts"
import { EmailAddress, Passwords } from "../../identity/index.ts"
import { Links } from "../../kernel/index.ts"
import { clientAddress, ErrorTable, html } from "../../web/index.ts"
import type { AppContext } from "../AppContext.ts"
import { type Here, nonce, page } from "../AppDocument.ts"
import { formOf, sameOrigin, wantsJson } from "../AppRequests.ts"
import { english, json } from "../AppResponses.ts"
import { clearSession } from "../SessionCookie.ts"
import { signInPage } from "../SignInPage.ts"
import { tokenProblem } from "../TokenProblem.ts"

/** The page that asks for an address to send a reset link to. */
const forgotPage = (status: number, here: Here, notice?: string, error?: string) =>
  page(status, {
    title: here.say("auth.forgotTitle"),
    prefix: here.prefix,
    language: here.language,
    nonce: nonce(),
    body: html`<main class="auth" id="main">
<h1>${here.say("auth.forgotPassword")}</h1>
${notice === undefined ? null : html`<p class="notice" role="status">${notice}</p>`}
${error === undefined ? null : html`<p class="error" role="alert" id="reset-error">${error}</p>`}
<form method="post" action="${here.prefix}/app/password-reset" class="stack">
<label for="email">${here.say("auth.email")}</label>
<input id="email" name="email" type="email" autocomplete="username" required${error === undefined ? null : html` aria-describedby="reset-error"`}>
<button type="submit" class="primary">${here.say("auth.sendLink")}</button>
</form>
<p class="muted">${here.say("auth.forgotHelp")}</p>
<p><a href="${here.prefix}/app/sign-in">${here.say("auth.backToSignIn")}</a></p>
</main>`
  })

/** The page behind a reset link: the new password's form. */
const resetPage = (status: number, here: Here, token: string, error?: string) =>
  page(status, {
    title: here.say("auth.newPasswordTitle"),
    prefix: here.prefix,
    language: here.language,
    nonce: nonce(),
    body: html`<main class="auth" id="main">
<h1>${here.say("auth.newPasswordHeading")}</h1>
${error === undefined ? null : html`<p class="error" role="alert" id="reset-error">${error}</p>`}
<form method="post" action="${here.prefix}/app/reset/${token}" class="stack">
<label for="new-password">${here.say("auth.newPassword")}</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="10" maxlength="200" required${
      error === undefined ? null : html` aria-describedby="reset-error"`
    }>
<button type="submit" class="primary">${here.say("auth.savePassword")}</button>
</form>
<p class="muted">${here.say("auth.signedOutElsewhere")}</p>
</main>`
  })

/** A reset link that leads nowhere: never issued, or used or expired. */
const resetProblem = (
  request: HttpServerRequest.HttpServerRequest,
  here: Here,
  failure: { readonly _tag: "TokenUnknown" | "TokenGone" }
) =>
  tokenProblem(
    request,
    here,
    ErrorTable.statusOf(failure),
    failure._tag === "TokenUnknown" ? "auth.resetUnknown" : "auth.resetGone"
  )

/** Adds the password reset routes. */
export const add = (router: HttpRouter.HttpRouter, app: AppContext) =>
  Effect.gen(function* () {
    const { invitations, limiter, passwordSignIn, hops, context } = app

    yield* router.add(
      "GET",
      "/app/forgot-password",
      Effect.map(context, ({ here }) => forgotPage(200, here))
    )

    yield* router.add(
      "POST",
      "/app/password-reset",
      Effect.gen(function* () {
        const { request, here } = yield* context
        if (!passwordSignIn) return json(404, { error: "password sign-in is off: the host signs users in" })
        if (!sameOrigin(request))
          return json(403, { error: "a password reset must be asked for on this site's own page" })
        const decision = yield* limiter.take(`reset:${clientAddress(request, hops)}`)
        if (!decision.allowed) {
          const seconds = { seconds: decision.retryAfterSeconds }
          return wantsJson(request)
            ? json(
                429,
                { error: english("auth.tooManyResets", seconds) },
                { "retry-after": String(decision.retryAfterSeconds) }
              )
            : forgotPage(429, here, undefined, here.say("auth.tooManyResets", seconds))
        }
        const form = yield* formOf(request)
        const email = Schema.decodeUnknownExit(EmailAddress)(form["email"] ?? "")
        if (email._tag === "Failure") {
          return wantsJson(request)
            ? json(400, { error: "send email, an e-mail address" })
            : forgotPage(400, here, undefined, here.say("auth.enterEmail"))
        }
        const mailer = yield* Mailer
        const sentBase = yield* Links.SentLinkBase
        if (mailer.configured && sentBase !== "") {
          yield* Effect.forkDetach(
            Effect.gen(function* () {
              const reset = yield* invitations.requestReset(email.value)
              if (reset === undefined) return
              const link = `${sentBase.replace(/\/$/, "")}/app/reset/${reset.token}`
              // In the language of the browser that asked (the person asking is, hopefully, the account's).
              yield* mailer.send({
                to: [reset.email],
                subject: here.say("auth.resetMailSubject"),
                text: here.say("auth.resetMailText", { email: reset.email, link })
              })
            }).pipe(Effect.catchCause((cause) => Effect.logWarning("qforms: a password reset e-mail failed", cause)))
          )
        }
        return wantsJson(request)
          ? json(202, { status: "accepted", message: english("auth.resetSent") })
          : forgotPage(202, here, here.say("auth.resetSent"))
      })
    )

    yield* router.add(
      "GET",
      "/app/reset/:token",
      Effect.gen(function* () {
        const { request, here } = yield* context
        const token = (yield* HttpRouter.params)["token"] ?? ""
        const checked = yield* Effect.result(invitations.checkReset(token))
        if (checked._tag === "Failure") {
          if (checked.failure._tag === "SqlError") return yield* Effect.die(checked.failure)
          return resetProblem(request, here, checked.failure)
        }
        return resetPage(200, here, token)
      })
    )

    yield* router.add(
      "POST",
      "/app/reset/:token",
      Effect.gen(function* () {
        const { prefix, request, secure, here } = yield* context
        if (!passwordSignIn) return json(404, { error: "password sign-in is off: the host signs users in" })
        if (!sameOrigin(request)) return json(403, { error: "a new password must be set on this site's own page" })
        const limited = yield* app.takeToken(request)
        if (limited !== undefined) return limited
        const token = (yield* HttpRouter.params)["token"] ?? ""
        const form = yield* formOf(request)
        const password = Schema.decodeUnknownExit(Passwords.NewPassword)(form["password"] ?? "")
        if (password._tag === "Failure") {
          return wantsJson(request)
            ? json(400, { error: english("auth.passwordLength") })
            : resetPage(400, here, token, here.say("auth.passwordLength"))
        }
        const done = yield* Effect.result(invitations.reset(token, yield* Passwords.hash(password.value)))
        if (done._tag === "Failure") {
          if (done.failure._tag === "SqlError") return yield* Effect.die(done.failure)
          return resetProblem(request, here, done.failure)
        }
        return wantsJson(request)
          ? clearSession(json(200, { status: "changed", message: english("auth.passwordChanged") }), prefix, secure)
          : clearSession(
              signInPage(passwordSignIn, 200, here, { notice: here.say("auth.passwordChanged") }),
              prefix,
              secure
            )
      })
    )
  })
