/**
 * Form logic: hidden fields, conditions, jumps, `showIf` and answer recall,
 * and the one engine that says which questions a respondent goes through
 * given the answers so far. The public page (on every step, server-side, with
 * or without JavaScript), the API submission, the MCP tools and the generator
 * all use these functions.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * The path through a form: start at the first question; a question whose
 * `showIf` is false is skipped; after a question is answered its `logic` rules
 * are tried in order and the first whose `if` holds decides where to go
 * (`jumpTo` a later question, or `"end"`); with no matching rule the next
 * question follows. Saved logic never jumps backwards and conditions only look
 * at earlier answers (and the question's own answer for its `logic`), so every
 * path ends.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import type { AnswerValue, Field } from "./Fields.ts"

// ---------------------------------------------------------------------------
// Hidden fields
// ---------------------------------------------------------------------------

const HIDDEN_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,39}$/

/**
 * The name of a hidden field: a letter or `_`, then letters, digits, `_` or
 * `-`, at most 40 characters (it is a URL query parameter).
 *
 * @example
 * ```ts
 * Schema.is(HiddenFieldName)("utm_source") // true
 * ```
 */
export const HiddenFieldName = Schema.String.check(
  Schema.isPattern(HIDDEN_NAME, {
    message: "a hidden field name starts with a letter or _ and has at most 40 letters, digits, _ or -"
  })
)

/**
 * A hidden field of a form: a value the respondent does not type, taken from
 * the page's URL (`/f/{publicId}?ref=newsletter`) or the API submission
 * (`hidden: {"ref": "newsletter"}`).
 *
 * @example
 * ```ts
 * const h: HiddenField = { name: "ref" }
 * ```
 */
export const HiddenField = Schema.Struct({ name: HiddenFieldName }).annotate({ identifier: "HiddenField" })
export type HiddenField = typeof HiddenField.Type

/**
 * A form's hidden fields: at most 20, names unique.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(HiddenFields)([{ name: "ref" }, { name: "campaign" }])
 * ```
 */
export const HiddenFields = Schema.Array(HiddenField).check(
  Schema.isMaxLength(20, { message: "a form has at most 20 hidden fields" }),
  Schema.makeFilter((list: ReadonlyArray<HiddenField>) => {
    const names = list.map((h) => h.name)
    const repeated = names.find((name, index) => names.indexOf(name) !== index)
    return repeated === undefined || `hidden field "${repeated}" is listed twice`
  })
)

/** The longest value a hidden field keeps (longer ones are cut). */
export const maxHiddenValueLength = 1000

/**
 * The values of hidden fields a submission carries, by name (each at most
 * {@link maxHiddenValueLength} characters).
 *
 * @example
 * ```ts
 * const v: HiddenValues = { ref: "newsletter" }
 * ```
 */
export const HiddenValues = Schema.Record(
  Schema.String,
  Schema.String.check(
    Schema.isMaxLength(maxHiddenValueLength, { message: `a hidden value must be at most ${maxHiddenValueLength} characters` })
  )
).annotate({ identifier: "HiddenValues" })
export type HiddenValues = typeof HiddenValues.Type

/** The prefix of hidden-field references and of their keys in stored values and flat answers. */
export const hiddenPrefix = "hidden:"

/**
 * The key of a hidden value in a response's `values` and in flat answers:
 * `hidden:<name>`.
 *
 * @example
 * ```ts
 * hiddenKey("ref") // "hidden:ref"
 * ```
 */
export const hiddenKey = (name: string): string => `${hiddenPrefix}${name}`

// ---------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------

/** The prefix of a reference to a question by the `ref` it is saved with (before it has an id). */
export const refPrefix = "ref:"

/**
 * A question's own key in a save request (`"ref": "plan"`), so that logic in
 * the same request can refer to questions that have no id yet as
 * `"ref:plan"`. It is not stored: saved logic refers to ids.
 *
 * @example
 * ```ts
 * Schema.is(QuestionKey)("plan") // true
 * ```
 */
export const QuestionKey = Schema.String.check(
  Schema.isPattern(HIDDEN_NAME, {
    message: "a question ref starts with a letter or _ and has at most 40 letters, digits, _ or -"
  })
)

