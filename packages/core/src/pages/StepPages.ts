/**
 * The screens of a respondent's way through a form as pages: the welcome
 * screen (a fresh visit's rendered once per form), the access code screen,
 * and a question's screen or a page of several questions (with the choices
 * whose quotas are used up, the place on the respondent's path, and the
 * offer of a resume link once something is saved); each carries the answer
 * state signed into its token, and the resume cookie of the saved progress.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { type AnswerState, AnswerTokens, ResponseLimits } from "../cases/index.ts"
import { Forms, type FormWithFields, quotasOf } from "../forms/index.ts"
import { type Html, html } from "../web/index.ts"
import { themeCss } from "./Assets.ts"
import type { FormPages } from "./FormPages.ts"
import { pageTemplate } from "./PageSecurity.ts"
import { pageAsked, pagePlaceOf } from "./Prefill.ts"
import type { SavedProgress } from "./SavedProgress.ts"
import type { Entered } from "./screens/Controls.ts"
import { branded } from "./screens/Document.ts"
import * as Questions from "./screens/Questions.ts"
import { resumeOffer } from "./screens/Resume.ts"
import * as Start from "./screens/Start.ts"
import { enteredOf, recalled, recalledPage } from "./Steps.ts"
import type { Voice } from "./Voice.ts"

/** The page's step screens as pages, rendered by `pages`, with the resume cookie of `progress`. */
export const make = Effect.fnUntraced(function* (pages: FormPages, progress: SavedProgress) {
  const { frameAncestors, formPage } = pages
  const { resumeByEmail, resumeHeaders } = progress
  const forms = yield* Forms
  const tokens = yield* AnswerTokens
  const limits = yield* ResponseLimits.make

  /** The access code screen of a form with `accessCode`, keeping the state (pre-fill, hidden values) for after it. */
  const accessPage = (form: FormWithFields, voice: Voice, state: AnswerState, status: number, error?: string) =>
    Effect.map(tokens.sign(state), (token) =>
      formPage(form, voice, status, Start.accessCode(form, token, voice, error))
    )

  /**
   * A question's screen, or the page of several questions it is on (`settings.pages`), with the state signed
   * into its token and the resume cookie; the choices whose quotas are used up are shown full.
   */
  const questionPage = (
    form: FormWithFields,
    voice: Voice,
    state: AnswerState,
    index: number,
    entered: Entered,
    extra: {
      readonly error?: string
      readonly notice?: string
      readonly status?: number | undefined
      readonly headers?: Record<string, string> | undefined
      /** On a page of several questions: what each shows as entered (default: its answer so far). */
      readonly entered?: ((fieldId: number) => Entered) | undefined
      /** On a page of several questions: the message beside each question refused. */
      readonly errors?: ReadonlyMap<number, string> | undefined
    } = {}
  ) =>
    Effect.gen(function* () {
      const token = yield* tokens.sign(state)
      const headers = yield* resumeHeaders(form, state)
      // Once something is saved, the respondent may ask for a link to go on elsewhere.
      const withOffer = (screen: Html) =>
        resumeByEmail && state.partialId !== undefined
          ? html`${screen}${resumeOffer(form.publicId, token, voice, "")}`
          : screen
      const field = form.fields[index]!
      const shown = pageAsked(form, state, field)
      if (shown.length > 1) {
        const workspaceId = (yield* forms.getPublic(form.publicId)).workspaceId
        const fullOf = new Map<number, ReadonlySet<string>>()
        for (const f of shown) {
          if (quotasOf(f).length > 0) fullOf.set(f.id, yield* limits.fullChoices(workspaceId, form.id, f))
        }
        const place = pagePlaceOf(form, state, shown)
        const declared = form.settings.pages?.find((p) => p.key === field.page)
        const errors = extra.errors ?? new Map<number, string>()
        return formPage(
          form,
          voice,
          extra.status ?? (errors.size === 0 && extra.notice === undefined ? 200 : 400),
          withOffer(
            Questions.page({
              form: recalledPage(form, state, shown),
              indexes: shown.map((f) => form.fields.findIndex((g) => g.id === f.id)),
              token,
              entered: extra.entered ?? ((id) => enteredOf(state.values[String(id)])),
              errors,
              notice: extra.notice,
              last: place.last,
              first: place.first,
              seed: state.startedAt % 2 ** 32,
              full: (id) => fullOf.get(id) ?? new Set(),
              place,
              title: declared?.title,
              description: declared?.description,
              voice
            })
          ),
          extra.headers === undefined ? headers : { ...headers, ...extra.headers },
          `${form.title} (${voice.say("page.progressPlace", { at: place.at + 1, of: place.of })})`
        )
      }
      const full =
        quotasOf(field).length === 0
          ? undefined
          : yield* Effect.flatMap(forms.getPublic(form.publicId), ({ workspaceId }) =>
              limits.fullChoices(workspaceId, form.id, field)
            )
      // Progress counts the respondent's path (logic and skipped questions) by pages, not every question of the form.
      const place = pagePlaceOf(form, state, [field])
      return formPage(
        form,
        voice,
        extra.status ?? (extra.error === undefined && extra.notice === undefined ? 200 : 400),
        withOffer(
          Questions.question({
            form: recalled(form, state),
            index,
            token,
            entered,
            error: extra.error,
            notice: extra.notice,
            last: place.last,
            first: place.first,
            seed: state.startedAt % 2 ** 32,
            full,
            place,
            voice
          })
        ),
        extra.headers === undefined ? headers : { ...headers, ...extra.headers },
        `${form.title} (${voice.say("page.progressPlace", { at: place.at + 1, of: place.of })})`
      )
    })

  // A fresh visit's welcome screen differs only by its token and nonce (no answers or hidden values to
  // recall): rendered once per form. A cached form stays one object until it changes, so a changed form
  // gets a new one.
  const welcomeTemplates = new WeakMap<FormWithFields, (token: string) => HttpServerResponse.HttpServerResponse>()
  const freshWelcomePage = (form: FormWithFields, voice: Voice, state: AnswerState) =>
    Effect.map(tokens.sign(state), (token) => {
      let template = welcomeTemplates.get(form)
      if (template === undefined) {
        const shown = recalled(form, state)
        template = pageTemplate({
          status: 200,
          title: form.title,
          body: (value) => branded(shown, Start.welcome(shown, value, voice)),
          script: true,
          frameAncestors,
          style: themeCss(form.settings.theme),
          voice
        })
        welcomeTemplates.set(form, template)
      }
      return template(token)
    })

  const welcomePage = (form: FormWithFields, voice: Voice, state: AnswerState, notice?: string, note?: string) =>
    Effect.map(tokens.sign(state), (token) =>
      formPage(
        form,
        voice,
        notice === undefined ? 200 : 400,
        Start.welcome(recalled(form, state), token, voice, notice, note)
      )
    )

  return { accessPage, questionPage, freshWelcomePage, welcomePage }
})

/** The page's step screens as pages (see {@link make}). */
export type StepPages = Effect.Success<ReturnType<typeof make>>
