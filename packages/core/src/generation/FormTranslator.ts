/**
 * Translating a form: each language's progress, one translation with every
 * text of the form, and machine translation, never silent: the configured
 * language model (`OpenAiFormGenerator`) translates the texts a translation
 * still lacks, and the result is saved as a `draft`, which the page does not
 * offer until someone reviews it and marks it `ready`. Without a model (the
 * offline generator writes English forms only) it is refused with 409,
 * saying so.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Actors, Conflict } from "../kernel/index.ts"
import { RespondentEmails } from "../email/index.ts"
import { Forms, TranslationsModule as Translations } from "../forms/index.ts"
import { nativeName } from "../languages/index.ts"
import { FormGenerator, GeneratorFailed } from "./FormGenerator.ts"

/** What a host without a language model is told. */
export const noModelMessage =
  "machine translation needs a language model (QFORMS_LLM_URL, or formGenerator: OpenAiFormGenerator.layer(…)); " +
  "the offline generator writes forms in English only and translates nothing"

const decodeTranslation = Schema.decodeUnknownEffect(Translations.Translation)

/**
 * A form's translations as those who translate it see them: each language's
 * progress, one translation with every text of the form (the confirmation
 * e-mail's too, when the form sends one), and machine drafts. The API and
 * MCP both use it.
 *
 * @example
 * ```ts
 * const translator = yield* FormTranslator.make
 * const german = yield* translator.get(actor, formId, "de") // 404 TranslationNotFound when there is none
 * const draft = yield* translator.draft(actor, formId, "fr") // status "draft": review, then set status "ready"
 * ```
 */
export const make = Effect.gen(function* () {
  const forms = yield* Forms
  const generator = yield* FormGenerator
  const emails = yield* RespondentEmails

  /** The form, and the confirmation's texts when it sends one. */
  const read = Effect.fnUntraced(function* (actor: Actors.Actor, formId: number) {
    const form = yield* forms.get(actor, formId)
    return { form, confirmation: yield* emails.confirmationTexts(actor, formId) }
  })

  const list = Effect.fn("FormTranslator.list")(function* (actor: Actors.Actor, formId: number) {
    const { form, confirmation } = yield* read(actor, formId)
    return Translations.listOf(form, confirmation)
  })

  const get = Effect.fn("FormTranslator.get")(function* (actor: Actors.Actor, formId: number, language: string) {
    const { form, confirmation } = yield* read(actor, formId)
    const found = Translations.translationOf(form, language, confirmation)
    if (found !== undefined) return found
    return yield* new Translations.TranslationNotFound({
      message: `form ${formId} has no translation into ${language}`
    })
  })

  /** Sets a translation (see `Forms.putTranslation`) and answers it with every text of the form. */
  const put = Effect.fn("FormTranslator.put")(function* (
    actor: Actors.Actor,
    formId: number,
    language: string,
    translation: Translations.Translation
  ) {
    yield* forms.putTranslation(actor, formId, language, translation)
    return yield* get(actor, formId, language)
  })

  /**
   * Drafts the form's translation into a language: the texts it lacks, by the
   * language model, merged into what it has, saved with `status: "draft"`.
   */
  const draft = Effect.fn("FormTranslator.draft")(function* (actor: Actors.Actor, formId: number, language: string) {
    yield* Actors.requireWrite(actor)
    const { form, confirmation } = yield* read(actor, formId)
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
    const drafted = yield* decodeTranslation({ ...Translations.withTexts(existing, texts), status: "draft" }).pipe(
      Effect.mapError(
        (error) => new GeneratorFailed({ message: `the model gave texts that do not fit the form: ${error.message}` })
      )
    )
    return yield* put(actor, formId, language, drafted)
  })

  return { list, get, put, draft, remove: forms.removeTranslation }
})
