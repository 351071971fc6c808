/**
 * The language of the application's own interface (not of the forms, which
 * have their own: `forms/Translations.ts`): English, German and Arabic (right
 * to left). Each account may choose one (`accounts.language`); without a
 * choice the browser's `Accept-Language` decides, then English. The words
 * are ICU MessageFormat catalogues (`app/catalogues/<language>/*.ts`, English
 * the source of every key); the server says the sign-in pages' words with
 * them, and the shell page hands the chosen catalogue to its scripts
 * (`#qforms-words`), which format it with the same `intl-messageformat`.
 */
import * as Schema from "effect/Schema"
import { IntlMessageFormat } from "intl-messageformat"
import { acceptedLanguages, directionOf, nativeName, negotiate } from "../languages/index.ts"
import { auth as arAuth } from "./catalogues/ar/auth.ts"
import { builder as arBuilder } from "./catalogues/ar/builder.ts"
import { cases as arCases } from "./catalogues/ar/cases.ts"
import { fields as arFields } from "./catalogues/ar/fields.ts"
import { settings as arSettings } from "./catalogues/ar/settings.ts"
import { shell as arShell } from "./catalogues/ar/shell.ts"
import { auth as deAuth } from "./catalogues/de/auth.ts"
import { builder as deBuilder } from "./catalogues/de/builder.ts"
import { cases as deCases } from "./catalogues/de/cases.ts"
import { fields as deFields } from "./catalogues/de/fields.ts"
import { settings as deSettings } from "./catalogues/de/settings.ts"
import { shell as deShell } from "./catalogues/de/shell.ts"
import { auth as enAuth } from "./catalogues/en/auth.ts"
import { builder as enBuilder } from "./catalogues/en/builder.ts"
import { cases as enCases } from "./catalogues/en/cases.ts"
import { fields as enFields } from "./catalogues/en/fields.ts"
import { settings as enSettings } from "./catalogues/en/settings.ts"
import { shell as enShell } from "./catalogues/en/shell.ts"

const english = { ...enShell, ...enAuth, ...enFields, ...enBuilder, ...enCases, ...enSettings }

/** The name of one of the application's messages, e.g. `"shell.forms"`. */
export type AppKey = keyof typeof english

/** Every message of the application in one language. */
export type AppCatalogue = { readonly [K in AppKey]: string }

/** The languages the application speaks, English first. */
export const appLanguages = ["en", "de", "ar"] as const

/** One of {@link appLanguages}: what an account may choose for the application. */
export const AppLanguage = Schema.Literals(appLanguages).annotate({
  description: "A language of the application's own interface: en, de or ar"
})

/** Decoded {@link AppLanguage}. */
export type AppLanguage = typeof AppLanguage.Type

/** The catalogue of each language. */
export const catalogues: { readonly [L in AppLanguage]: AppCatalogue } = {
  en: english,
  de: { ...deShell, ...deAuth, ...deFields, ...deBuilder, ...deCases, ...deSettings },
  ar: { ...arShell, ...arAuth, ...arFields, ...arBuilder, ...arCases, ...arSettings }
}

/** The keys of every catalogue (English's). */
export const appKeys = Object.keys(english) as ReadonlyArray<AppKey>

/**
 * The language the application speaks to a person: their account's choice,
 * else the best of `Accept-Language`, else English.
 *
 * @example
 * ```ts
 * choose(null, "de-CH,de;q=0.9,en;q=0.5") // "de"
 * choose("ar", "de") // "ar"
 * ```
 */
export const choose = (preference: string | null | undefined, acceptLanguage: string | undefined): AppLanguage => {
  if (preference !== null && preference !== undefined && Schema.is(AppLanguage)(preference)) return preference
  const best = negotiate(acceptedLanguages(acceptLanguage), appLanguages)
  return best !== undefined && Schema.is(AppLanguage)(best) ? best : "en"
}

/** The values a message takes (`{name}`, `{count, plural, …}`). */
export type AppValues = Readonly<Record<string, string | number>>

/** Says one message of the application in a language. */
export type Say = (key: AppKey, values?: AppValues) => string

const sayers = new Map<AppLanguage, Say>()

/**
 * The application's words in one language (compiled once per message).
 *
 * @example
 * ```ts
 * const say = sayer("de")
 * say("shell.forms") // "Formulare"
 * ```
 */
export const sayer = (language: AppLanguage): Say => {
  const existing = sayers.get(language)
  if (existing !== undefined) return existing
  const compiled = new Map<AppKey, IntlMessageFormat>()
  const say: Say = (key, values) => {
    let message = compiled.get(key)
    if (message === undefined) {
      message = new IntlMessageFormat(catalogues[language][key], language)
      compiled.set(key, message)
    }
    return String(message.format(values))
  }
  sayers.set(language, say)
  return say
}

/** The languages offered to choose from, each named in itself (`Deutsch`, `العربية`). */
export const offered: ReadonlyArray<{ readonly tag: AppLanguage; readonly name: string }> = appLanguages.map((tag) => ({
  tag,
  name: nativeName(tag)
}))

/** What the shell page hands its scripts (`#qforms-words`): the language, its direction and its catalogue. */
export const AppWords = Schema.Struct({
  language: AppLanguage,
  direction: Schema.Literals(["ltr", "rtl"]),
  messages: Schema.Record(Schema.String, Schema.String)
})

/** Decoded {@link AppWords}. */
export type AppWords = typeof AppWords.Type

const scriptTexts = new Map<AppLanguage, string>()

/**
 * The text of the shell page's `#qforms-words` element for a language (made once).
 *
 * @example
 * ```ts
 * html`<script type="application/json" id="qforms-words">${new Html(AppLanguage.scriptText("de"))}</script>`
 * ```
 */
export const scriptText = (language: AppLanguage): string => {
  const existing = scriptTexts.get(language)
  if (existing !== undefined) return existing
  const text = JSON.stringify(
    Schema.encodeSync(AppWords)({ language, direction: directionOf(language), messages: catalogues[language] })
  ).replaceAll("<", "\\u003c")
  scriptTexts.set(language, text)
  return text
}
