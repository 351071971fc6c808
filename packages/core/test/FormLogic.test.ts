import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  Condition,
  evaluate,
  type Facts,
  hasRefs,
  HiddenFields,
  keptVariables,
  type LogicField,
  type LogicInput,
  Logic,
  maxConditionDepth,
  next,
  onPath,
  path,
  previous,
  recall,
  Calculation,
  resolveCalculations,
  resolveCondition,
  resolveRefs,
  startingValues,
  validate,
  walk
} from "../src/forms/FormLogic.ts"
import type { Field } from "../src/forms/Fields.ts"
import { pagesOf } from "../src/forms/Pages.ts"

const facts = (values: Record<string, unknown>, hidden: Record<string, string> = {}): Facts => ({ values, hidden })

describe("FormLogic.evaluate", () => {
  const table: ReadonlyArray<readonly [string, Condition, Facts, boolean]> = [
    ["equals text, case and spaces ignored", { field: 1, equals: "Pro" }, facts({ "1": " pro " }), true],
    ["equals other text", { field: 1, equals: "Pro" }, facts({ "1": "Free" }), false],
    ["equals on a missing answer", { field: 1, equals: "Pro" }, facts({}), false],
    ["equals a number", { field: 1, equals: 3 }, facts({ "1": 3 }), true],
    ["equals a number written as text", { field: 1, equals: "3.0" }, facts({ "1": 3 }), true],
    ["equals true on yes/no", { field: 1, equals: true }, facts({ "1": true }), true],
    ["equals yes on yes/no", { field: 1, equals: "yes" }, facts({ "1": true }), true],
    ["equals false on a true answer", { field: 1, equals: false }, facts({ "1": true }), false],
    ["equals one of the checked choices", { field: 1, equals: "B" }, facts({ "1": ["A", "B"] }), true],
    ["notEquals", { field: 1, notEquals: "Pro" }, facts({ "1": "Free" }), true],
    ["notEquals on a missing answer", { field: 1, notEquals: "Pro" }, facts({}), true],
    ["contains", { field: 1, contains: "ACME" }, facts({ "1": "works at Acme Ltd" }), true],
    ["contains on a missing answer", { field: 1, contains: "x" }, facts({}), false],
    ["notContains", { field: 1, notContains: "spam" }, facts({ "1": "hello" }), true],
    ["greaterThan numbers", { field: 1, greaterThan: 9 }, facts({ "1": 10 }), true],
    ["greaterThan equal", { field: 1, greaterThan: 10 }, facts({ "1": 10 }), false],
    ["greaterThan numbers not text order", { field: 1, greaterThan: 9 }, facts({ "1": 100 }), true],
    ["lessThan dates", { field: 1, lessThan: "2026-01-01" }, facts({ "1": "2025-12-31" }), true],
    ["lessThan on a missing answer", { field: 1, lessThan: 5 }, facts({}), false],
    ["isEmpty on missing", { field: 1, isEmpty: true }, facts({}), true],
    ["isEmpty on blank", { field: 1, isEmpty: true }, facts({ "1": "  " }), true],
    ["isEmpty on no choice", { field: 1, isEmpty: true }, facts({ "1": [] }), true],
    ["isNotEmpty", { field: 1, isNotEmpty: true }, facts({ "1": "x" }), true],
    ["anyOf", { field: 1, anyOf: ["A", "C"] }, facts({ "1": ["B", "C"] }), true],
    ["anyOf none", { field: 1, anyOf: ["A", "C"] }, facts({ "1": "B" }), false],
    ["allOf", { field: 1, allOf: ["A", "C"] }, facts({ "1": ["A", "B", "C"] }), true],
    ["allOf missing one", { field: 1, allOf: ["A", "C"] }, facts({ "1": ["A", "B"] }), false],
    ["hidden equals", { field: "hidden:ref", equals: "newsletter" }, facts({}, { ref: "newsletter" }), true],
    ["hidden missing is empty", { field: "hidden:ref", isEmpty: true }, facts({}, {}), true],
    [
      "file by name",
      { field: 1, contains: ".pdf" },
      facts({ "1": { fileId: "f", name: "cv.pdf", size: 1, type: "x" } }),
      true
    ],
    [
      "and",
      {
        and: [
          { field: 1, equals: "Pro" },
          { field: 2, greaterThan: 5 }
        ]
      },
      facts({ "1": "Pro", "2": 3 }),
      false
    ],
    [
      "or",
      {
        or: [
          { field: 1, equals: "Pro" },
          { field: 2, greaterThan: 5 }
        ]
      },
      facts({ "1": "Free", "2": 6 }),
      true
    ]
  ]
  it.each(table)("%s", (_name, condition, given, expected) => {
    expect(evaluate(condition, given)).toBe(expected)
  })
})

