/**
 * The unsubscribe link of a digest e-mail, outside the API (the signed link
 * is the only credential): `GET /digest/unsubscribe/{token}` shows a page with
 * one button, so a mail scanner that opens links unsubscribes nobody, and
 * `POST` to the same address ends the digest: the button's form, or a mail
 * provider's one-click unsubscribe (RFC 8058, `List-Unsubscribe-Post`).
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { type DigestLanguage, digestLanguages, unsubscribePage } from "../email/index.ts"
import { Digests } from "../insights/index.ts"
import { acceptedLanguages, negotiate } from "../languages/index.ts"
import { html } from "../web/index.ts"

/** The routes, for the 404/405 table. */
export const routes = [
  { method: "GET", path: "/digest/unsubscribe/:token" },
  { method: "POST", path: "/digest/unsubscribe/:token" }
] as const

const languageOf = (request: HttpServerRequest.HttpServerRequest): DigestLanguage =>
  digestLanguages.find(
    (l) => l === negotiate(acceptedLanguages(request.headers["accept-language"]), digestLanguages)
  ) ?? "en"

const page = (status: number, language: DigestLanguage, title: string, body: ReturnType<typeof html>) =>
  HttpServerResponse.text(
    html`<!doctype html>
<html lang=${language} dir=${language === "ar" ? "rtl" : "ltr"}>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head>
<body><main><h1>${title}</h1>${body}</main></body>
</html>`.value,
    {
      status,
      contentType: "text/html; charset=utf-8",
      headers: { "cache-control": "no-store, private", "referrer-policy": "no-referrer" }
    }
  )

const answer = (digests: Digests["Service"], confirmed: boolean) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = (yield* HttpRouter.params).token ?? ""
    const language = languageOf(request)
    const outcome = yield* Effect.result(confirmed ? digests.unsubscribe(token) : digests.describeToken(token))
    if (Result.isFailure(outcome)) {
      if (outcome.failure._tag === "SqlError") return yield* Effect.die(outcome.failure)
      const words = unsubscribePage(language, null)
      return page(404, language, words.title, html`<p>${words.invalid}</p>`)
    }
    const words = unsubscribePage(language, outcome.success.form)
    return confirmed
      ? page(200, language, words.title, html`<p role="status">${words.done}</p>`)
      : page(
          200,
          language,
          words.title,
          html`<form method="post"><p>${words.question}</p><button type="submit">${words.button}</button></form>`
        )
  })

/**
 * The routes as a layer of the router (`Http.layer` includes it).
 *
 * @example
 * ```ts
 * const routes = Layer.mergeAll(Http.layer(), DigestRoutes.layer)
 * ```
 */
export const layer = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const digests = yield* Digests
    yield* router.add("GET", "/digest/unsubscribe/:token", answer(digests, false))
    yield* router.add("POST", "/digest/unsubscribe/:token", answer(digests, true))
  })
)
