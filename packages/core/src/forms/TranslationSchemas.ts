/**
 * The Schemas of a form's translations: one translation (its title, each
 * question's texts by question id, its choices, rows and columns by the
 * form's own text, pages and endings by key, button words, the confirmation
 * e-mail) with its status, the translations by language, and how far each
 * is as the API lists them. What they do — the texts to translate, the
 * problems of a translation, the form in a language — is `Translations.ts`,
 * which exports these too.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { BoundedText, strictStruct } from "../kernel/index.ts"
import { LanguageTag } from "../languages/index.ts"
import { ThemeButtons } from "./Theme.ts"

/** A text of the form: trimmed, 1 to `max` characters. */
const text = BoundedText

/** Texts by the form's own text (a choice, a row, a column): at most 200 entries. */
const TextsByKey = (name: string, max: number) =>
  Schema.Record(Schema.String, text(name, max)).check(
    Schema.makeFilter((texts: object) =>
      Object.keys(texts).length <= 200 ? undefined : `at most 200 ${name}s may be translated`
    )
  )

/**
 * One question in another language: any of its texts.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(QuestionTranslation)({ label: "Farbe", choices: { Red: "Rot", Blue: "Blau" } })
 * ```
 */
export const QuestionTranslation = strictStruct(
  {
    label: Schema.optionalKey(text("a question's label", 1000)),
    help: Schema.optionalKey(text("a question's help", 2000)),
    placeholder: Schema.optionalKey(text("a placeholder", 200)),
    choices: Schema.optionalKey(TextsByKey("choice", 200)).annotate({
      description: "Each choice's words by the choice as the form writes it (the answer stays the form's choice)."
    }),
    rows: Schema.optionalKey(TextsByKey("row", 200)).annotate({ description: "A matrix's rows by the form's row." }),
    columns: Schema.optionalKey(TextsByKey("column", 200)).annotate({
      description: "A matrix's columns by the form's column."
    }),
    other: Schema.optionalKey(text("the Other choice's label", 100)),
    minLabel: Schema.optionalKey(text("a scale's label", 100)),
    maxLabel: Schema.optionalKey(text("a scale's label", 100))
  },
  "question text"
).annotate({ identifier: "QuestionTranslation" })
export type QuestionTranslation = typeof QuestionTranslation.Type

const PageTranslation = strictStruct(
  {
    title: Schema.optionalKey(text("a page's title", 200)),
    description: Schema.optionalKey(text("a page's description", 2000))
  },
  "page text"
).annotate({ identifier: "PageTranslation" })

const EndingTranslation = strictStruct(
  {
    title: Schema.optionalKey(text("an ending's title", 200)),
    message: Schema.optionalKey(text("an ending's message", 5000)),
    button: Schema.optionalKey(text("a button's label", 60))
  },
  "ending text"
).annotate({ identifier: "EndingTranslation" })

const ConfirmationTranslation = strictStruct(
  {
    subject: Schema.optionalKey(
      text("the confirmation's subject", 200).check(
        Schema.isPattern(/^[^\r\n]*$/, { message: "the confirmation's subject must be one line" })
      )
    ),
    body: Schema.optionalKey(text("the confirmation's body", 20_000))
  },
  "confirmation text"
).annotate({ identifier: "ConfirmationTranslation" })

/** Whether the page offers a translation (`ready`) or it waits for review (`draft`, e.g. machine-made). */
export const TranslationStatus = Schema.Literals(["ready", "draft"]).annotate({
  identifier: "TranslationStatus",
  description: "`ready`: the page offers it; `draft`: waiting for review (machine translations start so), never shown."
})
export type TranslationStatus = typeof TranslationStatus.Type

/**
 * A form in one other language. Every key optional: what is left out is
 * shown in the form's own language (and listed by {@link missing}).
 *
 * @example
 * ```ts
 * const de: Translation = {
 *   status: "ready",
 *   title: "Kundenumfrage",
 *   fields: { "12": { label: "Welche Farbe?", choices: { Red: "Rot" } } },
 *   buttons: { submit: "Absenden" }
 * }
 * ```
 */