describe("FormLogic schemas", () => {
  const decode = Schema.decodeUnknownResult(Condition)
  it("takes exactly one operator", () => {
    expect(decode({ field: 1, equals: "x" })._tag).toBe("Success")
    expect(decode({ field: 1 })._tag).toBe("Failure")
    expect(decode({ field: 1, equals: "x", contains: "y" })._tag).toBe("Failure")
    expect(decode({ field: "ref", equals: "x" })._tag).toBe("Failure")
    expect(decode({ field: "hidden:ref", isEmpty: false })._tag).toBe("Failure")
    expect(decode({ and: [] })._tag).toBe("Failure")
    expect(decode({ or: [{ field: 1, anyOf: ["a"] }, { and: [{ field: "hidden:x", isNotEmpty: true }] }] })._tag).toBe(
      "Success"
    )
  })
  it("bounds how deep and / or groups nest, with a message naming the limit, and never overflows the stack", () => {
    const nest = (groups: number, key: "and" | "or" = "and"): unknown => {
      let condition: unknown = { field: 1, equals: "x" }
      for (let i = 0; i < groups; i++) condition = { [key]: [condition] }
      return condition
    }
    expect(decode(nest(maxConditionDepth))._tag).toBe("Success")
    expect(decode(nest(maxConditionDepth, "or"))._tag).toBe("Success")
    for (const groups of [maxConditionDepth + 1, 400, 20_000]) {
      const result = decode(nest(groups))
      expect(result._tag).toBe("Failure")
      if (result._tag === "Failure") {
        expect(String(result.failure)).toContain(`conditions nest at most ${maxConditionDepth} and / or groups deep`)
      }
    }
    // The same schema inside a rule, a question's showIf and the question list.
    expect(Schema.decodeUnknownResult(Logic)([{ if: nest(400), then: { jumpTo: "end" } }])._tag).toBe("Failure")
  })
  it("evaluates an answer of any shape without recursing into it", () => {
    let deep: unknown = "x"
    for (let i = 0; i < 200_000; i++) deep = [deep]
    const facts: Facts = { values: { "1": deep }, hidden: {} }
    expect(evaluate({ field: 1, equals: "x" }, facts)).toBe(false)
    expect(evaluate({ field: 1, isEmpty: true }, facts)).toBe(true)
    expect(evaluate({ field: 1, equals: "x" }, { values: { "1": ["x", "y"] }, hidden: {} })).toBe(true)
  })
  it("rules jump to an id or end", () => {
    const decodeLogic = Schema.decodeUnknownResult(Logic)
    expect(decodeLogic([{ if: { field: 1, equals: "x" }, then: { jumpTo: "end" } }])._tag).toBe("Success")
    expect(decodeLogic([{ if: { field: 1, equals: "x" }, then: { jumpTo: "start" } }])._tag).toBe("Failure")
  })
  it("hidden field names are unique and URL-safe", () => {
    const decodeHidden = Schema.decodeUnknownResult(HiddenFields)
    expect(decodeHidden([{ name: "ref" }, { name: "utm_source" }])._tag).toBe("Success")
    expect(decodeHidden([{ name: "ref" }, { name: "ref" }])._tag).toBe("Failure")
    expect(decodeHidden([{ name: "a b" }])._tag).toBe("Failure")
  })
})

const q = (id: number, extra: Partial<LogicField> = {}): LogicField => ({ id, position: id, ...extra })

