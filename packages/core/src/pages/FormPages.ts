/**
 * The public page's answers as HTML pages, with its rendering options (the
 * configured `frame-ancestors`, checked once when the routes are built): a
 * page of a form in its theme, a plain page, and the pages a route answers
 * instead of a screen of the form — unknown form (404), closed or full form
 * (410), a limit used up (429), an answer token that does not verify (400) —
 * and the page's voice for a request before its form is known.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Schema from "effect/Schema"
import type * as SqlError from "effect/sql/SqlError"
import type { InvalidAnswerToken } from "../cases/index.ts"
import type { FormWithFields } from "../forms/index.ts"
import { MessageCatalogues } from "../languages/index.ts"
import { type Html, RateLimit } from "../web/index.ts"
import { themeCss } from "./Assets.ts"
import { FrameAncestor, page, notFoundPage } from "./PageSecurity.ts"
import { branded } from "./screens/Document.ts"
import { message } from "./screens/Message.ts"
import { plainVoice, type Voice } from "./Voice.ts"

/**
 * The page's answers as pages, for `frameAncestors` (dies when one of them is not a valid source, see
 * {@link FrameAncestor}).
 */
export const make = Effect.fnUntraced(function* (frameAncestors: ReadonlyArray<string> | undefined) {
  yield* Effect.orDie(Schema.decodeUnknownEffect(Schema.Array(FrameAncestor))(frameAncestors ?? []))
  const messages = yield* MessageCatalogues

  /** The page's voice for a request before its form is known: the browser's language, if qforms speaks it. */
  const requestVoice = (request: HttpServerRequest.HttpServerRequest) =>
    plainVoice(messages, request.headers["accept-language"])

  const show = (
    status: number,
    title: string,
    body: Html,
    voice: Voice,
    script = false,
    headers?: Record<string, string>
  ) => page({ status, title, body, script, frameAncestors, headers, voice })

  /**
   * A page of a form, in its theme; titled with the form's title unless `title` is given. Every one carries
   * the page's script, the thank-you and message screens too: in a frame of the embed kit it is what answers
   * the kit's hello, tells `submitted` and the frame's height, also for a document answering a full-page post.
   */
  const formPage = (
    form: FormWithFields,
    voice: Voice,
    status: number,
    body: Html,
    headers?: Record<string, string>,
    title = form.title,
    redirect?: string
  ) =>
    page({
      status,
      title,
      body: branded(form, body),
      script: true,
      frameAncestors,
      headers,
      style: themeCss(form.settings.theme),
      redirect,
      voice
    })
  const notFound = (voice: Voice) => notFoundPage(frameAncestors, voice)
  const closed = (form: FormWithFields, voice: Voice, status = 410) =>
    formPage(form, voice, status, message(form.title, form.settings.closedMessage ?? voice.say("page.closed")))
  const full = (form: FormWithFields, voice: Voice, status = 410) =>
    formPage(form, voice, status, message(form.title, form.settings.closedMessage ?? voice.say("page.full")))

  /**
   * The 429 page of a limit used up: what was limited, and when to try again; in the form's theme when the
   * form is known (a step is limited before its form is read).
   */
  const tooMany = (
    limited: { readonly decision: RateLimit.Decision; readonly config: RateLimit.RateLimitConfig },
    voice: Voice,
    what: { readonly title: string; readonly text: string } = {
      title: voice.say("page.tooManyTitle"),
      text: voice.say("page.tooManyText")
    },
    form?: FormWithFields
  ) => {
    const body = message(
      what.title,
      voice.say("page.waitSeconds", { text: what.text, seconds: limited.decision.retryAfterSeconds })
    )
    const headers = RateLimit.headers(limited.config, limited.decision)
    return form === undefined
      ? show(429, what.title, body, voice, false, headers)
      : formPage(form, voice, 429, body, headers, what.title)
  }

  /** The 400 page of an answer token that does not verify: why, and a way to start again. */
  const notContinued = (
    error: InvalidAnswerToken | SqlError.SqlError,
    shown: FormWithFields,
    voice: Voice,
    startAgain: { readonly href: string; readonly label: string }
  ) =>
    error._tag === "SqlError"
      ? Effect.die(error)
      : Effect.succeed(
          formPage(
            shown,
            voice,
            400,
            message(shown.title, voice.say("page.notContinued", { reason: error.message }), startAgain)
          )
        )

  return { frameAncestors, requestVoice, show, formPage, notFound, closed, full, tooMany, notContinued }
})

/** The page's answers as pages (see {@link make}). */
export type FormPages = Effect.Success<ReturnType<typeof make>>
