/** An item of an ordered list moved one place up or down (questions, stages, assignment rules, case fields). */
import { describe, expect, it } from "vitest"
import { moved } from "../src/shared/Ordering.js"

describe("Ordering", () => {
  it("moves an item up or down, leaving the list it was given as it was", () => {
    const list = ["a", "b", "c", "d"]
    expect(moved(list, 2, -1)).toEqual(["a", "c", "b", "d"])
    expect(moved(list, 0, 1)).toEqual(["b", "a", "c", "d"])
    expect(moved(list, 3, -1)).toEqual(["a", "b", "d", "c"])
    expect(list).toEqual(["a", "b", "c", "d"])
  })

  it("is a copy as it was when there is no such item", () => {
    const list = ["a", "b"]
    const same = moved(list, 5, 1)
    expect(same).toEqual(["a", "b"])
    expect(same).not.toBe(list)
  })
})
