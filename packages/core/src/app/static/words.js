// @ts-check
// The application's own words in the signed-in account's language (`#qforms-words`, chosen by the server from the
// account's preference or the browser's Accept-Language), formatted with intl-messageformat like the server's;
// dates, numbers and relative times through Intl in the same language.
import { IntlMessageFormat } from "intl-messageformat"

/** @typedef {import("./types.js").AppKey} AppKey */
/** @typedef {import("./types.js").AppWords} AppWords */

const words = /** @type {AppWords} */ (
  JSON.parse(document.getElementById("qforms-words")?.textContent ?? "null") ?? {
    language: "en",
    direction: "ltr",
    messages: {}
  }
)

/** The language the application speaks (`en`, `de`, `ar`). */
export const language = words.language

/** @type {Map<string, IntlMessageFormat>} */
const compiled = new Map()

/**
 * One message of the application in its language, its values filled in.
 * @param {AppKey} key
 * @param {Readonly<Record<string, string | number>>} [values]
 * @returns {string}
 */
export const t = (key, values) => {
  const source = words.messages[key]
  if (source === undefined) return key
  let message = compiled.get(key)
  if (!message) {
    message = new IntlMessageFormat(source, language)
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
export const withParts = (key, parts, values = {}) => {
  const marks = Object.fromEntries(Object.keys(parts).map((name) => [name, `\uE000${name}\uE000`]))
  return t(key, { ...values, ...marks })
    .split("\uE000")
    .map((piece, i) => (i % 2 === 1 ? parts[piece] : piece))
}

const dateTime = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" })
const dateOnly = new Intl.DateTimeFormat(language, { dateStyle: "medium" })
const numbers = new Intl.NumberFormat(language)
const relative = new Intl.RelativeTimeFormat(language, { numeric: "auto" })

/** A moment as a date and time in the application's language ("" when absent). @param {string | null | undefined} iso */
export const formatDateTime = (iso) => (iso ? dateTime.format(new Date(iso)) : "")

/** A moment's date alone. @param {string | null | undefined} iso */
export const formatDay = (iso) => (iso ? dateOnly.format(new Date(iso)) : "")

/** A number in the application's language (its digits and separators). @param {number} value */
export const formatNumber = (value) => numbers.format(value)

/** @type {ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]>} */
const units = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1]
]

/**
 * How long ago (or ahead) a moment is, in the application's language ("3 minutes ago", "vor 3 Minuten").
 * @param {string | null | undefined} iso
 * @param {number} [now] milliseconds since the epoch (the present by default)
 */
export const formatRelative = (iso, now = Date.now()) => {
  if (!iso) return ""
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000)
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === "second") return relative.format(Math.round(seconds / size), unit)
  }
  return ""
}
