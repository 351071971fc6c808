/**
 * Business time (forms/BusinessHours.ts): adding and counting business minutes
 * against a minute-by-minute reference over small ranges (random weeks,
 * holidays and zones, across the DST changes of Europe/Berlin and New York),
 * hand-computed cases around the changes, the bounded search, and the
 * setting's refusals.
 */
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addMinutes, BusinessHours, countMinutes, dayAndWeekEnd, weekdays } from "../src/forms/BusinessHours.ts"
import { wallClock } from "../src/kernel/TimeZones.ts"

const decode = Schema.decodeUnknownSync(BusinessHours)
const MINUTE = 60_000

const nineToFive = { from: "09:00", to: "17:00" }
const berlin = decode({
  timeZone: "Europe/Berlin",
  week: { mon: [nineToFive], tue: [nineToFive], wed: [nineToFive], thu: [nineToFive], fri: [nineToFive] },
  holidays: ["2026-12-25"]
})

const HOUR = 60 * MINUTE

/**
 * The wall clock of an instant, from its zone's offset at the start of its UTC hour: the zones used here change
 * their offset only on whole UTC hours, and a reference walking minute by minute asks `Intl` 60 times less.
 */
const offsets = new Map<string, number>()
const wallClockByHour = (zone: string, at: number): number => {
  const hour = Math.floor(at / HOUR) * HOUR
  const key = `${zone} ${hour}`
  let offset = offsets.get(key)
  if (offset === undefined) {
    offset = wallClock(zone, hour) - hour
    offsets.set(key, offset)
  }
  return at + offset
}

/** The reference: whether the minute starting at `at` is business time, read on the wall clock. */
const isBusinessMinute = (hours: BusinessHours, at: number): boolean => {
  const wall = new Date(wallClockByHour(hours.timeZone, at))
  if ((hours.holidays ?? []).includes(wall.toISOString().slice(0, 10))) return false
  const minute = wall.getUTCHours() * 60 + wall.getUTCMinutes()
  return (hours.week[weekdays[wall.getUTCDay()]!] ?? []).some((interval) => {
    const from = Number(interval.from.slice(0, 2)) * 60 + Number(interval.from.slice(3))
    const to = Number(interval.to.slice(0, 2)) * 60 + Number(interval.to.slice(3))
    return minute >= from && minute < to
  })
}

/** Minute by minute (start on a whole minute): the instant after `minutes` business minutes. */
const referenceAdd = (hours: BusinessHours, start: number, minutes: number, limit: number): number | undefined => {
  let remaining = minutes
  for (let at = start; at < start + limit * MINUTE; at += MINUTE) {
    if (!isBusinessMinute(hours, at)) continue
    if (remaining === 0) return at
    remaining--
    if (remaining === 0) return at + MINUTE
  }
  return undefined
}

const referenceCount = (hours: BusinessHours, start: number, end: number): number => {
  let total = 0
  for (let at = start; at < end; at += MINUTE) if (isBusinessMinute(hours, at)) total++
  return total
}

/**
 * Hours on whole quarter hours, never strictly inside 01:00–03:00, where the wall clock and the bounds' rule differ:
 * Berlin skips and repeats 02:00–03:00; New York skips 02:00–03:00 in March and repeats 01:00–02:00 in November.
 */
const clock = fc
  .integer({ min: 0, max: 96 })
  .filter((q) => !(q > 4 && q < 12))
  .map((q) => `${String(Math.floor(q / 4)).padStart(2, "0")}:${String((q % 4) * 15).padStart(2, "0")}`)

const interval = fc
  .tuple(clock, clock)
  .filter(([a, b]) => a !== b && a !== "24:00")
  .map(([a, b]) => (a < b ? { from: a, to: b } : { from: b, to: a }))

const arbitraryHours = fc
  .record({
    timeZone: fc.constantFrom("Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata"),
    days: fc.array(fc.tuple(fc.constantFrom(...weekdays), interval), { minLength: 1, maxLength: 6 }),
    holidays: fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 3 })
  })
  .map(({ timeZone, days, holidays }) => {
    const week: Record<string, Array<{ from: string; to: string }>> = {}
    for (const [day, i] of days) {
      const list = (week[day] ??= [])
      const overlaps = list.some((other) => i.from < other.to && other.from < i.to)
      if (!overlaps) list.push(i)
    }
    // The holidays are days around the changes of late March and late October.
    const base = [Date.UTC(2026, 2, 20), Date.UTC(2026, 9, 17)]
    return decode({
      timeZone,
      week,
      holidays: holidays.map((d) => new Date(base[d % 2]! + (d % 11) * 86_400_000).toISOString().slice(0, 10))
    })
  })

/** Whole minutes in the 16 days around a DST change (spring or autumn). */
const start = fc
  .tuple(fc.boolean(), fc.integer({ min: 0, max: 16 * 24 * 60 }))
  .map(([spring, minute]) => (spring ? Date.UTC(2026, 2, 20) : Date.UTC(2026, 9, 17)) + minute * MINUTE)

