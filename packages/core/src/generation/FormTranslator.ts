/**
 * Machine translation of a form, never silent: the configured language
 * model (`OpenAiFormGenerator`) translates the texts a form's translation
 * still lacks, and the result is saved as a `draft`, which the page does not
 * offer until someone reviews it and marks it `ready`. Without a model (the
 * offline generator writes English forms only) it is refused with 409,
 * saying so.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Actors from "../identity/Actors.ts"
import { Conflict } from "../kernel/Errors.ts"
import { RespondentEmails } from "../email/RespondentEmails.ts"
import { Forms } from "../forms/Forms.ts"
import * as Translations from "../forms/Translations.ts"
import { nativeName } from "../languages/Languages.ts"
import { FormGenerator, GeneratorFailed } from "./FormGenerator.ts"

/** What a host without a language model is told. */
export const noModelMessage =
  "machine translation needs a language model (QFORMS_LLM_URL, or formGenerator: OpenAiFormGenerator.layer(…)); " +
  "the offline generator writes forms in English only and translates nothing"

const decodeTranslation = Schema.decodeUnknownEffect(Translations.Translation)

/**
 * Drafts the form's translation into a language: the texts it lacks, by the
 * language model, merged into what it has, saved with `status: "draft"`.
 * Answers the translation with what it still lacks.
 *
 * @example
 * ```ts
 * const draft = yield* draftTranslation
 * const german = yield* draft(actor, formId, "de") // status "draft": review, then set status "ready"
 * ```
 */
export const draftTranslation = Effect.gen(function* () {
  const forms = yield* Forms
  const generator = yield* FormGenerator
  const emails = yield* RespondentEmails
  return Effect.fn("FormTranslator.draftTranslation")(function* (
    actor: Actors.Actor,
    formId: number,
    language: string
  ) {
    yield* Actors.requireWrite(actor)
    const form = yield* forms.get(actor, formId)
    const confirmation = yield* emails.confirmationTexts(actor, formId)
    const own = form.settings.language ?? Translations.DEFAULT_LANGUAGE
    if (language === own) {
      return yield* new Conflict({ message: `${language} is the form's own language: it takes no translation` })
    }
    const translate = generator.translate
    if (translate === undefined) return yield* new Conflict({ message: noModelMessage })
    const existing = Translations.translationOf(form, language, confirmation)?.translation ?? {}
    const lacking = Translations.missing(form, existing, confirmation)
    const translated = yield* translate({
      from: `${nativeName(own)} (${own})`,
      to: `${nativeName(language)} (${language})`,
      texts: lacking.map((text, index) => ({ id: String(index), text: text.source }))
    })
    const texts = lacking.flatMap((text, index) => {
      const words = translated[String(index)]
      return words === undefined ? [] : [{ path: text.path, text: words }]
    })
    const draft = yield* decodeTranslation({ ...Translations.withTexts(existing, texts), status: "draft" }).pipe(
      Effect.mapError(
        (error) => new GeneratorFailed({ message: `the model gave texts that do not fit the form: ${error.message}` })
      )
    )
    yield* forms.putTranslation(actor, formId, language, draft)
    const saved = yield* forms.get(actor, formId)
    return Translations.translationOf(saved, language, confirmation)!
  })
})
