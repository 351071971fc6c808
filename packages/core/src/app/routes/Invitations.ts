/**
 * Invitations: the page shows what the invitee must do; the form accepts
 * (spending the token).
 *
 * Routes:
 * - `GET|POST /app/invite/:token`: an invitation: the invitee sets a name and
 *   password (or signs in to the account the address has) and becomes a member.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import { type Acceptance, Passwords, PersonName } from "../../identity/index.ts"
import { ErrorTable, html, sessionCookie } from "../../web/index.ts"
import type { AppContext } from "../AppContext.ts"
import { type Here, nonce, page } from "../AppDocument.ts"
import type * as AppLanguage from "../AppLanguage.ts"
import { formOf, sameOrigin, wantsJson } from "../AppRequests.ts"
import { english, json, redirect } from "../AppResponses.ts"
import { setSession } from "../SessionCookie.ts"
import { lockedMessage } from "../SignInPage.ts"
import { tokenProblem } from "../TokenProblem.ts"

const InviteeName = PersonName

/** What a dead invitation link says. */
const invitationProblem = (failure: { readonly _tag: "TokenUnknown" | "TokenGone" }): AppLanguage.AppKey =>
  failure._tag === "TokenUnknown" ? "auth.invitationUnknown" : "auth.invitationGone"

/** The invitation's page: what the invitee must do (accept, choose a password, or sign in first), and its form. */
const invitationPage = (
  status: number,
  here: Here,
  token: string,
  view: {
    readonly workspaceName: string
    readonly email: string
    readonly role: string
    readonly account: "new" | "password" | "signInFirst"
  },
  signedInAs: string | undefined,
  error?: string
) =>
  page(status, {
    title: here.say("auth.joinTitle", { workspace: view.workspaceName }),
    prefix: here.prefix,
    language: here.language,
    nonce: nonce(),
    body: html`<main class="auth" id="main">
<h1>${here.say("auth.join", { workspace: view.workspaceName })}</h1>
<p>${here.say("auth.invited", {
      workspace: view.workspaceName,
      role: here.say("shell.role", { role: view.role }),
      email: view.email
    })}</p>
${error === undefined ? null : html`<p class="error" role="alert" id="invite-error">${error}</p>`}
${
  signedInAs !== undefined && signedInAs.toLowerCase() === view.email.toLowerCase()
    ? html`<form method="post" action="${here.prefix}/app/invite/${token}" class="stack">
<input type="hidden" name="mode" value="session">
<button type="submit" class="primary">${here.say("auth.acceptInvitation")}</button>
</form>`
    : view.account === "new"
      ? html`<form method="post" action="${here.prefix}/app/invite/${token}" class="stack">
<label for="name">${here.say("auth.yourName")}</label>
<input id="name" name="name" autocomplete="name" maxlength="200" required>
<label for="new-password">${here.say("auth.choosePassword")}</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="10" maxlength="200" required${
          error === undefined ? null : html` aria-describedby="invite-error"`
        }>
<button type="submit" class="primary">${here.say("auth.joinButton")}</button>
</form>`
      : view.account === "password"
        ? html`<form method="post" action="${here.prefix}/app/invite/${token}" class="stack">
<p>${here.say("auth.addressHasAccount")}</p>
<label for="password">${here.say("auth.passwordOf", { email: view.email })}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="200" required${
            error === undefined ? null : html` aria-describedby="invite-error"`
          }>
<button type="submit" class="primary">${here.say("auth.signInAndJoin")}</button>
</form>
<p><a href="${here.prefix}/app/forgot-password">${here.say("auth.forgotPassword")}</a></p>`
        : html`<p>${here.say("auth.accountElsewhere")}</p>
<p><a href="${here.prefix}/app/forgot-password">${here.say("auth.noPasswordYet")}</a></p>`
}
</main>`
  })