describe("BusinessHours", () => {
  it("adds business minutes as the minute-by-minute reference does", () => {
    fc.assert(
      fc.property(arbitraryHours, start, fc.integer({ min: 0, max: 1500 }), (hours, at, minutes) => {
        const expected = referenceAdd(hours, at, minutes, 16 * 24 * 60)
        // Weeks with little time may need more than the reference walks: only compare what it found.
        if (expected !== undefined) expect(addMinutes(hours, at, minutes)).toBe(expected)
      }),
      { numRuns: 80 }
    )
  })

  it("counts business minutes as the minute-by-minute reference does", () => {
    fc.assert(
      fc.property(arbitraryHours, start, fc.integer({ min: 0, max: 4 * 24 * 60 }), (hours, at, length) => {
        expect(countMinutes(hours, at, at + length * MINUTE)).toBe(referenceCount(hours, at, at + length * MINUTE))
      }),
      { numRuns: 80 }
    )
  })

  it("adding then counting gives back the minutes", () => {
    fc.assert(
      fc.property(arbitraryHours, start, fc.integer({ min: 1, max: 100_000 }), (hours, at, minutes) => {
        const due = addMinutes(hours, at, minutes)
        if (due !== undefined) expect(countMinutes(hours, at, due)).toBe(minutes)
      }),
      { numRuns: 100 }
    )
  })

  it("skips the weekend and holidays (Europe/Berlin, 9–17 on weekdays)", () => {
    // Friday 27 Nov 2026 16:00 CET + 2 h: 1 h on Friday, 1 h on Monday from 09:00 → Monday 10:00 CET.
    expect(addMinutes(berlin, Date.parse("2026-11-27T15:00:00Z"), 120)).toBe(Date.parse("2026-11-30T09:00:00Z"))
    // Thursday 24 Dec 16:30 + 1 h: 30 min on the 24th, the 25th is a holiday, then Monday 28th 09:30.
    expect(addMinutes(berlin, Date.parse("2026-12-24T15:30:00Z"), 60)).toBe(Date.parse("2026-12-28T08:30:00Z"))
    // Saturday: the clock starts on Monday at 09:00.
    expect(addMinutes(berlin, Date.parse("2026-11-28T12:00:00Z"), 0)).toBe(Date.parse("2026-11-30T08:00:00Z"))
    expect(countMinutes(berlin, Date.parse("2026-11-27T15:00:00Z"), Date.parse("2026-11-30T09:00:00Z"))).toBe(120)
  })

  it("handles the DST changes of Europe/Berlin (end of March, end of October)", () => {
    // Friday 27 Mar 2026 16:00 CET (15:00Z) + 2 h → Monday 30 Mar 10:00 CEST (08:00Z): the offset changed on Sunday.
    expect(addMinutes(berlin, Date.parse("2026-03-27T15:00:00Z"), 120)).toBe(Date.parse("2026-03-30T08:00:00Z"))
    // Friday 23 Oct 16:00 CEST (14:00Z) + 2 h → Monday 26 Oct 10:00 CET (09:00Z).
    expect(addMinutes(berlin, Date.parse("2026-10-23T14:00:00Z"), 120)).toBe(Date.parse("2026-10-26T09:00:00Z"))
    // Around the clock on Sunday: the day of spring forward has 23 hours, the day of fall back 25.
    const sunday = decode({ timeZone: "Europe/Berlin", week: { sun: [{ from: "00:00", to: "24:00" }] } })
    expect(countMinutes(sunday, Date.parse("2026-03-28T00:00:00Z"), Date.parse("2026-03-30T00:00:00Z"))).toBe(23 * 60)
    expect(countMinutes(sunday, Date.parse("2026-10-24T00:00:00Z"), Date.parse("2026-10-26T00:00:00Z"))).toBe(25 * 60)
    // An interval spanning the skipped hour holds an hour less: 01:00–04:00 on 29 March is two real hours.
    const night = decode({ timeZone: "Europe/Berlin", week: { sun: [{ from: "01:00", to: "04:00" }] } })
    expect(addMinutes(night, Date.parse("2026-03-29T00:00:00Z"), 120)).toBe(Date.parse("2026-03-29T02:00:00Z"))
    expect(addMinutes(night, Date.parse("2026-03-29T00:00:00Z"), 121)).toBe(Date.parse("2026-04-04T23:01:00Z"))
  })

  it("counts the hour clocks repeat in autumn twice when an interval holds it (the property test's counterexample, #52)", () => {
    // Berlin, Sunday 25 Oct 2026, 00:00–02:30: 22:00Z–00:30Z in summer time, then 02:00–02:30 again, 01:00Z–01:30Z.
    const early = decode({ timeZone: "Europe/Berlin", week: { sun: [{ from: "00:00", to: "02:30" }] } })
    expect(addMinutes(early, Date.parse("2026-10-24T18:00:00Z"), 150)).toBe(Date.parse("2026-10-25T00:30:00Z"))
    expect(addMinutes(early, Date.parse("2026-10-24T18:00:00Z"), 151)).toBe(Date.parse("2026-10-25T01:01:00Z"))
    expect(addMinutes(early, Date.parse("2026-10-24T18:00:00Z"), 180)).toBe(Date.parse("2026-10-25T01:30:00Z"))
    expect(addMinutes(early, Date.parse("2026-10-24T18:00:00Z"), 240)).toBe(Date.parse("2026-11-01T00:00:00Z"))
    expect(countMinutes(early, Date.parse("2026-10-24T20:00:00Z"), Date.parse("2026-10-25T04:00:00Z"))).toBe(180)
    // Between the two passes (00:30Z–01:00Z the clock reads 02:30–03:00 summer time) nothing counts.
    expect(countMinutes(early, Date.parse("2026-10-25T00:30:00Z"), Date.parse("2026-10-25T01:00:00Z"))).toBe(0)
    // New York, Sunday 1 Nov 2026, 00:00–01:30: 04:00Z–05:30Z in daylight time, then 01:00–01:30 again, 06:00Z–06:30Z.
    const york = decode({ timeZone: "America/New_York", week: { sun: [{ from: "00:00", to: "01:30" }] } })
    expect(addMinutes(york, Date.parse("2026-11-01T03:00:00Z"), 120)).toBe(Date.parse("2026-11-01T06:30:00Z"))
    expect(countMinutes(york, Date.parse("2026-11-01T00:00:00Z"), Date.parse("2026-11-01T12:00:00Z"))).toBe(120)
  })

  it("runs 24/7 in UTC without business hours, and gives up after the bounded search", () => {
    expect(addMinutes(undefined, Date.parse("2026-11-28T12:00:00Z"), 90)).toBe(Date.parse("2026-11-28T13:30:00Z"))
    expect(countMinutes(undefined, 0, 90 * MINUTE)).toBe(90)
    // One minute a week: 100,000 minutes are further away than the ten years walked.
    const scarce = decode({ timeZone: "UTC", week: { mon: [{ from: "09:00", to: "09:01" }] } })
    const began = performance.now()
    expect(addMinutes(scarce, Date.parse("2026-11-28T12:00:00Z"), 100_000)).toBeUndefined()
    expect(performance.now() - began).toBeLessThan(2000)
  })

  it("gives the end of the local day and week", () => {
    // Saturday 28 Nov 2026 12:00Z in Berlin: the day ends at midnight CET, the week on Monday 30th 00:00 CET.
    expect(dayAndWeekEnd("Europe/Berlin", Date.parse("2026-11-28T12:00:00Z"))).toEqual({
      dayEnd: Date.parse("2026-11-28T23:00:00Z"),
      weekEnd: Date.parse("2026-11-29T23:00:00Z")
    })
    expect(dayAndWeekEnd(undefined, Date.parse("2026-11-30T12:00:00Z"))).toEqual({
      dayEnd: Date.parse("2026-12-01T00:00:00Z"),
      weekEnd: Date.parse("2026-12-07T00:00:00Z")
    })
  })

  it("refuses overlapping intervals, an end before the start, an unknown zone and bad holidays", () => {
    const message = (input: unknown) => {
      const result = Schema.decodeUnknownExit(BusinessHours)(input)
      return result._tag === "Failure" ? String(result.cause) : "accepted"
    }
    const week = { mon: [nineToFive] }
    expect(message({ timeZone: "Mars/Olympus", week })).toContain('unknown time zone "Mars/Olympus"')
    expect(message({ timeZone: "UTC", week: { mon: [{ from: "17:00", to: "09:00" }] } })).toContain(
      "an interval must end after it starts (17:00–09:00)"
    )
    expect(
      message({
        timeZone: "UTC",
        week: {
          mon: [
            { from: "09:00", to: "12:00" },
            { from: "11:00", to: "13:00" }
          ]
        }
      })
    ).toContain("intervals overlap (09:00–12:00 and 11:00–13:00)")
    expect(message({ timeZone: "UTC", week: { mon: [{ from: "9:00", to: "17:00" }] } })).toContain(
      "is not a time of day"
    )
    expect(message({ timeZone: "UTC", week: {} })).toContain("at least one day needs an interval")
    expect(message({ timeZone: "UTC", week, holidays: ["2026-02-30"] })).toContain('"2026-02-30" is not a date')
    expect(message({ timeZone: "UTC", week, holidays: Array.from({ length: 367 }, () => "2026-01-01") })).toContain(
      "at most 366 dates"
    )
    expect(message({ timeZone: "UTC", week: { monday: [nineToFive] } })).toContain('unknown day "monday"')
    expect(message({ timeZone: "Europe/Berlin", week, holidays: ["2026-12-25"] })).toBe("accepted")
  })
})
