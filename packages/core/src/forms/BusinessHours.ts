/**
 * A workspace's business hours (the workspace setting `businessHours`,
 * `forms/WorkspaceSettings.ts`) and the arithmetic of business time that the
 * forms' SLAs run on (`forms/Sla.ts`): adding business minutes to an instant,
 * and counting the business minutes between two instants.
 *
 * Business time is real elapsed time inside the week's intervals, read on the
 * wall clock of the workspace's time zone, on days that are not holidays. The
 * days are walked one by one (each day's intervals turned into instants), so
 * the cost grows with the days crossed, never with the minutes; the walk stops
 * after {@link MAX_DAYS} days. Daylight saving time: an interval's bound that
 * falls in a skipped hour (spring forward) means the moment right after the
 * gap; one in a repeated hour (fall back) means its first occurrence. A day
 * whose clock skips an hour thus has an hour less of business time inside an
 * interval that spans the gap, and a day that repeats one an hour more.
 *
 * Without business hours the clock runs 24/7 (see {@link addMinutes}).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { instantOf, instantRanges, isTimeZone, strictStruct, wallClock } from "../kernel/index.ts"

/** The most holidays the setting holds (a year's worth of days). */
export const MAX_HOLIDAYS = 366

/** The most intervals one day of the week holds. */
export const MAX_INTERVALS_PER_DAY = 12

/** How many days the arithmetic walks before it gives up (ten years): the answer is then `undefined`. */
export const MAX_DAYS = 3660

const MINUTE_MS = 60_000
const DAY_MS = 24 * 60 * MINUTE_MS

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/

/** "HH:MM" as minutes after midnight. */
const minutesOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5))

/** A wall-clock time of day, "HH:MM" (00:00 to 24:00). */
const ClockTime = Schema.String.check(
  Schema.makeFilter((s: string) => (CLOCK.test(s) ? undefined : `"${s}" is not a time of day "HH:MM" (00:00–24:00)`), {
    expected: 'a time of day "HH:MM"'
  })
)

/** One interval of a day: from `from` until `to` (wall clock). */
export const BusinessInterval = Schema.Struct({
  from: ClockTime.annotate({ description: 'Start, "HH:MM" in the workspace\'s time zone.' }),
  to: ClockTime.annotate({ description: 'End, "HH:MM" ("24:00" for midnight); later than `from`.' })
}).check(
  Schema.makeFilter((interval: { readonly from: string; readonly to: string }) =>
    minutesOf(interval.to) > minutesOf(interval.from)
      ? undefined
      : `an interval must end after it starts (${interval.from}–${interval.to})`
  )
)
export type BusinessInterval = typeof BusinessInterval.Type

const Day = Schema.Array(BusinessInterval).check(
  Schema.isMaxLength(MAX_INTERVALS_PER_DAY, { message: `a day has at most ${MAX_INTERVALS_PER_DAY} intervals` }),
  Schema.makeFilter((intervals: ReadonlyArray<BusinessInterval>) => {
    const sorted = [...intervals].sort((a, b) => minutesOf(a.from) - minutesOf(b.from))
    for (let i = 1; i < sorted.length; i++) {
      if (minutesOf(sorted[i]!.from) < minutesOf(sorted[i - 1]!.to)) {
        return `intervals overlap (${sorted[i - 1]!.from}–${sorted[i - 1]!.to} and ${sorted[i]!.from}–${sorted[i]!.to})`
      }
    }
    return undefined
  })
)

/** The days of the week as the setting names them, Sunday first (as `Date.getUTCDay` counts). */
export const weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

const isDate = (s: string): boolean => {
  const m = DATE.exec(s)
  if (m === null) return false
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return at.toISOString().slice(0, 10) === s
}

/**
 * A workspace's business hours: its time zone, the intervals of each day of
 * the week, and holidays (local dates without business time).
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(BusinessHours)({
 *   timeZone: "Europe/Berlin",
 *   week: { mon: [{ from: "09:00", to: "17:00" }], tue: [{ from: "09:00", to: "17:00" }] },
 *   holidays: ["2026-12-25"]
 * })
 * ```
 */
export const BusinessHours = strictStruct(
  {
    timeZone: Schema.String.check(
      Schema.makeFilter((zone: string) => (isTimeZone(zone) ? undefined : `timeZone: unknown time zone "${zone}"`), {
        expected: "an IANA time zone name such as Europe/Berlin"
      })
    ).annotate({ description: "The IANA time zone the intervals and holidays are read in, e.g. Europe/Berlin." }),
    week: strictStruct(
      {
        mon: Schema.optionalKey(Day),
        tue: Schema.optionalKey(Day),
        wed: Schema.optionalKey(Day),
        thu: Schema.optionalKey(Day),
        fri: Schema.optionalKey(Day),
        sat: Schema.optionalKey(Day),
        sun: Schema.optionalKey(Day)
      },
      "day"
    )
      .check(
        Schema.makeFilter((week: Partial<Record<(typeof weekdays)[number], ReadonlyArray<BusinessInterval>>>) =>
          weekdays.some((day) => (week[day]?.length ?? 0) > 0)
            ? undefined
            : "week: at least one day needs an interval of business hours"
        )
      )
      .annotate({ description: "The intervals of each day (mon…sun); a day left out has none, e.g. a weekend." }),
    holidays: Schema.optionalKey(
      Schema.Array(
        Schema.String.check(
          Schema.makeFilter((s: string) => (isDate(s) ? undefined : `holidays: "${s}" is not a date YYYY-MM-DD`))
        )
      ).check(Schema.isMaxLength(MAX_HOLIDAYS, { message: `holidays: at most ${MAX_HOLIDAYS} dates` }))
    ).annotate({ description: `Local dates without business time, "YYYY-MM-DD" (at most ${MAX_HOLIDAYS}).` })
  },
  "business hours key"
).annotate({
  identifier: "BusinessHours",
  description:
    "Extension: when the workspace works, for the forms' SLAs: a time zone, each day's intervals and holidays. " +
    "Absent: the SLA clock runs 24/7."
})
export type BusinessHours = typeof BusinessHours.Type