describe("FormLogic.path", () => {
  const plan: ReadonlyArray<LogicField> = [
    q(1, {
      logic: [
        { if: { field: 1, equals: "Free" }, then: { jumpTo: 4 } },
        { if: { field: 1, equals: "None" }, then: { jumpTo: "end" } }
      ]
    }),
    q(2),
    q(3, { showIf: { field: 2, isNotEmpty: true } }),
    q(4),
    q(5, { showIf: { field: "hidden:ref", equals: "partner" } })
  ]
  const ids = (values: Record<string, unknown>, hidden: Record<string, string> = {}) =>
    path(plan, facts(values, hidden)).map((f) => f.id)

  it.each([
    ["no answers yet", {}, {}, [1, 2, 4]],
    ["Pro, with the team size", { "1": "Pro", "2": 5 }, {}, [1, 2, 3, 4]],
    ["Free jumps over 2 and 3", { "1": "Free", "2": 5 }, {}, [1, 4]],
    ["None ends", { "1": "None" }, {}, [1]],
    ["partner sees 5", { "1": "Free" }, { ref: "partner" }, [1, 4, 5]]
  ] as const)("%s", (_name, values, hidden, expected) => {
    expect(ids(values, hidden)).toEqual(expected)
  })

  it("next and previous follow the path", () => {
    const f = facts({ "1": "Free" })
    expect(next(plan, f, 1)?.id).toBe(4)
    expect(next(plan, f, 4)?.id).toBeUndefined()
    expect(previous(plan, f, 4)?.id).toBe(1)
    expect(previous(plan, f, 1)).toBeUndefined()
  })

  it("onPath drops answers to skipped questions and keeps unknown keys", () => {
    const result = onPath(plan, facts({ "1": "Free", "2": 5, "3": "x", "99": "?" }))
    expect(result.values).toEqual({ "1": "Free", "99": "?" })
    expect(result.fields.map((f) => f.id)).toEqual([1, 4])
  })

  it("ignores jumps that do not go forward in logic that was never validated", () => {
    const broken = [q(1), q(2, { logic: [{ if: { field: 1, isEmpty: true }, then: { jumpTo: 1 } }] }), q(3)]
    expect(path(broken, facts({})).map((f) => f.id)).toEqual([1, 2, 3])
  })
})

describe("FormLogic.recall", () => {
  const fields: ReadonlyArray<Field> = [
    { id: 1, type: "short_text", label: "Name", required: false, position: 0, options: null }
  ]
  it("replaces answers and hidden values, missing ones with nothing", () => {
    const text = "Hi {{field:1}} from {{ hidden:ref }}, {{field:2}}{{hidden:none}}!"
    expect(recall(text, fields, facts({ "1": "Ada" }, { ref: "mail" }), (_f, v) => String(v))).toBe(
      "Hi Ada from mail, !"
    )
  })
})

