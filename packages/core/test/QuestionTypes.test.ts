/**
 * The registry of question types (`forms/questions/QuestionTypes.ts`) and the
 * contract every type's module keeps: each type of `FieldType` has a module,
 * in the registry's order; its options Schema decodes its defaults (and a
 * question of it decodes with them) and is the source of its option keys;
 * its answer check accepts a valid answer (stored in a shape `AnswerValue`
 * takes) and refuses an invalid one with its message; its display text, CSV
 * cell, spreadsheet columns, summary, page view and posted value work with
 * that answer; and what the builder and the model are told of it. A type
 * added without a line in the tables below fails here.
 */
import { Result, Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import * as Csv from "../src/cases/Csv.ts"
import { isEditable } from "../src/cases/StatusEdits.ts"
import type { ResponseRow } from "../src/cases/ResponseModels.ts"
import * as Xlsx from "../src/cases/Xlsx.ts"
import { AnswerValue, validateAnswers } from "../src/forms/Answers.ts"
import { AnyFieldOptions, type Field, FieldInput, FieldType, optionKeys } from "../src/forms/Fields.ts"
import { operators } from "../src/forms/LogicRules.ts"
import * as QuestionTypes from "../src/forms/questions/QuestionTypes.ts"
import { formatAnswer } from "../src/forms/Summaries.ts"
import { kindOf } from "../src/insights/AnswerTallies.ts"
import { builtInMessages } from "../src/languages/Messages.ts"
import { parseAnswer } from "../src/pages/Steps.ts"

/** What each type is tested with: its options, a valid answer and its stored form, an invalid answer and its message. */
interface Case {
  readonly options: Field["options"]
  readonly valid: unknown
  readonly stored: unknown
  readonly invalid: unknown
  readonly message: string
  /** The page's post of the valid answer (`a` values, `a.<name>` parts), when the page takes it. */
  readonly posted?: { readonly answers: ReadonlyArray<string>; readonly parts?: Record<string, ReadonlyArray<string>> }
}

const file = { fileId: "file_1", name: "cv.pdf", size: 1024, type: "application/pdf" }

const cases: { readonly [Type in FieldType]: Case } = {
  short_text: {
    options: null,
    valid: " Ada ",
    stored: "Ada",
    invalid: 7,
    message: '"Q" must be text',
    posted: { answers: ["Ada"] }
  },
  long_text: {
    options: null,
    valid: "line 1\nline 2",
    stored: "line 1\nline 2",
    invalid: "x".repeat(10001),
    message: '"Q" must be at most 10000 characters'
  },
  email: {
    options: null,
    valid: "ada@example.com",
    stored: "ada@example.com",
    invalid: "ada",
    message: '"Q" must be an email address',
    posted: { answers: ["ada@example.com"] }
  },
  tel: {
    options: null,
    valid: "+44 20 7946 0958",
    stored: "+44 20 7946 0958",
    invalid: "12",
    message: '"Q" must be a phone number'
  },
  url: {
    options: null,
    valid: "https://example.com",
    stored: "https://example.com",
    invalid: "ftp://x",
    message: '"Q" must be a URL starting with http:// or https://'
  },
  number: {
    options: { min: 0, max: 10 },
    valid: 4,
    stored: 4,
    invalid: 11,
    message: '"Q" must be at most 10',
    posted: { answers: ["4"] }
  },
  date: {
    options: null,
    valid: "2026-02-28",
    stored: "2026-02-28",
    invalid: "2026-02-30",
    message: '"Q" must be a date in the form YYYY-MM-DD'
  },
  select: {
    options: { choices: ["Red", "Blue"] },
    valid: "Red",
    stored: "Red",
    invalid: "Green",
    message: '"Q" must be one of the choices',
    posted: { answers: ["Red"] }
  },
  checkboxes: {
    options: { choices: ["A", "B", "C"] },
    valid: ["C", "A"],
    stored: ["A", "C"],
    invalid: ["D"],
    message: '"Q" has an unknown choice "D"',
    posted: { answers: ["C", "A"] }
  },
  rating: {
    options: null,
    valid: 4,
    stored: 4,
    invalid: 6,
    message: '"Q" must be a whole number from 1 to 5',
    posted: { answers: ["4"] }
  },
  nps: { options: null, valid: 9, stored: 9, invalid: 11, message: '"Q" must be a whole number from 0 to 10' },
  opinion_scale: {
    options: null,
    valid: 3,
    stored: 3,
    invalid: 2.5,
    message: '"Q" must be a whole number from 1 to 5'
  },
  slider: { options: null, valid: 50, stored: 50, invalid: 101, message: '"Q" must be from 0 to 100' },
  time: {
    options: null,
    valid: "9:05",
    stored: "09:05",
    invalid: "25:00",
    message: '"Q" must be a time in the form HH:MM (24-hour)'
  },
  datetime: {
    options: null,
    valid: "2026-02-28 09:30",
    stored: "2026-02-28T09:30",
    invalid: "tomorrow",
    message: '"Q" must be a date and time in the form YYYY-MM-DDTHH:MM'
  },
  yes_no: {
    options: null,
    valid: true,
    stored: true,
    invalid: "maybe",
    message: '"Q" must be true or false',
    posted: { answers: ["yes"] }
  },
  legal: { options: null, valid: true, stored: true, invalid: "yes", message: '"Q" must be true (accepted) or false' },
  contact: {
    options: null,
    valid: { name: " Ada ", email: "ada@example.com", phone: "+44 20 7946 0958" },
    stored: { name: "Ada", email: "ada@example.com", phone: "+44 20 7946 0958" },
    invalid: { name: "Ada", email: "nope", phone: "+44 20 7946 0958" },
    message: '"Q" (E-mail) must be an email address',
    posted: {
      answers: [],
      parts: { name: ["Ada"], email: ["ada@example.com"], phone: ["+44 20 7946 0958"] }
    }
  },
  address: {
    options: { parts: ["city", "country"] },
    valid: { city: "Oslo", country: "Norway" },
    stored: { city: "Oslo", country: "Norway" },
    invalid: { city: "Oslo" },
    message: '"Q" (Country) is required'
  },
  matrix: {
    options: { rows: ["Speed", "Price"], columns: ["Bad", "Good"] },
    valid: { Speed: "Good", Price: "Bad" },
    stored: { Speed: "Good", Price: "Bad" },
    invalid: { Speed: "Great" },
    message: '"Q" (Speed) has an unknown column "Great"',
    posted: { answers: [], parts: { Speed: ["Good"], Price: ["Bad"] } }
  },
  ranking: {
    options: { choices: ["A", "B", "C"] },
    valid: ["B", "A", "C"],
    stored: ["B", "A", "C"],
    invalid: ["A", "A", "B"],
    message: '"Q" must not repeat a choice',
    posted: { answers: [], parts: { A: ["2"], B: ["1"], C: ["3"] } }
  },
  file: { options: null, valid: file, stored: file, invalid: { fileId: 1 }, message: '"Q" must be an uploaded file' },
  signature: {
    options: null,
    valid: { typedName: "  Ada   Lovelace ", consent: true },
    stored: { typedName: "Ada Lovelace", consent: true },
    invalid: { typedName: "Ada", consent: false },
    message: '"Q": tick the box to agree that your typed name is your signature',
    posted: { answers: [], parts: { typedName: ["Ada Lovelace"], consent: ["yes"] } }
  },
  statement: {
    options: null,
    valid: undefined,
    stored: undefined,
    invalid: "x",
    message: '"Q" does not take an answer'
  },
  currency: {
    options: { currency: "EUR" },
    valid: { amount: 12.5 },
    stored: { amount: 12.5, currency: "EUR" },
    invalid: { amount: 12.345 },
    message: '"Q" in EUR takes at most 2 decimals',
    posted: { answers: ["12.5"], parts: { currency: ["EUR"] } }
  }
}

const fieldOf = (type: FieldType, required = false): Field => ({
  id: 1,
  type,
  label: "Q",
  required,
  position: 0,
  options: cases[type].options
})

const response = (values: Record<string, unknown>): ResponseRow => ({
  id: 1,
  submittedAt: "2026-11-26T14:30:15.250Z",
  updatedAt: "2026-11-26T14:30:15.250Z",
  name: null,
  email: null,
  stageId: null,
  assigneeId: null,
  tags: [],
  source: "api",
  values: values as ResponseRow["values"],
  finished: true,
  language: null,
  caseFields: {}
})

const say = (key: Parameters<typeof builtInMessages.say>[1], values?: Record<string, string | number>) =>
  builtInMessages.say("en", key, values)

describe("the registry of question types", () => {
  it("has a module for every type of FieldType, in its order, each named once", () => {
    expect(QuestionTypes.questionTypes.map((q) => q.type)).toEqual(FieldType.literals)
    expect(new Set(FieldType.literals).size).toBe(FieldType.literals.length)
    for (const type of FieldType.literals) {
      expect(QuestionTypes.typeOf({ type }).type).toBe(type)
      expect(QuestionTypes.isTypeName(type)).toBe(true)
    }
    expect(QuestionTypes.isTypeName("colour")).toBe(false)
    expect(Object.keys(cases).sort()).toEqual([...FieldType.literals].sort())
  })

  it("reads each type's option keys from its options Schema, placeholder and help first", () => {
    for (const type of FieldType.literals) {
      expect(optionKeys[type].slice(0, 2), type).toEqual(["placeholder", "help"])
      for (const key of optionKeys[type]) expect(Object.keys(AnyFieldOptions.fields), `${type}.${key}`).toContain(key)
    }
    expect(optionKeys.currency).toEqual(["placeholder", "help", "currency", "currencies", "min", "max"])
  })

  it("tells the builder and the case page which option keys a type requires, whether it takes an answer, how one is shown and changed", () => {
    const told = Object.fromEntries(QuestionTypes.builderTypes.map((t) => [t.type, t]))
    // Required keys are lists (the builder sends them empty rather than leave them out), among the type's keys.
    const required = Object.fromEntries(
      QuestionTypes.builderTypes.filter((t) => t.requiredOptions.length > 0).map((t) => [t.type, t.requiredOptions])
    )
    expect(required).toEqual({
      select: ["choices"],
      checkboxes: ["choices"],
      matrix: ["rows", "columns"],
      ranking: ["choices"]
    })
    for (const t of QuestionTypes.builderTypes) {
      for (const key of t.requiredOptions) {
        expect(t.options, `${t.type}.${key}`).toContain(key)
        const field = AnyFieldOptions.fields[key as keyof typeof AnyFieldOptions.fields]
        expect(SchemaAST.toType(field.ast)._tag, `${t.type}.${key}`).toBe("Arrays")
      }
      expect(t.answered, t.type).toBe(QuestionTypes.takesAnswer(t))
    }
    expect(told.statement?.answered).toBe(false)
    expect(
      Object.fromEntries(QuestionTypes.builderTypes.flatMap((t) => (t.shown === undefined ? [] : [[t.type, t.shown]])))
    ).toEqual({ matrix: "byRow", ranking: "ranked", signature: "drawnOrTyped" })
    // A member changes an answer with the control the public page draws; not a consent, an upload, or no answer.
    expect(
      Object.fromEntries(QuestionTypes.builderTypes.flatMap((t) => (t.edit === undefined ? [] : [[t.type, t.edit]])))
    ).toEqual({
      short_text: { kind: "line", type: "text", maxLength: 1000 },
      long_text: { kind: "lines", maxLength: 10000 },
      email: { kind: "line", type: "email", autocomplete: "email" },
      tel: { kind: "line", type: "tel", autocomplete: "tel" },
      url: { kind: "line", type: "url", autocomplete: "url" },
      number: { kind: "line", type: "number", numeric: true },
      date: { kind: "line", type: "date" },
      select: { kind: "choice" },
      checkboxes: { kind: "choices" },
      time: { kind: "line", type: "time" },
      datetime: { kind: "line", type: "datetime-local" }
    })
    for (const t of QuestionTypes.builderTypes) {
      if (t.edit !== undefined) expect(isEditable(t), t.type).toBe(true)
    }
  })

  it("tells the builder's preview how to sketch each type, from its hooks or its own look", () => {
    expect(Object.fromEntries(QuestionTypes.builderTypes.map((t) => [t.type, t.look]))).toEqual({
      short_text: { kind: "line" },
      long_text: { kind: "lines" },
      email: { kind: "line" },
      tel: { kind: "line" },
      url: { kind: "line" },
      number: { kind: "line" },
      currency: { kind: "line" },
      date: { kind: "line" },
      time: { kind: "line" },
      datetime: { kind: "line" },
      select: { kind: "choice" },
      checkboxes: { kind: "choices" },
      yes_no: { kind: "yesNo" },
      legal: { kind: "consent" },
      rating: { kind: "scale", min: 1, max: 5 },
      nps: { kind: "scale", min: 0, max: 10 },
      opinion_scale: { kind: "scale", min: 1, max: 5 },
      slider: { kind: "range", min: 0, max: 100 },
      matrix: { kind: "grid" },
      ranking: { kind: "ranked" },
      contact: { kind: "parts" },
      address: { kind: "parts" },
      file: { kind: "upload" },
      signature: { kind: "drawing" },
      statement: { kind: "none" }
    })
  })

  describe.each(FieldType.literals)("%s", (type) => {
    const q = QuestionTypes.typeOf({ type })
    const c = cases[type]

    it("decodes its options' defaults, and a question of it with them", () => {
      const options = q.optionsRequired === true ? c.options : {}
      // Options Schemas need no services to decode.
      const decodeOptions = Schema.decodeUnknownResult(q.options as Schema.Codec<unknown, unknown, never, never>)
      expect(Result.isSuccess(decodeOptions(options)), JSON.stringify(options)).toBe(true)
      const decoded = Schema.decodeUnknownResult(FieldInput)({
        type,
        label: "Q",
        ...(c.options === null ? {} : { options: c.options })
      })
      expect(Result.isSuccess(decoded)).toBe(true)
      if (q.optionsRequired !== true) {
        expect(Schema.decodeUnknownSync(FieldInput)({ type, label: "Q" })).toMatchObject({
          type,
          options: null,
          required: false
        })
      } else {
        expect(Result.isFailure(Schema.decodeUnknownResult(FieldInput)({ type, label: "Q" }))).toBe(true)
      }
      // Stored, the options read back through the Field Schema.
      expect(Schema.decodeUnknownSync(AnyFieldOptions)(c.options ?? {})).toEqual(c.options ?? {})
    })

    it("accepts a valid answer in its stored form, and refuses an invalid one with its message", () => {
      const field = fieldOf(type, true)
      if (q.answered !== false) {
        const checked = validateAnswers([field], { "1": c.valid })
        expect(checked).toEqual(Result.succeed({ "1": c.stored }))
        expect(Schema.is(AnswerValue)(c.stored), "stored in a shape AnswerValue takes").toBe(true)
        const required = validateAnswers([field], {})
        expect(Result.isFailure(required)).toBe(true)
      } else {
        // Takes no answer: never required, and any answer is refused.
        expect(validateAnswers([field], {})).toEqual(Result.succeed({}))
      }
      const refused = validateAnswers([field], { "1": c.invalid })
      expect(Result.isFailure(refused) ? refused.failure[0]?.message : "accepted").toBe(c.message)
    })

    it("writes its answer as text, in the CSV and in the spreadsheet's columns", () => {
      const field = fieldOf(type)
      if (q.answered === false) {
        expect(Csv.writer([field], [], []).header).not.toContain("Q")
        expect(Xlsx.columns([field], [], []).map((column) => column.header)).not.toContain("Q")
        return
      }
      const text = formatAnswer(field, c.stored as AnswerValue)
      expect(text, "display text").not.toBe("")
      expect(Csv.writer([field], [], []).row(response({ "1": c.stored }))).toContain(Csv.cell(text).split("\r\n")[0]!)
      const columns = Xlsx.columns([field], [], []).slice(Csv.metadataColumns.length)
      expect(columns.length).toBeGreaterThan(0)
      expect(columns[0]!.header.startsWith("Q")).toBe(true)
      const cells = columns.map((column) => column.cell(response({ "1": c.stored })))
      expect(
        cells.some((cell) => cell !== null),
        JSON.stringify(cells)
      ).toBe(true)
      expect(columns.map((column) => column.cell(response({})))).toEqual(columns.map(() => null))
    })

    it("has a summary, tally keys that are SQL, and condition operators", () => {
      expect(kindOf(type)).toBe(q.answered === false ? undefined : (q.summary?.kind ?? "texts"))
      const keys = q.tallyKeys?.({
        answer: "(answers -> '1')",
        text: "((answers -> '1') #>> '{}')",
        key: (key) => `'1|${key}'`,
        typed: (json) => `jsonb_typeof((answers -> '1')) = '${json}'`,
        elements: (json) =>
          `case when jsonb_typeof((answers -> '1')) = '${json}' then (answers -> '1') else '[]'::jsonb end`
      })
      for (const sql of [...(keys?.scalars ?? []), ...(keys?.arrays ?? [])]) expect(sql).toMatch(/^(case|array)\b/)
      for (const op of q.operators ?? []) expect(operators).toContain(op)
    })

    it("draws its page view, and reads what the page posts", () => {
      const field = fieldOf(type, true)
      const view = q.view(field, {
        entered: { texts: [] },
        error: undefined,
        seed: undefined,
        full: new Set(),
        imageSrc: (id) => `images/${id}`,
        voice: { say, wording: { choice: (_, text) => text, row: (_, text) => text, column: (_, text) => text } }
      }).value
      expect(view).toContain("Q")
      expect(view).not.toContain("undefined")
      if (c.posted !== undefined) {
        const parsed = parseAnswer(field, c.posted.answers, c.posted.parts ?? {})
        expect(validateAnswers([field], { "1": parsed })).toEqual(Result.succeed({ "1": c.stored }))
      }
    })

    it("is told to the builder and to the model", () => {
      const builder = QuestionTypes.builderTypes.find((t) => t.type === type)
      expect(builder?.label.length).toBeGreaterThan(0)
      expect(builder?.options).toEqual(optionKeys[type])
      expect(QuestionTypes.modelTypes).toContain(type)
    })
  })
})
