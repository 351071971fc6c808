/** A form's case fields as the builder edits them: keys made from labels, unique among the others, and the list as the API takes it. */
import { describe, expect, it } from "vitest"
import { keyFrom, toFields, unusedKey } from "../src/builder/CaseFieldDrafts.js"

describe("CaseFieldDrafts", () => {
  it("makes a key of lower-case letters, digits and _ from a label, starting with a letter", () => {
    expect(keyFrom("Contract value (€)")).toBe("contract_value")
    expect(keyFrom("Café owner")).toBe("cafe_owner")
    expect(keyFrom("2nd reviewer")).toBe("nd_reviewer")
    expect(keyFrom("???")).toBe("field")
    expect(keyFrom("a".repeat(60))).toHaveLength(40)
  })

  it("numbers a key the other fields already use", () => {
    const others = [{ key: "priority" }, { key: "priority_2" }] as any
    expect(unusedKey("owner", others)).toBe("owner")
    expect(unusedKey("priority", others)).toBe("priority_3")
    expect(unusedKey("x".repeat(40), [{ key: "x".repeat(40) }] as any)).toBe(`${"x".repeat(37)}_2`)
  })

  it("sends a select's options from its lines, trimmed and without empty ones", () => {
    expect(
      toFields([
        { key: "priority", label: "Priority", type: "select", options: ["low"], optionsText: " low \n\nhigh\n" },
        { key: "team", label: "Team", type: "select", options: ["a", "b"] },
        { key: "notes", label: "Notes", type: "text" }
      ] as any)
    ).toEqual([
      { key: "priority", label: "Priority", type: "select", options: ["low", "high"] },
      { key: "team", label: "Team", type: "select", options: ["a", "b"] },
      { key: "notes", label: "Notes", type: "text" }
    ])
  })
})
