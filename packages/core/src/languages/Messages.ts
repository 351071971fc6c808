/**
 * The words qforms itself says to respondents (the public page's chrome, the
 * messages of answer checks, the default confirmation e-mail), in every
 * built-in language, formatted as ICU MessageFormat with the language's
 * plural rules (`intl-messageformat`, on `Intl.PluralRules`). English is the
 * source: every catalogue has its keys. A host may override any message of a
 * built-in language or add a language of its own (`Messages.make`); a message
 * missing from an added language is said in English.
 */
import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isTimeElement,
  parse,
  isPluralElement,
  isSelectElement,
  isTagElement,
  type MessageFormatElement
} from "@formatjs/icu-messageformat-parser"
import * as Context from "effect/Context"
import { IntlMessageFormat } from "intl-messageformat"
import { canonicalOf } from "./Languages.ts"
import { ar } from "./catalogues/ar.ts"
import { de } from "./catalogues/de.ts"
import { type Catalogue, en } from "./catalogues/en.ts"
import { es } from "./catalogues/es.ts"
import { fr } from "./catalogues/fr.ts"
import { he } from "./catalogues/he.ts"
import { it } from "./catalogues/it.ts"
import { ja } from "./catalogues/ja.ts"
import { nl } from "./catalogues/nl.ts"
import { pl } from "./catalogues/pl.ts"
import { pt } from "./catalogues/pt.ts"
import { tr } from "./catalogues/tr.ts"
import { zhHans } from "./catalogues/zh-Hans.ts"

/** The name of one message, e.g. `"page.submit"` or `"answer.required"`. */
export type MessageKey = keyof typeof en

export type { Catalogue }

/** The values a message is filled in with (numbers are formatted in the message's language). */
export type MessageValues = Readonly<Record<string, string | number>>

/** A message to say, not yet in any language: its key and values. */
export interface Message {
  readonly key: MessageKey
  readonly values?: MessageValues | undefined
}

/**
 * The built-in catalogues by language tag (BCP 47): English, German, French,
 * Spanish, Portuguese, Italian, Dutch, Polish, Turkish, Japanese, Chinese
 * (simplified), Arabic and Hebrew.
 */
export const builtIn: Readonly<Record<string, Catalogue>> = {
  en,
  de,
  fr,
  es,
  pt,
  it,
  nl,
  pl,
  tr,
  ja,
  "zh-Hans": zhHans,
  ar,
  he
}

/** The English catalogue, the source of every key. */
export const english: Catalogue = en

/** Every message key, in the English catalogue's order. */
export const messageKeys = Object.keys(en) as ReadonlyArray<MessageKey>

interface Compiled {
  readonly message: IntlMessageFormat
  /** The values the message counts or selects by (passed as they are, not as text). */
  readonly counted: ReadonlySet<string>
}

/**
 * The values a message takes, each with how: `counted` when a plural, select or number format reads it as a
 * number, `plain` when it is put in as text.
 */
const valuesOf = (
  elements: ReadonlyArray<MessageFormatElement>,
  into = new Map<string, "plain" | "counted">()
): Map<string, "plain" | "counted"> => {
  for (const element of elements) {
    if (isPluralElement(element) || isSelectElement(element)) {
      into.set(element.value, "counted")
      for (const option of Object.values(element.options)) valuesOf(option.value, into)
    } else if (isNumberElement(element)) into.set(element.value, "counted")
    else if (isArgumentElement(element) || isDateElement(element) || isTimeElement(element)) {
      if (!into.has(element.value)) into.set(element.value, "plain")
    } else if (isTagElement(element)) valuesOf(element.children, into)
  }
  return into
}

/** The values a message counts or selects by. */
const countedOf = (elements: ReadonlyArray<MessageFormatElement>): ReadonlySet<string> =>
  new Set([...valuesOf(elements)].filter(([, how]) => how === "counted").map(([name]) => name))

/** Messages a host gives: by language tag, any messages by key (a built-in language's override it). */
export type CustomMessages = Readonly<Record<string, Readonly<Partial<Record<MessageKey, string>>>>>

/**
 * The messages in every language qforms speaks: the built-in catalogues with
 * a host's own messages over them.
 */
export interface Messages {
  /** Every language with a catalogue, English first. */
  readonly languages: ReadonlyArray<string>
  /**
   * A message in a language (English when the language has none, or lacks the key), filled in; numbers in
   * the language's digits and decimal sign.
   */
  readonly say: (language: string, key: MessageKey, values?: MessageValues) => string
  /** Messages as written (not filled in), for the page's script. */
  readonly words: (language: string, keys: ReadonlyArray<MessageKey>) => Readonly<Record<string, string>>
}