describe("FormLogic.validate", () => {
  const rule = (field: number | `hidden:${string}`, jumpTo: number | "end") => ({
    if: { field, isNotEmpty: true as const },
    then: { jumpTo }
  })
  it.each([
    ["a backward jump", [{ id: 1 }, { id: 2, logic: [rule(2, 1)] }], "no-backward-jump"],
    ["a jump to itself", [{ id: 1, logic: [rule(1, 1)] }], "no-cycle"],
    ["a jump to an unknown question", [{ id: 1, logic: [rule(1, 7)] }], "no-unknown-question"],
    ["a condition on a later question", [{ id: 1, logic: [rule(2, "end")] }, { id: 2 }], "no-later-question"],
    ["showIf on its own answer", [{ id: 1, showIf: { field: 1, isEmpty: true as const } }], "no-later-question"],
    [
      "a condition on an unknown question",
      [{ id: 1, showIf: { field: 9, isEmpty: true as const } }],
      "no-unknown-question"
    ],
    ["an undeclared hidden field", [{ id: 1, logic: [rule("hidden:nope", "end")] }], "no-unknown-hidden-field"],
    ["a jump to a question being added", [{ id: 1, logic: [rule(1, 2)] }, {}], "no-unknown-question"]
  ] as const)("rejects %s", (_name, inputs, expected) => {
    const issues = validate(inputs as ReadonlyArray<LogicInput>, [])
    expect(issues.map((i) => i.rule)).toContain(expected)
    expect(issues[0]!.message).toMatch(/^fields\.\d+\./)
  })

  it("takes refs to questions of the same request, and resolves them to ids", () => {
    const inputs: ReadonlyArray<LogicInput> = [
      { ref: "plan", logic: [{ if: { field: "ref:plan", equals: "Free" }, then: { jumpTo: "ref:email" } }] },
      {
        id: 7,
        showIf: {
          and: [
            { field: "ref:plan", equals: "Pro" },
            { field: "hidden:ref", isEmpty: true }
          ]
        }
      },
      { ref: "email" }
    ]
    expect(validate(inputs, [{ name: "ref" }])).toEqual([])
    const ids = new Map([
      ["plan", 11],
      ["email", 14]
    ])
    expect(resolveRefs(inputs[0]!.logic!, ids)).toEqual([{ if: { field: 11, equals: "Free" }, then: { jumpTo: 14 } }])
    expect(resolveCondition(inputs[1]!.showIf!, ids)).toEqual({
      and: [
        { field: 11, equals: "Pro" },
        { field: "hidden:ref", isEmpty: true }
      ]
    })
    expect(hasRefs(inputs[0]!.logic ?? undefined, undefined)).toBe(true)
    expect(hasRefs(undefined, inputs[1]!.showIf)).toBe(true)
    expect(validate([{ ref: "a" }, { ref: "a" }], []).map((i) => i.rule)).toEqual(["unique-ref"])
    expect(
      validate(
        [{ ref: "a", logic: [{ if: { field: "ref:b", isEmpty: true }, then: { jumpTo: "ref:a" } }] }, { ref: "b" }],
        []
      ).map((i) => i.rule)
    ).toEqual(["no-later-question", "no-cycle"])
    expect(
      validate([{ logic: [{ if: { field: "ref:zz", isEmpty: true }, then: { jumpTo: "end" } }] }], []).map(
        (i) => i.rule
      )
    ).toEqual(["no-unknown-question"])
  })

  it("accepts forward jumps, own answers and declared hidden fields", () => {
    const inputs: ReadonlyArray<LogicInput> = [
      { id: 1, logic: [rule(1, 3), rule("hidden:ref", "end")] },
      { id: 2, showIf: { field: 1, isEmpty: true } },
      { id: 3 },
      {}
    ]
    expect(validate(inputs, [{ name: "ref" }])).toEqual([])
  })
})

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

const CHOICES = ["A", "B", "C"]

/**
 * A random form of 1..12 questions whose logic keeps the rules by construction:
 * conditions read earlier answers (its own for `logic`) or the hidden field, jumps go forward or end.
 */
const anyForm = fc.integer({ min: 1, max: 12 }).chain((size) => {
  const ids = Array.from({ length: size }, (_, i) => 10 + i * 3)
  const conditionUpTo = (upTo: number) => {
    const refs: Array<number | "hidden:ref"> = [...ids.slice(0, upTo), "hidden:ref"]
    const simple = fc
      .tuple(fc.constantFrom(...refs), fc.constantFrom(...CHOICES), fc.constantFrom("equals", "notEquals", "contains"))
      .map(([field, value, op]): Condition => ({ field, [op]: value }) as Condition)
    return fc.oneof(
      simple,
      fc.array(simple, { minLength: 1, maxLength: 3 }).map((and): Condition => ({ and })),
      fc.array(simple, { minLength: 1, maxLength: 3 }).map((or): Condition => ({ or }))
    )
  }
  const question = (id: number, index: number) =>
    fc
      .record({
        logic: fc.array(
          fc.record({
            if: conditionUpTo(index + 1),
            then: fc.record({ jumpTo: fc.constantFrom<number | "end">(...ids.slice(index + 1), "end") })
          }),
          { maxLength: 3 }
        ),
        showIf: fc.option(conditionUpTo(index), { nil: undefined })
      })
      .map((extra) => ({ id, ...extra }))
  return fc.tuple(...ids.map(question))
})

const anyFacts = fc.record({
  values: fc.dictionary(fc.constantFrom("10", "13", "16", "19", "22", "25", "999"), fc.constantFrom(...CHOICES, "")),
  hidden: fc.dictionary(fc.constant("ref"), fc.constantFrom(...CHOICES))
})