const QuestionRefText = Schema.String.check(
  Schema.isPattern(/^ref:[A-Za-z_][A-Za-z0-9_-]{0,39}$/, { message: "a question reference is \"ref:<ref>\"" })
)

/**
 * What a condition looks at: a question id, `"hidden:<name>"`, or (when
 * saving) `"ref:<ref>"` for a question of the same request.
 *
 * @example
 * ```ts
 * const a: FieldRef = 12
 * const b: FieldRef = "hidden:ref"
 * const c: FieldRef = "ref:plan"
 * ```
 */
export const FieldRef = Schema.Union([
  Schema.Int,
  Schema.String.check(
    Schema.isPattern(/^(?:hidden|ref):[A-Za-z_][A-Za-z0-9_-]{0,39}$/, {
      message: "a reference is a question id, \"ref:<question ref>\" or \"hidden:<name>\""
    })
  )
]).annotate({
  description: "A question id, \"hidden:<name>\" for a hidden field, or \"ref:<ref>\" for a question saved in the same request"
})
export type FieldRef = typeof FieldRef.Type

const Scalar = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean])
type Scalar = typeof Scalar.Type

/** The operators of a simple condition; exactly one per condition. */
export const operators = [
  "equals",
  "notEquals",
  "contains",
  "notContains",
  "greaterThan",
  "lessThan",
  "isEmpty",
  "isNotEmpty",
  "anyOf",
  "allOf"
] as const
export type Operator = typeof operators[number]

const Values = Schema.Array(Scalar).check(
  Schema.isMinLength(1, { message: "anyOf / allOf need at least one value" }),
  Schema.isMaxLength(200, { message: "anyOf / allOf take at most 200 values" })
)

/** `{"field": 12, "equals": "Pro"}`: one reference and exactly one operator. */
export interface SimpleCondition {
  readonly field: FieldRef
  readonly equals?: Scalar
  readonly notEquals?: Scalar
  readonly contains?: string
  readonly notContains?: string
  readonly greaterThan?: number | string
  readonly lessThan?: number | string
  readonly isEmpty?: true
  readonly isNotEmpty?: true
  readonly anyOf?: ReadonlyArray<Scalar>
  readonly allOf?: ReadonlyArray<Scalar>
}

/** Every one of the conditions holds. */
export interface AndCondition {
  readonly and: ReadonlyArray<Condition>
}

/** At least one of the conditions holds. */
export interface OrCondition {
  readonly or: ReadonlyArray<Condition>
}

/**
 * A condition: a simple one on a question's answer or a hidden value, or
 * `and` / `or` of conditions.
 *
 * @example
 * ```ts
 * const c: Condition = { or: [{ field: 12, equals: "Pro" }, { field: "hidden:ref", contains: "partner" }] }
 * ```
 */
export type Condition = SimpleCondition | AndCondition | OrCondition

const Simple = Schema.Struct({
  field: FieldRef,
  equals: Schema.optionalKey(Scalar),
  notEquals: Schema.optionalKey(Scalar),
  contains: Schema.optionalKey(Schema.String),
  notContains: Schema.optionalKey(Schema.String),
  greaterThan: Schema.optionalKey(Schema.Union([Schema.Finite, Schema.String])),
  lessThan: Schema.optionalKey(Schema.Union([Schema.Finite, Schema.String])),
  isEmpty: Schema.optionalKey(Schema.Literal(true)),
  isNotEmpty: Schema.optionalKey(Schema.Literal(true)),
  anyOf: Schema.optionalKey(Values),
  allOf: Schema.optionalKey(Values)
}).check(
  Schema.makeFilter((c) => {
    const used = operators.filter((op) => c[op] !== undefined)
    return used.length === 1 ||
      (used.length === 0
        ? `a condition needs one operator: ${operators.join(", ")}`
        : `a condition takes exactly one operator, not ${used.join(" and ")}`)
  })
)

/**
 * How deep `and` / `or` groups may nest in one condition
 * (`{"and": [{"or": [...]}]}` is 2 deep). Decoding is recursive, so an
 * unbounded depth would let a request overflow the stack.
 */
export const maxConditionDepth = 5

const tooDeep = Schema.Never.annotate({ message: `conditions nest at most ${maxConditionDepth} and / or groups deep` })

