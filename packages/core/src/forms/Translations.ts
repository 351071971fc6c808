/**
 * A form in other languages: its translations, one per language, each the
 * respondent-facing text of the form by stable keys (the title; each
 * question's label, help, placeholder and scale labels by question id; its
 * choices, matrix rows and columns by the choice's own text in the form's
 * language; pages and endings by key; button words; the confirmation
 * e-mail). Answers keep the form's own choice texts whatever language they
 * were given in, so they stay comparable. A translation is `ready` (the page
 * offers it) or a `draft` (machine-made, waiting for review: never shown).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { BoundedText, strictStruct } from "../kernel/index.ts"
import { directionOf, LanguageTag, nativeName } from "../languages/index.ts"
import type { AnswerValue } from "./Answers.ts"
import { type Field, otherOf } from "./Fields.ts"
import type { Wording as QuestionWording } from "./questions/QuestionType.ts"
import { typeOf } from "./questions/QuestionTypes.ts"
import type { Ending } from "./Endings.ts"
import type { Page } from "./Pages.ts"
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

/** What a form is translated from: the parts of it with respondent-facing text. */
export interface TranslatableForm {
  readonly title: string
  readonly description: string | null
  readonly fields: ReadonlyArray<Field>
  readonly settings: {
    readonly language?: string | undefined
    readonly pages?: ReadonlyArray<Page> | undefined
    readonly endings?: ReadonlyArray<Ending> | undefined
    readonly closedMessage?: string | undefined
    readonly theme?:
      | {
          readonly logoAlt?: string | undefined
          readonly buttons?: { readonly [K in "start" | "next" | "submit" | "back"]?: string | undefined } | undefined
        }
      | undefined
  }
}

/** One text of a form to translate: where it goes in a translation, and the form's own words. */
export interface SourceText {
  readonly path: ReadonlyArray<string>
  readonly source: string
}

/** The confirmation e-mail's own texts, when the form sends one. */
export interface ConfirmationSource {
  readonly subject: string
  readonly body: string
}

/**
 * Every respondent-facing text of a form, with where its translation goes:
 * what a complete translation has.
 *
 * @example
 * ```ts
 * sourceTexts({ title: "Survey", description: null, fields: [], settings: {} }) // [{ path: ["title"], source: "Survey" }]
 * ```
 */
export const sourceTexts = (form: TranslatableForm, confirmation?: ConfirmationSource): ReadonlyArray<SourceText> => {
  const out: Array<SourceText> = [{ path: ["title"], source: form.title }]
  if (form.description !== null && form.description.trim() !== "")
    out.push({ path: ["description"], source: form.description })
  for (const field of form.fields) {
    const id = String(field.id)
    const options = field.options
    out.push({ path: ["fields", id, "label"], source: field.label })
    if (options?.help) out.push({ path: ["fields", id, "help"], source: options.help })
    if (options?.placeholder) out.push({ path: ["fields", id, "placeholder"], source: options.placeholder })
    for (const choice of options?.choices ?? []) out.push({ path: ["fields", id, "choices", choice], source: choice })
    for (const row of options?.rows ?? []) out.push({ path: ["fields", id, "rows", row], source: row })
    for (const column of options?.columns ?? []) out.push({ path: ["fields", id, "columns", column], source: column })
    const other = otherOf(field)
    if (other !== undefined && options?.otherLabel !== undefined)
      out.push({ path: ["fields", id, "other"], source: other })
    if (options?.minLabel) out.push({ path: ["fields", id, "minLabel"], source: options.minLabel })
    if (options?.maxLabel) out.push({ path: ["fields", id, "maxLabel"], source: options.maxLabel })
  }
  for (const page of form.settings.pages ?? []) {
    if (page.title !== undefined) out.push({ path: ["pages", page.key, "title"], source: page.title })
    if (page.description !== undefined) out.push({ path: ["pages", page.key, "description"], source: page.description })
  }
  for (const ending of form.settings.endings ?? []) {
    out.push({ path: ["endings", ending.key, "title"], source: ending.title })
    if (ending.message !== undefined) out.push({ path: ["endings", ending.key, "message"], source: ending.message })
    if (ending.button !== undefined) out.push({ path: ["endings", ending.key, "button"], source: ending.button.label })
  }
  if (form.settings.closedMessage !== undefined)
    out.push({ path: ["closedMessage"], source: form.settings.closedMessage })
  const theme = form.settings.theme
  for (const button of ["start", "next", "submit", "back"] as const) {
    const words = theme?.buttons?.[button]
    if (words !== undefined) out.push({ path: ["buttons", button], source: words })
  }
  if (theme?.logoAlt !== undefined) out.push({ path: ["logoAlt"], source: theme.logoAlt })
  if (confirmation !== undefined) {
    out.push({ path: ["confirmation", "subject"], source: confirmation.subject })
    out.push({ path: ["confirmation", "body"], source: confirmation.body })
  }
  return out
}