describe("FormLogic properties", () => {
  it("a form with valid logic is accepted and always gives a path that ends, goes forward and obeys its rules", () => {
    fc.assert(
      fc.property(anyForm, anyFacts, (inputs, given) => {
        expect(validate(inputs, [{ name: "ref" }])).toEqual([])
        const fields = inputs.map((input, position) => ({ ...input, position }))
        const route = path(fields, given)
        // Strictly forward: every question at most once, in order.
        route.forEach((f, i) => {
          if (i > 0) expect(f.position).toBeGreaterThan(route[i - 1]!.position)
        })
        // Every visited question's showIf holds, and each step is what its rules say.
        route.forEach((f, i) => {
          if (f.showIf !== undefined) expect(evaluate(f.showIf, given)).toBe(true)
          const rule = f.logic.find((r) => evaluate(r.if, given))
          const following = route[i + 1]
          if (rule?.then.jumpTo === "end") expect(following).toBeUndefined()
          else if (rule !== undefined && following !== undefined) {
            const target = fields.find((t) => t.id === rule.then.jumpTo)!
            expect(following.position).toBeGreaterThanOrEqual(target.position)
          }
        })
        return true
      }),
      { numRuns: 500 }
    )
  })

  it("invalid logic is always rejected: a jump back or to itself, or a reference forward", () => {
    fc.assert(
      fc.property(anyForm, fc.nat(), fc.nat(), (inputs, a, b) => {
        const from = a % inputs.length
        const to = b % (from + 1) // at or before `from`
        const target = inputs[to]!.id
        const broken = inputs.map((input, i) =>
          i === from
            ? {
                ...input,
                logic: [...input.logic, { if: { field: input.id, isEmpty: true as const }, then: { jumpTo: target } }]
              }
            : input
        )
        const rules = validate(broken, [{ name: "ref" }]).map((i) => i.rule)
        expect(rules).toContain(to === from ? "no-cycle" : "no-backward-jump")
        if (from + 1 < inputs.length) {
          const later = inputs[from + 1]!.id
          const forward = inputs.map((input, i) =>
            i === from ? { ...input, showIf: { field: later, isEmpty: true as const } } : input
          )
          expect(validate(forward, [{ name: "ref" }]).map((i) => i.rule)).toContain("no-later-question")
        }
      }),
      { numRuns: 300 }
    )
  })

  it("later answers never change the path before them", () => {
    fc.assert(
      fc.property(anyForm, anyFacts, fc.constantFrom(...CHOICES), (inputs, given, extra) => {
        const fields = inputs.map((input, position) => ({ ...input, position }))
        const route = path(fields, given)
        const last = route.at(-1)
        if (last === undefined) return true
        // Answer every question after the last visited one differently: the path up to it stays.
        const values = { ...given.values }
        for (const f of fields) if (f.position > last.position) values[String(f.id)] = extra
        const again = path(fields, { values, hidden: given.hidden }).map((f) => f.id)
        expect(again.slice(0, route.length)).toEqual(route.map((f) => f.id))
        return true
      }),
      { numRuns: 300 }
    )
  })
})