/**
 * The schema of a condition inside `groups` enclosing and / or groups: one
 * schema per level, none recursive, so that decoding never goes deeper than
 * {@link maxConditionDepth} (an input of any depth is refused at the limit).
 */
const conditionAt = (groups: number): Schema.Codec<Condition> => {
  const annotations = {
    identifier: "Condition",
    description:
      `{"field": <question id> | "hidden:<name>", "<operator>": value}, or {"and": [...]} / {"or": [...]} (groups nest at most ${maxConditionDepth} deep)`
  }
  if (groups === maxConditionDepth) {
    return Schema.Union([Simple, Schema.Struct({ and: tooDeep }), Schema.Struct({ or: tooDeep })]).annotate(annotations)
  }
  const conditions = Schema.Array(conditionAt(groups + 1)).check(
    Schema.isMinLength(1, { message: "and / or need at least one condition" }),
    Schema.isMaxLength(50, { message: "and / or take at most 50 conditions" })
  )
  return Schema.Union([Simple, Schema.Struct({ and: conditions }), Schema.Struct({ or: conditions })]).annotate(
    annotations
  )
}

/**
 * The schema of a {@link Condition}: and / or groups nest at most
 * {@link maxConditionDepth} deep.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Condition)({ field: 12, equals: "Pro" })
 * ```
 */
export const Condition: Schema.Codec<Condition> = conditionAt(0)

/**
 * One rule of a question's logic: after the question is answered, when `if`
 * holds, go to `jumpTo` (a later question's id, or `"end"` to finish).
 *
 * @example
 * ```ts
 * const r: LogicRule = { if: { field: 12, equals: "Free" }, then: { jumpTo: "end" } }
 * ```
 */
export const LogicRule = Schema.Struct({
  if: Condition,
  then: Schema.Struct({
    jumpTo: Schema.Union([Schema.Int, Schema.Literal("end"), QuestionRefText]).annotate({
      description: "The id of a later question (or \"ref:<ref>\" of one saved in the same request), or \"end\""
    })
  })
}).annotate({ identifier: "LogicRule" })
export type LogicRule = typeof LogicRule.Type

/**
 * A question's rules, tried in order (at most 50).
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Logic)([{ if: { field: 1, isEmpty: true }, then: { jumpTo: 4 } }])
 * ```
 */
export const Logic = Schema.Array(LogicRule).check(
  Schema.isMaxLength(50, { message: "a question has at most 50 logic rules" })
)
export type Logic = typeof Logic.Type

// ---------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------

/** What conditions read: answers keyed by question id, hidden values by name. */
export interface Facts {
  readonly values: Readonly<Record<string, unknown>>
  readonly hidden: Readonly<Record<string, string>>
}

const lookup = (ref: FieldRef, facts: Facts): unknown => {
  if (Predicate.isNumber(ref)) {
    const key = String(ref)
    return Object.hasOwn(facts.values, key) ? facts.values[key] : undefined
  }
  // Saved logic refers to ids; a `ref:` left unresolved reads nothing.
  if (!ref.startsWith(hiddenPrefix)) return undefined
  const name = ref.slice(hiddenPrefix.length)
  return Object.hasOwn(facts.hidden, name) ? facts.hidden[name] : undefined
}

/** The comparable text of one answer value (a file by its name), if it has one. */
const textOf = (value: unknown): ReadonlyArray<string> => {
  if (Predicate.isString(value)) return value.trim() === "" ? [] : [value.trim()]
  if (Predicate.isNumber(value)) return [String(value)]
  if (Predicate.isBoolean(value)) return [value ? "true" : "false"]
  if (Predicate.isObject(value) && !Array.isArray(value) && Predicate.isString(value.name)) return [value.name]
  return []
}

/**
 * The comparable texts of an answer: one per element (checkboxes), a file by
 * its name. Answers arrive unvalidated (the path decides which are checked),
 * so this looks one level into an array and never recurses into the value.
 */
const textsOf = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.flatMap(textOf) : textOf(value)

const scalarText = (value: Scalar): string => Predicate.isString(value) ? value.trim() : String(value)

