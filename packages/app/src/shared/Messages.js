// @ts-check
// The application's messages in one language, formatted with intl-messageformat like the server's (ICU
// MessageFormat: plurals by the language's rules, its digits). Pure: the words are given (Words.js reads the page's).
import { IntlMessageFormat } from "intl-messageformat"

/** @typedef {import("./Types.js").AppKey} AppKey */
/** @typedef {import("./Types.js").AppWords} AppWords */

/**
 * What says the messages of `words`: `t` one message, `withParts` one with elements among its words, `has` whether
 * there is a message of a key made from a value. Each message is compiled once, when first said.
 * @param {AppWords} words
 */
export const messagesOf = (words) => {
  /** @type {Map<string, IntlMessageFormat>} */
  const compiled = new Map()

  /**
   * One message in the language, its values filled in (its key when the catalogue has no such message).
   * @param {AppKey} key
   * @param {Readonly<Record<string, string | number>>} [values]
   * @returns {string}
   */
  const t = (key, values) => {
    const source = words.messages[key]
    if (source === undefined) return key
    let message = compiled.get(key)
    if (!message) {
      message = new IntlMessageFormat(source, words.language)
      compiled.set(key, message)
    }
    return String(message.format(values))
  }

  /**
   * A message with elements among its words (`<code>` and the like): each element's value is marked, the message
   * formatted, then split around the marks, so that a language puts the elements where its word order needs them.
   * @param {AppKey} key
   * @param {Readonly<Record<string, unknown>>} parts the elements, by the names of their values
   * @param {Readonly<Record<string, string | number>>} [values] the message's plain values
   * @returns {unknown[]}
   */
  const withParts = (key, parts, values = {}) => {
    const marks = Object.fromEntries(Object.keys(parts).map((name) => [name, `\uE000${name}\uE000`]))
    return t(key, { ...values, ...marks })
      .split("\uE000")
      .map((piece, i) => (i % 2 === 1 ? parts[piece] : piece))
  }

  /**
   * Whether the catalogue has a message of a key made from a value (a type's own words for an option's editor).
   * @param {string} key @returns {key is AppKey}
   */
  const has = (key) => Object.hasOwn(words.messages, key)

  return { t, withParts, has }
}
