/**
 * The webhook retry schedule: the delay before each attempt, jitter, and
 * `Retry-After` handling. Pure functions; the caller supplies randomness and
 * the current time.
 *
 * @module
 */
import * as Result from "effect/Result"

const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/**
 * The default schedule, the delay in ms before each of the 8 attempts:
 * immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (~27 h in all).
 *
 * @example
 * ```ts
 * defaultSchedule.length // 8
 * defaultSchedule[1] // 5000
 * ```
 */
export const defaultSchedule: ReadonlyArray<number> = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR
]

/** Upper bound of a `Retry-After` honoured where the scheduled delay is 0. */
export const maxRetryAfterForImmediateMs = HOUR

const unitMs: Readonly<Record<string, number>> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR }

const ENTRY = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/

/**
 * Parses a schedule such as `QFORMS_WEBHOOK_RETRY_SCHEDULE=0s,5s,5m,30m,2h`:
 * comma-separated durations with a unit (`ms`, `s`, `m`, `h`; whitespace
 * allowed around entries and between number and unit), one per attempt.
 * The first is the delay of attempt 1 (usually `0s`). Succeeds with the delays
 * in whole ms.
 *
 * @example
 * ```ts
 * parse("0s, 1s, 2s") // Result.succeed([0, 1000, 2000])
 * parse("5x") // Result.fail('retry schedule entry 1 ("5x") is not a duration like 500ms, 5s, 5m or 2h')
 * ```
 */
export const parse = (text: string): Result.Result<ReadonlyArray<number>, string> => {
  if (text.trim() === "") {
    return Result.fail("retry schedule is empty: expected durations like 0s,5s,5m,30m,2h")
  }
  const entries = text.split(",")
  const delays: Array<number> = []
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i].trim()
    if (entry === "") {
      return Result.fail(`retry schedule entry ${i + 1} is empty (in "${text}")`)
    }
    const match = ENTRY.exec(entry)
    if (match === null) {
      return Result.fail(
        `retry schedule entry ${i + 1} (${JSON.stringify(entry)}) is not a duration like 500ms, 5s, 5m or 2h`
      )
    }
    const ms = Math.round(Number(match[1]) * unitMs[match[2]])
    if (!Number.isSafeInteger(ms)) {
      return Result.fail(`retry schedule entry ${i + 1} (${JSON.stringify(entry)}) is too large`)
    }
    delays.push(ms)
  }
  return Result.succeed(delays)
}

/**
 * Options of {@link nextAttemptDelay}.
 *
 * @example
 * ```ts
 * const options: NextAttemptOptions = { random: Math.random(), retryAfterMs: 30_000 }
 * ```
 */
export interface NextAttemptOptions {
  /** A uniform random number in [0, 1) for the ±20% jitter. */
  readonly random: number
  /** The receiver's `Retry-After` in ms (from {@link parseRetryAfter}), for a 429 or 503. */
  readonly retryAfterMs?: number | undefined
}

/**
 * The ms until the next attempt once `attemptsMade` attempts were made
 * (`attemptsMade = 0` gives the delay of the first attempt), or `undefined`
 * when the schedule is exhausted.
 *
 * Without `retryAfterMs`: the scheduled delay with ±20% jitter,
 * `scheduled × (0.8 + 0.4 × random)`. With `retryAfterMs`: the receiver's wish
 * honoured within [scheduled, 2 × scheduled], no jitter
 * (`max(scheduled, min(retryAfter, 2 × scheduled))`); where the scheduled delay
 * is 0 it is `retryAfter` capped at 1 h. Results are whole ms.
 *
 * @example
 * ```ts
 * nextAttemptDelay(defaultSchedule, 1, { random: 0.5 }) // 5000
 * nextAttemptDelay(defaultSchedule, 1, { random: 0.5, retryAfterMs: 60_000 }) // 10000
 * nextAttemptDelay(defaultSchedule, 8, { random: 0.5 }) // undefined
 * ```
 */
export const nextAttemptDelay = (
  schedule: ReadonlyArray<number>,
  attemptsMade: number,
  options: NextAttemptOptions
): number | undefined => {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0 || attemptsMade >= schedule.length) {
    return undefined
  }
  const scheduled = Math.max(0, schedule[attemptsMade])
  const retryAfter = options.retryAfterMs
  if (retryAfter !== undefined && Number.isFinite(retryAfter)) {
    const wanted = Math.max(0, retryAfter)
    const delay =
      scheduled === 0
        ? Math.min(wanted, maxRetryAfterForImmediateMs)
        : Math.max(scheduled, Math.min(wanted, 2 * scheduled))
    return Math.round(delay)
  }
  const random = Math.min(Math.max(options.random, 0), 1)
  return Math.round(scheduled * (0.8 + 0.4 * random))
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
const DAY = "(?:mon|tue|wed|thu|fri|sat|sun)"
const LONG_DAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
const MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})"
// IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, "i")
// obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, "i")
// obsolete asctime: Sun Nov  6 08:49:37 1994
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, "i")

const utc = (
  year: number,
  month: string,
  day: number,
  hours: number,
  minutes: number,
  seconds: number
): number | undefined => {
  const monthIndex = MONTHS.indexOf(month.toLowerCase())
  if (day < 1 || day > 31 || hours > 23 || minutes > 59 || seconds > 60) return undefined
  const ms = Date.UTC(year, monthIndex, day, hours, minutes, Math.min(seconds, 59))
  // Reject dates that roll over (31 Feb).
  return new Date(ms).getUTCDate() === day ? ms : undefined
}

const parseHttpDate = (value: string): number | undefined => {
  let m = IMF_FIXDATE.exec(value)
  if (m !== null) return utc(Number(m[3]), m[2], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]))
  m = RFC_850.exec(value)
  if (m !== null) {
    // RFC 9110: a two-digit year more than 50 years in the future is in the past century;
    // simplified to 70..99 → 19xx, 00..69 → 20xx.
    const yy = Number(m[3])
    return utc(yy >= 70 ? 1900 + yy : 2000 + yy, m[2], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]))
  }
  m = ASCTIME.exec(value)
  if (m !== null) return utc(Number(m[6]), m[1], Number(m[2].trim()), Number(m[3]), Number(m[4]), Number(m[5]))
  return undefined
}

/**
 * Reads a `Retry-After` header (RFC 9110): delta-seconds (`120`) or an
 * HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`, also the obsolete RFC 850 and
 * asctime forms) → ms from `nowMs`; a date in the past gives 0; a missing or
 * malformed value gives `undefined`.
 *
 * @example
 * ```ts
 * parseRetryAfter("120", now) // 120000
 * parseRetryAfter("soon", now) // undefined
 * ```
 */
export const parseRetryAfter = (value: string | undefined, nowMs: number): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) {
    const seconds = Number(text)
    return Number.isSafeInteger(seconds * 1000) ? seconds * 1000 : undefined
  }
  const at = parseHttpDate(text)
  return at === undefined ? undefined : Math.max(0, at - nowMs)
}