/** The text at a path of a translation (own keys only: a choice may be called "__proto__"). */
export const textAt = (translation: Translation, path: ReadonlyArray<string>): string | undefined => {
  let at: unknown = translation
  for (const key of path) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, key)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return typeof at === "string" ? at : undefined
}

/**
 * The texts of the form a translation does not have yet, in the form's order.
 *
 * @example
 * ```ts
 * missing({ title: "Survey", description: "Tell us", fields: [], settings: {} }, { title: "Umfrage" })
 * // [{ path: ["description"], source: "Tell us" }]
 * ```
 */
export const missing = (
  form: TranslatableForm,
  translation: Translation,
  confirmation?: ConfirmationSource
): ReadonlyArray<SourceText> => sourceTexts(form, confirmation).filter((s) => textAt(translation, s.path) === undefined)

/** One thing of a translation the form does not have: where, and why. */
export interface TranslationProblem {
  readonly path: ReadonlyArray<string>
  readonly issue: string
}

/**
 * Where a translation of the form may have texts: the form's own, and the
 * confirmation e-mail's (kept by the e-mail settings, whether it is sent or not).
 */
const knownPaths = (form: TranslatableForm): ReadonlySet<string> =>
  new Set([...sourceTexts(form, { subject: "", body: "" }).map((s) => JSON.stringify(s.path))])

/**
 * What a translation names that the form does not have (an unknown
 * question, choice, row, column, page, ending, button or text), each once;
 * empty when it fits. A form's own language takes no translation.
 *
 * @example
 * ```ts
 * problems({ title: "S", description: null, fields: [], settings: {} }, "de", { fields: { "9": { label: "x" } } })
 * // [{ path: ["fields", "9"], issue: "no question 9 in this form" }]
 * ```
 */
