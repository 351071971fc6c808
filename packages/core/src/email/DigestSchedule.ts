/**
 * When a digest e-mail falls due: daily or weekly (Mondays) at a whole hour of
 * the member's time zone (IANA, `Europe/Berlin`), across daylight-saving
 * changes. Pure; `Intl.DateTimeFormat` knows the zones' rules.
 */
import * as Schema from "effect/Schema"
import { instantOf, wallClock } from "../kernel/index.ts"

export { isTimeZone, TimeZone } from "../kernel/index.ts"

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

/** The wall-clock date of an instant in a zone, written as if it were UTC, at midnight. */
const localDate = (timeZone: string, at: number): number => {
  const wall = new Date(wallClock(timeZone, at))
  return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate())
}

const DAY_MS = 86_400_000

/** The scheduled times on the local days around an instant (from 8 days before to 8 after), in order. */
const occurrencesAround = (schedule: DigestSchedule, at: number): ReadonlyArray<number> => {
  const today = localDate(schedule.timeZone, at)
  const times: Array<number> = []
  for (let offset = -8; offset <= 8; offset++) {
    const date = new Date(today + offset * DAY_MS)
    if (schedule.frequency === "weekly" && date.getUTCDay() !== 1) continue
    times.push(instantOf(schedule.timeZone, date.getTime() + schedule.hour * 3_600_000))
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