/** `yes`/`no` as typed on a page equal the booleans of a yes/no answer. */
const same = (answer: string, expected: string): boolean => {
  const a = answer.toLowerCase()
  const e = expected.toLowerCase()
  if (a === e) return true
  if (Number.isFinite(Number(a)) && a !== "" && e !== "" && Number(a) === Number(e)) return true
  return (a === "true" && e === "yes") || (a === "false" && e === "no")
}

const compare = (texts: ReadonlyArray<string>, bound: number | string, sign: 1 | -1): boolean => {
  const answer = texts[0]
  if (answer === undefined || texts.length !== 1) return false
  const a = Number(answer)
  const b = Number(bound)
  if (Number.isFinite(a) && Number.isFinite(b) && String(bound).trim() !== "") return sign * (a - b) > 0
  // Dates (YYYY-MM-DD) and other text compare as text.
  const c = answer.localeCompare(String(bound))
  return sign * c > 0
}

/**
 * Whether a condition holds. Text compares trimmed and case-insensitively;
 * a number equals its text; `true`/`false` equal `yes`/`no`; a checkboxes
 * answer `equals` / `contains` a value when one of its choices is it; a
 * missing answer equals nothing, contains nothing and is empty. `greaterThan`
 * / `lessThan` compare numbers as numbers and anything else as text (so
 * `YYYY-MM-DD` dates compare in time order).
 *
 * @example
 * ```ts
 * evaluate({ field: 1, equals: "Pro" }, { values: { "1": "pro" }, hidden: {} }) // true
 * evaluate({ field: "hidden:ref", isEmpty: true }, { values: {}, hidden: {} }) // true
 * ```
 */
export const evaluate = (condition: Condition, facts: Facts): boolean => {
  if ("and" in condition) return condition.and.every((c) => evaluate(c, facts))
  if ("or" in condition) return condition.or.some((c) => evaluate(c, facts))
  const texts = textsOf(lookup(condition.field, facts))
  const has = (value: Scalar) => texts.some((t) => same(t, scalarText(value)))
  const includes = (needle: string) =>
    texts.some((t) => t.toLowerCase().includes(needle.trim().toLowerCase()))
  if (condition.equals !== undefined) return has(condition.equals)
  if (condition.notEquals !== undefined) return !has(condition.notEquals)
  if (condition.contains !== undefined) return includes(condition.contains)
  if (condition.notContains !== undefined) return !includes(condition.notContains)
  if (condition.greaterThan !== undefined) return compare(texts, condition.greaterThan, 1)
  if (condition.lessThan !== undefined) return compare(texts, condition.lessThan, -1)
  if (condition.isEmpty !== undefined) return texts.length === 0
  if (condition.isNotEmpty !== undefined) return texts.length > 0
  if (condition.anyOf !== undefined) return condition.anyOf.some(has)
  if (condition.allOf !== undefined) return texts.length > 0 && condition.allOf.every(has)
  return false
}

// ---------------------------------------------------------------------------
// The path
// ---------------------------------------------------------------------------

/** What the engine needs of a question. */
export type LogicField = Pick<Field, "id" | "position"> & {
  readonly logic?: Logic | undefined
  readonly showIf?: Condition | undefined
}

const ordered = <F extends LogicField>(fields: ReadonlyArray<F>): ReadonlyArray<F> =>
  [...fields].sort((a, b) => a.position - b.position || a.id - b.id)

/**
 * The questions a respondent goes through, in order, given the answers and
 * hidden values. Later answers never change the path before them. Total even
 * for logic that was never validated: a jump that does not go forward is
 * ignored, so the walk always ends.
 *
 * @example
 * ```ts
 * const fields = [
 *   { id: 1, position: 0, logic: [{ if: { field: 1, equals: "No" }, then: { jumpTo: "end" } }] },
 *   { id: 2, position: 1 }
 * ]
 * path(fields, { values: { "1": "No" }, hidden: {} }).map((f) => f.id) // [1]
 * path(fields, { values: { "1": "Yes" }, hidden: {} }).map((f) => f.id) // [1, 2]
 * ```
 */