describe("FormLogic variables and scores", () => {
  const quiz: ReadonlyArray<LogicField> = [
    { id: 1, position: 0, options: { choices: ["Paris", "Lyon"], points: { Paris: 2, Lyon: -1 } } },
    {
      id: 2,
      position: 1,
      options: { choices: ["Mars", "Venus", "Moon"], points: { Mars: 1, Venus: 1 } },
      calculate: [
        { if: { field: 2, equals: "Moon" }, variable: "level", set: "beginner" },
        { variable: "price", multiply: 1.1 },
        { variable: "price", add: 0.2 }
      ]
    },
    { id: 3, position: 2, showIf: { field: "var:score", greaterThan: 2 } },
    { id: 4, position: 3, logic: [{ if: { field: "var:score", lessThan: 0 }, then: { jumpTo: "ending:retry" } }] },
    { id: 5, position: 4 }
  ]
  const start = { level: "expert", price: 1 }

  it("adds the points of the answers to score, runs calculations in order, and conditions read the variables as they are", () => {
    const high = walk(quiz, { values: { "1": "Paris", "2": ["Mars", "Venus"] }, hidden: {}, variables: start })
    expect(high.fields.map((f) => f.id)).toEqual([1, 2, 3, 4, 5])
    expect(high.variables).toEqual({ level: "expert", price: 1.3, score: 4 })
    expect(high.ending).toBeUndefined()
    // What a question's text recalls: the variables as the respondent reaches it.
    expect(high.reached.get(2)).toEqual({ level: "expert", price: 1, score: 2 })

    const low = walk(quiz, { values: { "1": "Lyon", "2": ["Moon"] }, hidden: {}, variables: start })
    expect(low.fields.map((f) => f.id)).toEqual([1, 2, 4])
    expect(low.variables).toMatchObject({ level: "beginner", score: -1 })
    expect(low.ending).toBe("retry")
  })

  it("starts declared variables at their initial value and keeps score only when points or calculations use it", () => {
    expect(
      startingValues([
        { name: "n", type: "number" },
        { name: "t", type: "text", initial: "x" }
      ])
    ).toEqual({
      n: 0,
      t: "x"
    })
    expect(keptVariables([{ name: "n", type: "number" }], quiz)).toEqual(["n", "score"])
    expect(keptVariables([], [{ id: 1, position: 0 }])).toEqual([])
    expect(keptVariables([], [{ id: 1, position: 0, calculate: [{ variable: "score", add: 1 }] }])).toEqual(["score"])
  })

  it("keeps numbers within bounds and without binary noise", () => {
    const fields: ReadonlyArray<LogicField> = [
      {
        id: 1,
        position: 0,
        calculate: [
          { variable: "n", add: 0.1 },
          { variable: "n", add: 0.2 }
        ]
      },
      {
        id: 2,
        position: 1,
        calculate: [
          { variable: "big", multiply: 1e12 },
          { variable: "big", multiply: 1e12 }
        ]
      }
    ]
    expect(walk(fields, { values: {}, hidden: {}, variables: { n: 0, big: 5 } }).variables).toEqual({
      n: 0.3,
      big: 1e12
    })
  })

  it("recalls variables, URL-encoding every value when asked", () => {
    const facts: Facts = { values: { "1": "A & B" }, hidden: { ref: "x y" }, variables: { score: 3, level: "top" } }
    const fields = [{ id: 1, type: "short_text", label: "Q", required: false, position: 0, options: null }] as const
    expect(recall("{{var:score}}/{{var:level}}/{{var:none}}", fields, facts, (_, v) => String(v))).toBe("3/top/")
    expect(recall("?a={{field:1}}&r={{hidden:ref}}", fields, facts, (_, v) => String(v), encodeURIComponent)).toBe(
      "?a=A%20%26%20B&r=x%20y"
    )
  })

  it("validates variables, calculations and jumps to endings against the form's settings", () => {
    const rules = (inputs: ReadonlyArray<LogicInput>, context: Parameters<typeof validate>[2]) =>
      validate(inputs, [], context).map((i) => `${i.path} ${i.rule}`)
    expect(
      rules(
        [
          {
            id: 1,
            options: { points: { A: 1 } },
            logic: [{ if: { field: "var:score", greaterThan: 1 }, then: { jumpTo: "ending:x" } }]
          },
          {
            id: 2,
            calculate: [
              { variable: "t", set: "ok" },
              { variable: "n", add: 1 }
            ]
          }
        ],
        {
          variables: [
            { name: "t", type: "text" },
            { name: "n", type: "number" }
          ],
          endings: [{ key: "x" }]
        }
      )
    ).toEqual([])
    expect(
      rules(
        [
          { id: 1, logic: [{ if: { field: "var:score", greaterThan: 1 }, then: { jumpTo: "ending:y" } }] },
          {
            id: 2,
            calculate: [
              { variable: "t", add: 1 },
              { variable: "n", set: "x" },
              { variable: "zz", add: 1 }
            ]
          }
        ],
        {
          variables: [
            { name: "t", type: "text" },
            { name: "n", type: "number" }
          ],
          endings: [{ key: "x", when: { field: 9, equals: "a" } }]
        }
      )
    ).toEqual([
      "fields.0.logic.0.if no-unknown-variable",
      "fields.0.logic.0.then.jumpTo no-unknown-ending",
      "fields.1.calculate.0 variable-type",
      "fields.1.calculate.1 variable-type",
      "fields.1.calculate.2.variable no-unknown-variable",
      "settings.endings.0.when no-unknown-question"
    ])
  })

  it("takes a calculation's value from an answer, a hidden field or a variable: price × quantity", () => {
    const order: ReadonlyArray<LogicField> = [
      { id: 1, position: 0, calculate: [{ variable: "total", set: { field: "hidden:price" } }] },
      {
        id: 2,
        position: 1,
        calculate: [
          { variable: "total", multiply: { field: 2 } },
          { variable: "shipping", add: { field: "var:total" } },
          { variable: "shipping", multiply: 0.1 },
          { variable: "total", add: { field: "var:shipping" } },
          { variable: "size", set: { field: 1 } }
        ]
      },
      { id: 3, position: 2, calculate: [{ variable: "gift", add: { field: 3 } }] }
    ]
    const start = { total: 0, shipping: 0, size: "", gift: 0 }
    const priced = walk(order, {
      values: { "1": ["Large", "Blue"], "2": "3" },
      hidden: { price: "12.5" },
      variables: start
    })
    // 12.5 × 3 = 37.5; shipping 10% of it; size as the answer's texts; question 3 is not answered yet: 0.
    expect(priced.variables).toEqual({ total: 41.25, shipping: 3.75, size: "Large, Blue", gift: 0 })
    // A number variable reads words, lists and nothing as 0, yes as 1.
    const words = walk(order, { values: { "1": "x", "2": "many", "3": true }, hidden: {}, variables: start })
    expect(words.variables).toEqual({ total: 0, shipping: 0, size: "x", gift: 1 })
    expect(
      walk([order[1]!], { values: { "2": 2 }, hidden: {}, variables: { gift: 0, total: 5, shipping: 0 } }).variables
    ).toMatchObject({ total: 11, shipping: 1 })
    expect(
      walk([{ id: 9, position: 0, calculate: [{ variable: "gift", add: { field: 9 } }] }], {
        values: { "9": true },
        hidden: {},
        variables: { gift: 0 }
      }).variables
    ).toEqual({ gift: 1 })
    // The Schema takes either a number or {field}, and nothing else.
    expect(Schema.decodeUnknownSync(Calculation)({ variable: "t", multiply: { field: "ref:qty" } })).toEqual({
      variable: "t",
      multiply: { field: "ref:qty" }
    })
    expect(() => Schema.decodeUnknownSync(Calculation)({ variable: "t", add: { field: "nope" } })).toThrow()
    expect(() => Schema.decodeUnknownSync(Calculation)({ variable: "t", add: "3" })).toThrow()
    // Refs of the same request are resolved to ids, in the value as in the condition.
    expect(
      resolveCalculations(
        [{ variable: "t", multiply: { field: "ref:qty" }, if: { field: "ref:qty", isNotEmpty: true } }],
        new Map([["qty", 7]])
      )
    ).toEqual([{ variable: "t", multiply: { field: 7 }, if: { field: 7, isNotEmpty: true } }])
  })

  it("checks a calculation's value from the form as a condition's question: known, and this one or earlier", () => {
    const rules = (inputs: ReadonlyArray<LogicInput>) =>
      validate(inputs, [{ name: "price" }], {
        variables: [
          { name: "t", type: "number" },
          { name: "label", type: "text" }
        ]
      }).map((i) => `${i.path} ${i.rule}`)
    expect(
      rules([
        { id: 1, calculate: [{ variable: "t", set: { field: "hidden:price" } }] },
        {
          id: 2,
          calculate: [
            { variable: "t", multiply: { field: 2 } },
            { variable: "t", add: { field: 1 } },
            { variable: "label", set: { field: 2 } },
            { variable: "t", subtract: { field: "var:t" } }
          ]
        }
      ])
    ).toEqual([])
    expect(
      rules([
        {
          id: 1,
          calculate: [
            { variable: "t", multiply: { field: 2 } },
            { variable: "t", add: { field: 99 } },
            { variable: "t", add: { field: "hidden:cost" } },
            { variable: "t", add: { field: "var:nope" } }
          ]
        },
        { id: 2 }
      ])
    ).toEqual([
      "fields.0.calculate.0.multiply no-later-question",
      "fields.0.calculate.1.add no-unknown-question",
      "fields.0.calculate.2.add no-unknown-hidden-field",
      "fields.0.calculate.3.add no-unknown-variable"
    ])
  })
})