/**
 * The messages of a host's catalogues: the built-in ones with `custom` over
 * them. A language of `custom` that is not built in is added; its missing
 * messages are said in English. Throws on a message that is not ICU
 * MessageFormat or an unknown key (`Options` checks both before).
 *
 * @example
 * ```ts
 * const messages = make({ de: { "page.submit": "Absenden" }, sv: { "page.submit": "Skicka" } })
 * messages.say("sv", "page.submit") // "Skicka"
 * messages.say("sv", "page.back") // "Back"
 * messages.say("de", "page.questionCount", { count: 3 }) // "3 Fragen"
 * ```
 */
export const make = (custom: CustomMessages = {}): Messages => {
  const catalogues = new Map<string, Partial<Record<MessageKey, string>>>(Object.entries(builtIn))
  for (const [language, messages] of Object.entries(custom)) {
    catalogues.set(language, { ...catalogues.get(language), ...messages })
  }
  const compiled = new Map<string, Compiled>()
  const numbers = new Map<string, Intl.NumberFormat>()
  const sourceOf = (language: string, key: MessageKey): { readonly language: string; readonly text: string } => {
    const own = catalogues.get(language)?.[key]
    return own === undefined ? { language: "en", text: en[key] } : { language, text: own }
  }
  const numberFormat = (language: string) => {
    let format = numbers.get(language)
    if (format === undefined) {
      format = new Intl.NumberFormat(language, { useGrouping: false, maximumFractionDigits: 20 })
      numbers.set(language, format)
    }
    return format
  }
  const say = (language: string, key: MessageKey, values?: MessageValues): string => {
    const source = sourceOf(language, key)
    const id = `${source.language}\u0000${key}`
    let entry = compiled.get(id)
    if (entry === undefined) {
      const message = new IntlMessageFormat(source.text, source.language)
      entry = { message, counted: countedOf(message.getAst()) }
      compiled.set(id, entry)
    }
    if (values === undefined) return String(entry.message.format())
    const format = numberFormat(source.language)
    const counted = entry.counted
    // A plural or select reads a number as a number; a plain {value} gets the language's digits and decimal sign.
    const filled = Object.fromEntries(
      Object.entries(values).map(([name, value]) => [
        name,
        typeof value === "number" && !counted.has(name) ? format.format(value) : value
      ])
    )
    return String(entry.message.format(filled))
  }
  return {
    languages: ["en", ...[...catalogues.keys()].filter((language) => language !== "en")],
    say,
    words: (language, keys) => Object.fromEntries(keys.map((key) => [key, sourceOf(language, key).text]))
  }
}

/**
 * What is wrong with a host's messages, or undefined: a language that is not
 * a tag, a key no catalogue has, a message that is not ICU MessageFormat or
 * that takes a value the English one does not give.
 *
 * @example
 * ```ts
 * customProblem({ de: { "page.submit": "Absenden" } }) // undefined
 * customProblem({ de: { "page.sumbit": "Absenden" } }) // 'messages.de: no message "page.sumbit" (see …)'
 * ```
 */
export const customProblem = (custom: unknown): string | undefined => {
  if (custom === undefined) return undefined
  if (typeof custom !== "object" || custom === null || Array.isArray(custom))
    return "messages: must be an object of languages, each an object of messages by key"
  for (const [language, messages] of Object.entries(custom)) {
    if (canonicalOf(language) !== language)
      return `messages: ${JSON.stringify(language)} is not a language tag such as de, pt-BR or zh-Hans`
    if (typeof messages !== "object" || messages === null || Array.isArray(messages))
      return `messages.${language}: must be an object of messages by key`
    for (const [key, text] of Object.entries(messages)) {
      if (!Object.hasOwn(en, key))
        return `messages.${language}: no message ${JSON.stringify(key)} (the keys are those of languages/catalogues/en.ts)`
      if (typeof text !== "string" || text.trim() === "")
        return `messages.${language}.${key}: must be a non-empty string`
      let elements: Array<MessageFormatElement>
      try {
        elements = parse(text)
      } catch (error) {
        return `messages.${language}.${key}: not ICU MessageFormat (${error instanceof Error ? error.message : String(error)})`
      }
      const given = valuesOf(parse(en[key as MessageKey]))
      const unknown = [...valuesOf(elements).keys()].find((name) => !given.has(name))
      if (unknown !== undefined) return `messages.${language}.${key}: takes no value {${unknown}}`
    }
  }
  return undefined
}

/** The built-in catalogues alone, made once (what the API's English messages and a host without its own say). */
export const builtInMessages: Messages = make()

/**
 * The messages in force: the built-in catalogues, or a host's over them
 * (`Qforms.make({ messages })` provides it).
 */
export const MessageCatalogues = Context.Reference<Messages>("@qforms/core/languages/MessageCatalogues", {
  defaultValue: () => builtInMessages
})
