/**
 * The languages qforms writes its e-mails to members in (the application's:
 * `accounts.language`), and how a message table is said in one of them (ICU
 * MessageFormat, each message compiled once): the digest and the webhook
 * alerts put their e-mails into the member's language with it.
 */
import { IntlMessageFormat } from "intl-messageformat"

/** The languages an e-mail to a member is written in (the application's: `accounts.language`). */
export const digestLanguages = ["en", "de", "ar"] as const
export type DigestLanguage = (typeof digestLanguages)[number]

/**
 * Says the words of a member-facing e-mail (a table of ICU messages in each of
 * {@link digestLanguages}), each message compiled once: how the digest and
 * the webhook alerts put their e-mails into the member's language.
 *
 * @example
 * ```ts
 * const say = sayer({ en: { hi: "Hi {name}" }, de: { hi: "Hallo {name}" }, ar: { hi: "مرحبًا {name}" } })
 * say("de", "hi", { name: "Ada" }) // "Hallo Ada"
 * ```
 */
export const sayer = <Key extends string>(table: Readonly<Record<DigestLanguage, Readonly<Record<Key, string>>>>) => {
  const compiled = new Map<string, IntlMessageFormat>()
  return (language: DigestLanguage, key: Key, values?: Record<string, string | number>): string => {
    const id = `${language}.${key}`
    let message = compiled.get(id)
    if (message === undefined) {
      message = new IntlMessageFormat(table[language][key], language)
      compiled.set(id, message)
    }
    return String(message.format(values))
  }
}

/**
 * The language an e-mail to a member is written in: the account's choice when it is one
 * of {@link digestLanguages}, else English.
 */
export const languageOf = (preference: string | null): DigestLanguage =>
  digestLanguages.find((language) => language === preference) ?? "en"