export const problems = (
  form: TranslatableForm,
  language: string,
  translation: Translation
): ReadonlyArray<TranslationProblem> => {
  const own = form.settings.language ?? DEFAULT_LANGUAGE
  if (language === own)
    return [{ path: [], issue: `${language} is the form's own language (settings.language): it takes no translation` }]
  const known = knownPaths(form)
  const out: Array<TranslationProblem> = []
  const fieldIds = new Set(form.fields.map((f) => String(f.id)))
  const walk = (value: unknown, path: ReadonlyArray<string>) => {
    if (typeof value === "string") {
      if (known.has(JSON.stringify(path))) return
      // An unknown question is named once, by its id, not by each of its texts.
      const unknownQuestion = path[0] === "fields" && !fieldIds.has(path[1] ?? "")
      out.push({ path: unknownQuestion ? path.slice(0, 2) : path, issue: unknownText(path, fieldIds) })
      return
    }
    if (typeof value !== "object" || value === null) return
    for (const key of Object.keys(value)) {
      if (path.length === 0 && key === "status") continue
      walk((value as Record<string, unknown>)[key], [...path, key])
    }
  }
  walk(translation, [])
  const seen = new Set<string>()
  return out.filter((p) => {
    const key = JSON.stringify(p.path)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const unknownText = (path: ReadonlyArray<string>, fieldIds: ReadonlySet<string>): string => {
  const [top, key, part, item] = path
  if (top === "fields" && key !== undefined && !fieldIds.has(key)) return `no question ${key} in this form`
  if (top === "fields" && (part === "choices" || part === "rows" || part === "columns") && item !== undefined)
    return `question ${key} has no ${part.slice(0, -1)} ${JSON.stringify(item)}`
  if (top === "fields") return `question ${key} has no ${part}`
  if (top === "pages") return `no page ${JSON.stringify(key)} with a ${part} in this form`
  if (top === "endings") return `no ending ${JSON.stringify(key)} with a ${part} in this form`
  if (top === "buttons") return `the form's theme does not set the ${key} button's words`
  return `the form has no ${top}`
}

/**
 * The translation without what the form no longer has (a question, choice,
 * page or ending taken out of the form since): kept whenever a form changes,
 * so its translations always fit it.
 *
 * @example
 * ```ts
 * prune({ title: "S", description: null, fields: [], settings: {} }, { title: "U", fields: { "9": { label: "x" } } })
 * // { title: "U" }
 * ```
 */
export const prune = (form: TranslatableForm, translation: Translation): Translation => {
  const known = knownPaths(form)
  const keep = (value: unknown, path: ReadonlyArray<string>): unknown => {
    if (typeof value === "string") return path[0] === "status" || known.has(JSON.stringify(path)) ? value : undefined
    if (typeof value !== "object" || value === null) return undefined
    const entries = Object.keys(value).flatMap((key) => {
      const kept = keep((value as Record<string, unknown>)[key], [...path, key])
      return kept === undefined ? [] : [[key, kept] as const]
    })
    return entries.length === 0 ? undefined : Object.fromEntries(entries)
  }
  return (keep(translation, []) ?? {}) as Translation
}

/**
 * The entry of a record by a key of the form's text, own keys only (a choice or page may be called
 * "__proto__" or "constructor").
 *
 * @example
 * ```ts
 * entryOf({ Red: "Rot" }, "Red") // "Rot"
 * entryOf({ Red: "Rot" }, "constructor") // undefined
 * ```
 */
export const entryOf = <A>(record: Readonly<Record<string, A>> | undefined, key: string): A | undefined =>
  record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined

/** The words a respondent sees for the form's own texts: choices, rows and columns by the form's text. */
export type Wording = QuestionWording

/** The form's own words: each choice, row and column as the form writes it. */
export const ownWording: Wording = { choice: (_, c) => c, row: (_, r) => r, column: (_, c) => c }

/** A form in a language: its texts in that language, and the words of its choices, rows and columns. */
export interface Localized<F> {
  readonly form: F
  readonly wording: Wording
}

/**
 * A form with its texts in a translation's words (each text it lacks in the
 * form's own), and the words of choices, rows and columns, whose answers
 * keep the form's own texts.
 *
 * @example
 * ```ts
 * const { form: de, wording } = localize(form, { title: "Umfrage", fields: { "1": { choices: { Red: "Rot" } } } })
 * wording.choice(form.fields[0], "Red") // "Rot"
 * ```
 */
export const localize = <F extends TranslatableForm>(form: F, translation: Translation | undefined): Localized<F> => {
  if (translation === undefined) return { form, wording: ownWording }
  const fieldsOf = (field: { readonly id: number }): QuestionTranslation | undefined =>
    entryOf(translation.fields, String(field.id))
  const inMap = (map: Readonly<Record<string, string>> | undefined, key: string): string => entryOf(map, key) ?? key
  const fields = form.fields.map((field): Field => {
    const t = fieldsOf(field)
    if (t === undefined) return field
    const options = field.options
    return {
      ...field,
      label: t.label ?? field.label,
      options:
        options === null
          ? null
          : {
              ...options,
              ...(t.help !== undefined && options.help !== undefined ? { help: t.help } : {}),
              ...(t.placeholder !== undefined && options.placeholder !== undefined
                ? { placeholder: t.placeholder }
                : {}),
              ...(t.minLabel !== undefined && options.minLabel !== undefined ? { minLabel: t.minLabel } : {}),
              ...(t.maxLabel !== undefined && options.maxLabel !== undefined ? { maxLabel: t.maxLabel } : {})
            }
    }
  })
  const settings = form.settings
  const pages = settings.pages?.map((page) => {
    const t = entryOf(translation.pages, page.key)
    return t === undefined
      ? page
      : {
          ...page,
          ...(page.title !== undefined && t.title !== undefined ? { title: t.title } : {}),
          ...(page.description !== undefined && t.description !== undefined ? { description: t.description } : {})
        }
  })
  const endings = settings.endings?.map((ending) => {
    const t = entryOf(translation.endings, ending.key)
    return t === undefined
      ? ending
      : {
          ...ending,
          title: t.title ?? ending.title,
          ...(ending.message !== undefined && t.message !== undefined ? { message: t.message } : {}),
          ...(ending.button !== undefined && t.button !== undefined
            ? { button: { ...ending.button, label: t.button } }
            : {})
        }
  })
  const theme = settings.theme
  const buttons = theme?.buttons
  const localizedTheme =
    theme === undefined
      ? undefined
      : {
          ...theme,
          ...(theme.logoAlt !== undefined && translation.logoAlt !== undefined ? { logoAlt: translation.logoAlt } : {}),
          ...(buttons === undefined
            ? {}
            : {
                buttons: Object.fromEntries(
                  Object.entries(buttons).map(([name, words]) => [
                    name,
                    translation.buttons?.[name as "start" | "next" | "submit" | "back"] ?? words
                  ])
                )
              })
        }
  const localized = {
    ...form,
    title: translation.title ?? form.title,
    description: form.description === null ? null : (translation.description ?? form.description),
    fields,
    settings: {
      ...settings,
      ...(pages === undefined ? {} : { pages }),
      ...(endings === undefined ? {} : { endings }),
      ...(settings.closedMessage !== undefined && translation.closedMessage !== undefined
        ? { closedMessage: translation.closedMessage }
        : {}),
      ...(localizedTheme === undefined ? {} : { theme: localizedTheme })
    }
  }
  return {
    form: localized,
    wording: {
      choice: (field, choice) => {
        const t = fieldsOf(field)
        if (t === undefined) return choice
        return choice === otherOf(field) && t.other !== undefined ? t.other : inMap(t.choices, choice)
      },
      row: (field, row) => inMap(fieldsOf(field)?.rows, row),
      column: (field, column) => inMap(fieldsOf(field)?.columns, column)
    }
  }
}

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

/**
 * How far a translation of the form is, with what it lacks.
 *
 * @example
 * ```ts
 * detailOf(form, "de", { title: "Umfrage" }).missing // the form's other texts
 * ```
 */
export const detailOf = (
  form: TranslatableForm,
  language: string,
  translation: Translation,
  confirmation?: ConfirmationSource
): TranslationDetail => {
  const texts = sourceTexts(form, confirmation).map((s) => ({ ...s, text: textAt(translation, s.path) ?? null }))
  const lacking = texts.filter((s) => s.text === null).map(({ path, source }) => ({ path, source }))
  return {
    language,
    name: nativeName(language),
    direction: directionOf(language),
    status: translation.status ?? "ready",
    translated: texts.length - lacking.length,
    total: texts.length,
    translation,
    texts,
    missing: lacking
  }
}

/**
 * The languages a form's page offers: its own, then each `ready` translation.
 *
 * @example
 * ```ts
 * offeredLanguages({ settings: { language: "en" }, translations: { de: {}, fr: { status: "draft" } } }) // ["en", "de"]
 * ```
 */
export const offeredLanguages = (form: {
  readonly settings: { readonly language?: string | undefined }
  readonly translations?: Translations | undefined
}): ReadonlyArray<string> => [
  form.settings.language ?? DEFAULT_LANGUAGE,
  ...Object.entries(form.translations ?? {})
    .filter(([, t]) => (t.status ?? "ready") === "ready")
    .map(([language]) => language)
]

/**
 * A form's questions and a response's answers as a respondent reads them in
 * a language, for what is shown or sent to them (a confirmation e-mail):
 * choices, rows and columns in the translation's words, yes and no in the
 * language's. Never stored: answers keep the form's own texts.
 *
 * @example
 * ```ts
 * const shown = forDisplay(de.fields, { "3": "Red", "4": true }, wording, { yes: "Ja", no: "Nein" })
 * shown.values // { "3": "Rot", "4": "Ja" }
 * ```
 */
export const forDisplay = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>,
  wording: Wording,
  words: { readonly yes: string; readonly no: string }
): { readonly fields: ReadonlyArray<Field>; readonly values: Readonly<Record<string, AnswerValue>> } => {
  const byId = new Map(fields.map((f) => [String(f.id), f]))
  const shownValues: Record<string, AnswerValue> = {}
  for (const [key, value] of Object.entries(values)) {
    const field = byId.get(key)
    shownValues[key] = field === undefined ? value : shownAnswer(field, value, wording, words)
  }
  const shownFields = fields.map((field): Field => {
    const options = field.options
    if (options === null) return field
    return {
      ...field,
      options: {
        ...options,
        ...(options.choices === undefined ? {} : { choices: options.choices.map((c) => wording.choice(field, c)) }),
        ...(options.rows === undefined ? {} : { rows: options.rows.map((r) => wording.row(field, r)) }),
        ...(options.columns === undefined ? {} : { columns: options.columns.map((c) => wording.column(field, c)) })
      }
    }
  })
  return { fields: shownFields, values: shownValues }
}

const shownAnswer = (
  field: Field,
  value: AnswerValue,
  wording: Wording,
  words: { readonly yes: string; readonly no: string }
): AnswerValue => {
  if (typeof value === "boolean") return value ? words.yes : words.no
  if (typeof value === "string") return field.options?.choices?.includes(value) ? wording.choice(field, value) : value
  if (Array.isArray(value))
    return value.map((v) => (field.options?.choices?.includes(v) ? wording.choice(field, v) : v))
  // Another shape (a matrix's rows and columns) as its type shows it.
  return (typeOf(field).shown?.(field, value, wording) ?? value) as AnswerValue
}

/**
 * A form's own language and how far each of its translations is, by language tag.
 *
 * @example
 * ```ts
 * listOf(form).translations.map((t) => [t.language, t.translated, t.total]) // [["de", 12, 13]]
 * ```
 */
export const listOf = (
  form: TranslatableForm & { readonly translations?: Translations | undefined },
  confirmation?: ConfirmationSource
): TranslationList => ({
  language: form.settings.language ?? DEFAULT_LANGUAGE,
  translations: Object.entries(form.translations ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([language, translation]) => {
      const { translation: _, texts: __, missing: ___, ...state } = detailOf(form, language, translation, confirmation)
      return state
    })
})

/**
 * The form's translation into a language with how far it is, or undefined when it has none.
 *
 * @example
 * ```ts
 * translationOf(form, "de")?.missing // the texts still to translate
 * ```
 */
export const translationOf = (
  form: TranslatableForm & { readonly translations?: Translations | undefined },
  language: string,
  confirmation?: ConfirmationSource
): TranslationDetail | undefined => {
  const translation = entryOf(form.translations, language)
  return translation === undefined ? undefined : detailOf(form, language, translation, confirmation)
}

/**
 * The translation with texts put at their paths (as {@link missing} lists
 * them), keeping what it had; own keys only (a choice may be called "__proto__").
 *
 * @example
 * ```ts
 * withTexts({ title: "Umfrage" }, [{ path: ["fields", "3", "choices", "Red"], text: "Rot" }])
 * // { title: "Umfrage", fields: { "3": { choices: { Red: "Rot" } } } }
 * ```
 */
export const withTexts = (
  translation: Translation,
  texts: ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly text: string }>
): Record<string, unknown> => {
  const copy = (value: unknown): unknown =>
    typeof value === "object" && value !== null
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]))
      : value
  const out = copy(translation) as Record<string, unknown>
  for (const { path, text } of texts) {
    let at = out
    path.slice(0, -1).forEach((key) => {
      const next = Object.hasOwn(at, key) ? at[key] : undefined
      if (typeof next !== "object" || next === null) {
        const fresh: Record<string, unknown> = {}
        Object.defineProperty(at, key, { value: fresh, enumerable: true, writable: true, configurable: true })
        at = fresh
      } else at = next as Record<string, unknown>
    })
    Object.defineProperty(at, path.at(-1)!, { value: text, enumerable: true, writable: true, configurable: true })
  }
  return out
}
