import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { defaultSchedule, nextAttemptDelay, parse, parseRetryAfter } from "../src/deliveries/RetrySchedule.ts"

const S = 1_000
const M = 60 * S
const H = 60 * M

describe("RetrySchedule.defaultSchedule", () => {
  it("is immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h", () => {
    expect(defaultSchedule).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H])
    expect(defaultSchedule.reduce((a, b) => a + b, 0)).toBe(27 * H + 35 * M + 5 * S)
  })
})

describe("RetrySchedule.parse", () => {
  it.each<[string, ReadonlyArray<number>]>([
    ["0s,1s,2s", [0, S, 2 * S]],
    ["0s,5s,5m,30m,2h", [0, 5 * S, 5 * M, 30 * M, 2 * H]],
    [" 0s , 5s ,5m, 30m ,2h ", [0, 5 * S, 5 * M, 30 * M, 2 * H]],
    ["0ms,250ms,1500ms", [0, 250, 1500]],
    ["1 s, 2 m", [S, 2 * M]],
    ["1.5s,0.5h", [1500, 30 * M]],
    ["10h", [10 * H]],
    ["0s,5s,5m,30m,2h,5h,10h,10h", defaultSchedule]
  ])("%j", (text, expected) => {
    expect(parse(text)).toEqual(Result.succeed(expected))
  })

  it.each<[string, string]>([
    ["", "retry schedule is empty: expected durations like 0s,5s,5m,30m,2h"],
    ["   ", "retry schedule is empty: expected durations like 0s,5s,5m,30m,2h"],
    ["0s,,2s", 'retry schedule entry 2 is empty (in "0s,,2s")'],
    ["0s,1s,", 'retry schedule entry 3 is empty (in "0s,1s,")'],
    ["5", 'retry schedule entry 1 ("5") is not a duration like 500ms, 5s, 5m or 2h'],
    ["0s,5x", 'retry schedule entry 2 ("5x") is not a duration like 500ms, 5s, 5m or 2h'],
    ["0s,-5s", 'retry schedule entry 2 ("-5s") is not a duration like 500ms, 5s, 5m or 2h'],
    ["1d", 'retry schedule entry 1 ("1d") is not a duration like 500ms, 5s, 5m or 2h'],
    ["5S", 'retry schedule entry 1 ("5S") is not a duration like 500ms, 5s, 5m or 2h'],
    ["s", 'retry schedule entry 1 ("s") is not a duration like 500ms, 5s, 5m or 2h'],
    ["1e3s", 'retry schedule entry 1 ("1e3s") is not a duration like 500ms, 5s, 5m or 2h'],
    ["0s;5s", 'retry schedule entry 1 ("0s;5s") is not a duration like 500ms, 5s, 5m or 2h'],
    ["99999999999999999999h", 'retry schedule entry 1 ("99999999999999999999h") is too large']
  ])("rejects %j", (text, message) => {
    expect(parse(text)).toEqual(Result.fail(message))
  })
})

