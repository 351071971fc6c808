/**
 * Sign-in with e-mail and password.
 *
 * Routes:
 * - `GET|POST /app/sign-in`: the sign-in page and form (rate limited per
 *   address; five wrong passwords lock an account for 15 minutes).
 * - `POST /app/sign-in/workspace`: the workspace chosen at sign-in (an account
 *   that is a member of several chooses after its password is verified).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as HttpRouter from "effect/http/HttpRouter"
import * as UrlParams from "effect/http/UrlParams"
import type { WorkspaceChoice } from "../../identity/index.ts"
import { clientAddress, ErrorTable, html, sessionCookie } from "../../web/index.ts"
import type { AppContext } from "../AppContext.ts"
import { type Here, nonce, page } from "../AppDocument.ts"
import { safeNext } from "../AppPaths.ts"
import { first, sameOrigin } from "../AppRequests.ts"
import { json, redirect } from "../AppResponses.ts"
import { setSession } from "../SessionCookie.ts"
import { lockedMessage, signInPage } from "../SignInPage.ts"

const SignInForm = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254)),
  password: Schema.String.check(Schema.isMaxLength(200)),
  next: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
})

const WorkspaceChoiceForm = Schema.Struct({
  token: Schema.String.check(Schema.isMaxLength(100)),
  next: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
})

/** After the password: the workspaces of an account that is a member of several, one button each. */
const chooseWorkspacePage = (here: Here, choices: ReadonlyArray<WorkspaceChoice>, next: string | undefined) =>
  page(200, {
    title: here.say("auth.chooseWorkspaceTitle"),
    prefix: here.prefix,
    language: here.language,
    nonce: nonce(),
    body: html`<main class="auth" id="main">
<h1>${here.say("auth.chooseWorkspace")}</h1>
<p>${here.say("auth.chooseWorkspaceIntro")}</p>
<ul class="stack workspace-choices">
${choices.map(
  (choice) =>
    html`<li><form method="post" action="${here.prefix}/app/sign-in/workspace">
<input type="hidden" name="token" value="${choice.token}">
${next === undefined ? null : html`<input type="hidden" name="next" value="${next}">`}
<button type="submit" class="primary">${choice.workspaceName}</button> <span class="muted">(${here.say("shell.role", { role: choice.role })})</span>
</form></li>`
)}
</ul>
</main>`
  })

/** Adds the sign-in routes. */
export const add = (router: HttpRouter.HttpRouter, app: AppContext) =>
  Effect.gen(function* () {
    const { sessions, limiter, passwordSignIn, hops, context, identify } = app

    // The sign-in page.
    yield* router.add(
      "GET",
      "/app/sign-in",
      Effect.gen(function* () {
        const { prefix, request, here } = yield* context
        const identity = yield* identify
        if (identity !== undefined) return redirect(`${prefix}/app`)
        const next = new URL(request.url, "http://x").searchParams.get("next") ?? undefined
        return signInPage(passwordSignIn, 200, here, { next })
      })
    )

    yield* router.add(
      "POST",
      "/app/sign-in",
      Effect.gen(function* () {
        const { prefix, request, secure, here } = yield* context
        if (!passwordSignIn) return signInPage(passwordSignIn, 404, here, {})
        if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
        const decision = yield* limiter.take(`sign-in:${clientAddress(request, hops)}`)
        if (!decision.allowed) {
          return signInPage(
            passwordSignIn,
            429,
            here,
            { error: here.say("auth.tooManySignIns", { seconds: decision.retryAfterSeconds }) },
            {
              "retry-after": String(decision.retryAfterSeconds)
            }
          )
        }
        const params = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
        const form = Schema.decodeUnknownExit(SignInForm)({
          email: first(params, "email"),
          password: first(params, "password"),
          ...(first(params, "next") === undefined ? {} : { next: first(params, "next") })
        })
        if (form._tag === "Failure")
          return signInPage(passwordSignIn, 400, here, { error: here.say("auth.enterEmailAndPassword") })
        // Session fixation: whatever session id the browser brought is ended; a fresh one is issued.
        const previous = request.cookies[sessionCookie]
        if (previous !== undefined && previous !== "") yield* sessions.signOut(previous)
        const opened = yield* Effect.result(sessions.signIn({ email: form.value.email, password: form.value.password }))
        if (opened._tag === "Failure") {
          const error = opened.failure
          if (error._tag === "SqlError") return yield* Effect.die(error)
          return signInPage(
            passwordSignIn,
            ErrorTable.statusOf(error),
            here,
            {
              error:
                error._tag === "AccountLocked"
                  ? lockedMessage(here, error.retryAfterSeconds)
                  : here.say("auth.wrongEmailOrPassword"),
              email: form.value.email,
              next: form.value.next
            },
            error._tag === "AccountLocked" ? { "retry-after": String(error.retryAfterSeconds) } : {}
          )
        }
        if (opened.success._tag === "ChooseWorkspace")
          return chooseWorkspacePage(here, opened.success.choices, form.value.next)
        return setSession(redirect(safeNext(prefix, form.value.next)), prefix, secure, opened.success.opened.id)
      })
    )

    // The workspace chosen after a verified password: its one-time token opens the session (and spends the others).
    yield* router.add(
      "POST",
      "/app/sign-in/workspace",
      Effect.gen(function* () {
        const { prefix, request, secure, here } = yield* context
        if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
        const limited = yield* app.takeSignIn(request)
        if (limited !== undefined) return limited
        const params = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
        const form = Schema.decodeUnknownExit(WorkspaceChoiceForm)({
          token: first(params, "token"),
          ...(first(params, "next") === undefined ? {} : { next: first(params, "next") })
        })
        if (form._tag === "Failure")
          return signInPage(passwordSignIn, 400, here, { error: here.say("auth.chooseFromList") })
        const opened = yield* app.redeem(request, form.value.token)
        if (opened === undefined) {
          return signInPage(passwordSignIn, 400, here, {
            error: here.say("auth.choiceExpired"),
            next: form.value.next
          })
        }
        return setSession(redirect(safeNext(prefix, form.value.next)), prefix, secure, opened.id)
      })
    )
  })