export const path = <F extends LogicField>(fields: ReadonlyArray<F>, facts: Facts): ReadonlyArray<F> => {
  const list = ordered(fields)
  const indexOf = new Map(list.map((f, i) => [f.id, i]))
  const visited: Array<F> = []
  let i = 0
  while (i < list.length) {
    const field = list[i]!
    if (field.showIf !== undefined && !evaluate(field.showIf, facts)) {
      i++
      continue
    }
    visited.push(field)
    const rule = (field.logic ?? []).find((r) => evaluate(r.if, facts))
    if (rule === undefined) {
      i++
      continue
    }
    const jump = rule.then.jumpTo
    if (jump === "end") break
    const target = Predicate.isNumber(jump) ? indexOf.get(jump) : undefined
    i = target !== undefined && target > i ? target : i + 1
  }
  return visited
}

/**
 * The question after `currentId` on the path, or undefined when the form ends
 * there (the answers should include the current question's).
 *
 * @example
 * ```ts
 * next(fields, { values: { "1": "Yes" }, hidden: {} }, 1)?.id // 2
 * ```
 */
export const next = <F extends LogicField>(fields: ReadonlyArray<F>, facts: Facts, currentId: number): F | undefined => {
  const route = path(fields, facts)
  const at = route.findIndex((f) => f.id === currentId)
  if (at !== -1) return route[at + 1]
  // Not on the path (the answers changed under it): the first on the path after it.
  const current = fields.find((f) => f.id === currentId)
  return current === undefined ? route[0] : route.find((f) => after(f, current))
}

/**
 * The question before `currentId` on the path, or undefined at the first.
 *
 * @example
 * ```ts
 * previous(fields, { values: { "1": "Yes" }, hidden: {} }, 2)?.id // 1
 * ```
 */
export const previous = <F extends LogicField>(
  fields: ReadonlyArray<F>,
  facts: Facts,
  currentId: number
): F | undefined => {
  const route = path(fields, facts)
  const at = route.findIndex((f) => f.id === currentId)
  if (at !== -1) return route[at - 1]
  const current = fields.find((f) => f.id === currentId)
  return current === undefined ? undefined : route.filter((f) => after(current, f)).at(-1)
}

const after = (a: LogicField, b: LogicField) => a.position > b.position || (a.position === b.position && a.id > b.id)

/**
 * The answers of the questions on the path (answers to skipped questions are
 * dropped) and the questions on the path. Keys that are no question of the
 * form are kept, so that validation can name them.
 *
 * @example
 * ```ts
 * onPath(fields, { values: { "1": "No", "2": "x" }, hidden: {} }).values // { "1": "No" }
 * ```
 */
export const onPath = <F extends LogicField>(
  fields: ReadonlyArray<F>,
  facts: Facts
): { readonly fields: ReadonlyArray<F>; readonly values: Record<string, unknown> } => {
  const route = path(fields, facts)
  const kept = new Set(route.map((f) => String(f.id)))
  const known = new Set(fields.map((f) => String(f.id)))
  const values: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(facts.values)) {
    if (kept.has(key) || !known.has(key)) values[key] = value
  }
  return { fields: route, values }
}

// ---------------------------------------------------------------------------
// Recall
// ---------------------------------------------------------------------------

const RECALL = /\{\{\s*(field:(\d{1,10})|hidden:([A-Za-z_][A-Za-z0-9_-]{0,39}))\s*\}\}/g

/**
 * Replaces `{{field:<id>}}` with the answer to that question (as `format`
 * writes it) and `{{hidden:<name>}}` with the hidden value; a missing answer
 * or value becomes `""`.
 *
 * @example
 * ```ts
 * recall("Thanks {{field:1}}!", fields, { values: { "1": "Ada" }, hidden: {} }, (_, v) => String(v)) // "Thanks Ada!"
 * ```
 */
export const recall = (
  text: string,
  fields: ReadonlyArray<Field>,
  facts: Facts,
  format: (field: Field, value: AnswerValue) => string
): string =>
  text.replace(RECALL, (_match, _ref: string, id: string | undefined, name: string | undefined) => {
    if (name !== undefined) return Object.hasOwn(facts.hidden, name) ? facts.hidden[name]! : ""
    const field = fields.find((f) => String(f.id) === id)
    const value = id === undefined ? undefined : lookup(Number(id), facts)
    return field === undefined || value === undefined || value === null ? "" : format(field, value as AnswerValue)
  })

