/**
 * Time zones (IANA names such as `Europe/Berlin`): which names this runtime
 * knows, the wall clock at an instant in a zone, and the instant a wall-clock
 * time names there, across daylight-saving changes. Pure; `Intl.DateTimeFormat`
 * knows the zones' rules. The digests' schedule and the business hours of SLAs
 * read time through it.
 *
 * @module
 */
import * as Schema from "effect/Schema"

const DAY_MS = 86_400_000

let zones: ReadonlySet<string> | undefined

/** An IANA name's letters: `Area/Location`, `UTC`, `Etc/GMT+5`; no offsets such as `+01:00`. */
const NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/

/**
 * Whether a time zone is one this runtime knows: a name of its IANA database
 * (`Intl.supportedValuesOf`, which lists the ICU's canonical names, e.g.
 * `Asia/Calcutta`), or another name of the same zone it accepts
 * (`Asia/Kolkata`, `Europe/Kyiv`), or `UTC`.
 *
 * @example
 * ```ts
 * isTimeZone("Europe/Berlin") // true
 * isTimeZone("Asia/Kolkata") // true
 * isTimeZone("Mars/Olympus") // false
 * ```
 */
export const isTimeZone = (name: string): boolean => {
  if (name.length === 0 || name.length > 64 || !NAME.test(name)) return false
  zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"])
  if (zones.has(name)) return true
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name })
    return true
  } catch {
    // Intl refuses an unknown zone with a RangeError: that is the answer, not a failure.
    return false
  }
}

/** A time zone (validated against the runtime's IANA database). */
export const TimeZone = Schema.String.check(
  Schema.isMaxLength(64),
  Schema.makeFilter((value: string) => isTimeZone(value) || "must be an IANA time zone such as Europe/Berlin or UTC")
).annotate({ description: "An IANA time zone, e.g. `Europe/Berlin`, `America/New_York` or `UTC`." })

const formatters = new Map<string, Intl.DateTimeFormat>()

const formatterOf = (zone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(zone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formatters.set(zone, formatter)
  }
  return formatter
}

/**
 * The wall clock at an instant in a zone, written as if it were UTC (ms).
 *
 * @example
 * ```ts
 * new Date(wallClock("Europe/Berlin", Date.parse("2026-07-01T10:00:00Z"))).toISOString()
 * // "2026-07-01T12:00:00.000Z": noon in Berlin
 * ```
 */
export const wallClock = (zone: string, at: number): number => {
  const parts: Record<string, number> = {}
  for (const part of formatterOf(zone).formatToParts(new Date(at))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  const seconds = Math.floor(at / 1000) * 1000
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) + (at - seconds)
}

const MINUTE_MS = 60_000

/** The zone's offset from UTC at an instant, in ms. */
const offsetAt = (zone: string, at: number): number => wallClock(zone, at) - at

/**
 * The instant a wall-clock time (written as if UTC) names in a zone: the
 * first occurrence of a repeated time, and the moment after the gap for a
 * skipped one.
 *
 * @example
 * ```ts
 * new Date(instantOf("Europe/Berlin", Date.UTC(2026, 6, 1, 12))).toISOString()
 * // "2026-07-01T10:00:00.000Z"
 * ```
 */
export const instantOf = (zone: string, wall: number): number => {
  const before = offsetAt(zone, wall - DAY_MS)
  const after = offsetAt(zone, wall + DAY_MS)
  const early = wall - before
  const late = wall - after
  const earlyValid = offsetAt(zone, early) === before
  const lateValid = offsetAt(zone, late) === after
  if (earlyValid && lateValid) return Math.min(early, late)
  if (earlyValid) return early
  if (lateValid) return late
  // In a gap: the offset before the gap names the moment as far past it as the time is into it.
  return early
}

/** Wider than any zone's offset from UTC (±14 h): instants this far outside a wall-clock range cannot show it. */
const BEYOND_ANY_OFFSET = 15 * 60 * 60 * 1000

/**
 * The instants whose wall clock in a zone is within `[wallFrom, wallTo)`
 * (written as if UTC; at most a day apart), as ranges `[start, end)` in
 * order. Usually one; on the day clocks go back, a range holding the
 * repeated hour is two (`02:00–02:30` happens twice in Berlin on the last
 * Sunday of October), and a range across the skipped hour of spring is that
 * much shorter. Zones change their offset at most once within such a range.
 *
 * @example
 * ```ts
 * // Berlin, 25 Oct 2026, 00:00–02:30: 22:00Z–00:30Z (summer time), then 01:00Z–01:30Z (the hour again).
 * instantRanges("Europe/Berlin", Date.UTC(2026, 9, 25, 0), Date.UTC(2026, 9, 25, 2, 30))
 * ```
 */
export const instantRanges = (
  zone: string,
  wallFrom: number,
  wallTo: number
): ReadonlyArray<readonly [number, number]> => {
  if (wallTo <= wallFrom) return []
  const lo = wallFrom - BEYOND_ANY_OFFSET
  const hi = wallTo + BEYOND_ANY_OFFSET
  const before = offsetAt(zone, lo)
  const after = offsetAt(zone, hi)
  if (before === after) return [[wallFrom - before, wallTo - before]]
  // The first minute with the later offset (offsets change on whole minutes).
  let low = Math.floor(lo / MINUTE_MS)
  let high = Math.ceil(hi / MINUTE_MS)
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (offsetAt(zone, middle * MINUTE_MS) === before) low = middle
    else high = middle
  }
  const change = high * MINUTE_MS
  const ranges: Array<readonly [number, number]> = []
  const first = [Math.max(lo, wallFrom - before), Math.min(change, wallTo - before)] as const
  const second = [Math.max(change, wallFrom - after), Math.min(hi, wallTo - after)] as const
  if (first[1] > first[0]) ranges.push(first)
  if (second[1] > second[0]) {
    const last = ranges.at(-1)
    if (last !== undefined && last[1] === second[0]) ranges[ranges.length - 1] = [last[0], second[1]]
    else ranges.push(second)
  }
  return ranges
}
