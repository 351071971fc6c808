import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  CheckboxesOptions,
  Field,
  FieldInput,
  type FieldType,
  FileOptions,
  NpsOptions,
  NumberOptions,
  OpinionScaleOptions,
  RatingOptions,
  SelectOptions,
  SliderOptions,
  sliderOf,
  ContactOptions,
  AddressOptions,
  MatrixOptions,
  RankingOptions,
  rankedPlaces,
  partsOf
} from "../src/forms/Fields.ts"
import { type AnswerIssue, type AnswerValue, cleanAnswers, validateAnswers } from "../src/forms/Answers.ts"
import { deriveRespondent } from "../src/cases/Respondents.ts"

let nextId = 1
const field = (type: FieldType, label: string, extra: Partial<Field> = {}): Field => {
  const id = nextId++
  return { id, type, label, required: false, position: id, options: null, ...extra }
}

const ok = (fields: ReadonlyArray<Field>, values: unknown): Record<string, AnswerValue> => {
  const result = validateAnswers(fields, values)
  if (Result.isFailure(result)) throw new Error(JSON.stringify(result.failure))
  return result.success
}

const issues = (fields: ReadonlyArray<Field>, values: unknown): ReadonlyArray<AnswerIssue> => {
  const result = validateAnswers(fields, values)
  if (Result.isSuccess(result)) throw new Error(`expected failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

/** Validates a single answer to a single question; returns the output value or the message. */
const one = (f: Field, value: unknown): { value: AnswerValue | undefined } | { message: string } => {
  const result = validateAnswers([f], { [String(f.id)]: value })
  return Result.isSuccess(result)
    ? { value: result.success[String(f.id)] }
    : { message: result.failure.map((i) => i.message).join("; ") }
}

const decodeInput = (input: unknown) => Schema.decodeUnknownResult(FieldInput)(input)
const inputError = (input: unknown): string => {
  const result = decodeInput(input)
  if (Result.isSuccess(result)) throw new Error(`expected failure, got ${JSON.stringify(result.success)}`)
  return result.failure.message
}

describe("FieldInput", () => {
  it("decodes a plain question with defaults and a trimmed label", () => {
    expect(Schema.decodeUnknownSync(FieldInput)({ type: "email", label: "  Email  " })).toEqual({
      type: "email",
      label: "Email",
      required: false,
      options: null
    })
  })

  it("keeps id, required and typed options", () => {
    expect(
      Schema.decodeUnknownSync(FieldInput)({
        id: 7,
        type: "select",
        label: "Color",
        required: true,
        options: { choices: [" Red ", "Blue"], help: "Pick one" }
      })
    ).toEqual({
      id: 7,
      type: "select",
      label: "Color",
      required: true,
      options: { choices: ["Red", "Blue"], help: "Pick one" }
    })
    expect(
      Schema.decodeUnknownSync(Schema.Array(FieldInput))([
        { type: "number", label: "Age", options: { min: 0, max: 120, step: 1 } },
        { type: "rating", label: "Score", options: null },
        { type: "file", label: "CV", options: { accept: ["application/pdf", "image/*", ".docx"], maxSizeMb: 10 } },
        { type: "checkboxes", label: "Days", options: { choices: ["Mon", "Tue"], minSelections: 0, maxSelections: 2 } },
        { type: "statement", label: "Thanks!", options: { help: "shown" } }
      ])
    ).toHaveLength(5)
  })

  it("decodes contact and address parts and fills their defaults", () => {
    expect(
      Schema.decodeUnknownSync(FieldInput)({
        type: "contact",
        label: "You",
        options: { parts: ["email", "name", "company"], optionalParts: ["company"] }
      }).options
    ).toEqual({ parts: ["email", "name", "company"], optionalParts: ["company"] })
    const summary = (f: Pick<Field, "type" | "options">) => partsOf(f).map((p) => `${p.name}${p.optional ? "?" : ""}`)
    expect(summary({ type: "contact", options: null })).toEqual(["name", "email", "phone"])
    expect(summary({ type: "address", options: null })).toEqual([
      "line1",
      "line2?",
      "city",
      "region?",
      "postalCode",
      "country"
    ])
    expect(summary({ type: "address", options: { parts: ["line1", "city"], optionalParts: [] } })).toEqual([
      "line1",
      "city"
    ])
    expect(summary({ type: "short_text", options: null })).toEqual([])
  })

  it("counts a ranking's places", () => {
    expect(rankedPlaces({ options: { choices: ["A", "B", "C"] } })).toBe(3)
    expect(rankedPlaces({ options: { choices: ["A", "B", "C"], top: 2 } })).toBe(2)
  })

  it("decodes slider options and fills their defaults", () => {
    const decoded = Schema.decodeUnknownSync(FieldInput)({
      type: "slider",
      label: "Temperature",
      options: { min: -10, max: 40, step: 0.5, minLabel: " Cold ", maxLabel: "Hot" }
    })
    expect(decoded.options).toEqual({ min: -10, max: 40, step: 0.5, minLabel: "Cold", maxLabel: "Hot" })
    expect(sliderOf({ options: null })).toEqual({ min: 0, max: 100, step: 1 })
    expect(sliderOf({ options: { max: 10, maxLabel: "All" } })).toEqual({ min: 0, max: 10, step: 1, maxLabel: "All" })
    for (const type of ["time", "datetime", "legal", "contact", "address"]) {
      expect(Schema.decodeUnknownSync(FieldInput)({ type, label: "Q", options: { help: "h" } })).toEqual({
        type,
        label: "Q",
        required: false,
        options: { help: "h" }
      })
    }
  })

  it.each<[string, unknown, string]>([
    ["select without options", { type: "select", label: "Color" }, 'Missing key\n  at ["options"]'],
    [
      "select with null options",
      { type: "select", label: "Color", options: null },
      'Expected object\n  at ["options"]'
    ],
    [
      "select without choices",
      { type: "select", label: "Color", options: {} },
      'Missing key\n  at ["options"]["choices"]'
    ],
    [
      "select with empty choices",
      { type: "select", label: "C", options: { choices: [] } },
      'choices must contain at least 1 item\n  at ["options"]["choices"]'
    ],
    [
      "duplicate choices after trimming",
      { type: "select", label: "C", options: { choices: ["a", " a "] } },
      'choices must not contain duplicates\n  at ["options"]["choices"]'
    ],
    [
      "blank choice",
      { type: "select", label: "C", options: { choices: ["a", "  "] } },
      'a choice must not be empty\n  at ["options"]["choices"][1]'
    ],
    ["checkboxes without options", { type: "checkboxes", label: "C" }, 'Missing key\n  at ["options"]'],
    [
      "checkboxes min > max",
      { type: "checkboxes", label: "C", options: { choices: ["a", "b", "c"], minSelections: 3, maxSelections: 2 } },
      'minSelections must be less than or equal to maxSelections\n  at ["options"]["minSelections"]'
    ],
    [
      "checkboxes max > number of choices",
      { type: "checkboxes", label: "C", options: { choices: ["a", "b"], maxSelections: 3 } },
      'maxSelections must be at most the number of choices (2)\n  at ["options"]["maxSelections"]'
    ],
    [
      "number min > max",
      { type: "number", label: "N", options: { min: 3, max: 2 } },
      'max must be greater than or equal to min\n  at ["options"]["max"]'
    ],
    [
      "number step 0",
      { type: "number", label: "N", options: { step: 0 } },
      'step must be greater than 0\n  at ["options"]["step"]'
    ],
    [
      "rating max 11",
      { type: "rating", label: "R", options: { max: 11 } },
      'max must be an integer from 2 to 10\n  at ["options"]["max"]'
    ],
    [
      "rating max 1",
      { type: "rating", label: "R", options: { max: 1 } },
      'max must be an integer from 2 to 10\n  at ["options"]["max"]'
    ],
    [
      "opinion_scale min 2",
      { type: "opinion_scale", label: "S", options: { min: 2 } },
      'min must be 0 or 1\n  at ["options"]["min"]'
    ],
    [
      "opinion_scale max 11",
      { type: "opinion_scale", label: "S", options: { max: 11 } },
      'max must be an integer from 2 to 10\n  at ["options"]["max"]'
    ],
    [
      "nps with a range",
      { type: "nps", label: "N", options: { max: 5 } },
      'unknown option "max" (allowed: placeholder, help, minLabel, maxLabel)\n  at ["options"]["max"]'
    ],
    [
      "nps empty end label",
      { type: "nps", label: "N", options: { minLabel: "  " } },
      'an end label must not be empty\n  at ["options"]["minLabel"]'
    ],
    [
      "opinion_scale end label too long",
      { type: "opinion_scale", label: "S", options: { maxLabel: "x".repeat(101) } },
      'an end label must be at most 100 characters\n  at ["options"]["maxLabel"]'
    ],
    [
      "slider min = max",
      { type: "slider", label: "S", options: { min: 5, max: 5 } },
      'max (5) must be greater than min (5)\n  at ["options"]["max"]'
    ],
    [
      "slider min above the default max",
      { type: "slider", label: "S", options: { min: 200 } },
      'max (100) must be greater than min (200)\n  at ["options"]["min"]'
    ],
    [
      "slider step wider than the range",
      { type: "slider", label: "S", options: { min: 0, max: 1, step: 2 } },
      'step must be at most max − min (1)\n  at ["options"]["step"]'
    ],
    [
      "slider step 0",
      { type: "slider", label: "S", options: { step: 0 } },
      'step must be greater than 0\n  at ["options"]["step"]'
    ],
    [
      "contact with an unknown part",
      { type: "contact", label: "C", options: { parts: ["name", "fax"] } },
      'a part must be one of name, email, phone, company\n  at ["options"]["parts"][1]'
    ],
    [
      "contact with no part",
      { type: "contact", label: "C", options: { parts: [] } },
      'parts must name at least 1 part\n  at ["options"]["parts"]'
    ],
    [
      "address with a repeated part",
      { type: "address", label: "A", options: { parts: ["city", "city"] } },
      'parts must not repeat a part\n  at ["options"]["parts"]'
    ],
    [
      "address with an optional part not asked",
      { type: "address", label: "A", options: { parts: ["line1", "city"], optionalParts: ["country"] } },
      'optionalParts names "country", which is not asked (parts: line1, city)\n  at ["options"]["optionalParts"]'
    ],
    [
      "contact with company optional but not asked by default",
      { type: "contact", label: "C", options: { optionalParts: ["company"] } },
      'optionalParts names "company", which is not asked (parts: name, email, phone)\n  at ["options"]["optionalParts"]'
    ],
    [
      "select with a choice called like its Other",
      { type: "select", label: "S", options: { choices: ["A", "other"], allowOther: true } },
      'choices must not include "Other" when allowOther is on: that choice is added with its text box\n  at ["options"]["choices"]'
    ],
    [
      "checkboxes with a choice called like its own Other label",
      { type: "checkboxes", label: "C", options: { choices: ["A", "Else"], allowOther: true, otherLabel: " Else " } },
      'choices must not include "Else" when allowOther is on: that choice is added with its text box\n  at ["options"]["choices"]'
    ],
    [
      "checkboxes with maxSelections beyond the choices and Other",
      { type: "checkboxes", label: "C", options: { choices: ["A"], allowOther: true, maxSelections: 3 } },
      'maxSelections must be at most the number of choices (2)\n  at ["options"]["maxSelections"]'
    ],
    [
      "an empty otherLabel",
      { type: "select", label: "S", options: { choices: ["A"], allowOther: true, otherLabel: " " } },
      'otherLabel must not be empty\n  at ["options"]["otherLabel"]'
    ],
    [
      "a matrix asked to randomize",
      { type: "matrix", label: "M", options: { rows: ["A"], columns: ["x", "y"], randomize: true } },
      'unknown option "randomize" (allowed: placeholder, help, rows, columns, multiple, minRows)\n  at ["options"]["randomize"]'
    ],
    ["matrix without options", { type: "matrix", label: "M" }, 'Missing key\n  at ["options"]'],
    [
      "ranking with one choice",
      { type: "ranking", label: "R", options: { choices: ["A"] } },
      'a ranking takes 2 to 20 choices (1 given)\n  at ["options"]["choices"]'
    ],
    [
      "ranking with 21 choices",
      { type: "ranking", label: "R", options: { choices: Array.from({ length: 21 }, (_, i) => `C${i}`) } },
      'a ranking takes 2 to 20 choices (21 given)\n  at ["options"]["choices"]'
    ],
    [
      "ranking top above the choices",
      { type: "ranking", label: "R", options: { choices: ["A", "B"], top: 3 } },
      'top must be at most the number of choices (2)\n  at ["options"]["top"]'
    ],
    [
      "matrix with one column",
      { type: "matrix", label: "M", options: { rows: ["Speed"], columns: ["Good"] } },
      'columns must contain at least 2 items\n  at ["options"]["columns"]'
    ],
    [
      "matrix with a repeated row",
      { type: "matrix", label: "M", options: { rows: ["Speed", " Speed "], columns: ["Bad", "Good"] } },
      'rows must not contain duplicates\n  at ["options"]["rows"]'
    ],
    [
      "matrix minRows above the rows",
      { type: "matrix", label: "M", options: { rows: ["Speed"], columns: ["Bad", "Good"], minRows: 2 } },
      'minRows must be at most the number of rows (1)\n  at ["options"]["minRows"]'
    ],
    [
      "matrix minRows 0",
      { type: "matrix", label: "M", options: { rows: ["Speed"], columns: ["Bad", "Good"], minRows: 0 } },
      'minRows must be a whole number of at least 1\n  at ["options"]["minRows"]'
    ],
    [
      "legal with choices",
      { type: "legal", label: "Terms", options: { choices: ["Yes"] } },
      'unknown option "choices" (allowed: placeholder, help)\n  at ["options"]["choices"]'
    ],
    [
      "file maxSizeMb 101",
      { type: "file", label: "F", options: { maxSizeMb: 101 } },
      'maxSizeMb must be at most 100\n  at ["options"]["maxSizeMb"]'
    ],
    [
      "file bad accept",
      { type: "file", label: "F", options: { accept: ["pdf"] } },
      'accept entries must be MIME types ("image/png", "image/*") or extensions (".pdf")\n  at ["options"]["accept"][0]'
    ],
    [
      "unknown option key",
      { type: "select", label: "C", options: { choices: ["a"], colour: "red" } },
      'unknown option "colour" (allowed: placeholder, help, choices, randomize, allowOther, otherLabel, quotas, points, images)\n  at ["options"]["colour"]'
    ],
    [
      "option of another type",
      { type: "short_text", label: "T", options: { choices: ["a"] } },
      'unknown option "choices" (allowed: placeholder, help)\n  at ["options"]["choices"]'
    ],
    [
      "placeholder too long",
      { type: "short_text", label: "T", options: { placeholder: "x".repeat(201) } },
      'placeholder must be at most 200 characters\n  at ["options"]["placeholder"]'
    ],
    ["blank label", { type: "short_text", label: "   " }, 'label must not be empty\n  at ["label"]'],
    [
      "label too long",
      { type: "short_text", label: "x".repeat(1001) },
      'label must be at most 1000 characters\n  at ["label"]'
    ],
    ["id 0", { id: 0, type: "short_text", label: "T" }, 'must be an id: an integer from 1 to 2147483647\n  at ["id"]'],
    [
      "unknown type",
      { type: "colour", label: "T" },
      'a question must be an object whose "type" is one of short_text, long_text, email, tel, url, number, date, select, checkboxes, rating, nps, opinion_scale, slider, time, datetime, yes_no, legal, contact, address, matrix, ranking, file, signature, statement, currency'
    ]
  ])("rejects %s", (_name, input, message) => {
    expect(inputError(input)).toBe(message)
  })

  it("rejects unknown option keys whatever the parse options", () => {
    for (const schema of [
      SelectOptions,
      CheckboxesOptions,
      NumberOptions,
      RatingOptions,
      NpsOptions,
      OpinionScaleOptions,
      SliderOptions,
      ContactOptions,
      AddressOptions,
      MatrixOptions,
      RankingOptions,
      FileOptions
    ]) {
      const result = Schema.decodeUnknownResult(schema)({ choices: ["a"], bogus: 1 }, { onExcessProperty: "ignore" })
      expect(Result.isFailure(result)).toBe(true)
    }
  })

  it("converts to a JSON Schema document", () => {
    const doc = Schema.toJsonSchemaDocument(FieldInput)
    const json = JSON.stringify(doc)
    const root = doc.definitions["FieldInput"]
    expect(root).toBeDefined()
    const members = root as { anyOf?: ReadonlyArray<unknown>; oneOf?: ReadonlyArray<unknown> }
    expect((members.anyOf ?? members.oneOf ?? []).length).toBe(25)
    expect(json).toContain(
      '"propertyNames":{"enum":["placeholder","help","choices","randomize","allowOther","otherLabel","quotas","points","images"]}'
    )
    expect(json).toContain('"uniqueItems":true')
    expect(() => Schema.toJsonSchemaDocument(Schema.Array(FieldInput), { onExcessProperty: "error" })).not.toThrow()
    expect(() => Schema.toJsonSchemaDocument(Field)).not.toThrow()
  })
})

describe("validateAnswers", () => {
  const text = (label: string, options: Field["options"] = null) => field("short_text", label, { options })

  it.each<[string, Field, unknown, AnswerValue]>([
    ["short_text trims", text("Name"), "  Ada  ", "Ada"],
    ["short_text 1000 chars", text("Name"), "x".repeat(1000), "x".repeat(1000)],
    ["long_text keeps inner lines", field("long_text", "Bio"), " line 1\nline 2 ", "line 1\nline 2"],
    ["email", field("email", "Email"), " Ada@Example.com ", "Ada@Example.com"],
    ["email with plus and subdomain", field("email", "Email"), "a.b+c@mail.example.co.uk", "a.b+c@mail.example.co.uk"],
    ["tel", field("tel", "Phone"), "+1 (555) 123-4567", "+1 (555) 123-4567"],
    ["tel dots", field("tel", "Phone"), "01.23.45.67.89", "01.23.45.67.89"],
    ["url https", field("url", "Site"), "https://example.com/a?b=c", "https://example.com/a?b=c"],
    ["url http", field("url", "Site"), " http://localhost:8080 ", "http://localhost:8080"],
    ["number", field("number", "Age"), 42, 42],
    ["number negative float", field("number", "Temp"), -3.5, -3.5],
    ["number within bounds", field("number", "N", { options: { min: 1, max: 10 } }), 10, 10],
    ["number on step from 0", field("number", "N", { options: { step: 0.1 } }), 0.3, 0.3],
    ["number on step from min", field("number", "N", { options: { min: 1, step: 0.5 } }), 2.5, 2.5],
    ["date", field("date", "Day"), "2024-02-29", "2024-02-29"],
    ["date 2000 leap", field("date", "Day"), "2000-02-29", "2000-02-29"],
    ["select", field("select", "Color", { options: { choices: ["Red", "Blue"] } }), " Blue ", "Blue"],
    [
      "checkboxes in choices' order",
      field("checkboxes", "Days", { options: { choices: ["Mon", "Tue", "Wed"] } }),
      ["Wed", " Mon"],
      ["Mon", "Wed"]
    ],
    ["rating default max", field("rating", "Score"), 5, 5],
    ["rating max 10", field("rating", "Score", { options: { max: 10 } }), 10, 10],
    ["nps 0", field("nps", "Recommend"), 0, 0],
    ["nps 10", field("nps", "Recommend"), 10, 10],
    ["opinion_scale default 1..5", field("opinion_scale", "Easy"), 5, 5],
    ["opinion_scale 0..10", field("opinion_scale", "Easy", { options: { min: 0, max: 10 } }), 0, 0],
    ["slider default 0..100", field("slider", "Level"), 100, 100],
    ["slider on step from min", field("slider", "Temp", { options: { min: -10, max: 40, step: 0.5 } }), 12.5, 12.5],
    ["slider decimal step", field("slider", "Share", { options: { min: 0, max: 1, step: 0.1 } }), 0.3, 0.3],
    ["time", field("time", "Arrival"), " 09:30 ", "09:30"],
    ["time single-digit hour", field("time", "Arrival"), "9:05", "09:05"],
    ["time with zero seconds", field("time", "Arrival"), "23:59:00", "23:59"],
    ["time with seconds", field("time", "Arrival"), "00:00:30", "00:00:30"],
    ["datetime", field("datetime", "Meeting"), "2026-11-26T14:30", "2026-11-26T14:30"],
    ["datetime with a space and seconds", field("datetime", "Meeting"), "2024-02-29 7:00:00", "2024-02-29T07:00"],
    ["legal accepted", field("legal", "Terms", { required: true }), true, true],
    [
      "contact trimmed, in the parts' order, empty optional parts left out",
      field("contact", "You", { options: { parts: ["name", "email", "phone"], optionalParts: ["phone"] } }),
      { email: " ada@example.com ", name: "Ada Lovelace", phone: "  " },
      { name: "Ada Lovelace", email: "ada@example.com" }
    ],
    [
      "matrix, one column per row, rows in order",
      field("matrix", "Rate", { options: { rows: ["Speed", "Price"], columns: ["Bad", "OK", "Good"] } }),
      { Price: " OK ", Speed: "Good" },
      { Speed: "Good", Price: "OK" }
    ],
    [
      "matrix with several columns, in the columns' order, a row left out",
      field("matrix", "Use", {
        options: { rows: ["Mon", "Tue"], columns: ["Am", "Pm", "Eve"], multiple: true }
      }),
      { Mon: ["Eve", "Am"], Tue: [] },
      { Mon: ["Am", "Eve"] }
    ],
    [
      "ranking, every choice in order",
      field("ranking", "Order", { options: { choices: ["Price", "Speed", "Support"] } }),
      [" Support", "Price", "Speed"],
      ["Support", "Price", "Speed"]
    ],
    [
      "ranking of the top 2",
      field("ranking", "Order", { options: { choices: ["Price", "Speed", "Support"], top: 2 } }),
      ["Speed", "Price"],
      ["Speed", "Price"]
    ],
    [
      "select with Other: a choice, or the text typed",
      field("select", "Topic", { options: { choices: ["Billing", "Bug"], allowOther: true } }),
      " A feature idea ",
      "A feature idea"
    ],
    [
      "checkboxes with Other: the choices in order, then the text typed",
      field("checkboxes", "Topics", { options: { choices: ["Billing", "Bug"], allowOther: true } }),
      ["Press", "Bug", "Billing"],
      ["Billing", "Bug", "Press"]
    ],
    [
      "signature typed, spaces folded",
      field("signature", "Sign"),
      { typedName: "  Ada   Lovelace ", consent: true },
      { typedName: "Ada Lovelace", consent: true }
    ],
    [
      "signature drawn",
      field("signature", "Sign"),
      { fileId: "file_1", name: "signature.png", size: 2048, type: "image/png" },
      { fileId: "file_1", name: "signature.png", size: 2048, type: "image/png" }
    ],
    [
      "matrix whose rows are named like Object's own properties",
      field("matrix", "Odd", { options: { rows: ["constructor", "toString", "__proto__"], columns: ["A", "B"] } }),
      JSON.parse('{"__proto__": "B", "constructor": "A"}'),
      JSON.parse('{"constructor": "A", "__proto__": "B"}')
    ],
    [
      "required matrix with minRows",
      field("matrix", "Rate", {
        required: true,
        options: { rows: ["Speed", "Price", "Support"], columns: ["Bad", "Good"], minRows: 2 }
      }),
      { Speed: "Good", Support: "Bad" },
      { Speed: "Good", Support: "Bad" }
    ],
    [
      "address with null for an optional part",
      field("address", "Home"),
      { line1: "12 Main St", line2: null, city: "Springfield", postalCode: "12345", country: "USA" },
      { line1: "12 Main St", city: "Springfield", postalCode: "12345", country: "USA" }
    ],
    ["legal declined when optional", field("legal", "Marketing"), false, false],
    ["yes_no true", field("yes_no", "Agree"), true, true],
    ["yes_no false", field("yes_no", "Agree"), false, false],
    [
      "file",
      field("file", "CV", { options: { accept: ["application/pdf", "image/*"], maxSizeMb: 1 } }),
      { fileId: "f1", name: "cv.pdf", size: 1024, type: "application/pdf", extra: true },
      { fileId: "f1", name: "cv.pdf", size: 1024, type: "application/pdf" }
    ],
    [
      "file by extension",
      field("file", "Doc", { options: { accept: [".DOCX"] } }),
      { fileId: "f2", name: "a.docx", size: 0, type: "" },
      { fileId: "f2", name: "a.docx", size: 0, type: "" }
    ]
  ])("accepts %s", (_name, f, value, expected) => {
    expect(one(f, value)).toEqual({ value: expected })
  })

  it.each<[string, Field, unknown, string]>([
    ["short_text non-string", text("Name"), 42, '"Name" must be text'],
    ["short_text too long", text("Name"), "x".repeat(1001), '"Name" must be at most 1000 characters'],
    ["long_text too long", field("long_text", "Bio"), "x".repeat(10001), '"Bio" must be at most 10000 characters'],
    ["email without @", field("email", "Email"), "ada.example.com", '"Email" must be an email address'],
    ["email without dot in domain", field("email", "Email"), "ada@localhost", '"Email" must be an email address'],
    ["email with space", field("email", "Email"), "ada lovelace@example.com", '"Email" must be an email address'],
    ["email too long", field("email", "Email"), `${"a".repeat(250)}@x.io`, '"Email" must be an email address'],
    ["email non-string", field("email", "Email"), ["a@b.co"], '"Email" must be an email address'],
    ["tel letters", field("tel", "Phone"), "555-CALL-NOW", '"Phone" must be a phone number'],
    ["tel too few digits", field("tel", "Phone"), "+1 (55) 12", '"Phone" must be a phone number'],
    ["tel too long", field("tel", "Phone"), "1".repeat(21), '"Phone" must be a phone number'],
    ["url relative", field("url", "Site"), "/about", '"Site" must be a URL starting with http:// or https://'],
    ["url ftp", field("url", "Site"), "ftp://example.com", '"Site" must be a URL starting with http:// or https://'],
    [
      "url javascript",
      field("url", "Site"),
      "javascript:alert(1)",
      '"Site" must be a URL starting with http:// or https://'
    ],
    [
      "url too long",
      field("url", "Site"),
      `https://e.com/${"a".repeat(2000)}`,
      '"Site" must be a URL starting with http:// or https://'
    ],
    ["number string", field("number", "Age"), "42", '"Age" must be a number'],
    ["number NaN", field("number", "Age"), Number.NaN, '"Age" must be a number'],
    ["number infinity", field("number", "Age"), Number.POSITIVE_INFINITY, '"Age" must be a number'],
    ["number below min", field("number", "Age", { options: { min: 18 } }), 17, '"Age" must be at least 18'],
    ["number above max", field("number", "Age", { options: { max: 99 } }), 100, '"Age" must be at most 99'],
    ["number off step", field("number", "N", { options: { step: 0.5 } }), 0.7, '"N" must be a multiple of 0.5'],
    [
      "number off step from min",
      field("number", "N", { options: { min: 1, step: 2 } }),
      4,
      '"N" must be 1 plus a multiple of 2'
    ],
    ["date format", field("date", "Day"), "2024-2-3", '"Day" must be a date in the form YYYY-MM-DD'],
    ["date 30 Feb", field("date", "Day"), "2024-02-30", '"Day" must be a date in the form YYYY-MM-DD'],
    ["date 29 Feb non-leap", field("date", "Day"), "1900-02-29", '"Day" must be a date in the form YYYY-MM-DD'],
    ["date month 13", field("date", "Day"), "2024-13-01", '"Day" must be a date in the form YYYY-MM-DD'],
    ["date with time", field("date", "Day"), "2024-01-01T00:00:00Z", '"Day" must be a date in the form YYYY-MM-DD'],
    [
      "select unknown",
      field("select", "Color", { options: { choices: ["Red"] } }),
      "red",
      '"Color" must be one of the choices'
    ],
    [
      "select array",
      field("select", "Color", { options: { choices: ["Red"] } }),
      ["Red"],
      '"Color" must be one of the choices'
    ],
    [
      "checkboxes string",
      field("checkboxes", "Days", { options: { choices: ["Mon"] } }),
      "Mon",
      '"Days" must be a list of choices'
    ],
    [
      "checkboxes non-string item",
      field("checkboxes", "Days", { options: { choices: ["Mon"] } }),
      ["Mon", 1],
      '"Days" must be a list of choices'
    ],
    [
      "checkboxes unknown",
      field("checkboxes", "Days", { options: { choices: ["Mon"] } }),
      ["Sun"],
      '"Days" has an unknown choice "Sun"'
    ],
    [
      "checkboxes repeat",
      field("checkboxes", "Days", { options: { choices: ["Mon"] } }),
      ["Mon", "Mon"],
      '"Days" must not repeat a choice'
    ],
    [
      "checkboxes too few",
      field("checkboxes", "Days", { options: { choices: ["Mon", "Tue"], minSelections: 2 } }),
      ["Mon"],
      '"Days" needs at least 2 selections'
    ],
    [
      "checkboxes too many",
      field("checkboxes", "Days", { options: { choices: ["Mon", "Tue"], maxSelections: 1 } }),
      ["Mon", "Tue"],
      '"Days" allows at most 1 selection'
    ],
    ["rating 0", field("rating", "Score"), 0, '"Score" must be a whole number from 1 to 5'],
    ["rating 6", field("rating", "Score"), 6, '"Score" must be a whole number from 1 to 5'],
    [
      "rating float",
      field("rating", "Score", { options: { max: 10 } }),
      2.5,
      '"Score" must be a whole number from 1 to 10'
    ],
    ["yes_no string", field("yes_no", "Agree"), "yes", '"Agree" must be true or false'],
    ["nps 11", field("nps", "Recommend"), 11, '"Recommend" must be a whole number from 0 to 10'],
    ["nps float", field("nps", "Recommend"), 7.5, '"Recommend" must be a whole number from 0 to 10'],
    ["nps string", field("nps", "Recommend"), "9", '"Recommend" must be a whole number from 0 to 10'],
    ["opinion_scale 0 on 1..5", field("opinion_scale", "Easy"), 0, '"Easy" must be a whole number from 1 to 5'],
    [
      "opinion_scale 8 on 0..7",
      field("opinion_scale", "Easy", { options: { min: 0, max: 7 } }),
      8,
      '"Easy" must be a whole number from 0 to 7'
    ],
    ["slider above max", field("slider", "Level"), 101, '"Level" must be from 0 to 100'],
    ["slider string", field("slider", "Level"), "50", '"Level" must be a number'],
    [
      "slider off step from min",
      field("slider", "Temp", { options: { min: -10, max: 40, step: 0.5 } }),
      0.2,
      '"Temp" must be -10 plus a multiple of 0.5'
    ],
    [
      "slider off step from 0",
      field("slider", "Level", { options: { step: 5 } }),
      7,
      '"Level" must be a multiple of 5'
    ],
    ["time 24:00", field("time", "Arrival"), "24:00", '"Arrival" must be a time in the form HH:MM (24-hour)'],
    ["time 12-hour", field("time", "Arrival"), "9:30 pm", '"Arrival" must be a time in the form HH:MM (24-hour)'],
    ["time minutes 60", field("time", "Arrival"), "10:60", '"Arrival" must be a time in the form HH:MM (24-hour)'],
    ["time number", field("time", "Arrival"), 930, '"Arrival" must be a time in the form HH:MM (24-hour)'],
    [
      "datetime without a time",
      field("datetime", "Meeting"),
      "2026-11-26",
      '"Meeting" must be a date and time in the form YYYY-MM-DDTHH:MM'
    ],
    [
      "datetime 30 Feb",
      field("datetime", "Meeting"),
      "2026-02-30T10:00",
      '"Meeting" must be a date and time in the form YYYY-MM-DDTHH:MM'
    ],
    [
      "datetime with a zone",
      field("datetime", "Meeting"),
      "2026-11-26T10:00Z",
      '"Meeting" must be a date and time in the form YYYY-MM-DDTHH:MM'
    ],
    [
      "datetime hour 25",
      field("datetime", "Meeting"),
      "2026-11-26T25:00",
      '"Meeting" must be a date and time in the form YYYY-MM-DDTHH:MM'
    ],
    [
      "contact without its e-mail",
      field("contact", "You"),
      { name: "Ada", phone: "+44 20 7946 0000" },
      '"You" (E-mail) is required'
    ],
    [
      "contact with a bad e-mail",
      field("contact", "You"),
      { name: "Ada", email: "ada-at-example", phone: "+44 20 7946 0000" },
      '"You" (E-mail) must be an email address'
    ],
    [
      "contact with a bad phone",
      field("contact", "You"),
      { name: "Ada", email: "ada@example.com", phone: "call me" },
      '"You" (Phone) must be a phone number'
    ],
    [
      "contact with an unknown part",
      field("contact", "You"),
      { name: "Ada", fax: "1" },
      '"You" has an unknown part "fax" (parts: name, email, phone)'
    ],
    [
      "contact with a part that is not text",
      field("contact", "You"),
      { name: "Ada", email: "ada@example.com", phone: 123456789 },
      '"You" (Phone) must be text'
    ],
    ["contact as text", field("contact", "You"), "Ada", '"You" must be an object with the parts name, email, phone'],
    [
      "ranking missing a choice",
      field("ranking", "Order", { options: { choices: ["Price", "Speed", "Support"] } }),
      ["Price", "Speed"],
      '"Order" must rank all 3 choices (2 ranked)'
    ],
    [
      "ranking beyond the top places",
      field("ranking", "Order", { options: { choices: ["Price", "Speed", "Support"], top: 1 } }),
      ["Price", "Speed"],
      '"Order" must rank exactly 1 choice (2 ranked)'
    ],
    [
      "ranking repeating a choice",
      field("ranking", "Order", { options: { choices: ["Price", "Speed"] } }),
      ["Price", "Price"],
      '"Order" must not repeat a choice'
    ],
    [
      "ranking with an unknown choice",
      field("ranking", "Order", { options: { choices: ["Price", "Speed"] } }),
      ["Price", "Colour"],
      '"Order" has an unknown choice "Colour"'
    ],
    [
      "select without Other given text",
      field("select", "Topic", { options: { choices: ["Billing", "Bug"] } }),
      "A feature idea",
      '"Topic" must be one of the choices'
    ],
    [
      "select with Other given text over 200 characters",
      field("select", "Topic", { options: { choices: ["Billing"], allowOther: true } }),
      "x".repeat(201),
      '"Topic": the other answer must be at most 200 characters'
    ],
    [
      "checkboxes with two other answers",
      field("checkboxes", "Topics", { options: { choices: ["Billing"], allowOther: true } }),
      ["Press", "Sales"],
      '"Topics" takes one other answer besides the choices (2 given)'
    ],
    [
      "checkboxes with Other chosen and left empty",
      field("checkboxes", "Topics", { options: { choices: ["Billing"], allowOther: true, otherLabel: "Else" } }),
      ["Billing", " "],
      '"Topics": type your answer for "Else"'
    ],
    [
      "checkboxes with Other over maxSelections",
      field("checkboxes", "Topics", { options: { choices: ["Billing", "Bug"], allowOther: true, maxSelections: 2 } }),
      ["Billing", "Bug", "Press"],
      '"Topics" allows at most 2 selections'
    ],
    [
      "signature typed without consent",
      field("signature", "Sign"),
      { typedName: "Ada Lovelace", consent: false },
      '"Sign": tick the box to agree that your typed name is your signature'
    ],
    [
      "signature with consent but no name",
      field("signature", "Sign"),
      { typedName: "  ", consent: true },
      '"Sign": type your full name to sign'
    ],
    [
      "signature typed too long",
      field("signature", "Sign"),
      { typedName: "A".repeat(201), consent: true },
      '"Sign": the typed name must be at most 200 characters'
    ],
    [
      "signature drawn as a JPEG",
      field("signature", "Sign"),
      { fileId: "file_1", name: "s.jpg", size: 2048, type: "image/jpeg" },
      '"Sign" must be a drawn signature (a PNG image)'
    ],
    [
      "signature drawn over 1 MB",
      field("signature", "Sign"),
      { fileId: "file_1", name: "s.png", size: 1024 * 1024 + 1, type: "image/png" },
      '"Sign" must be at most 1 MB'
    ],
    [
      "signature as text",
      field("signature", "Sign"),
      "Ada",
      '"Sign" must be a drawn signature (an uploaded PNG\'s {fileId}) or {typedName, consent: true}'
    ],
    [
      "ranking as text",
      field("ranking", "Order", { options: { choices: ["Price", "Speed"] } }),
      "Price",
      '"Order" must be a list of choices in order'
    ],
    [
      "matrix missing a row when required",
      field("matrix", "Rate", { required: true, options: { rows: ["Speed", "Price"], columns: ["Bad", "Good"] } }),
      { Speed: "Good" },
      '"Rate" (Price) is required'
    ],
    [
      "matrix below minRows",
      field("matrix", "Rate", {
        required: true,
        options: { rows: ["Speed", "Price", "Support"], columns: ["Bad", "Good"], minRows: 2 }
      }),
      { Speed: "Good" },
      '"Rate" needs an answer in at least 2 rows'
    ],
    [
      "matrix with an unknown column",
      field("matrix", "Rate", { options: { rows: ["Speed"], columns: ["Bad", "Good"] } }),
      { Speed: "Great" },
      '"Rate" (Speed) has an unknown column "Great"'
    ],
    [
      "matrix with an unknown row",
      field("matrix", "Rate", { options: { rows: ["Speed"], columns: ["Bad", "Good"] } }),
      { Sped: "Good" },
      '"Rate" has an unknown row "Sped"'
    ],
    [
      "matrix with two columns in a one-column row",
      field("matrix", "Rate", { options: { rows: ["Speed"], columns: ["Bad", "Good"] } }),
      { Speed: ["Bad", "Good"] },
      '"Rate" (Speed) takes one column'
    ],
    [
      "matrix with a number",
      field("matrix", "Rate", { options: { rows: ["Speed"], columns: ["Bad", "Good"] } }),
      { Speed: 3 },
      '"Rate" (Speed) must be one of the columns'
    ],
    [
      "matrix as a list",
      field("matrix", "Rate", { options: { rows: ["Speed"], columns: ["Bad", "Good"], multiple: true } }),
      ["Good"],
      '"Rate" must be an object with the chosen columns of each row'
    ],
    [
      "address with a postal code too long",
      field("address", "Home"),
      { line1: "1 A St", city: "B", postalCode: "1".repeat(21), country: "C" },
      '"Home" (Postal code) must be at most 20 characters'
    ],
    [
      "address partly filled in on an optional question",
      field("address", "Home"),
      { city: "Springfield" },
      '"Home" (Address) is required'
    ],
    ["legal declined when required", field("legal", "Terms", { required: true }), false, '"Terms" must be accepted'],
    ["legal string", field("legal", "Terms"), "yes", '"Terms" must be true (accepted) or false'],
    ["file string", field("file", "CV"), "cv.pdf", '"CV" must be an uploaded file'],
    [
      "file negative size",
      field("file", "CV"),
      { fileId: "f", name: "a", size: -1, type: "x/y" },
      '"CV" must be an uploaded file'
    ],
    [
      "file too big",
      field("file", "CV", { options: { maxSizeMb: 1 } }),
      { fileId: "f", name: "a.pdf", size: 1024 * 1024 + 1, type: "application/pdf" },
      '"CV" must be at most 1 MB'
    ],
    [
      "file wrong type",
      field("file", "Photo", { options: { accept: ["image/*"] } }),
      { fileId: "f", name: "a.pdf", size: 1, type: "application/pdf" },
      '"Photo" must be a file of type image/*'
    ],
    ["statement", field("statement", "Welcome"), "hello", '"Welcome" does not take an answer']
  ])("rejects %s", (_name, f, value, message) => {
    expect(one(f, value)).toEqual({ message })
  })

  it("treats empty answers as missing", () => {
    const required = text("Name", null)
    const req: Field = { ...required, required: true }
    const days = field("checkboxes", "Days", { required: true, options: { choices: ["Mon"] } })
    for (const empty of [undefined, null, "", "   ", []]) {
      expect(issues([req], { [String(req.id)]: empty })).toEqual([
        { path: `values.${req.id}`, fieldId: req.id, message: '"Name" is required' }
      ])
      expect(ok([required], { [String(required.id)]: empty })).toEqual({})
    }
    expect(issues([days], { [String(days.id)]: [] })[0]?.message).toBe('"Days" is required')
    const terms = field("legal", "Terms", { required: true })
    expect(issues([terms], {})[0]?.message).toBe('"Terms" must be accepted')
    const you = field("contact", "You", { required: true })
    expect(issues([you], { [String(you.id)]: { name: " ", email: null } })[0]?.message).toBe('"You" is required')
    const home = field("address", "Home")
    expect(ok([home], { [String(home.id)]: { line1: "", city: null } })).toEqual({})
  })

  it("cleans the answers logic reads: valid ones as stored, the rest as sent", () => {
    const arrival = field("time", "Arrival")
    const days = field("checkboxes", "Days", { options: { choices: ["Mon", "Tue"] } })
    expect(
      cleanAnswers([arrival, days], {
        [String(arrival.id)]: "9:05",
        [String(days.id)]: ["Tue", "Mon"],
        "99": "unknown"
      })
    ).toEqual({ [String(arrival.id)]: "09:05", [String(days.id)]: ["Mon", "Tue"], "99": "unknown" })
    expect(cleanAnswers([arrival, days], { [String(arrival.id)]: "25:00", [String(days.id)]: [] })).toEqual({
      [String(arrival.id)]: "25:00",
      [String(days.id)]: []
    })
  })

  it("omits missing optional answers and keeps false answers", () => {
    const a = text("A")
    const b = field("yes_no", "B", { required: true })
    expect(ok([a, b], { [String(b.id)]: false })).toEqual({ [String(b.id)]: false })
  })

  it("reports unknown questions and statements", () => {
    const a = text("A")
    const s = field("statement", "Intro", { required: true })
    expect(ok([a, s], {})).toEqual({})
    expect(issues([a, s], { "99": "x", [String(s.id)]: "hi" })).toEqual([
      { path: `values.${s.id}`, fieldId: s.id, message: '"Intro" does not take an answer' },
      { path: "values.99", fieldId: null, message: "unknown question 99" }
    ])
  })

  it.each<[string, unknown]>([
    ["null", null],
    ["an array", ["a"]],
    ["a string", "{}"],
    ["a number", 1],
    ["undefined", undefined]
  ])("rejects values that are %s", (_name, values) => {
    expect(issues([text("A")], values)).toEqual([
      { path: "values", fieldId: null, message: "values must be an object keyed by question id" }
    ])
  })

  it("collects every issue, one per field, in position order", () => {
    const email = field("email", "Email", { required: true, position: 2 })
    const age = field("number", "Age", { position: 1 })
    const name = field("short_text", "Name", { required: true, position: 3 })
    expect(issues([email, age, name], { [String(age.id)]: "x", [String(email.id)]: "nope" })).toEqual([
      { path: `values.${age.id}`, fieldId: age.id, message: '"Age" must be a number' },
      { path: `values.${email.id}`, fieldId: email.id, message: '"Email" must be an email address' },
      { path: `values.${name.id}`, fieldId: name.id, message: '"Name" is required' }
    ])
  })

  it("ignores inherited keys such as __proto__", () => {
    const a = text("A", null)
    const values: unknown = JSON.parse(`{"__proto__": {"${a.id}": "x"}}`)
    expect(issues([a], values)).toEqual([
      { path: "values.__proto__", fieldId: null, message: "unknown question __proto__" }
    ])
  })

  it("never throws on arbitrary JSON input (property)", () => {
    const fields: ReadonlyArray<Field> = [
      field("short_text", "Name", { required: true }),
      field("email", "Email"),
      field("number", "N", { options: { min: 0, max: 10, step: 0.5 } }),
      field("checkboxes", "C", { options: { choices: ["a", "b"], maxSelections: 1 } }),
      field("file", "F", { options: { accept: ["image/*"] } }),
      field("date", "D"),
      field("url", "U"),
      field("statement", "S")
    ]
    const keys = fc.constantFrom(...fields.map((f) => String(f.id)), "99", "__proto__", "constructor")
    const values = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(keys, fc.jsonValue()),
      fc.dictionary(keys, fc.oneof(fc.string(), fc.array(fc.string()), fc.double(), fc.boolean(), fc.constant(null)))
    )
    fc.assert(
      fc.property(values, (v) => {
        const result = validateAnswers(fields, v)
        expect(Result.isResult(result)).toBe(true)
        if (Result.isFailure(result)) expect(result.failure.length).toBeGreaterThan(0)
      }),
      { numRuns: 500 }
    )
  })
})

