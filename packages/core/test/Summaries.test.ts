import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Field, FieldType } from "../src/forms/Fields.ts"
import type { AnswerValue } from "../src/forms/Answers.ts"
import { flatAnswers, flattener, formatAnswer, summary } from "../src/forms/Summaries.ts"

const field = (id: number, type: FieldType, label: string, extra: Partial<Field> = {}): Field => ({
  id,
  type,
  label,
  required: false,
  position: id,
  options: null,
  ...extra
})

describe("formatAnswer", () => {
  it.each<[string, Field, AnswerValue | undefined, string]>([
    ["short_text", field(1, "short_text", "Name"), "Ada", "Ada"],
    ["long_text keeps lines", field(1, "long_text", "Bio"), "a\nb", "a\nb"],
    ["email", field(1, "email", "Email"), "ada@example.com", "ada@example.com"],
    ["tel", field(1, "tel", "Phone"), "+44 20 7946 0958", "+44 20 7946 0958"],
    ["url", field(1, "url", "Site"), "https://example.com", "https://example.com"],
    ["date", field(1, "date", "Day"), "2024-02-29", "2024-02-29"],
    ["select", field(1, "select", "Color", { options: { choices: ["Red"] } }), "Red", "Red"],
    ["number", field(1, "number", "Age"), 42, "42"],
    ["number float", field(1, "number", "Temp"), -0.5, "-0.5"],
    ["yes", field(1, "yes_no", "Agree"), true, "Yes"],
    ["no", field(1, "yes_no", "Agree"), false, "No"],
    [
      "checkboxes",
      field(1, "checkboxes", "Days", { options: { choices: ["Mon", "Tue"] } }),
      ["Mon", "Tue"],
      "Mon, Tue"
    ],
    ["rating default max", field(1, "rating", "Score"), 4, "4/5"],
    ["rating max 10", field(1, "rating", "Score", { options: { max: 10 } }), 7, "7/10"],
    ["nps", field(1, "nps", "Recommend"), 9, "9"],
    ["opinion scale", field(1, "opinion_scale", "Easy", { options: { min: 0, max: 4 } }), 0, "0"],
    ["slider", field(1, "slider", "Share", { options: { step: 0.5 } }), 37.5, "37.5"],
    ["time", field(1, "time", "Arrival"), "09:30", "09:30"],
    ["datetime", field(1, "datetime", "Meeting"), "2026-11-26T14:30", "2026-11-26T14:30"],
    ["legal", field(1, "legal", "Terms"), true, "Yes"],
    [
      "contact in its parts' order",
      field(1, "contact", "You"),
      { phone: "+44 20 7946 0000", name: "Ada Lovelace", email: "ada@example.com" },
      "Ada Lovelace, ada@example.com, +44 20 7946 0000"
    ],
    [
      "ranking numbered",
      field(1, "ranking", "Order", { options: { choices: ["Price", "Speed"] } }),
      ["Speed", "Price"],
      "1. Speed, 2. Price"
    ],
    [
      "matrix by row, in the rows' order",
      field(1, "matrix", "Rate", { options: { rows: ["Speed", "Price"], columns: ["OK", "Good"], multiple: true } }),
      { Price: ["OK", "Good"], Speed: ["Good"] },
      "Speed: Good; Price: OK, Good"
    ],
    [
      "address without its empty parts",
      field(1, "address", "Home"),
      { line1: "12 Main St", city: "Springfield", postalCode: "12345", country: "USA" },
      "12 Main St, Springfield, 12345, USA"
    ],
    ["file", field(1, "file", "CV"), { fileId: "f1", name: "cv.pdf", size: 10, type: "application/pdf" }, "cv.pdf"],
    [
      "signature typed",
      field(1, "signature", "Sign"),
      { typedName: "Ada Lovelace", consent: true },
      "Ada Lovelace (typed signature)"
    ],
    [
      "signature drawn",
      field(1, "signature", "Sign"),
      { fileId: "f1", name: "signature.png", size: 10, type: "image/png" },
      "Drawn signature"
    ],
    ["missing", field(1, "short_text", "Name"), undefined, ""]
  ])("%s", (_name, f, value, expected) => {
    expect(formatAnswer(f, value)).toBe(expected)
  })
})

