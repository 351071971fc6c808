/**
 * When a digest e-mail falls due: daily or weekly (Mondays) at a whole hour of
 * the member's time zone (IANA, `Europe/Berlin`), across daylight-saving
 * changes. Pure; `Intl.DateTimeFormat` knows the zones' rules.
 */
import * as Schema from "effect/Schema"

/** How often a digest comes: every day, or every Monday. */
export const DigestFrequency = Schema.Literals(["daily", "weekly"])
export type DigestFrequency = typeof DigestFrequency.Type

/** When a member's digest comes. */
export interface DigestSchedule {
  readonly frequency: DigestFrequency
  /** The local hour, 0–23. */
  readonly hour: number
  /** An IANA time zone, e.g. `Europe/Berlin`, or `UTC`. */
  readonly timeZone: string
}

let zones: ReadonlySet<string> | undefined

/**
 * Whether a time zone is one this runtime knows (its canonical IANA name, or `UTC`).
 *
 * @example
 * ```ts
 * isTimeZone("Europe/Berlin") // true
 * isTimeZone("Mars/Olympus") // false
 * ```
 */
export const isTimeZone = (name: string): boolean => {
  zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"])
  return zones.has(name)
}

/** A time zone (validated against the runtime's IANA database). */
export const TimeZone = Schema.String.check(
  Schema.isMaxLength(64),
  Schema.makeFilter((value: string) => isTimeZone(value) || "must be an IANA time zone such as Europe/Berlin or UTC")
).annotate({ description: "An IANA time zone, e.g. `Europe/Berlin`, `America/New_York` or `UTC`." })

const formats = new Map<string, Intl.DateTimeFormat>()

const formatOf = (timeZone: string) => {
  let format = formats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formats.set(timeZone, format)
  }
  return format
}

interface LocalTime {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
}

const DAY_MS = 86_400_000

/** The wall-clock time of an instant in a zone. */
const localTime = (timeZone: string, at: number): LocalTime => {
  const parts: Record<string, number> = {}
  for (const part of formatOf(timeZone).formatToParts(new Date(at))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  return {
    year: parts["year"]!,
    month: parts["month"]!,
    day: parts["day"]!,
    hour: parts["hour"]!,
    minute: parts["minute"]!,
    second: parts["second"]!
  }
}

/** The zone's offset from UTC at an instant, in ms (local − UTC). */
const offsetAt = (timeZone: string, at: number): number => {
  const local = localTime(timeZone, at)
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second)
  return asUtc - (at - (((at % 1000) + 1000) % 1000))
}

/**
 * The instant a local date and hour names in a zone. In the hour skipped when
 * clocks go forward it is the hour after; in the hour repeated when they go
 * back, the first of the two.
 */
const instantOf = (timeZone: string, year: number, month: number, day: number, hour: number): number => {
  const wall = Date.UTC(year, month - 1, day, hour)
  // The zone's offsets the day before, at, and the day after: one of them is in force at that hour.
  const candidates = [wall - DAY_MS, wall, wall + DAY_MS]
    .map((at) => wall - offsetAt(timeZone, at))
    .sort((a, b) => a - b)
  const wallOf = (at: number) => {
    const local = localTime(timeZone, at)
    return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second)
  }
  return candidates.find((at) => wallOf(at) === wall) ?? candidates.find((at) => wallOf(at) > wall) ?? candidates[0]!
}

/** The scheduled times on the local days around an instant (from 8 days before to 8 after), in order. */
const occurrencesAround = (schedule: DigestSchedule, at: number): ReadonlyArray<number> => {
  const local = localTime(schedule.timeZone, at)
  const today = Date.UTC(local.year, local.month - 1, local.day)
  const times: Array<number> = []
  for (let offset = -8; offset <= 8; offset++) {
    const date = new Date(today + offset * DAY_MS)
    if (schedule.frequency === "weekly" && date.getUTCDay() !== 1) continue
    times.push(
      instantOf(schedule.timeZone, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), schedule.hour)
    )
  }
  return times
}

/**
 * The first time a digest falls due strictly after `after`.
 *
 * @example
 * ```ts
 * nextAfter({ frequency: "daily", hour: 8, timeZone: "Europe/Berlin" }, new Date("2026-11-27T07:30:00Z"))
 * // 2026-11-28T07:00:00.000Z (08:00 in Berlin, UTC+1)
 * ```
 */
export const nextAfter = (schedule: DigestSchedule, after: Date): Date =>
  new Date(occurrencesAround(schedule, after.getTime()).find((time) => time > after.getTime())!)

/**
 * The scheduled time before `before` (the start of the period a digest due at `before` covers).
 *
 * @example
 * ```ts
 * previousBefore({ frequency: "weekly", hour: 9, timeZone: "UTC" }, new Date("2026-11-30T09:00:00Z"))
 * // 2026-11-23T09:00:00.000Z
 * ```
 */
export const previousBefore = (schedule: DigestSchedule, before: Date): Date =>
  new Date(occurrencesAround(schedule, before.getTime()).findLast((time) => time < before.getTime())!)
