/**
 * The builder's option editors by the option keys a type takes: every key any type takes has an editor, in one
 * order, and the editors share rows as the screen always drew them (a rating's one bound alone, a ranking's order
 * in a row of its own).
 */
import { describe, expect, it } from "vitest"
import { builderTypes } from "../../core/src/forms/questions/QuestionTypes.ts"
import { editedKeys, optionLines } from "../src/builder/OptionLayout.js"

const linesOf = (type: string) => optionLines(builderTypes.find((t) => t.type === type)?.options ?? [])

describe("OptionLayout", () => {
  it("has an editor for every option key a type takes", () => {
    const keys = new Set(builderTypes.flatMap((t) => t.options))
    expect([...keys].filter((key) => !editedKeys.includes(key))).toEqual([])
  })

  it("lays out a type's editors in one order, those of a line together", () => {
    expect(linesOf("checkboxes")).toEqual([
      { keys: ["choices"], row: false },
      { keys: ["minSelections", "maxSelections"], row: true },
      { keys: ["randomize", "allowOther"], row: true },
      { keys: ["quotas"], row: false },
      { keys: ["points"], row: false },
      { keys: ["images"], row: false },
      { keys: ["help", "placeholder"], row: true }
    ])
    expect(linesOf("ranking")).toEqual([
      { keys: ["choices"], row: false },
      { keys: ["randomize"], row: true },
      { keys: ["top"], row: false },
      { keys: ["help", "placeholder"], row: true }
    ])
    expect(linesOf("currency")).toEqual([
      { keys: ["currency", "currencies"], row: true },
      { keys: ["min", "max"], row: true },
      { keys: ["help", "placeholder"], row: true }
    ])
    expect(linesOf("contact")).toEqual([
      { keys: ["parts"], row: false },
      { keys: ["help", "placeholder"], row: true }
    ])
  })

  it("puts bounds in a row only when a type takes several", () => {
    expect(linesOf("rating")[0]).toEqual({ keys: ["max"], row: false })
    expect(linesOf("slider").slice(0, 2)).toEqual([
      { keys: ["min", "max", "step"], row: true },
      { keys: ["minLabel", "maxLabel"], row: true }
    ])
    expect(optionLines(["help"])).toEqual([{ keys: ["help"], row: true }])
    expect(optionLines(["unknown"])).toEqual([])
  })
})
