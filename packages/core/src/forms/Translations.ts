import { directionOf, nativeName } from "../languages/index.ts"
import type { AnswerValue } from "./Answers.ts"
import { type Field, otherOf } from "./Fields.ts"
import type { Wording as QuestionWording } from "./questions/QuestionType.ts"
import { typeOf } from "./questions/QuestionTypes.ts"
import type { Ending } from "./Endings.ts"
import type { Page } from "./Pages.ts"

import {
  DEFAULT_LANGUAGE,
  type QuestionTranslation,
  type Translation,
  type TranslationDetail,
  type TranslationList,
  type Translations
} from "./TranslationSchemas.ts"

export * from "./TranslationSchemas.ts"

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
