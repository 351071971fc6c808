/**
 * The builder's drafts of questions: told apart by a key, sent back as the API takes them (only their type's
 * option keys, empty ones left out, the keys its options require always there), and grouped into the preview's
 * screens by page.
 */
import { describe, expect, it } from "vitest"
import { draftOf, screensOf, toInput } from "../src/builder/Drafts.js"
import { localInput, numberOrUndefined } from "../src/builder/InputValues.js"

/** A type as the page tells it: the option keys it takes, those it requires, whether it takes an answer. */
const typed = (options: ReadonlyArray<string>, requiredOptions: ReadonlyArray<string> = [], answered = true) => ({
  options,
  requiredOptions,
  answered
})

describe("Drafts", () => {
  it("gives every draft its own key and keeps what the server gave", () => {
    const a = draftOf({ type: "short_text", label: "Name", required: true })
    const b = draftOf({ type: "short_text", label: "Name", required: true })
    expect(a.key).not.toBe(b.key)
    const logic = [{ if: { operator: "is", value: "no" }, then: "end" }] as any
    const kept = draftOf({
      id: 5,
      type: "select",
      label: "Why?",
      required: false,
      sensitive: true,
      logic,
      page: "p1",
      options: { choices: ["a"] }
    } as any)
    expect(kept).toMatchObject({ id: 5, sensitive: true, logic, page: "p1", options: { choices: ["a"] } })
    expect(draftOf({ type: "email", label: "E-mail", required: false, showIf: null } as any)).not.toHaveProperty(
      "showIf"
    )
  })

  it("sends only the option keys of the question's type, without empty ones", () => {
    const draft = {
      ...draftOf({ type: "number", label: "Age", required: true }),
      options: { min: 18, max: undefined, step: "", placeholder: "", help: "In years", choices: ["stale"] }
    }
    expect(toInput(draft, typed(["placeholder", "help", "min", "max", "step"]))).toEqual({
      type: "number",
      label: "Age",
      required: true,
      options: { help: "In years", min: 18 }
    })
  })

  it("always sends the option keys a type requires (a choice question's choices, a matrix's rows and columns), and no options when none are set", () => {
    const select = draftOf({ type: "select", label: "Pick", required: false })
    expect(toInput(select, typed(["choices", "help"], ["choices"])).options).toEqual({ choices: [] })
    const matrix = draftOf({ type: "matrix", label: "Rate", required: false })
    expect(toInput(matrix, typed(["rows", "columns", "multiple"], ["rows", "columns"])).options).toEqual({
      rows: [],
      columns: []
    })
    const kept = { ...matrix, options: { rows: ["Speed"], columns: [] } }
    expect(toInput(kept, typed(["rows", "columns"], ["rows", "columns"])).options).toEqual({
      rows: ["Speed"],
      columns: []
    })
    const text = draftOf({ type: "short_text", label: "Name", required: false })
    expect(toInput(text, typed(["placeholder", "help"])).options).toBeNull()
  })

  it("keeps an empty list of optional parts (it says none), and a question without an answer is never required nor sensitive", () => {
    const contact = {
      ...draftOf({ type: "contact", label: "You", required: true }),
      options: { optionalParts: [], parts: [] }
    }
    expect(toInput(contact, typed(["parts", "optionalParts"])).options).toEqual({ optionalParts: [] })
    const statement = { ...draftOf({ type: "statement", label: "Thanks", required: true }), sensitive: true }
    expect(toInput(statement, typed(["help"], [], false))).toMatchObject({ required: false })
    expect(toInput(statement, typed(["help"], [], false))).not.toHaveProperty("sensitive")
    const answered = { ...draftOf({ type: "short_text", label: "Name", required: true }), sensitive: true }
    expect(toInput(answered, typed(["help"]))).toMatchObject({ required: true, sensitive: true })
  })

  it("groups questions of the same page into one screen, a question without a page alone", () => {
    const q = (label: string, page?: string) => ({
      ...draftOf({ type: "short_text", label, required: false }),
      ...(page ? { page } : {})
    })
    const drafts = [q("a"), q("b", "p1"), q("c", "p1"), q("d"), q("e", "p2"), q("f", "p1")]
    expect(screensOf(drafts).map((screen) => screen.map((d) => d.label))).toEqual([
      ["a"],
      ["b", "c"],
      ["d"],
      ["e"],
      ["f"]
    ])
    expect(screensOf([])).toEqual([])
  })

  it("reads a number input (nothing when empty) and shows an instant in a datetime-local input", () => {
    expect(numberOrUndefined("")).toBeUndefined()
    expect(numberOrUndefined("12")).toBe(12)
    expect(localInput(undefined)).toBe("")
    expect(localInput("not a date")).toBe("")
    const at = new Date(2026, 10, 23, 9, 30)
    expect(localInput(at.toISOString())).toBe("2026-11-23T09:30")
  })
})
