// @ts-check
// The application's own words in the signed-in account's language (`#qforms-words`, chosen by the server from the
// account's preference or the browser's Accept-Language), formatted with intl-messageformat like the server's
// (Messages.js); dates, numbers and relative times through Intl in the same language (Formats.js).
import { formatsOf } from "./Formats.js"
import { messagesOf } from "./Messages.js"

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

/**
 * `t` says one message of the application; `withParts` one with elements (`<code>`, …) among its words; `has` says
 * whether there is a message of a key made from a value.
 */
export const { t, withParts, has } = messagesOf(words)

/** The application's formats of dates, numbers, shares, lists and lengths of time, in its language. */
export const {
  formatDateTime,
  formatDay,
  formatNumber,
  formatPercent,
  formatDecimal,
  formatMoney,
  formatCalendarDay,
  formatMonth,
  formatHour,
  formatDuration,
  formatList,
  formatRelative
} = formatsOf(language)
