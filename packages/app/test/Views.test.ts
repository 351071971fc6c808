/**
 * The workspace inbox's views: what a view shows once its overrides are laid over it, the list's query, the filter
 * a view saves, the address's view and overrides, and a change that equals the view's own value being no override.
 */
import { describe, expect, it } from "vitest"
import {
  builtInViews,
  defaultColumns,
  effective,
  filterToSave,
  fromSaved,
  fromSearch,
  listQuery,
  withChange
} from "../src/inbox/Views.js"

const [mine, open] = builtInViews({ mine: "My open cases", open: "All open cases" })
const saved = fromSaved({
  id: 31,
  name: "Refunds this month",
  shared: true,
  canChange: true,
  filter: { formId: 4, stage: 12, tag: "refund", from: "2026-11-01", to: "2026-11-30", field: ["5:yes", "6:blue"] },
  sort: "oldest",
  columns: ["name", "stage", "due"],
  createdAt: "2026-11-02T09:00:00.000Z",
  updatedAt: "2026-11-02T09:00:00.000Z"
} as any)

describe("Views", () => {
  it("has the built-in views, named as given: my open cases and all open cases", () => {
    expect(mine).toMatchObject({ key: "mine", name: "My open cases", filter: { assignee: "me", open: "true" } })
    expect(open).toMatchObject({ key: "open", name: "All open cases", filter: { open: "true" }, sort: "newest" })
    expect(mine!.columns).toEqual(defaultColumns)
  })

  it("shows a view's filters, sort and columns, with the overrides laid over them", () => {
    expect(effective(saved, {})).toEqual({
      filter: { formId: "4", stage: "12", assignee: "", tag: "refund", due: "", open: "", q: "" },
      sort: "oldest",
      columns: ["name", "stage", "due"]
    })
    expect(effective(saved, { q: "late", sort: "newest", columns: "form,name" })).toMatchObject({
      filter: { q: "late", tag: "refund" },
      sort: "newest",
      columns: ["form", "name"]
    })
  })

  it("asks the list for the shown filters, the view's days and answer fields, and the sort", () => {
    expect(listQuery(saved, { q: " late " }).toString()).toBe(
      "formId=4&stage=12&tag=refund&q=late&from=2026-11-01&to=2026-11-30&field=5%3Ayes&field=6%3Ablue&sort=oldest"
    )
    expect(listQuery(mine!, {}).toString()).toBe("assignee=me&open=true&sort=newest")
  })

  it("saves the shown filter with ids as numbers and the view's days and fields kept", () => {
    expect(filterToSave(saved, { stage: "", assignee: "9", q: " late " })).toEqual({
      formId: 4,
      assignee: 9,
      tag: "refund",
      q: "late",
      from: "2026-11-01",
      to: "2026-11-30",
      field: ["5:yes", "6:blue"]
    })
    expect(filterToSave(mine!, { assignee: "me" })).toEqual({ assignee: "me", open: "true" })
  })

  it("reads the view and its overrides from the address, my open cases without any", () => {
    expect(fromSearch("?view=31&q=late&sort=newest&page=2")).toEqual({
      key: "31",
      overrides: { q: "late", sort: "newest" }
    })
    expect(fromSearch("")).toEqual({ key: "mine", overrides: {} })
  })

  it("keeps as overrides only what differs from the view, and drops the stage with another form", () => {
    expect(withChange(saved, {}, "tag", "vip")).toEqual({ tag: "vip" })
    expect(withChange(saved, { tag: "vip" }, "tag", "refund")).toEqual({})
    expect(withChange(saved, {}, "sort", "oldest")).toEqual({})
    expect(withChange(saved, {}, "columns", "name,stage,due")).toEqual({})
    // The view has a stage: another form overrides it with none.
    expect(withChange(saved, { stage: "13" }, "formId", "5")).toEqual({ formId: "5", stage: "" })
    // Without a stage in the view, the override of the stage simply goes.
    expect(withChange(open!, { stage: "13" }, "formId", "5")).toEqual({ formId: "5" })
  })
})
