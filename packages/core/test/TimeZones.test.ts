/**
 * Time zones (`kernel/TimeZones.ts`), which the digests' schedule and the SLAs'
 * business hours share: the names accepted (the ICU's canonical ones and the
 * current ones it also knows), the wall clock at an instant, and the instant a
 * wall-clock time names, in the hour skipped and the hour repeated when
 * Berlin's clocks change (29 March and 25 October 2026).
 */
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { instantOf, isTimeZone, TimeZone, wallClock } from "../src/kernel/TimeZones.ts"

const iso = (ms: number) => new Date(ms).toISOString()

describe("time zones", () => {
  it("knows the IANA names, canonical or current, and refuses the rest", () => {
    for (const zone of ["Europe/Berlin", "UTC", "Etc/UTC", "Asia/Calcutta", "Asia/Kolkata", "Europe/Kyiv", "Etc/GMT+5"])
      expect(isTimeZone(zone), zone).toBe(true)
    for (const zone of ["Mars/Olympus", "", "+01:00", "Europe/Berlin ", "../etc/passwd", "x".repeat(65)])
      expect(isTimeZone(zone), zone).toBe(false)
    expect(() => Schema.decodeUnknownSync(TimeZone)("Mars/Olympus")).toThrow(/IANA time zone/)
  })

  it("reads the wall clock at an instant, and the instant back, across both clock changes", () => {
    expect(iso(wallClock("Europe/Berlin", Date.parse("2026-07-01T10:00:00.250Z")))).toBe("2026-07-01T12:00:00.250Z")
    expect(iso(wallClock("Europe/Berlin", Date.parse("2026-01-01T10:00:00Z")))).toBe("2026-01-01T11:00:00.000Z")
    expect(iso(instantOf("Europe/Berlin", Date.UTC(2026, 6, 1, 12)))).toBe("2026-07-01T10:00:00.000Z")
    // 02:30 on 29 March does not exist: the moment as far past the gap, 03:30 CEST.
    expect(iso(instantOf("Europe/Berlin", Date.UTC(2026, 2, 29, 2, 30)))).toBe("2026-03-29T01:30:00.000Z")
    // 02:30 on 25 October happens twice: the first, still CEST.
    expect(iso(instantOf("Europe/Berlin", Date.UTC(2026, 9, 25, 2, 30)))).toBe("2026-10-25T00:30:00.000Z")
    expect(iso(instantOf("Asia/Kolkata", Date.UTC(2026, 0, 1, 9)))).toBe("2026-01-01T03:30:00.000Z")
  })
})
