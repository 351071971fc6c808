/**
 * The question types of moments: `date` (a calendar date, `YYYY-MM-DD`),
 * `time` (a time of day, 24-hour, `HH:MM` or `HH:MM:SS`) and `datetime` (a
 * local date and time, `YYYY-MM-DDTHH:MM`, as `<input type="datetime-local">`
 * posts it). Their options are only a placeholder and help.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import { bad, formatted, ok } from "./AnswerChecks.ts"
import { BaseOptions } from "./OptionFields.ts"
import { inputBox } from "./PageControls.ts"
import { type AnswerControl, questionType } from "./QuestionType.ts"
import { DATE_FORMAT, DATETIME_FORMAT, widthOf } from "./SheetColumns.ts"
import { monthKeys } from "./TallyKeys.ts"

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
/** A time of day, 24-hour, hours and minutes with optional seconds (`9:05` is read as `09:05`). */
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/
/** A local date and time as `<input type="datetime-local">` posts it (a space is read as `T`). */
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{1,2}:\d{2}(?::\d{2})?)$/

/** A stored date (the spreadsheet's date cell). */
const STORED_DATE = /^\d{4}-\d{2}-\d{2}$/
/** A stored date and time (the spreadsheet's date cell). */
const STORED_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31

const isCalendarDate = (s: string): boolean => {
  const m = DATE.exec(s)
  if (m === null) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

/** A time of day in its stored form (`HH:MM`, or `HH:MM:SS` when the seconds are not zero), or undefined. */
const timeOf = (s: string): string | undefined => {
  const m = TIME.exec(s)
  if (m === null) return undefined
  const hm = `${m[1]!.padStart(2, "0")}:${m[2]}`
  return m[3] === undefined || m[3] === "00" ? hm : `${hm}:${m[3]}`
}

/** A moment read as UTC, or undefined when it is not one. */
const utc = (iso: string): Date | undefined => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** The operators of moments: equal, earlier or later (`YYYY-MM-DD` compares in time order), given or not. */
const momentOperators = ["equals", "notEquals", "greaterThan", "lessThan", "isEmpty", "isNotEmpty"] as const

/** The inputs of the moments (their page views draw them). */
const controls = {
  date: { kind: "line", type: "date" },
  time: { kind: "line", type: "time" },
  datetime: { kind: "line", type: "datetime-local" }
} as const satisfies Record<string, AnswerControl>

/** A calendar date. */
export const DateType = questionType({
  type: "date",
  label: "Date",
  options: BaseOptions,
  check: formatted("answer.date", isCalendarDate),
  control: controls.date,
  view: (field, view) => inputBox(field, view, controls.date),
  sheet: (_field, key, shown) => [
    {
      header: key,
      width: widthOf(key, 12),
      numFmt: DATE_FORMAT,
      cell: (answer) =>
        (Predicate.isString(answer) && STORED_DATE.test(answer) ? utc(`${answer}T00:00:00Z`) : undefined) ??
        shown(answer)
    }
  ],
  summary: { kind: "dates", unit: "month" },
  tallyKeys: monthKeys,
  operators: momentOperators
})

/** A time of day. */
export const TimeType = questionType({
  type: "time",
  label: "Time of day",
  options: BaseOptions,
  check: (_field, value, q) => {
    if (!Predicate.isString(value)) return bad("answer.time", { q })
    const time = timeOf(value.trim())
    return time === undefined ? bad("answer.time", { q }) : ok(time)
  },
  control: controls.time,
  view: (field, view) => inputBox(field, view, controls.time),
  summary: { kind: "dates", unit: "hour" },
  tallyKeys: ({ typed, key, text }) => ({
    scalars: [`case when ${typed("string")} and ${text} ~ '^[0-9]{2}:' then ${key("h:")} || left(${text}, 2) end`],
    arrays: []
  }),
  operators: momentOperators,
  generator: { describe: "time (time of day)" }
})

/** A date with a time, such as an appointment. */
export const DateTimeType = questionType({
  type: "datetime",
  label: "Date and time",
  options: BaseOptions,
  check: (_field, value, q) => {
    if (!Predicate.isString(value)) return bad("answer.datetime", { q })
    const m = DATETIME.exec(value.trim())
    const time = m === null ? undefined : timeOf(m[2]!)
    return m === null || time === undefined || !isCalendarDate(m[1]!)
      ? bad("answer.datetime", { q })
      : ok(`${m[1]}T${time}`)
  },
  control: controls.datetime,
  view: (field, view) => inputBox(field, view, controls.datetime),
  sheet: (_field, key, shown) => [
    {
      header: key,
      width: widthOf(key, 17),
      numFmt: DATETIME_FORMAT,
      cell: (answer) =>
        (Predicate.isString(answer) && STORED_DATETIME.test(answer) ? utc(`${answer}Z`) : undefined) ?? shown(answer)
    }
  ],
  summary: { kind: "dates", unit: "month" },
  tallyKeys: monthKeys,
  operators: momentOperators,
  generator: { describe: "datetime (a date with a time, such as an appointment)" }
})
