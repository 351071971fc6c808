/**
 * The form a request of the public page is about: its public id (the path's
 * `publicId`), the form as its page wears it (the workspace's theme when it
 * has none of its own), and — for the routes that take answers — the
 * published form that still takes responses, in the language the request
 * asks for (`Found`), or the page to answer instead (unknown, closed, full,
 * or this device has already sent its one response).
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Result from "effect/Result"
import { ResponseLimits } from "../cases/index.ts"
import { Forms, type FormWithFields, type Theme, WorkspaceSettingsStore } from "../forms/index.ts"
import { MessageCatalogues } from "../languages/index.ts"
import type { DeviceMarks } from "./DeviceMarks.ts"
import type { FormPages } from "./FormPages.ts"
import { message } from "./screens/Message.ts"
import { type LanguageWish, languageFor, speaker, type Voice } from "./Voice.ts"

/** The page as a request sees it: the form as stored and as shown, the page's voice, the workspace. */
export interface Found {
  readonly form: FormWithFields
  readonly shown: FormWithFields
  readonly voice: Voice
  readonly workspaceId: number
}

/** The path's `publicId` of the request. */
export const publicIdParam = Effect.map(HttpRouter.params, (params) => params["publicId"] ?? "")

/** The page's forms as requests find them; its closed, full, 404 and 409 pages come from `pages`. */
export const make = Effect.fnUntraced(function* (pages: FormPages, marks: DeviceMarks) {
  const { requestVoice, formPage, notFound, closed, full } = pages
  const forms = yield* Forms
  const workspaceSettings = yield* WorkspaceSettingsStore
  const limits = yield* ResponseLimits.make
  const speak = speaker(yield* MessageCatalogues)

  /**
   * The form as its page wears it: a form without a theme of its own wears its workspace's. The same object
   * while neither changes, so the page's caches keyed by the form (the welcome template) keep working.
   */
  const themed = new WeakMap<FormWithFields, { readonly theme: Theme; readonly form: FormWithFields }>()
  const wearing = (form: FormWithFields, theme: Theme | undefined): FormWithFields => {
    if (theme === undefined || form.settings.theme !== undefined) return form
    const known = themed.get(form)
    if (known !== undefined && known.theme === theme) return known.form
    const worn = { ...form, settings: { ...form.settings, theme } }
    themed.set(form, { theme, form: worn })
    return worn
  }

  /**
   * The published form that still takes responses (before its closing time, not full), or the page to answer
   * instead, in the language the request asks for: `form` as stored (what a submission is checked against),
   * `shown` as the page shows it (in the respondent's language), and the page's voice.
   */
  const published = (publicId: string, request: HttpServerRequest.HttpServerRequest, wish: LanguageWish = {}) =>
    forms.getPublic(publicId).pipe(
      Effect.flatMap(({ form: own, workspaceId }) =>
        Effect.gen(function* () {
          const form =
            own.settings.theme === undefined ? wearing(own, yield* workspaceSettings.themeOf(workspaceId)) : own
          const { form: shown, voice } = speak(
            form,
            languageFor(form, { ...wish, acceptLanguage: request.headers["accept-language"] })
          )
          if (form.status !== "published")
            return Result.fail(form.status === "closed" ? closed(shown, voice) : notFound(requestVoice(request)))
          if (ResponseLimits.pastClosing(form.settings, yield* Clock.currentTimeMillis) !== undefined) {
            return Result.fail(closed(shown, voice))
          }
          if ((yield* limits.full(workspaceId, form.id, form.settings)) !== undefined)
            return Result.fail(full(shown, voice))
          return Result.succeed({ form, workspaceId, shown, voice })
        })
      ),
      Effect.catchTag("FormNotFound", () => Effect.succeed(Result.fail(notFound(requestVoice(request)))))
    )

  /** With `oneResponsePerDevice`: the page that says this device has sent its response, when it has. */
  const sentBefore = (request: HttpServerRequest.HttpServerRequest, form: FormWithFields, voice: Voice) =>
    form.settings.oneResponsePerDevice === true
      ? Effect.map(marks.sent(request.cookies, form.publicId), (sent) =>
          sent ? formPage(form, voice, 409, message(form.title, voice.say("page.alreadySent"))) : undefined
        )
      : Effect.succeed(undefined)

  return { wearing, published, sentBefore }
})

/** The page's forms as requests find them (see {@link make}). */
export type PublishedForms = Effect.Success<ReturnType<typeof make>>