describe("FormLogic pages", () => {
  // Questions 2, 3 and 4 are one page ("contact"); 6 and 7 another ("last"); 1 and 5 pages of their own.
  const form: ReadonlyArray<LogicField> = [
    { id: 1, position: 0 },
    {
      id: 2,
      position: 1,
      page: "contact",
      logic: [{ if: { field: 2, equals: "skip" }, then: { jumpTo: "page:last" } }]
    },
    { id: 3, position: 2, page: "contact", logic: [{ if: { field: 3, equals: "stop" }, then: { jumpTo: "end" } }] },
    { id: 4, position: 3, page: "contact", calculate: [{ variable: "n", add: 1 }] },
    { id: 5, position: 4 },
    { id: 6, position: 5, page: "last" },
    { id: 7, position: 6, page: "last" }
  ]
  const ids = (values: Record<string, unknown>) =>
    walk(form, { values, hidden: {}, variables: { n: 0 } }).fields.map((f) => f.id)

  it("groups questions into pages: runs of the same page, a question without one alone", () => {
    expect(pagesOf(form).map((p) => [p.key, p.fields.map((f) => f.id)])).toEqual([
      ["#1", [1]],
      ["contact", [2, 3, 4]],
      ["#5", [5]],
      ["last", [6, 7]]
    ])
  })

  it("takes a jump once its page ends: the page's other questions are still on the path", () => {
    expect(ids({})).toEqual([1, 2, 3, 4, 5, 6, 7])
    // Question 2 jumps to the page "last": 3 and 4 were on its page, 5 is skipped.
    expect(ids({ "2": "skip" })).toEqual([1, 2, 3, 4, 6, 7])
    expect(walk(form, { values: { "2": "skip" }, hidden: {}, variables: { n: 0 } }).variables).toEqual({ n: 1 })
    // The first rule that holds on the page wins, even when a later question's holds too.
    expect(ids({ "2": "skip", "3": "stop" })).toEqual([1, 2, 3, 4, 6, 7])
    expect(ids({ "3": "stop" })).toEqual([1, 2, 3, 4])
  })

  it("refuses pages that do not hold together, naming the rule", () => {
    const rules = (inputs: ReadonlyArray<LogicInput>, pages: ReadonlyArray<{ key: string }>) =>
      validate(inputs, [], { pages }).map((i) => `${i.path} ${i.rule}`)
    const pages = [{ key: "contact" }, { key: "last" }]
    expect(
      rules(
        [
          { id: 1, logic: [{ if: { field: 1, equals: "x" }, then: { jumpTo: "page:last" } }] },
          { id: 2, page: "contact", logic: [{ if: { field: 2, equals: "x" }, then: { jumpTo: "page:last" } }] },
          { id: 3, page: "contact", showIf: { field: 1, equals: "y" } },
          { id: 4, page: "last" },
          { id: 5, page: "last", type: "short_text" }
        ],
        pages
      )
    ).toEqual([])
    expect(
      rules(
        [
          { id: 1, page: "nowhere" },
          { id: 2, page: "contact" },
          { id: 3 },
          { id: 4, page: "contact", showIf: { field: 2, isNotEmpty: true } },
          { id: 5, page: "last", type: "file" },
          {
            id: 6,
            page: "last",
            logic: [
              { if: { field: 6, equals: "a" }, then: { jumpTo: "page:contact" } },
              { if: { field: 6, equals: "b" }, then: { jumpTo: "page:last" } },
              { if: { field: 6, equals: "c" }, then: { jumpTo: "page:gone" } }
            ]
          },
          { id: 7, logic: [{ if: { field: 7, equals: "a" }, then: { jumpTo: 9 } }] },
          { id: 8, page: "tail" },
          { id: 9, page: "tail" }
        ],
        [...pages, { key: "tail" }, { key: "empty" }]
      )
    ).toEqual([
      "fields.0.page no-unknown-page",
      "fields.3.page page-in-one-piece",
      "fields.4.page own-page",
      "settings.pages.3 no-empty-page",
      "fields.3.showIf no-same-page-condition",
      "fields.5.logic.0.then.jumpTo no-backward-jump",
      "fields.5.logic.1.then.jumpTo no-cycle",
      "fields.5.logic.2.then.jumpTo no-unknown-page",
      "fields.6.logic.0.then.jumpTo no-jump-into-page"
    ])
  })
})