describe("RetrySchedule.nextAttemptDelay", () => {
  const schedule = [0, 5 * S, 5 * M, 10 * H]

  it.each<[string, number, number, number | undefined]>([
    ["first attempt is immediate", 0, 0.5, 0],
    ["first attempt stays immediate whatever the jitter", 0, 0.99, 0],
    ["after 1 attempt, 5 s without jitter", 1, 0.5, 5 * S],
    ["-20% at random 0", 1, 0, 4 * S],
    ["+20% just below random 1", 1, 0.999999, 6 * S],
    ["random 0.25 → -10%", 2, 0.25, 270 * S],
    ["last attempt", 3, 0.5, 10 * H],
    ["exhausted after all attempts", 4, 0.5, undefined],
    ["exhausted well past the end", 100, 0.5, undefined],
    ["negative attempts", -1, 0.5, undefined],
    ["fractional attempts", 1.5, 0.5, undefined]
  ])("%s", (_name, attemptsMade, random, expected) => {
    expect(nextAttemptDelay(schedule, attemptsMade, { random })).toBe(expected)
  })

  it("jitter stays within ±20% of every default step", () => {
    for (let attempt = 0; attempt < defaultSchedule.length; attempt++) {
      for (const random of [0, 0.1, 0.5, 0.9, 0.9999]) {
        const delay = nextAttemptDelay(defaultSchedule, attempt, { random })!
        expect(delay).toBeGreaterThanOrEqual(Math.floor(defaultSchedule[attempt] * 0.8))
        expect(delay).toBeLessThanOrEqual(Math.ceil(defaultSchedule[attempt] * 1.2))
      }
    }
    expect(nextAttemptDelay(defaultSchedule, 8, { random: 0 })).toBeUndefined()
  })

  it.each<[string, number, number, number]>([
    ["Retry-After within [1×, 2×] is honoured exactly", 1, 7 * S, 7 * S],
    ["Retry-After below the schedule → the scheduled delay", 1, 1 * S, 5 * S],
    ["Retry-After of 0 → the scheduled delay", 1, 0, 5 * S],
    ["Retry-After above 2× → capped at 2×", 1, 60 * S, 10 * S],
    ["Retry-After exactly 2×", 2, 10 * M, 10 * M],
    ["Retry-After on a 10 h step capped at 20 h", 3, 48 * H, 20 * H],
    ["0 s step: Retry-After honoured", 0, 30 * S, 30 * S],
    ["0 s step: Retry-After 0", 0, 0, 0],
    ["0 s step: Retry-After capped at 1 h", 0, 5 * H, 1 * H],
    ["negative Retry-After counts as 0", 1, -5 * S, 5 * S]
  ])("%s", (_name, attemptsMade, retryAfterMs, expected) => {
    // Jitter does not apply when Retry-After is given: random has no effect.
    expect(nextAttemptDelay(schedule, attemptsMade, { random: 0, retryAfterMs })).toBe(expected)
    expect(nextAttemptDelay(schedule, attemptsMade, { random: 0.99, retryAfterMs })).toBe(expected)
  })

  it("retryAfterMs: undefined behaves like no Retry-After, and an exhausted schedule stays exhausted", () => {
    expect(nextAttemptDelay(schedule, 1, { random: 0.5, retryAfterMs: undefined })).toBe(5 * S)
    expect(nextAttemptDelay(schedule, 4, { random: 0.5, retryAfterMs: 1 * S })).toBeUndefined()
  })
})

describe("RetrySchedule.parseRetryAfter", () => {
  const now = Date.UTC(2015, 9, 21, 7, 28, 0) // Wed, 21 Oct 2015 07:28:00 GMT

  it.each<[string, string | undefined, number | undefined]>([
    ["missing", undefined, undefined],
    ["delta-seconds", "120", 120 * S],
    ["zero", "0", 0],
    ["whitespace around", "  30 ", 30 * S],
    ["IMF-fixdate in the future", "Wed, 21 Oct 2015 07:29:30 GMT", 90 * S],
    ["IMF-fixdate now", "Wed, 21 Oct 2015 07:28:00 GMT", 0],
    ["IMF-fixdate in the past → 0", "Wed, 21 Oct 2015 07:00:00 GMT", 0],
    ["IMF-fixdate a day later", "Thu, 22 Oct 2015 07:28:00 GMT", 24 * H],
    ["RFC 850 date", "Wednesday, 21-Oct-15 07:28:10 GMT", 10 * S],
    ["asctime date", "Wed Oct 21 07:28:05 2015", 5 * S],
    ["asctime, one-digit day", "Sun Nov  1 07:28:00 2015", 11 * 24 * H],
    ["lowercase names", "wed, 21 oct 2015 07:28:01 gmt", 1 * S],
    ["empty", "", undefined],
    ["garbage", "soon", undefined],
    ["negative seconds", "-5", undefined],
    ["fractional seconds", "1.5", undefined],
    ["seconds with unit", "5s", undefined],
    ["a bare number Date.parse would accept as a year", "2015-10-21", undefined],
    ["not GMT", "Wed, 21 Oct 2015 07:29:00 PST", undefined],
    ["impossible day", "Wed, 31 Feb 2015 07:29:00 GMT", undefined],
    ["impossible hour", "Wed, 21 Oct 2015 25:29:00 GMT", undefined],
    ["huge number", "9".repeat(30), undefined]
  ])("%s: %j", (_name, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected)
  })
})
