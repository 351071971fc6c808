/**
 * The single-page application's shell: the page that loads its scripts
 * (Preact + htm as ES modules, no build step, through an import map) with
 * what they need to know of this server (`#qforms-shell`) and the account's
 * words (`#qforms-words`); before sign-in, a redirect to the sign-in page.
 *
 * Routes:
 * - `GET /app`, `GET /app/*`: the application shell (or a redirect to sign-in).
 */
import * as Effect from "effect/Effect"
import type * as HttpRouter from "effect/http/HttpRouter"
import { Mailer } from "../../mail/index.ts"
import { MessageCatalogues } from "../../languages/index.ts"
import { Html, html } from "../../web/index.ts"
import type { AppContext } from "../AppContext.ts"
import { nonce, page } from "../AppDocument.ts"
import * as AppLanguage from "../AppLanguage.ts"
import { redirect } from "../AppResponses.ts"
import * as ShellData from "../ShellData.ts"
import { signInPage } from "../SignInPage.ts"

/** Adds the shell's route (last: it answers every path of the application the others do not). */
export const add = (router: HttpRouter.HttpRouter, app: AppContext) =>
  Effect.gen(function* () {
    const { passwordSignIn, context, identify, languageOf } = app
    // What the shell page tells its scripts: the same for every page of this server in one language.
    const mail = (yield* Mailer).configured
    const formLanguages = (yield* MessageCatalogues).languages
    const shellTexts = new Map<AppLanguage.AppLanguage, string>()
    const shellDataOf = (language: AppLanguage.AppLanguage) => {
      const existing = shellTexts.get(language)
      if (existing !== undefined) return existing
      const text = ShellData.toScriptText({
        mail,
        languages: formLanguages,
        language,
        say: AppLanguage.sayer(language)
      })
      shellTexts.set(language, text)
      return text
    }

    const shell = Effect.gen(function* () {
      const { prefix, request, here } = yield* context
      const identity = yield* identify
      const path = request.url.split("?")[0]!
      if (identity === undefined) {
        return passwordSignIn
          ? redirect(`${prefix}/app/sign-in?next=${encodeURIComponent(path)}`)
          : signInPage(passwordSignIn, 401, here, {})
      }
      const language = languageOf(identity, request)
      const say = AppLanguage.sayer(language)
      const pageNonce = nonce()
      const importMap = JSON.stringify({
        imports: {
          preact: `${prefix}/app/assets/vendor/preact.mjs`,
          "preact/hooks": `${prefix}/app/assets/vendor/hooks.mjs`,
          htm: `${prefix}/app/assets/vendor/htm.mjs`,
          "htm/preact": `${prefix}/app/assets/vendor/htm-preact.mjs`,
          "intl-messageformat": `${prefix}/app/assets/vendor/intl-messageformat.mjs`
        }
      }).replaceAll("<", "\\u003c")
      return page(200, {
        title: say("auth.appTitle"),
        prefix,
        language,
        nonce: pageNonce,
        head: html`<script type="importmap" nonce="${pageNonce}">${new Html(importMap)}</script>
<script type="application/json" id="qforms-shell">${new Html(shellDataOf(language))}</script>
<script type="application/json" id="qforms-words">${new Html(AppLanguage.scriptText(language))}</script>
<script type="module" src="${prefix}/app/assets/main.js"></script>`,
        body: html`<div id="root" data-base="${prefix}"><p class="loading">${say("shell.loading")}</p></div>
<noscript><p>${say("auth.needsJavaScript", { docs: `${prefix}/api/docs` })}</p></noscript>`
      })
    })
    yield* router.add("GET", "/app/*", shell)
  })
