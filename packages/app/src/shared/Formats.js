// @ts-check
// Dates, numbers, shares, lists and lengths of time in one language, through Intl: the application's words say them
// in the account's language (Words.js). Pure: the language is given, and a relative time takes its present.

/** @type {ReadonlyArray<readonly ["second" | "minute" | "hour" | "day", number]>} */
const spans = [
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1]
]

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
 * The formats of a language (`en`, `de`, `ar`): each made once, then used for every value.
 * @param {string} language
 */
export const formatsOf = (language) => {
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" })
  const dateOnly = new Intl.DateTimeFormat(language, { dateStyle: "medium" })
  const numbers = new Intl.NumberFormat(language)
  const relative = new Intl.RelativeTimeFormat(language, { numeric: "auto" })
  const percents = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 1 })
  const decimals = new Intl.NumberFormat(language, { maximumFractionDigits: 2 })
  const months = new Intl.DateTimeFormat(language, { month: "short", year: "numeric", timeZone: "UTC" })
  const hours = new Intl.DateTimeFormat(language, { hour: "numeric", minute: "2-digit", timeZone: "UTC" })
  const calendarDays = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" })
  const shortDays = new Intl.DateTimeFormat(language, { month: "short", day: "numeric", timeZone: "UTC" })
  const lists = new Intl.ListFormat(language, { type: "unit", style: "short" })
  return {
    /** A moment as a date and time in the language ("" when absent). @param {string | null | undefined} iso */
    formatDateTime: (iso) => (iso ? dateTime.format(new Date(iso)) : ""),

    /** A moment's date alone. @param {string | null | undefined} iso */
    formatDay: (iso) => (iso ? dateOnly.format(new Date(iso)) : ""),

    /** A number in the language (its digits and separators). @param {number} value */
    formatNumber: (value) => numbers.format(value),

    /** A share given in percent (`50` for half, as the API answers it): "50%", "50 %". @param {number} percent */
    formatPercent: (percent) => percents.format(percent / 100),

    /** A measure (a mean, a percentile) to at most two decimals. @param {number} value */
    /**
     * An amount of money in its currency (an ISO 4217 code): "€12.50", "12,50 €"; a code Intl does not take
     * (not three letters), the amount and the code. @param {number} amount @param {string} currency
     */
    formatMoney: (amount, currency) =>
      /^[A-Za-z]{3}$/.test(currency)
        ? new Intl.NumberFormat(language, { style: "currency", currency }).format(amount)
        : `${numbers.format(amount)} ${currency}`,
    formatDecimal: (value) => decimals.format(value),

    /**
     * A day of the calendar given as `2026-11-23` (a period of the case metrics, in UTC), not a moment: "Nov 23,
     * 2026", or with `short` "Nov 23"; as it is when it is not one.
     * @param {string} day @param {boolean} [short]
     */
    formatCalendarDay: (day, short = false) => {
      const date = new Date(`${day}T00:00:00Z`)
      return Number.isNaN(date.getTime()) ? day : (short ? shortDays : calendarDays).format(date)
    },

    /** A month given as `2026-05` ("May 2026", "Mai 2026"); as it is when it is not one. @param {string} month */
    formatMonth: (month) => {
      const date = new Date(`${month}-01T00:00:00Z`)
      return Number.isNaN(date.getTime()) ? month : months.format(date)
    },

    /** An hour of the day given as `09` ("9:00 AM", "09:00"); as it is when it is not one. @param {string} hour */
    formatHour: (hour) => {
      const value = Number(hour)
      return Number.isInteger(value) && value >= 0 && value < 24 ? hours.format(Date.UTC(2000, 0, 1, value)) : hour
    },

    /**
     * A length of time in the largest unit that keeps it at least 1.5 of them, to one decimal ("45 seconds",
     * "2.5 minutes", "2,5 Minuten").
     * @param {number} seconds
     */
    formatDuration: (seconds) => {
      const [unit, size] = spans.find(([, size]) => seconds >= size * 1.5) ?? ["second", 1]
      return new Intl.NumberFormat(language, {
        style: "unit",
        unit,
        unitDisplay: "long",
        maximumFractionDigits: 1
      }).format(seconds / size)
    },

    /** Items one after another in the language ("a, b, c"). @param {ReadonlyArray<string>} items */
    formatList: (items) => lists.format(items),

    /**
     * How long ago (or ahead) a moment is, in the language ("3 minutes ago", "vor 3 Minuten").
     * @param {string | null | undefined} iso
     * @param {number} [now] milliseconds since the epoch (the present by default)
     */
    formatRelative: (iso, now = Date.now()) => {
      if (!iso) return ""
      const seconds = Math.round((new Date(iso).getTime() - now) / 1000)
      for (const [unit, size] of units) {
        if (Math.abs(seconds) >= size || unit === "second") return relative.format(Math.round(seconds / size), unit)
      }
      return ""
    }
  }
}
