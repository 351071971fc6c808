/** A checkbox list's choice: a checked item goes last, once; an unchecked one leaves. */
import { describe, expect, it } from "vitest"
import { toggled } from "../src/settings/CheckedList.js"

describe("CheckedList", () => {
  it("adds a checked item once, at the end, and removes an unchecked one", () => {
    expect(toggled([1, 2], 3, true)).toEqual([1, 2, 3])
    expect(toggled([1, 2, 3], 1, true)).toEqual([2, 3, 1])
    expect(toggled([1, 2, 3], 2, false)).toEqual([1, 3])
    expect(toggled([1, 3], 2, false)).toEqual([1, 3])
  })
})