// ---------------------------------------------------------------------------
// Business time
// ---------------------------------------------------------------------------

/** The business intervals of one local day as instants `[start, end)`, in order. */
const dayIntervals = (
  hours: BusinessHours,
  holidays: ReadonlySet<string>,
  day: number
): ReadonlyArray<readonly [number, number]> => {
  const date = new Date(day)
  if (holidays.has(date.toISOString().slice(0, 10))) return []
  const intervals = hours.week[weekdays[date.getUTCDay()]!] ?? []
  // An interval is the instants its wall clock names: on the day clocks go back, one holding the repeated
  // hour is two ranges (both times 02:00–02:30 pass on the clock), one across spring's skipped hour shorter.
  return intervals
    .flatMap((interval) =>
      instantRanges(
        hours.timeZone,
        day + minutesOf(interval.from) * MINUTE_MS,
        day + minutesOf(interval.to) * MINUTE_MS
      )
    )
    .sort((a, b) => a[0] - b[0])
}

/** The local day (its midnight, written as if UTC) an instant falls on. */
const localDay = (zone: string, at: number): number => {
  const wall = wallClock(zone, at)
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS)
}

const holidaySet = (hours: BusinessHours): ReadonlySet<string> => new Set(hours.holidays ?? [])

/**
 * The instant `minutes` business minutes after `start`; without business
 * hours, `minutes` real minutes after it. `undefined` when the business hours
 * hold too little time within {@link MAX_DAYS} days.
 *
 * @example
 * ```ts
 * // Friday 16:00 in Berlin, 9–17 on weekdays: two business hours later is Monday 10:00.
 * addMinutes(hours, Date.parse("2026-11-27T15:00:00Z"), 120) // Date.parse("2026-11-30T09:00:00Z")
 * ```
 */
export const addMinutes = (hours: BusinessHours | undefined, start: number, minutes: number): number | undefined => {
  if (hours === undefined) return start + minutes * MINUTE_MS
  let remaining = minutes * MINUTE_MS
  const holidays = holidaySet(hours)
  // The day before too: an interval of the previous local day never reaches into this one, but a
  // repeated hour may put `start` on a day whose wall clock began earlier than its instant suggests.
  const first = localDay(hours.timeZone, start) - DAY_MS
  for (let i = 0; i < MAX_DAYS; i++) {
    for (const [from, to] of dayIntervals(hours, holidays, first + i * DAY_MS)) {
      const begin = Math.max(from, start)
      if (to <= begin) continue
      if (remaining === 0) return begin
      if (to - begin >= remaining) return begin + remaining
      remaining -= to - begin
    }
  }
  return undefined
}

/**
 * The business minutes (whole and fractional) from `start` until `end` (0
 * when `end` is not later); without business hours, the real minutes. Counts
 * at most {@link MAX_DAYS} days.
 *
 * @example
 * ```ts
 * countMinutes(hours, Date.parse("2026-11-27T15:00:00Z"), Date.parse("2026-11-30T09:00:00Z")) // 120
 * ```
 */
export const countMinutes = (hours: BusinessHours | undefined, start: number, end: number): number => {
  if (end <= start) return 0
  if (hours === undefined) return (end - start) / MINUTE_MS
  const holidays = holidaySet(hours)
  const first = localDay(hours.timeZone, start) - DAY_MS
  const last = localDay(hours.timeZone, end)
  let total = 0
  for (let day = first, i = 0; day <= last && i < MAX_DAYS; day += DAY_MS, i++) {
    for (const [from, to] of dayIntervals(hours, holidays, day)) {
      const overlap = Math.min(to, end) - Math.max(from, start)
      if (overlap > 0) total += overlap
    }
  }
  return total / MINUTE_MS
}

/**
 * The instants where the local day of `at` and its ISO week (Monday to Sunday) end, in a time zone (UTC when
 * none): the bounds of the list's `due=today` and `due=week`.
 */
export const dayAndWeekEnd = (
  timeZone: string | undefined,
  at: number
): { readonly dayEnd: number; readonly weekEnd: number } => {
  const zone = timeZone ?? "UTC"
  const day = localDay(zone, at)
  const weekday = new Date(day).getUTCDay()
  const daysToMonday = weekday === 0 ? 1 : 8 - weekday
  return { dayEnd: instantOf(zone, day + DAY_MS), weekEnd: instantOf(zone, day + daysToMonday * DAY_MS) }
}
