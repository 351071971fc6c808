/**
 * The application's formats of dates, numbers, shares, lists and lengths of time, in English and German (Node's
 * ICU, as a browser's): the units chosen, the calendar days, months and hours read in UTC, what is not a date
 * left as it is, relative times against a given present.
 */
import { describe, expect, it } from "vitest"
import { formatsOf } from "../src/shared/Formats.js"

const en = formatsOf("en")
const de = formatsOf("de")
const now = Date.UTC(2026, 10, 23, 12, 0, 0)
const ago = (milliseconds: number) => new Date(now - milliseconds).toISOString()

describe("Formats", () => {
  it("writes numbers, shares and measures with the language's separators", () => {
    expect(en.formatNumber(1234.5)).toBe("1,234.5")
    expect(de.formatNumber(1234.5)).toBe("1.234,5")
    // The API gives shares in percent: 50 is half.
    expect(en.formatPercent(50)).toBe("50%")
    expect(de.formatPercent(12.34)).toMatch(/^12,3\s%$/)
    expect(en.formatDecimal(2.3456)).toBe("2.35")
    expect(en.formatDecimal(2)).toBe("2")
    expect(en.formatMoney(12.5, "EUR")).toBe("€12.50")
    expect(de.formatMoney(1234.5, "EUR")).toMatch(/^1\.234,50\s€$/)
    expect(en.formatMoney(3, "JPY")).toBe("¥3")
    expect(en.formatMoney(3, "not a code")).toBe("3 not a code")
  })

  it("reads calendar days, months and hours as UTC, and leaves what is not one as it is", () => {
    expect(en.formatCalendarDay("2026-11-23")).toBe("Nov 23, 2026")
    expect(en.formatCalendarDay("2026-11-23", true)).toBe("Nov 23")
    expect(de.formatCalendarDay("2026-11-23")).toBe("23.11.2026")
    expect(en.formatCalendarDay("week 47")).toBe("week 47")
    expect(en.formatMonth("2026-05")).toBe("May 2026")
    expect(de.formatMonth("2026-05")).toBe("Mai 2026")
    expect(en.formatMonth("later")).toBe("later")
    expect(en.formatHour("09")).toBe("9:00 AM")
    expect(de.formatHour("17")).toBe("17:00")
    expect(en.formatHour("24")).toBe("24")
    expect(en.formatHour("9.5")).toBe("9.5")
  })

  it("says a length of time in the largest unit that keeps at least one and a half of it", () => {
    expect(en.formatDuration(45)).toBe("45 seconds")
    expect(en.formatDuration(89)).toBe("89 seconds")
    expect(en.formatDuration(90)).toBe("1.5 minutes")
    expect(en.formatDuration(150)).toBe("2.5 minutes")
    expect(de.formatDuration(150)).toBe("2,5 Minuten")
    expect(en.formatDuration(2 * 3600)).toBe("2 hours")
    expect(en.formatDuration(36 * 3600)).toBe("1.5 days")
    expect(en.formatDuration(0)).toBe("0 seconds")
  })

  it("says how long ago or ahead a moment is, from the present it is given", () => {
    expect(en.formatRelative(ago(3 * 60_000), now)).toBe("3 minutes ago")
    expect(de.formatRelative(ago(3 * 60_000), now)).toBe("vor 3 Minuten")
    expect(en.formatRelative(ago(-2 * 3600_000), now)).toBe("in 2 hours")
    expect(en.formatRelative(ago(24 * 3600_000), now)).toBe("yesterday")
    expect(en.formatRelative(ago(0), now)).toBe("now")
    expect(en.formatRelative(ago(400 * 24 * 3600_000), now)).toBe("last year")
    expect(en.formatRelative(null, now)).toBe("")
    expect(en.formatRelative(undefined, now)).toBe("")
  })

  it("lists items, and writes nothing for an absent moment", () => {
    expect(en.formatList(["a", "b", "c"])).toBe("a, b, c")
    expect(de.formatList(["a", "b", "c"])).toBe("a, b und c")
    expect(en.formatDateTime(null)).toBe("")
    expect(en.formatDay(undefined)).toBe("")
    expect(en.formatDateTime("2026-11-23T12:00:00Z")).toMatch(/2026/)
  })
})
