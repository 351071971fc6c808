/** Handlers of the translations group: a form in other languages. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api, CurrentActor } from "../../api/Api.ts"
import type * as Actors from "../../identity/Actors.ts"
import { RespondentEmails } from "../../email/RespondentEmails.ts"
import { Forms } from "../../forms/Forms.ts"
import { draftTranslation } from "../../generation/FormTranslator.ts"
import * as Translations from "../../forms/Translations.ts"
import { handle } from "../../web/ApiErrors.ts"

export const TranslationsHandlers = HttpApiBuilder.group(
  Api,
  "translations",
  Effect.fnUntraced(function* (handlers) {
    const forms = yield* Forms
    const emails = yield* RespondentEmails
    const draft = yield* draftTranslation

    const detail = Effect.fnUntraced(function* (actor: Actors.Actor, formId: number, language: string) {
      const form = yield* forms.get(actor, formId)
      const found = Translations.translationOf(form, language, yield* emails.confirmationTexts(actor, formId))
      if (found !== undefined) return found
      return yield* new Translations.TranslationNotFound({
        message: `form ${formId} has no translation into ${language}`
      })
    })

    return handlers
      .handle("list", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.gen(function* () {
              const form = yield* forms.get(actor, params.formId)
              return Translations.listOf(form, yield* emails.confirmationTexts(actor, params.formId))
            })
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
      .handle("draft", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(draft(actor, params.formId, params.language)))
      )
  })
)