/** Adds the invitation routes. */
export const add = (router: HttpRouter.HttpRouter, app: AppContext) =>
  Effect.gen(function* () {
    const { sessions, invitations, passwordSignIn, context, identify } = app

    yield* router.add(
      "GET",
      "/app/invite/:token",
      Effect.gen(function* () {
        const { request, here } = yield* context
        const params = yield* HttpRouter.params
        const token = params["token"] ?? ""
        const view = yield* Effect.result(invitations.view(token))
        if (view._tag === "Failure") {
          if (view.failure._tag === "SqlError") return yield* Effect.die(view.failure)
          return tokenProblem(request, here, ErrorTable.statusOf(view.failure), invitationProblem(view.failure))
        }
        const identity = yield* identify
        return invitationPage(
          200,
          here,
          token,
          view.success,
          identity?.via === "session" ? identity.session.email : undefined
        )
      })
    )

    yield* router.add(
      "POST",
      "/app/invite/:token",
      Effect.gen(function* () {
        const { prefix, request, secure, here } = yield* context
        if (!passwordSignIn) return json(404, { error: "password sign-in is off: the host signs users in" })
        if (!sameOrigin(request)) return json(403, { error: "an invitation must be accepted on this site's own page" })
        const limited = yield* app.takeToken(request)
        if (limited !== undefined) return limited
        const params = yield* HttpRouter.params
        const token = params["token"] ?? ""
        const view = yield* Effect.result(invitations.view(token))
        if (view._tag === "Failure") {
          if (view.failure._tag === "SqlError") return yield* Effect.die(view.failure)
          return tokenProblem(request, here, ErrorTable.statusOf(view.failure), invitationProblem(view.failure))
        }
        const form = yield* formOf(request)
        const identity = yield* identify
        const signedInAs = identity?.via === "session" ? identity.session : undefined
        // A script gets the English error (like the API's); the page says it in the browser's language.
        const again = (status: number, error: AppLanguage.AppKey | { readonly json: string; readonly page: string }) =>
          wantsJson(request)
            ? json(status, { error: typeof error === "string" ? english(error) : error.json })
            : invitationPage(
                status,
                here,
                token,
                view.success,
                signedInAs?.email,
                typeof error === "string" ? here.say(error) : error.page
              )
        let how: Acceptance
        if (form["mode"] === "session" && signedInAs !== undefined) {
          how = { _tag: "Session", accountId: signedInAs.accountId }
        } else if (view.success.account === "new") {
          const name = Schema.decodeUnknownExit(InviteeName)(form["name"] ?? "")
          if (name._tag === "Failure") return again(400, "auth.enterName")
          const password = Schema.decodeUnknownExit(Passwords.NewPassword)(form["password"] ?? "")
          if (password._tag === "Failure") return again(400, "auth.passwordLength")
          how = { _tag: "NewPassword", name: name.value, passwordHash: yield* Passwords.hash(password.value) }
        } else if (view.success.account === "password") {
          const password = form["password"] ?? ""
          if (password === "" || password.length > 200) return again(400, "auth.enterPasswordOfAddress")
          how = { _tag: "Password", password }
        } else {
          return again(409, "auth.signInFirst")
        }
        const previous = request.cookies[sessionCookie]
        const accepted = yield* Effect.result(invitations.accept(token, how))
        if (accepted._tag === "Failure") {
          const error = accepted.failure
          switch (error._tag) {
            case "SqlError":
              return yield* Effect.die(error)
            case "TokenUnknown":
            case "TokenGone":
              return tokenProblem(request, here, ErrorTable.statusOf(error), invitationProblem(error))
            case "AccountLocked":
              return again(ErrorTable.statusOf(error), {
                json: error.message,
                page: lockedMessage(here, error.retryAfterSeconds)
              })
            case "SignInRefused":
              return again(ErrorTable.statusOf(error), "auth.wrongPassword")
            case "Conflict":
              return again(ErrorTable.statusOf(error), { json: error.message, page: error.message })
          }
        }
        // Session fixation: the browser's previous session ends; the fresh one is in the invited workspace.
        if (previous !== undefined && previous !== "") yield* sessions.signOut(previous)
        return setSession(redirect(`${prefix}/app`), prefix, secure, accepted.success.id)
      })
    )
  })
