/**
 * One-time sign-in links: GET shows a button that posts the link back (a
 * link preview must not spend it), POST redeems it and opens a session.
 *
 * Routes:
 * - `GET|POST /app/sign-in/link/:token`: a one-time sign-in link (the first start's).
 * - `GET|POST /app/link/:token`: a one-time sign-in link an owner or admin issued.
 *   The token routes are limited per client address like sign-in.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { html } from "../../web/index.ts"
import type { AppContext } from "../AppContext.ts"
import { type Here, nonce, page } from "../AppDocument.ts"
import { sameOrigin } from "../AppRequests.ts"
import { json, redirect } from "../AppResponses.ts"
import { setSession } from "../SessionCookie.ts"
import { signInPage } from "../SignInPage.ts"
import { tokenProblem } from "../TokenProblem.ts"

/** The page behind a one-time link: a button that posts it back (a link preview must not spend it). */
const linkPage = (here: Here, action: string, intro: string, button: string) =>
  page(200, {
    title: here.say("auth.signInTitle"),
    prefix: here.prefix,
    language: here.language,
    nonce: nonce(),
    body: html`<main class="auth" id="main">
<h1>${here.say("auth.signInHeading")}</h1>
<p>${intro}</p>
<form method="post" action="${action}"><button type="submit" class="primary">${button}</button></form>
</main>`
  })

/** Adds the routes of the one-time sign-in links. */
export const add = (router: HttpRouter.HttpRouter, app: AppContext) =>
  Effect.gen(function* () {
    const { passwordSignIn, context } = app

    // One-time sign-in links: GET shows a button (link previews must not spend the link), POST redeems it.
    yield* router.add(
      "GET",
      "/app/sign-in/link/:token",
      Effect.gen(function* () {
        const { prefix, here } = yield* context
        const params = yield* HttpRouter.params
        return linkPage(
          here,
          `${prefix}/app/sign-in/link/${params["token"] ?? ""}`,
          here.say("auth.ownerLinkIntro"),
          here.say("auth.continue")
        )
      })
    )

    yield* router.add(
      "POST",
      "/app/sign-in/link/:token",
      Effect.gen(function* () {
        const { prefix, request, secure, here } = yield* context
        if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
        const limited = yield* app.takeSignIn(request)
        if (limited !== undefined) return limited
        const params = yield* HttpRouter.params
        const opened = yield* app.redeem(request, params["token"] ?? "")
        if (opened === undefined)
          return signInPage(passwordSignIn, 400, here, { error: here.say("auth.ownerLinkSpent") })
        return setSession(redirect(`${prefix}/app/account`), prefix, secure, opened.id)
      })
    )

    // A one-time sign-in link an owner or admin issued for a member: the same two steps (a preview spends nothing).
    yield* router.add(
      "GET",
      "/app/link/:token",
      Effect.gen(function* () {
        const { prefix, here } = yield* context
        const params = yield* HttpRouter.params
        return linkPage(
          here,
          `${prefix}/app/link/${params["token"] ?? ""}`,
          here.say("auth.memberLinkIntro"),
          here.say("auth.signIn")
        )
      })
    )
    yield* router.add(
      "POST",
      "/app/link/:token",
      Effect.gen(function* () {
        const { prefix, request, secure, here } = yield* context
        if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
        const limited = yield* app.takeToken(request)
        if (limited !== undefined) return limited
        const params = yield* HttpRouter.params
        const opened = yield* app.redeem(request, params["token"] ?? "")
        if (opened === undefined) return tokenProblem(request, here, 410, "auth.memberLinkSpent")
        return setSession(redirect(`${prefix}/app`), prefix, secure, opened.id)
      })
    )
  })
