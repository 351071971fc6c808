/**
 * What a one-time token that leads nowhere answers (an invitation, a
 * password reset, a sign-in link an owner issued): 404 when it was never
 * issued, 410 when it was used, revoked or expired.
 */
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { html } from "../web/index.ts"
import { type Here, nonce, page } from "./AppDocument.ts"
import type * as AppLanguage from "./AppLanguage.ts"
import { wantsJson } from "./AppRequests.ts"
import { english, json } from "./AppResponses.ts"

/**
 * A token that leads nowhere: 404 (never issued) or 410 (used, revoked, expired), as a page in the browser's
 * language or as JSON (in English, like the API's errors).
 */
export const tokenProblem = (
  request: HttpServerRequest.HttpServerRequest,
  here: Here,
  status: 404 | 410,
  message: AppLanguage.AppKey
) =>
  wantsJson(request)
    ? json(status, { error: english(message) })
    : page(status, {
        title: here.say("auth.linkNotValidTitle"),
        prefix: here.prefix,
        language: here.language,
        nonce: nonce(),
        body: html`<main class="auth" id="main">
<h1>${here.say(status === 404 ? "auth.linkNotValid" : "auth.linkGone")}</h1>
<p role="alert">${here.say(message)}</p>
<p><a href="${here.prefix}/app/sign-in">${here.say("auth.goToSignIn")}</a></p>
</main>`
      })
