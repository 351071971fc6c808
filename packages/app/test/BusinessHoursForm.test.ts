/** The business hours as their form holds them and back: each day's intervals and the holidays as text. */
import { describe, expect, it } from "vitest"
import { formOf, hoursOf, weekDays } from "../src/settings/BusinessHoursForm.js"

const hours = {
  timeZone: "Europe/Berlin",
  week: {
    mon: [
      { from: "09:00", to: "12:00" },
      { from: "13:00", to: "17:00" }
    ],
    fri: [{ from: "09:00", to: "15:00" }]
  },
  holidays: ["2026-12-25", "2026-12-26"]
}

describe("BusinessHoursForm", () => {
  it("writes each day's intervals and the holidays, empty for a closed day or no hours at all", () => {
    expect(formOf(hours)).toEqual({
      timeZone: "Europe/Berlin",
      holidays: "2026-12-25, 2026-12-26",
      mon: "09:00-12:00, 13:00-17:00",
      tue: "",
      wed: "",
      thu: "",
      fri: "09:00-15:00",
      sat: "",
      sun: ""
    })
    expect(formOf(undefined)).toEqual(
      Object.fromEntries([["timeZone", ""], ["holidays", ""], ...weekDays.map((d) => [d, ""])])
    )
  })

  it("reads the form back, at commas or spaces, leaving closed days out", () => {
    expect(hoursOf(formOf(hours))).toEqual(hours)
    expect(hoursOf({ timeZone: " UTC ", mon: "08:00-10:00 14:00-16:00", tue: " ", holidays: "" })).toEqual({
      timeZone: "UTC",
      week: {
        mon: [
          { from: "08:00", to: "10:00" },
          { from: "14:00", to: "16:00" }
        ]
      }
    })
  })

  it("has no business hours without a time zone (the clock then runs all the time)", () => {
    expect(hoursOf({ timeZone: "  ", mon: "09:00-17:00" })).toBeUndefined()
  })

  it("sends a malformed interval as typed, for the server to refuse", () => {
    expect(hoursOf({ timeZone: "UTC", wed: "9-" })?.week).toEqual({ wed: [{ from: "9", to: "" }] })
  })
})
