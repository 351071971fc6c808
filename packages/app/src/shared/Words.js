// @ts-check
// The application's own words in the signed-in account's language (`#qforms-words`, chosen by the server from the
// account's preference or the browser's Accept-Language), formatted with intl-messageformat like the server's;
// dates, numbers and relative times through Intl in the same language.
import { IntlMessageFormat } from "intl-messageformat"

/** @typedef {import("./Types.js").AppKey} AppKey */
/** @typedef {import("./Types.js").AppWords} AppWords */

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

const percents = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 1 })
const decimals = new Intl.NumberFormat(language, { maximumFractionDigits: 2 })
const months = new Intl.DateTimeFormat(language, { month: "short", year: "numeric", timeZone: "UTC" })
const hours = new Intl.DateTimeFormat(language, { hour: "numeric", minute: "2-digit", timeZone: "UTC" })

/** A share given in percent (`50` for half, as the API answers it) in the application's language: "50%", "50 %". @param {number} percent */
export const formatPercent = (percent) => percents.format(percent / 100)

/** A measure (a mean, a percentile) to at most two decimals. @param {number} value */
export const formatDecimal = (value) => decimals.format(value)

const calendarDays = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" })
const shortDays = new Intl.DateTimeFormat(language, { month: "short", day: "numeric", timeZone: "UTC" })

/**
 * A day of the calendar given as `2026-11-23` (a period of the case metrics, in UTC), not a moment: "Nov 23, 2026",
 * or with `short` "Nov 23"; as it is when it is not one.
 * @param {string} day @param {boolean} [short]
 */
export const formatCalendarDay = (day, short = false) => {
  const date = new Date(`${day}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? day : (short ? shortDays : calendarDays).format(date)
}

/** A month given as `2026-05` ("May 2026", "Mai 2026"); as it is when it is not one. @param {string} month */
export const formatMonth = (month) => {
  const date = new Date(`${month}-01T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? month : months.format(date)
}

/** An hour of the day given as `09` ("9:00 AM", "09:00"); as it is when it is not one. @param {string} hour */
export const formatHour = (hour) => {
  const value = Number(hour)
  return Number.isInteger(value) && value >= 0 && value < 24 ? hours.format(Date.UTC(2000, 0, 1, value)) : hour
}

/** @type {ReadonlyArray<readonly ["second" | "minute" | "hour" | "day", number]>} */
const spans = [
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1]
]

/**
 * A length of time in the largest unit that keeps it at least 1.5 of them, to one decimal ("45 seconds",
 * "2.5 minutes", "2,5 Minuten").
 * @param {number} seconds
 */
export const formatDuration = (seconds) => {
  const [unit, size] = spans.find(([, size]) => seconds >= size * 1.5) ?? ["second", 1]
  return new Intl.NumberFormat(language, { style: "unit", unit, unitDisplay: "long", maximumFractionDigits: 1 }).format(
    seconds / size
  )
}

const lists = new Intl.ListFormat(language, { type: "unit", style: "short" })

/** Items one after another in the application's language ("a, b, c"). @param {ReadonlyArray<string>} items */
export const formatList = (items) => lists.format(items)

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
