/** Handlers of the translations group: a form in other languages. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api, CurrentActor } from "../../api/Api.ts"
import type * as Actors from "../../identity/Actors.ts"
import { RespondentEmails } from "../../email/RespondentEmails.ts"
import { Forms } from "../../forms/Forms.ts"
import * as Translations from "../../forms/Translations.ts"
import { handle } from "../../web/ApiErrors.ts"

export const TranslationsHandlers = HttpApiBuilder.group(
  Api,
  "translations",
  Effect.fnUntraced(function* (handlers) {
    const forms = yield* Forms
    const emails = yield* RespondentEmails

    /** The form with the confirmation e-mail's texts when it sends one (then they are to translate too). */
    const read = Effect.fnUntraced(function* (actor: Actors.Actor, formId: number) {
      const form = yield* forms.get(actor, formId)
      const confirmation = yield* emails.getConfirmation(actor, formId)
      return { form, confirmation: confirmation.enabled ? confirmation : undefined }
    })

    const detail = Effect.fnUntraced(function* (actor: Actors.Actor, formId: number, language: string) {
      const { form, confirmation } = yield* read(actor, formId)
      const translations = form.translations ?? {}
      if (!Object.hasOwn(translations, language)) {
        return yield* new Translations.TranslationNotFound({
          message: `form ${formId} has no translation into ${language}`
        })
      }
      return Translations.detailOf(form, language, translations[language]!, confirmation)
    })

    return handlers
      .handle("list", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.map(read(actor, params.formId), ({ form, confirmation }) => ({
              language: form.settings.language ?? Translations.DEFAULT_LANGUAGE,
              translations: Object.entries(form.translations ?? {})
                .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                .map(([language, translation]) => {
                  const {
                    translation: _,
                    missing: __,
                    ...state
                  } = Translations.detailOf(form, language, translation, confirmation)
                  return state
                })
            }))
          )
        )
      )
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(detail(actor, params.formId, params.language)))
      )
      .handle("put", ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.gen(function* () {
              yield* forms.putTranslation(actor, params.formId, params.language, payload)
              return yield* detail(actor, params.formId, params.language)
            })
          )
        )
      )
      .handle("remove", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(forms.removeTranslation(actor, params.formId, params.language)))
      )
  })
)
