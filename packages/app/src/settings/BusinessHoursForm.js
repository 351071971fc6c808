// @ts-check
// The business hours as their form holds them and back: a time zone, each day's intervals written
// "09:00-12:00, 13:00-17:00", the holidays "2026-12-25, 2026-12-26". Pure; the server checks what is sent (overlaps,
// an end before the start, an unknown zone).

/** @typedef {import("../shared/Types.js").WorkspaceSettings["businessHours"]} BusinessHours */

/** The days of the week as the business hours name them, Monday first. */
export const weekDays = /** @type {const} */ (["mon", "tue", "wed", "thu", "fri", "sat", "sun"])

/**
 * The form's fields of saved business hours (all empty without any): `timeZone`, `holidays` and one per day.
 * @param {BusinessHours} hours
 * @returns {Record<string, string>}
 */
export const formOf = (hours) => {
  /** @type {Record<string, string>} */
  const next = { timeZone: hours?.timeZone ?? "", holidays: (hours?.holidays ?? []).join(", ") }
  for (const day of weekDays) next[day] = (hours?.week[day] ?? []).map((i) => `${i.from}-${i.to}`).join(", ")
  return next
}

/** The parts of a field, split at commas and spaces. @param {string} text */
const list = (text) =>
  text
    .split(/[,\s]+/)
    .map((part) => part.trim())
    .filter((part) => part !== "")

/**
 * The business hours the form's fields say, or undefined without a time zone (none: the clock runs all the time).
 * A day without intervals is left out (closed).
 * @param {Readonly<Record<string, string>>} form
 */
export const hoursOf = (form) => {
  /** @type {Record<string, Array<{ from: string, to: string }>>} */
  const week = {}
  for (const day of weekDays) {
    const intervals = list(form[day] ?? "").map((part) => {
      const [from = "", to = ""] = part.split("-")
      return { from, to }
    })
    if (intervals.length > 0) week[day] = intervals
  }
  const holidays = list(form.holidays ?? "")
  return (form.timeZone ?? "").trim() === ""
    ? undefined
    : { timeZone: (form.timeZone ?? "").trim(), week, ...(holidays.length > 0 ? { holidays } : {}) }
}
