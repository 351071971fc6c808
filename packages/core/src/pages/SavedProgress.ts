/**
 * A respondent's progress kept between visits: the partial response saved as
 * they answer (best effort; a new one only from the first real answer on, and
 * limited per address), the resume cookie that brings this device back to it,
 * and whether a resume link can be e-mailed to go on elsewhere (a mailer and
 * an absolute link base are both needed).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import { type AnswerState, AnswerTokens, maxAgeMs, Responses } from "../cases/index.ts"
import { Mailer } from "../mail/index.ts"
import { type AnswerValue, FormLogic, type FormWithFields, isRealAnswer, takesUploads } from "../forms/index.ts"
import { Actors, SentLinkBase } from "../kernel/index.ts"
import { clientAddress } from "../web/index.ts"
import type { PageLimits } from "./PageLimits.ts"
import { resumeCookieName } from "./PageSecurity.ts"
import { hiddenOf } from "./Steps.ts"

/** The page's saved progress; new partial responses are limited by `limits`. */
export const make = Effect.fnUntraced(function* (limits: PageLimits) {
  const { newPartials, hops } = limits
  const tokens = yield* AnswerTokens
  const responses = yield* Responses

  // Resume links go by e-mail, with absolute links: offered only when both can work.
  const linkBase = (yield* SentLinkBase).replace(/\/$/, "")
  const resumeByEmail = (yield* Mailer).configured && linkBase !== ""

  /** The header that keeps (or, after the submission, forgets) the partial response on this device. */
  const resumeHeaders = (form: FormWithFields, state: AnswerState | undefined) => {
    const where = `Path=/f/${encodeURIComponent(form.publicId)}; HttpOnly; SameSite=Lax`
    if (state === undefined)
      return Effect.succeed({ "set-cookie": `${resumeCookieName(form.publicId)}=; ${where}; Max-Age=0` })
    if (state.partialId === undefined) return Effect.succeed(undefined)
    return Effect.map(
      tokens.sign({
        form: form.publicId,
        startedAt: state.startedAt,
        values: {},
        partialId: state.partialId,
        // The questions pre-filled from the link stay passed over when the respondent comes back.
        ...(state.prefilled === undefined ? {} : { prefilled: state.prefilled }),
        // So is the access code, typed once on this device, and the language chosen.
        ...(state.access === undefined ? {} : { access: state.access }),
        ...(state.language === undefined ? {} : { language: state.language })
      }),
      (token): Record<string, string> => ({
        "set-cookie": `${resumeCookieName(form.publicId)}=${token}; ${where}; Max-Age=${maxAgeMs / 1000}`
      })
    )
  }

  /** What this device's resume cookie for the form says (checked), if it has a genuine one. */
  const resumeCookieOf = (request: HttpServerRequest.HttpServerRequest, publicId: string) =>
    Effect.gen(function* () {
      const cookie = request.cookies[resumeCookieName(publicId)]
      if (cookie === undefined || cookie === "") return undefined
      const verified = yield* Effect.result(tokens.verify(cookie, publicId))
      if (Result.isSuccess(verified)) return verified.success
      return verified.failure._tag === "SqlError" ? yield* Effect.die(verified.failure) : undefined
    })

  /** The partial response this device left unfinished (its resume cookie's), if any: its answers back in a state. */
  const resume = (cookie: AnswerState | undefined, form: FormWithFields, workspaceId: number) =>
    Effect.gen(function* () {
      if (cookie === undefined) return Option.none<AnswerState>()
      const partialId = cookie.partialId
      if (partialId === undefined) return Option.none<AnswerState>()
      const answers = yield* Effect.orDie(responses.partialAnswers(workspaceId, form.id, partialId))
      return Option.map(answers, (stored): AnswerState => {
        const values: Record<string, AnswerValue | null> = {}
        const hidden: Record<string, string> = {}
        for (const [key, value] of Object.entries(stored)) {
          if (key.startsWith(FormLogic.hiddenPrefix)) {
            if (Predicate.isString(value)) hidden[key.slice(FormLogic.hiddenPrefix.length)] = value
          } else values[key] = value
        }
        const { prefilled, access, language } = cookie
        return {
          form: form.publicId,
          startedAt: cookie.startedAt,
          values,
          hidden,
          partialId,
          ...(prefilled === undefined ? {} : { prefilled }),
          ...(access === undefined ? {} : { access }),
          ...(language === undefined ? {} : { language })
        }
      })
    })

  /**
   * Saves the answers so far as the partial response (best effort: the step
   * goes on whatever happens). A new row needs a real answer (not a Start
   * step, an empty optional answer or hidden values alone) and a token of
   * the address's bucket of new partial responses; without either the
   * respondent goes on with nothing saved.
   */
  const saveProgress = (
    request: HttpServerRequest.HttpServerRequest,
    found: { readonly form: FormWithFields; readonly workspaceId: number },
    state: AnswerState
  ) =>
    Effect.gen(function* () {
      if (state.partialId === undefined) {
        const files = new Set(found.form.fields.filter(takesUploads).map((f) => String(f.id)))
        const real = Object.entries(state.values).some(([key, value]) => !files.has(key) && isRealAnswer(value))
        if (!real || Option.isNone(newPartials)) return state
        const decision = yield* newPartials.value.take(`partial:${clientAddress(request, hops)}`)
        if (!decision.allowed) {
          yield* Effect.logDebug("public page: new partial responses over the limit for this address; not saved").pipe(
            Effect.annotateLogs({ form: found.form.publicId })
          )
          return state
        }
      }
      const partialId = yield* responses.savePartial(
        Actors.respondent(found.workspaceId),
        found.form.id,
        { values: state.values, hidden: hiddenOf(found.form, state) },
        state.partialId
      )
      if (partialId !== undefined) return { ...state, partialId }
      const { partialId: _, ...rest } = state
      return rest
    }).pipe(
      Effect.catchTags({
        InvalidInput: () => Effect.succeed(state),
        Conflict: () => Effect.succeed(state),
        FormNotFound: () => Effect.succeed(state),
        Forbidden: () => Effect.succeed(state),
        SqlError: (e) => Effect.die(e)
      })
    )

  return { linkBase, resumeByEmail, resumeHeaders, resumeCookieOf, resume, saveProgress }
})

/** The page's saved progress (see {@link make}). */
export type SavedProgress = Effect.Success<ReturnType<typeof make>>
