/** A form's inbox filters as the API's query takes them: the search trimmed, the days as instants of the browser's zone. */
import { describe, expect, it } from "vitest"
import { filterQuery, noFilters } from "../src/inbox/FilterQuery.js"

describe("FilterQuery", () => {
  it("asks for every response without a filter", () => {
    expect(filterQuery(noFilters)).toEqual({ q: "", stage: "", assignee: "", tag: "", from: "", to: "", due: "" })
  })

  it("trims the search and turns the days into the instants that open the first and close the last", () => {
    const query = filterQuery({
      ...noFilters,
      q: "  refund ",
      stage: "4",
      assignee: "none",
      from: "2026-11-02",
      to: "2026-11-08",
      due: "overdue"
    })
    expect(query).toEqual({
      q: "refund",
      stage: "4",
      assignee: "none",
      tag: "",
      from: new Date(2026, 10, 2, 0, 0, 0, 0).toISOString(),
      to: new Date(2026, 10, 8, 23, 59, 59, 999).toISOString(),
      due: "overdue"
    })
  })
})
