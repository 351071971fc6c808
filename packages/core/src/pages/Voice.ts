/**
 * The language a respondent reads the page in, and the page's voice in it:
 * the form's texts in that language (its translation, `forms/Translations.ts`),
 * the page's own words (`languages/Messages.ts`), and which way it is written.
 * The language is the one the respondent chose (`?lang=` or the page's
 * switcher, then kept in the answer token), else the best of their browser's
 * `Accept-Language` among the form's languages, else the form's own.
 */
import {
  acceptedLanguages,
  directionOf,
  type MessageKey,
  type Messages,
  type MessageValues,
  negotiate
} from "../languages/index.ts"
import {
  DEFAULT_LANGUAGE,
  entryOf,
  type FormWithFields,
  localize,
  offeredLanguages,
  ownWording,
  type Wording
} from "../forms/index.ts"

/** How the page speaks to a respondent. */
export interface Voice {
  /** The language (BCP 47). */
  readonly language: string
  readonly direction: "ltr" | "rtl"
  /** A message of the page's own, in the language. */
  readonly say: (key: MessageKey, values?: MessageValues) => string
  /** The words of the form's choices, rows and columns in the language (answers keep the form's own). */
  readonly wording: Wording
  /** The languages the form's page offers, its own first (a switcher shows them when there are several). */
  readonly offered: ReadonlyArray<string>
  /** Messages as written, for the page's script. */
  readonly words: (keys: ReadonlyArray<MessageKey>) => Readonly<Record<string, string>>
}

/**
 * The page's voice before a form is known (a refused step, an unknown
 * form): the best of the browser's languages that qforms speaks, else English.
 *
 * @example
 * ```ts
 * plainVoice(messages, "fr-CH, fr;q=0.9").say("page.notFoundTitle") // in French
 * ```
 */
export const plainVoice = (messages: Messages, acceptLanguage: string | undefined): Voice => {
  const language = negotiate(acceptedLanguages(acceptLanguage), messages.languages) ?? DEFAULT_LANGUAGE
  return {
    language,
    direction: directionOf(language),
    say: (key, values) => messages.say(language, key, values),
    wording: ownWording,
    offered: [language],
    words: (keys) => messages.words(language, keys)
  }
}

/** What the respondent asks for, strongest first. */
export interface LanguageWish {
  /** Chosen on the page: `?lang=` or the switcher. */
  readonly chosen?: string | undefined
  /** Kept from earlier steps (the answer token). */
  readonly kept?: string | undefined
  /** The browser's `Accept-Language` header. */
  readonly acceptLanguage?: string | undefined
}

/**
 * The language of the page for a form and what the respondent asks for:
 * one the form offers (its own, or a ready translation).
 *
 * @example
 * ```ts
 * languageFor(form, { acceptLanguage: "de-AT,de;q=0.9" }) // "de" when the form has a German translation
 * ```
 */
export const languageFor = (form: FormWithFields, wish: LanguageWish): string => {
  const offered = offeredLanguages(form)
  const own = offered[0] ?? DEFAULT_LANGUAGE
  const pick = (wanted: ReadonlyArray<string>) => negotiate(wanted, offered)
  return (
    (wish.chosen === undefined ? undefined : pick([wish.chosen])) ??
    (wish.kept !== undefined && offered.includes(wish.kept) ? wish.kept : undefined) ??
    pick(acceptedLanguages(wish.acceptLanguage)) ??
    own
  )
}

/** A form as its page shows it in one language, with the voice to say the page's words. */
export interface Spoken {
  readonly form: FormWithFields
  readonly voice: Voice
}

/**
 * Makes the voices of the page: `speak(form, language)` is the form in that
 * language and the page's voice, the same objects while the form does not
 * change (the page's caches keyed by the form keep working).
 *
 * @example
 * ```ts
 * const speak = speaker(messages)
 * const { form: de, voice } = speak(form, "de")
 * voice.say("page.submit") // "Absenden"
 * ```
 */
export const speaker = (messages: Messages) => {
  const known = new WeakMap<FormWithFields, Map<string, Spoken>>()
  return (form: FormWithFields, language: string): Spoken => {
    let byLanguage = known.get(form)
    if (byLanguage === undefined) {
      byLanguage = new Map()
      known.set(form, byLanguage)
    }
    const found = byLanguage.get(language)
    if (found !== undefined) return found
    const own = form.settings.language ?? DEFAULT_LANGUAGE
    const translation = language === own ? undefined : entryOf(form.translations, language)
    const localized = localize(form, translation)
    const spoken: Spoken = {
      form: localized.form,
      voice: {
        language,
        direction: directionOf(language),
        say: (key, values) => messages.say(language, key, values),
        wording: localized.wording,
        offered: offeredLanguages(form),
        words: (keys) => messages.words(language, keys)
      }
    }
    byLanguage.set(language, spoken)
    return spoken
  }
}