export const Translation = strictStruct(
  {
    status: Schema.optionalKey(TranslationStatus),
    title: Schema.optionalKey(text("title", 200)),
    description: Schema.optionalKey(text("description", 10_000)),
    fields: Schema.optionalKey(
      Schema.Record(
        Schema.String.check(Schema.isPattern(/^[1-9]\d{0,9}$/, { message: "a question id" })),
        QuestionTranslation
      )
    ).annotate({ description: "Each question's texts by its id." }),
    pages: Schema.optionalKey(Schema.Record(Schema.String, PageTranslation)).annotate({
      description: "Each page's title and description by its key (`settings.pages`)."
    }),
    endings: Schema.optionalKey(Schema.Record(Schema.String, EndingTranslation)).annotate({
      description: "Each ending's texts by its key (`settings.endings`)."
    }),
    closedMessage: Schema.optionalKey(text("closedMessage", 1000)),
    buttons: Schema.optionalKey(ThemeButtons),
    logoAlt: Schema.optionalKey(text("logoAlt", 200)),
    confirmation: Schema.optionalKey(ConfirmationTranslation).annotate({
      description: "The confirmation e-mail's subject and body (with the same `{{…}}` fields as the form's own)."
    })
  },
  "translation key"
).annotate({ identifier: "Translation" })
export type Translation = typeof Translation.Type

/** The most languages one form may be translated into. */
export const MAX_TRANSLATIONS = 30

/**
 * A form's translations by language tag: at most 30.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Translations)({ de: { title: "Umfrage" }, ar: { title: "استطلاع" } })
 * ```
 */
export const Translations = Schema.Record(LanguageTag, Translation)
  .check(
    Schema.makeFilter((all: object) =>
      Object.keys(all).length <= MAX_TRANSLATIONS ? undefined : `a form has at most ${MAX_TRANSLATIONS} translations`
    )
  )
  .annotate({
    identifier: "Translations",
    description:
      "Extension: the form in other languages, by BCP 47 tag; each translation's texts by stable keys " +
      "(questions by id, choices by the form's own choice text). The form's own language is `settings.language`."
  })
export type Translations = typeof Translations.Type

/** The language a form is written in when its settings do not say. */
export const DEFAULT_LANGUAGE = "en"

/** The form has no translation into the language asked for (404). */
export class TranslationNotFound extends Schema.TaggedError<TranslationNotFound>()("TranslationNotFound", {
  message: Schema.String
}) {}

/** One text of the form to translate, as the API lists it: where its translation goes, and the form's words. */
export const TranslatableText = Schema.Struct({
  path: Schema.Array(Schema.String).annotate({
    description: 'Where the text goes in a translation, e.g. ["fields", "12", "choices", "Red"].'
  }),
  source: Schema.String.annotate({ description: "The form's own words." })
}).annotate({ identifier: "TranslatableText" })

/** How far a translation is: its language, status and how many of the form's texts it has. */
export const TranslationState = Schema.Struct({
  language: LanguageTag,
  name: Schema.String.annotate({ description: "What the language calls itself (Deutsch, العربية)." }),
  direction: Schema.Literals(["ltr", "rtl"]).annotate({ description: "Which way the language is written." }),
  status: TranslationStatus,
  translated: Schema.Int.annotate({ description: "How many of the form's texts the translation has." }),
  total: Schema.Int.annotate({ description: "How many texts the form has to translate." })
}).annotate({ identifier: "TranslationState" })
export type TranslationState = typeof TranslationState.Type

/** A form's own language and how far each of its translations is (`GET /forms/{formId}/translations`). */
export const TranslationList = Schema.Struct({
  language: LanguageTag.annotate({ description: "The form's own language (`settings.language`, default en)." }),
  translations: Schema.Array(TranslationState)
}).annotate({ identifier: "TranslationList" })
export type TranslationList = typeof TranslationList.Type

/** One text of the form with its translation, if it has one. */
export const TranslatedText = Schema.Struct({
  ...TranslatableText.fields,
  text: Schema.NullOr(Schema.String).annotate({ description: "The translation's words, or null when it has none." })
}).annotate({ identifier: "TranslatedText" })

/** One translation with how far it is and what it still lacks (`GET /forms/{formId}/translations/{language}`). */
export const TranslationDetail = Schema.Struct({
  ...TranslationState.fields,
  translation: Translation,
  texts: Schema.Array(TranslatedText).annotate({
    description: "Every text of the form, in the form's order, with the translation's words (null where it has none)."
  }),
  missing: Schema.Array(TranslatableText).annotate({
    description: "The form's texts the translation does not have yet (shown in the form's own language)."
  })
}).annotate({ identifier: "TranslationDetail" })
export type TranslationDetail = typeof TranslationDetail.Type