describe("flatAnswers", () => {
  it("orders by position, skips statements and unanswered questions", () => {
    const fields = [
      field(1, "email", "Email", { position: 3 }),
      field(2, "short_text", "Name", { position: 1 }),
      field(3, "statement", "Welcome", { position: 0 }),
      field(4, "short_text", "Nickname", { position: 2 }),
      field(5, "yes_no", "Subscribe?", { position: 4 })
    ]
    const flat = flatAnswers(fields, { "1": "ada@example.com", "2": "Ada", "3": "ignored", "5": false })
    expect(flat).toEqual({ Name: "Ada", Email: "ada@example.com", "Subscribe?": "No" })
    expect(Object.keys(flat)).toEqual(["Name", "Email", "Subscribe?"])
  })

  it("numbers duplicate labels", () => {
    const fields = [
      field(1, "short_text", "Child"),
      field(2, "short_text", "Child"),
      field(3, "short_text", "Child"),
      field(4, "short_text", "Other")
    ]
    expect(flatAnswers(fields, { "1": "A", "2": "B", "3": "C", "4": "D" })).toEqual({
      Child: "A",
      "Child (2)": "B",
      "Child (3)": "C",
      Other: "D"
    })
  })

  it("keeps duplicate-label keys stable when an earlier one is unanswered", () => {
    const fields = [field(1, "short_text", "Child"), field(2, "short_text", "Child")]
    expect(flatAnswers(fields, { "2": "B" })).toEqual({ "Child (2)": "B" })
  })

  it("avoids colliding with a label that already carries a suffix", () => {
    const fields = [field(1, "short_text", "A"), field(2, "short_text", "A (2)"), field(3, "short_text", "A")]
    expect(flatAnswers(fields, { "1": "x", "2": "y", "3": "z" })).toEqual({ A: "x", "A (2)": "y", "A (3)": "z" })
  })

  it("treats __proto__ as an ordinary label", () => {
    const flat = flatAnswers([field(1, "short_text", "__proto__")], { "1": "x" })
    expect(Object.keys(flat)).toEqual(["__proto__"])
    expect(Object.getPrototypeOf(flat)).toBe(Object.prototype)
  })
})

describe("summary", () => {
  it("renders the documented example", () => {
    const fields = [field(2, "email", "Email", { position: 1 }), field(1, "short_text", "Name", { position: 0 })]
    expect(summary(fields, { "1": "Ada Lovelace", "2": "ada@example.com" })).toBe(
      "■ Name\nAda Lovelace\n\n■ Email\nada@example.com"
    )
  })

  it("formats every kind of answer, keeps multi-line answers and skips the rest", () => {
    const fields = [
      field(1, "statement", "Intro"),
      field(2, "long_text", "Bio"),
      field(3, "rating", "Score", { options: { max: 10 } }),
      field(4, "checkboxes", "Days", { options: { choices: ["Mon", "Tue"] } }),
      field(5, "short_text", "Unanswered"),
      field(6, "file", "CV"),
      field(7, "yes_no", "Agree")
    ]
    const values: Record<string, AnswerValue> = {
      "1": "x",
      "2": "line one\nline two",
      "3": 9,
      "4": ["Mon", "Tue"],
      "6": { fileId: "f", name: "cv.pdf", size: 1, type: "application/pdf" },
      "7": true
    }
    expect(summary(fields, values)).toBe(
      "■ Bio\nline one\nline two\n\n■ Score\n9/10\n\n■ Days\nMon, Tue\n\n■ CV\ncv.pdf\n\n■ Agree\nYes"
    )
  })

  it("is empty without answers", () => {
    expect(summary([field(1, "short_text", "Name")], {})).toBe("")
  })
})

describe("flattener", () => {
  it("gives what flatAnswers and summary give, for any fields and answers, byte for byte once serialised", () => {
    const types: Array<FieldType> = [
      "short_text",
      "long_text",
      "number",
      "yes_no",
      "checkboxes",
      "rating",
      "statement",
      "file"
    ]
    const fieldsArb = fc
      .array(
        fc.record({
          type: fc.constantFrom(...types),
          // shared, numeric-looking and prototype labels: keys with " (2)", integer keys ordered first, own "__proto__"
          label: fc.oneof(fc.constantFrom("A", "A", "2", "10", "__proto__", "■"), fc.string({ maxLength: 6 })),
          position: fc.integer({ min: 0, max: 5 })
        }),
        { maxLength: 8 }
      )
      .map((specs) => specs.map((spec, i) => field(i + 1, spec.type, spec.label, { position: spec.position })))
    const value = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
      fc.constant({ fileId: "f", name: "cv.pdf", size: 1, type: "application/pdf" })
    )
    fc.assert(
      fc.property(
        fieldsArb,
        fc.dictionary(fc.constantFrom("1", "2", "3", "4", "5", "6", "7", "8", "9"), value),
        (fields, values) => {
          const flatten = flattener(fields)
          const once = flatten(values as Record<string, AnswerValue>)
          expect(JSON.stringify(once.answers)).toBe(
            JSON.stringify(flatAnswers(fields, values as Record<string, AnswerValue>))
          )
          expect(once.summary).toBe(summary(fields, values as Record<string, AnswerValue>))
        }
      )
    )
  })
})