describe("deriveRespondent", () => {
  const answers = (pairs: ReadonlyArray<readonly [Field, AnswerValue]>): Record<string, AnswerValue> =>
    Object.fromEntries(pairs.map(([f, v]) => [String(f.id), v]))

  it("uses the first email question and a name-like short_text", () => {
    const email = field("email", "Email")
    const work = field("email", "Work email")
    const name = field("short_text", "Your name:")
    expect(
      deriveRespondent(
        [work, email, name],
        answers([
          [email, "b@x.io"],
          [work, "a@x.io"],
          [name, "Ada"]
        ])
      )
    ).toEqual({
      name: "Ada",
      email: "b@x.io"
    })
  })

  it.each<[string, boolean]>([
    ["Name", true],
    ["Full Name *", true],
    ["  your full name?  ", true],
    ["First and last name", true],
    ["Nom", true],
    ["Nombre:", true],
    ["Name and surname", true],
    ["Contact name", true],
    ["Company name", false],
    ["Name of your organisation", false],
    ["Business name", false],
    ["Pet name", false],
    ["Project name", false],
    ["Team name", false],
    ["Username", false],
    ["Names", false]
  ])("label %j is a name: %s", (label, isName) => {
    const f = field("short_text", label)
    expect(deriveRespondent([f], answers([[f, " Ada "]])).name).toBe(isName ? "Ada" : null)
  })

  it("takes the name and e-mail of a contact question, before other questions", () => {
    const name = field("short_text", "Name", { position: 1 })
    const you = field("contact", "Your details", { position: 2 })
    const email = field("email", "Email", { position: 3 })
    expect(
      deriveRespondent(
        [name, you, email],
        answers([
          [name, "Bob"],
          [you, { name: "Ada Lovelace", email: "ada@example.com" }],
          [email, "bob@example.com"]
        ])
      )
    ).toEqual({ name: "Ada Lovelace", email: "ada@example.com" })
    const noEmail = field("contact", "Who", { options: { parts: ["name"] } })
    expect(
      deriveRespondent(
        [noEmail, email],
        answers([
          [noEmail, { name: "Ada" }],
          [email, "a@x.io"]
        ])
      )
    ).toEqual({
      name: "Ada",
      email: "a@x.io"
    })
  })

  it("prefers an exact name label over a fuzzy match", () => {
    const contact = field("short_text", "Contact name")
    const name = field("short_text", "Full name")
    expect(
      deriveRespondent(
        [contact, name],
        answers([
          [contact, "Bob"],
          [name, "Ada"]
        ])
      ).name
    ).toBe("Ada")
  })

  it("only uses short_text questions", () => {
    const f = field("long_text", "Name")
    expect(deriveRespondent([f], answers([[f, "Ada"]]))).toEqual({ name: null, email: null })
  })

  it("joins first and last name when there is no full-name question", () => {
    const last = field("short_text", "Last name", { position: 2 })
    const first = field("short_text", "First name", { position: 1 })
    expect(
      deriveRespondent(
        [last, first],
        answers([
          [first, "Ada"],
          [last, "Lovelace"]
        ])
      ).name
    ).toBe("Ada Lovelace")
    const full = field("short_text", "Name")
    expect(
      deriveRespondent(
        [first, last, full],
        answers([
          [first, "A"],
          [last, "L"],
          [full, "Ada Lovelace"]
        ])
      ).name
    ).toBe("Ada Lovelace")
  })

  it("returns nulls without answers", () => {
    expect(deriveRespondent([field("email", "Email"), field("short_text", "Name")], {})).toEqual({
      name: null,
      email: null
    })
  })
})