// ---------------------------------------------------------------------------
// Validation of saved logic
// ---------------------------------------------------------------------------

/** The rules saved logic must keep; a problem names one. */
export type LogicRuleName =
  | "no-backward-jump"
  | "no-cycle"
  | "no-unknown-question"
  | "no-later-question"
  | "no-unknown-hidden-field"
  | "unique-ref"

/**
 * One problem with saved logic: `path` such as `fields.2.logic.0.then.jumpTo`,
 * the rule broken and a message naming it.
 *
 * @example
 * ```ts
 * const i: LogicIssue = { path: "fields.1.logic.0.then.jumpTo", rule: "no-backward-jump", message: "..." }
 * ```
 */
export interface LogicIssue {
  readonly path: string
  readonly rule: LogicRuleName
  readonly message: string
}

/** A question as it is being saved: its id when it has one (new questions have none yet). */
export interface LogicInput {
  readonly id?: number | undefined
  /** The question's key in this request, for `"ref:<ref>"` references. */
  readonly ref?: string | undefined
  readonly logic?: Logic | null | undefined
  readonly showIf?: Condition | null | undefined
}

const refsOf = (condition: Condition): ReadonlyArray<FieldRef> =>
  "and" in condition
    ? condition.and.flatMap(refsOf)
    : "or" in condition
    ? condition.or.flatMap(refsOf)
    : [condition.field]

/**
 * Checks the logic of a question list in its saved order, with the form's
 * hidden fields. Rules: a condition refers to a question that exists (by id)
 * and comes earlier (a question's `logic` may also read its own answer; its
 * `showIf` may not), or to a declared hidden field; a jump goes to an
 * existing, later question or `"end"`; the jumps have no cycle. Questions
 * being added have no id yet, so nothing can refer to them until they are
 * saved.
 *
 * @example
 * ```ts
 * validate([{ id: 1 }, { id: 2, logic: [{ if: { field: 1, equals: "x" }, then: { jumpTo: 1 } }] }], [])
 * // [{ path: "fields.1.logic.0.then.jumpTo", rule: "no-backward-jump", message: "..." }]
 * ```
 */
export const validate = (
  inputs: ReadonlyArray<LogicInput>,
  hiddenFields: ReadonlyArray<HiddenField>
): ReadonlyArray<LogicIssue> => {
  const issues: Array<LogicIssue> = []
  const indexOf = new Map<number | string, number>()
  inputs.forEach((input, index) => {
    if (input.id !== undefined) indexOf.set(input.id, index)
    if (input.ref !== undefined) {
      const key = `${refPrefix}${input.ref}`
      if (indexOf.has(key)) {
        issues.push({
          path: `fields.${index}.ref`,
          rule: "unique-ref",
          message: `fields.${index}.ref: "${input.ref}" is the ref of an earlier question too`
        })
      } else indexOf.set(key, index)
    }
  })
  const describe = (ref: number | string) => Predicate.isNumber(ref) ? `question ${ref}` : `question "${ref}"`
  const hiddenNames = new Set(hiddenFields.map((h) => h.name))
  const checkCondition = (condition: Condition, at: number, where: string, own: boolean) => {
    for (const ref of refsOf(condition)) {
      if (Predicate.isString(ref) && ref.startsWith(hiddenPrefix)) {
        const name = ref.slice(hiddenPrefix.length)
        if (!hiddenNames.has(name)) {
          issues.push({
            path: where,
            rule: "no-unknown-hidden-field",
            message: `${where}: "${ref}" is not a hidden field of this form (declare it in hiddenFields)`
          })
        }
        continue
      }
      const target = indexOf.get(ref)
      if (target === undefined) {
        issues.push({
          path: where,
          rule: "no-unknown-question",
          message: `${where}: ${describe(ref)} is not a question of this form`
        })
      } else if (target > at || (target === at && !own)) {
        issues.push({
          path: where,
          rule: "no-later-question",
          message: `${where}: a condition may only look at earlier answers, and ${describe(ref)} does not come earlier`
        })
      }
    }
  }
  const edges = new Map<number, Array<number>>()
  inputs.forEach((input, at) => {
    const base = `fields.${at}`
    if (input.showIf !== undefined && input.showIf !== null) checkCondition(input.showIf, at, `${base}.showIf`, false)
    ;(input.logic ?? []).forEach((rule, r) => {
      checkCondition(rule.if, at, `${base}.logic.${r}.if`, true)
      const jump = rule.then.jumpTo
      if (jump === "end") return
      const where = `${base}.logic.${r}.then.jumpTo`
      const target = indexOf.get(jump)
      if (target === undefined) {
        issues.push({ path: where, rule: "no-unknown-question", message: `${where}: ${describe(jump)} is not a question of this form` })
      } else if (target === at) {
        issues.push({ path: where, rule: "no-cycle", message: `${where}: ${describe(jump)} jumps to itself, which would never end` })
      } else if (target < at) {
        issues.push({ path: where, rule: "no-backward-jump", message: `${where}: ${describe(jump)} comes earlier; jumps only go forward` })
      } else {
        const list = edges.get(at) ?? []
        list.push(target)
        edges.set(at, list)
      }
    })
  })
  // Forward-only jumps cannot loop; this guards the rule itself should the checks above ever change.
  const cycle = findCycle(inputs.length, edges)
  if (cycle !== undefined) {
    issues.push({ path: `fields.${cycle}`, rule: "no-cycle", message: `fields.${cycle}: the jumps form a cycle` })
  }
  return issues
}

/** A node on a cycle of the graph "question index → jumps and the next question", if there is one. */
const findCycle = (size: number, jumps: ReadonlyMap<number, ReadonlyArray<number>>): number | undefined => {
  const state = new Array<0 | 1 | 2>(size).fill(0)
  const visit = (start: number): number | undefined => {
    const stack: Array<{ node: number; next: ReadonlyArray<number>; i: number }> = []
    const push = (node: number) => {
      state[node] = 1
      const out = [...(jumps.get(node) ?? [])]
      if (node + 1 < size) out.push(node + 1)
      stack.push({ node, next: out, i: 0 })
    }
    push(start)
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      if (top.i >= top.next.length) {
        state[top.node] = 2
        stack.pop()
        continue
      }
      const to = top.next[top.i++]!
      if (state[to] === 1) return to
      if (state[to] === 0) push(to)
    }
    return undefined
  }
  for (let n = 0; n < size; n++) {
    if (state[n] === 0) {
      const found = visit(n)
      if (found !== undefined) return found
    }
  }
  return undefined
}

/**
 * Replaces `"ref:<ref>"` references of a condition or rules by the ids the
 * questions were saved with (references already by id, and hidden fields,
 * stay as they are). Run after {@link validate}, which checks every ref
 * exists.
 *
 * @example
 * ```ts
 * resolveRefs([{ if: { field: "ref:plan", equals: "Free" }, then: { jumpTo: "ref:email" } }], new Map([["plan", 11], ["email", 14]]))
 * // [{ if: { field: 11, equals: "Free" }, then: { jumpTo: 14 } }]
 * ```
 */
export const resolveRefs = (logic: Logic, ids: ReadonlyMap<string, number>): Logic =>
  logic.map((rule) => ({
    if: resolveCondition(rule.if, ids),
    then: { jumpTo: resolveRef(rule.then.jumpTo, ids) as number | "end" }
  }))

/** {@link resolveRefs} for one condition. */
export const resolveCondition = (condition: Condition, ids: ReadonlyMap<string, number>): Condition =>
  "and" in condition
    ? { and: condition.and.map((c) => resolveCondition(c, ids)) }
    : "or" in condition
    ? { or: condition.or.map((c) => resolveCondition(c, ids)) }
    : { ...condition, field: resolveRef(condition.field, ids) as FieldRef }

const resolveRef = (ref: number | string, ids: ReadonlyMap<string, number>): number | string =>
  Predicate.isString(ref) && ref.startsWith(refPrefix) ? ids.get(ref.slice(refPrefix.length)) ?? ref : ref

/** Whether rules or a condition refer to a question by `"ref:<ref>"`. */
export const hasRefs = (logic: Logic | undefined, showIf: Condition | null | undefined): boolean =>
  JSON.stringify([logic ?? [], showIf ?? null]).includes(`"${refPrefix}`)
