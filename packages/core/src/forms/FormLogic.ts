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
import type { Field } from "./Fields.ts"
import type { AnswerValue } from "./Answers.ts"
import { pageKeyOf } from "./Pages.ts"
import { comparableTexts, typeNamed } from "./questions/QuestionTypes.ts"
import {
  type AnswerOperand,
  type Calculation,
  calculationOperators,
  type Calculations,
  type Condition,
  endingPrefix,
  type FieldRef,
  type HiddenField,
  hiddenPrefix,
  type Logic,
  type LogicRule,
  maxVariableNumber,
  maxVariableText,
  pagePrefix,
  refPrefix,
  type Scalar,
  scoreVariable,
  type Variable,
  variablePrefix
} from "./LogicRules.ts"

export * from "./LogicRules.ts"

// ---------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------

/** The value of a variable: a number or a text. */
export type VariableValue = number | string

/**
 * What conditions read: answers keyed by question id, hidden values by name,
 * and the variables by name (as the form starts, {@link startingValues}; the
 * walk through the form changes them as it passes each question).
 */
export interface Facts {
  readonly values: Readonly<Record<string, unknown>>
  readonly hidden: Readonly<Record<string, string>>
  readonly variables?: Readonly<Record<string, VariableValue>> | undefined
}

const lookup = (ref: FieldRef, facts: Facts): unknown => {
  if (Predicate.isNumber(ref)) {
    const key = String(ref)
    return Object.hasOwn(facts.values, key) ? facts.values[key] : undefined
  }
  if (ref.startsWith(variablePrefix)) {
    const name = ref.slice(variablePrefix.length)
    return facts.variables !== undefined && Object.hasOwn(facts.variables, name) ? facts.variables[name] : undefined
  }
  // Saved logic refers to ids; a `ref:` left unresolved reads nothing.
  if (!ref.startsWith(hiddenPrefix)) return undefined
  const name = ref.slice(hiddenPrefix.length)
  return Object.hasOwn(facts.hidden, name) ? facts.hidden[name] : undefined
}

/** The comparable text of one answer value (a file by its name, a contact or address by its parts), if it has one. */
const textOf = (value: unknown): ReadonlyArray<string> => {
  if (Predicate.isString(value)) return value.trim() === "" ? [] : [value.trim()]
  if (Predicate.isNumber(value)) return [String(value)]
  if (Predicate.isBoolean(value)) return [value ? "true" : "false"]
  if (!Predicate.isObject(value) || Array.isArray(value)) return []
  // An answer whose type says how it compares (an amount and its currency).
  const typed = comparableTexts(value)
  if (typed !== undefined) return typed
  if (Object.hasOwn(value, "fileId")) return Predicate.isString(value.name) ? [value.name] : []
  // The parts of a contact or address; the chosen columns of a matrix, one level into each row's list.
  return Object.values(value).flatMap((part) =>
    (Array.isArray(part) ? part : [part]).flatMap((text) =>
      Predicate.isString(text) && text.trim() !== "" ? [text.trim()] : []
    )
  )
}

/**
 * The comparable texts of an answer: one per element (checkboxes), a file by
 * its name, one per part (contact, address) or chosen column (matrix). Answers arrive unvalidated (the path decides which are checked),
 * so this looks one level into an array and never recurses into the value.
 */
const textsOf = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.flatMap(textOf) : textOf(value)

const scalarText = (value: Scalar): string => (Predicate.isString(value) ? value.trim() : String(value))

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
  const includes = (needle: string) => texts.some((t) => t.toLowerCase().includes(needle.trim().toLowerCase()))
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
  /** The page the question is on (`Pages.ts`); absent: a page of its own. */
  readonly page?: string | undefined
  readonly logic?: Logic | undefined
  readonly showIf?: Condition | undefined
  readonly calculate?: Calculations | undefined
  /** Only `points` is read: what each choice adds to the variable `score` (see {@link pointsTable}). */
  readonly options?: object | null | undefined
}

/**
 * The points of a question's choices (`options.points`), if it gives any.
 * Options are typed per question type; only choices' options carry points.
 */
const pointsTable = (options: object | null | undefined): Readonly<Record<string, number>> | undefined => {
  if (options === null || options === undefined || !("points" in options)) return undefined
  const points = options.points
  return Predicate.isObject(points) && Object.keys(points).length > 0
    ? (points as Readonly<Record<string, number>>)
    : undefined
}

const ordered = <F extends LogicField>(fields: ReadonlyArray<F>): ReadonlyArray<F> =>
  [...fields].sort((a, b) => a.position - b.position || a.id - b.id)

/** Where a walk through the form went: the questions, the variables at its end, the ending a jump chose. */
export interface Walk<F> {
  readonly fields: ReadonlyArray<F>
  readonly variables: Readonly<Record<string, VariableValue>>
  /** The key of the ending that a logic rule jumped to (`"ending:<key>"`), if one did. */
  readonly ending: string | undefined
  /** The variables as each question on the path is reached (before its own points and calculations): what its text recalls. */
  readonly reached: ReadonlyMap<number, Readonly<Record<string, VariableValue>>>
}

/** A number kept within the variables' bounds, without the noise of binary fractions (0.1 + 0.2 is 0.3). */
const tidy = (n: number): number =>
  Number.isFinite(n)
    ? Math.min(maxVariableNumber, Math.max(-maxVariableNumber, Math.round(n * 1e9) / 1e9))
    : n > 0
      ? maxVariableNumber
      : -maxVariableNumber

const numberOf = (value: VariableValue | undefined): number => {
  if (Predicate.isNumber(value)) return value
  const n = value === undefined || value.trim() === "" ? 0 : Number(value)
  return Number.isFinite(n) ? n : 0
}

/**
 * An answer, hidden value or variable read as a number: a number as it is, a
 * numeric text as its number, yes or no as 1 or 0, anything else (no answer,
 * a choice's words, a list) as 0.
 */
const numberOfAnswer = (value: unknown): number => {
  if (Predicate.isNumber(value)) return Number.isFinite(value) ? value : 0
  if (Predicate.isBoolean(value)) return value ? 1 : 0
  // An answer whose type says how it compares, read as its one number (an amount of money).
  const typed = Predicate.isObject(value) && !Array.isArray(value) ? comparableTexts(value) : undefined
  if (typed?.length === 1) return numberOfAnswer(typed[0])
  if (!Predicate.isString(value) || value.trim() === "") return 0
  const n = Number(value.trim())
  return Number.isFinite(n) ? n : 0
}

/** A calculation's number: given, or read from the form as it is filled ({@link AnswerOperand}). */
const operandNumber = (operand: number | AnswerOperand, facts: Facts): number =>
  Predicate.isNumber(operand) ? operand : numberOfAnswer(lookup(operand.field, facts))

/** One calculation applied to the variables; `facts` gives the values it may read. */
const apply = (calculation: Calculation, variables: Record<string, VariableValue>, facts: Facts) => {
  const name = calculation.variable
  const now = variables[name]
  const set = calculation.set
  if (set !== undefined) {
    if (Predicate.isNumber(set)) variables[name] = tidy(set)
    else if (Predicate.isString(set)) variables[name] = set.slice(0, maxVariableText)
    // A value of the form: as a text for a text variable (its texts joined), else as a number.
    else if (Predicate.isString(now))
      variables[name] = textsOf(lookup(set.field, facts)).join(", ").slice(0, maxVariableText)
    else variables[name] = tidy(numberOfAnswer(lookup(set.field, facts)))
  } else if (calculation.add !== undefined)
    variables[name] = tidy(numberOf(now) + operandNumber(calculation.add, facts))
  else if (calculation.subtract !== undefined)
    variables[name] = tidy(numberOf(now) - operandNumber(calculation.subtract, facts))
  else if (calculation.multiply !== undefined)
    variables[name] = tidy(numberOf(now) * operandNumber(calculation.multiply, facts))
}

/** The points an answer gets from its question's `options.points` (a choice, or each of several). */
const pointsOf = (field: LogicField, value: unknown): number => {
  const points = pointsTable(field.options)
  if (points === undefined) return 0
  const chosen = Array.isArray(value) ? value : [value]
  let sum = 0
  for (const choice of chosen) {
    if (Predicate.isString(choice) && Object.hasOwn(points, choice)) sum += points[choice]!
  }
  return sum
}

/** Whether a question's choices give points (so that the form keeps a `score`). */
export const givesPoints = (field: Pick<LogicField, "options">): boolean => pointsTable(field.options) !== undefined

/**
 * Walks through the form given the answers, hidden values and the
 * variables' starting values: which questions a respondent goes through,
 * in order, what the variables hold after them, and the ending a jump
 * chose. A question on the path first adds the points of its answer to
 * `score`, then runs its `calculate` rules in order, then its `logic`; its
 * conditions (and those of later questions) read the variables as they are
 * at that point. On a page of several questions (`Pages.ts`) the first rule
 * that holds among them is taken once the page ends. Later answers never
 * change the path before them. Total even
 * for logic that was never validated: a jump that does not go forward is
 * ignored, so the walk always ends.
 *
 * @example
 * ```ts
 * const fields = [
 *   { id: 1, position: 0, options: { points: { Paris: 1 } } },
 *   { id: 2, position: 1, logic: [{ if: { field: "var:score", lessThan: 1 }, then: { jumpTo: "ending:retry" } }] }
 * ]
 * walk(fields, { values: { "1": "Lyon" }, hidden: {} }) // { fields: [1, 2], variables: { score: 0 }, ending: "retry" }
 * ```
 */
export const walk = <F extends LogicField>(fields: ReadonlyArray<F>, facts: Facts): Walk<F> => {
  const list = ordered(fields)
  const indexOf = new Map(list.map((f, i) => [f.id, i]))
  const variables: Record<string, VariableValue> = { ...facts.variables }
  if (!Object.hasOwn(variables, scoreVariable) && list.some(givesPoints)) variables[scoreVariable] = 0
  const live: Facts = { values: facts.values, hidden: facts.hidden, variables }
  const visited: Array<F> = []
  const reached = new Map<number, Readonly<Record<string, VariableValue>>>()
  let ending: string | undefined
  // Where each page starts; a jump found on a page waits for the page's end (its questions are sent together).
  const pageStart = new Map<string, number>()
  list.forEach((f, at) => {
    if (!pageStart.has(pageKeyOf(f))) pageStart.set(pageKeyOf(f), at)
  })
  let pending: LogicRule["then"]["jumpTo"] | undefined
  let i = 0
  while (i < list.length) {
    const field = list[i]!
    if (field.showIf === undefined || evaluate(field.showIf, live)) {
      visited.push(field)
      reached.set(field.id, { ...variables })
      if (givesPoints(field)) {
        const key = String(field.id)
        const value = Object.hasOwn(facts.values, key) ? facts.values[key] : undefined
        variables[scoreVariable] = tidy(numberOf(variables[scoreVariable]) + pointsOf(field, value))
      }
      for (const calculation of field.calculate ?? []) {
        if (calculation.if === undefined || evaluate(calculation.if, live)) apply(calculation, variables, live)
      }
      pending ??= (field.logic ?? []).find((r) => evaluate(r.if, live))?.then.jumpTo
    }
    const pageEnds = i + 1 >= list.length || pageKeyOf(list[i + 1]!) !== pageKeyOf(field)
    if (!pageEnds || pending === undefined) {
      i++
      continue
    }
    const jump = pending
    pending = undefined
    if (jump === "end") break
    if (Predicate.isString(jump) && jump.startsWith(endingPrefix)) {
      ending = jump.slice(endingPrefix.length)
      break
    }
    const target = Predicate.isNumber(jump)
      ? indexOf.get(jump)
      : jump.startsWith(pagePrefix)
        ? pageStart.get(jump.slice(pagePrefix.length))
        : undefined
    i = target !== undefined && target > i ? target : i + 1
  }
  return { fields: visited, variables, ending, reached }
}

/**
 * The questions a respondent goes through, in order, given the answers,
 * hidden values and variables ({@link walk}'s questions).
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
export const path = <F extends LogicField>(fields: ReadonlyArray<F>, facts: Facts): ReadonlyArray<F> =>
  walk(fields, facts).fields

/**
 * The values the form's variables start with: each declared one at its
 * `initial` value (or 0, or "" for a text).
 *
 * @example
 * ```ts
 * startingValues([{ name: "price", type: "number", initial: 10 }, { name: "team", type: "text" }])
 * // { price: 10, team: "" }
 * ```
 */
export const startingValues = (
  variables: ReadonlyArray<Variable> | undefined
): Readonly<Record<string, VariableValue>> => {
  const out: Record<string, VariableValue> = {}
  for (const v of variables ?? []) out[v.name] = v.initial ?? (v.type === "number" ? 0 : "")
  return out
}

/**
 * The variables a form keeps on each response: the declared ones, and
 * `score` when a question's choices give points or it is calculated.
 *
 * @example
 * ```ts
 * keptVariables([], [{ id: 1, position: 0, options: { points: { A: 1 } } }]) // ["score"]
 * ```
 */
export const keptVariables = (
  variables: ReadonlyArray<Variable> | undefined,
  fields: ReadonlyArray<LogicField>
): ReadonlyArray<string> => {
  const names = (variables ?? []).map((v) => v.name)
  if (
    !names.includes(scoreVariable) &&
    fields.some((f) => givesPoints(f) || (f.calculate ?? []).some((c) => c.variable === scoreVariable))
  ) {
    names.push(scoreVariable)
  }
  return names
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
export const next = <F extends LogicField>(
  fields: ReadonlyArray<F>,
  facts: Facts,
  currentId: number
): F | undefined => {
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
 * Whether any question has logic or a condition: without, the path is every
 * question whatever the answers.
 *
 * @example
 * ```ts
 * branches([{ id: 1, position: 0 }]) // false
 * ```
 */
export const branches = (fields: ReadonlyArray<LogicField>): boolean =>
  fields.some(
    (field) =>
      (field.logic !== undefined && field.logic.length > 0) ||
      field.showIf !== undefined ||
      (field.calculate !== undefined && field.calculate.length > 0) ||
      givesPoints(field)
  )

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
): {
  readonly fields: ReadonlyArray<F>
  readonly values: Record<string, unknown>
  readonly variables: Readonly<Record<string, VariableValue>>
  readonly ending: string | undefined
} => {
  const walked = walk(fields, facts)
  const route = walked.fields
  const kept = new Set(route.map((f) => String(f.id)))
  const known = new Set(fields.map((f) => String(f.id)))
  const values: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(facts.values)) {
    if (kept.has(key) || !known.has(key)) values[key] = value
  }
  return { fields: route, values, variables: walked.variables, ending: walked.ending }
}

// ---------------------------------------------------------------------------
// Recall
// ---------------------------------------------------------------------------

const RECALL =
  /\{\{\s*(field:(\d{1,10})|hidden:([A-Za-z_][A-Za-z0-9_-]{0,39})|var:([A-Za-z_][A-Za-z0-9_-]{0,39}))\s*\}\}/g

/**
 * Replaces `{{field:<id>}}` with the answer to that question (as `format`
 * writes it), `{{hidden:<name>}}` with the hidden value and `{{var:<name>}}`
 * with the variable's value; a missing answer or value becomes `""`. Each
 * replacement goes through `encode` (`encodeURIComponent` in a URL).
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
  format: (field: Field, value: AnswerValue) => string,
  encode: (text: string) => string = (t) => t
): string =>
  text.replace(
    RECALL,
    (_match, _ref: string, id: string | undefined, name: string | undefined, variable: string | undefined) => {
      if (variable !== undefined) {
        const value = lookup(`${variablePrefix}${variable}`, facts)
        return Predicate.isNumber(value) || Predicate.isString(value) ? encode(String(value)) : ""
      }
      if (name !== undefined) return Object.hasOwn(facts.hidden, name) ? encode(facts.hidden[name]!) : ""
      const field = fields.find((f) => String(f.id) === id)
      const value = id === undefined ? undefined : lookup(Number(id), facts)
      return field === undefined || value === undefined || value === null
        ? ""
        : encode(format(field, value as AnswerValue))
    }
  )

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
  | "no-unknown-variable"
  | "variable-type"
  | "no-unknown-ending"
  | "no-unknown-page"
  | "page-in-one-piece"
  | "own-page"
  | "no-empty-page"
  | "no-same-page-condition"
  | "no-jump-into-page"

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
  readonly calculate?: Calculations | null | undefined
  /** Only `points` is read (a question whose choices give points keeps the variable `score`). */
  readonly options?: object | null | undefined
  /** The page the question is on (`Pages.ts`). */
  readonly page?: string | null | undefined
  /** The question's type: a file or signature question is a page of its own. */
  readonly type?: string | undefined
}

/** What else of the form its logic may name: its variables, its endings and its pages (`settings`). */
export interface LogicContext {
  readonly variables?: ReadonlyArray<Variable> | undefined
  readonly endings?: ReadonlyArray<{ readonly key: string; readonly when?: Condition | undefined }> | undefined
  readonly pages?: ReadonlyArray<{ readonly key: string }> | undefined
}

/** Whether a question cannot share a page: its answer is a file sent ahead of the step (an upload). */
const ownPage = (type: string | undefined): boolean => typeNamed(type)?.upload !== undefined

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
 * existing, later question, `"end"` or one of the form's endings; the jumps
 * have no cycle. A variable read (`"var:<name>"`) or calculated is one the
 * form declares (`score` is declared by choices with points), and a
 * calculation fits its type (`add`, `subtract` and `multiply` change
 * numbers). An ending's `when` reads questions by id (any of them), hidden
 * fields and variables. Questions
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
  hiddenFields: ReadonlyArray<HiddenField>,
  context: LogicContext = {}
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
  const describe = (ref: number | string) => (Predicate.isNumber(ref) ? `question ${ref}` : `question "${ref}"`)
  const hiddenNames = new Set(hiddenFields.map((h) => h.name))
  const types = new Map((context.variables ?? []).map((v) => [v.name, v.type]))
  if (!types.has(scoreVariable) && inputs.some(givesPoints)) {
    types.set(scoreVariable, "number")
  }
  const endingKeys = new Set((context.endings ?? []).map((e) => e.key))
  const unknownVariable = (name: string, where: string) =>
    issues.push({
      path: where,
      rule: "no-unknown-variable",
      message: `${where}: "${name}" is not a variable of this form (declare it in settings.variables)`
    })
  const checkCondition = (condition: Condition, at: number, where: string, own: boolean, what = "a condition") => {
    for (const ref of refsOf(condition)) {
      if (Predicate.isString(ref) && ref.startsWith(variablePrefix)) {
        const name = ref.slice(variablePrefix.length)
        if (!types.has(name)) unknownVariable(name, where)
        continue
      }
      if (at === -1 && Predicate.isString(ref) && ref.startsWith(refPrefix)) {
        issues.push({
          path: where,
          rule: "no-unknown-question",
          message: `${where}: an ending's condition names questions by their id, not by "${ref}"`
        })
        continue
      }
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
      } else if (at !== -1 && (target > at || (target === at && !own))) {
        issues.push({
          path: where,
          rule: "no-later-question",
          message: `${where}: ${what} may only look at earlier answers, and ${describe(ref)} does not come earlier`
        })
      }
    }
  }
  // Pages: each question's page (a question without one is a page of its own), where each page starts and ends.
  const declaredPages = new Set((context.pages ?? []).map((p) => p.key))
  const pageAt = inputs.map((input, at) => input.page ?? `#${at}`)
  const pageFirst = new Map<string, number>()
  const pageLast = new Map<string, number>()
  pageAt.forEach((key, at) => {
    if (!pageFirst.has(key)) pageFirst.set(key, at)
    pageLast.set(key, at)
  })
  const shared = (at: number) => pageFirst.get(pageAt[at]!) !== pageLast.get(pageAt[at]!)
  inputs.forEach((input, at) => {
    const key = input.page
    if (key === undefined || key === null) return
    const where = `fields.${at}.page`
    if (!declaredPages.has(key)) {
      issues.push({
        path: where,
        rule: "no-unknown-page",
        message: `${where}: "${key}" is not a page of this form (settings.pages)`
      })
    }
    if (at > 0 && pageAt[at - 1] !== key && pageFirst.get(key)! < at) {
      issues.push({
        path: where,
        rule: "page-in-one-piece",
        message: `${where}: the questions of page "${key}" must follow one another, and question ${at} is between them`
      })
    }
    if (ownPage(input.type) && shared(at)) {
      issues.push({
        path: where,
        rule: "own-page",
        message: `${where}: a ${input.type} question is a page of its own (its answer is sent ahead of the page)`
      })
    }
  })
  ;(context.pages ?? []).forEach((page, p) => {
    if (!pageFirst.has(page.key)) {
      issues.push({
        path: `settings.pages.${p}`,
        rule: "no-empty-page",
        message: `settings.pages.${p}: page "${page.key}" has no questions (give questions "page": "${page.key}")`
      })
    }
  })
  const edges = new Map<number, Array<number>>()
  inputs.forEach((input, at) => {
    const base = `fields.${at}`
    if (input.showIf !== undefined && input.showIf !== null) {
      checkCondition(input.showIf, at, `${base}.showIf`, false)
      // The questions of a page are shown together: whether one is shown cannot wait for another's answer.
      for (const ref of refsOf(input.showIf)) {
        const target = indexOf.get(ref)
        if (target !== undefined && target < at && pageAt[target] === pageAt[at]) {
          issues.push({
            path: `${base}.showIf`,
            rule: "no-same-page-condition",
            message: `${base}.showIf: ${describe(ref)} is on the same page, whose answers are sent together; show a question by the answers of earlier pages`
          })
        }
      }
    }
    ;(input.calculate ?? []).forEach((calculation, c) => {
      const where = `${base}.calculate.${c}`
      if (calculation.if !== undefined) checkCondition(calculation.if, at, `${where}.if`, true)
      // A value read from the form is checked as a condition's question is: known, and this one or earlier.
      for (const op of calculationOperators) {
        const operand = calculation[op]
        if (Predicate.isObject(operand)) {
          checkCondition({ field: operand.field, isNotEmpty: true }, at, `${where}.${op}`, true, "a calculation")
        }
      }
      const type = types.get(calculation.variable)
      if (type === undefined) return unknownVariable(calculation.variable, `${where}.variable`)
      const text = calculation.set !== undefined && Predicate.isString(calculation.set)
      // Set from the form, any variable takes the value (read as its type).
      if (Predicate.isObject(calculation.set)) return
      if (type === "number" ? text : !text) {
        issues.push({
          path: where,
          rule: "variable-type",
          message:
            type === "number"
              ? `${where}: "${calculation.variable}" is a number variable, so it is set to a number`
              : `${where}: "${calculation.variable}" is a text variable, so it can only be set to a text`
        })
      }
    })
    ;(input.logic ?? []).forEach((rule, r) => {
      checkCondition(rule.if, at, `${base}.logic.${r}.if`, true)
      const jump = rule.then.jumpTo
      if (jump === "end") return
      const where = `${base}.logic.${r}.then.jumpTo`
      if (Predicate.isString(jump) && jump.startsWith(endingPrefix)) {
        const key = jump.slice(endingPrefix.length)
        if (!endingKeys.has(key)) {
          issues.push({
            path: where,
            rule: "no-unknown-ending",
            message: `${where}: "${key}" is not an ending of this form (settings.endings)`
          })
        }
        return
      }
      const toPage = Predicate.isString(jump) && jump.startsWith(pagePrefix) ? jump.slice(pagePrefix.length) : undefined
      if (toPage !== undefined && !declaredPages.has(toPage)) {
        issues.push({
          path: where,
          rule: "no-unknown-page",
          message: `${where}: "${toPage}" is not a page of this form (settings.pages)`
        })
        return
      }
      // A page without questions is refused above.
      if (toPage !== undefined && !pageFirst.has(toPage)) return
      const target = toPage !== undefined ? pageFirst.get(toPage) : indexOf.get(jump)
      if (target !== undefined && toPage === undefined && shared(target) && pageFirst.get(pageAt[target]!) !== target) {
        issues.push({
          path: where,
          rule: "no-jump-into-page",
          message: `${where}: ${describe(jump)} is inside page "${pageAt[target]}": jump to the page ("page:${pageAt[target]}")`
        })
      } else if (target !== undefined && target !== at && pageAt[target] === pageAt[at]) {
        issues.push({
          path: where,
          rule: "no-cycle",
          message: `${where}: ${toPage !== undefined ? `page "${toPage}"` : describe(jump)} is this question's own page; jumps go to a later page`
        })
      } else if (target === undefined) {
        issues.push({
          path: where,
          rule: "no-unknown-question",
          message: `${where}: ${describe(jump)} is not a question of this form`
        })
      } else if (target === at) {
        issues.push({
          path: where,
          rule: "no-cycle",
          message: `${where}: ${describe(jump)} jumps to itself, which would never end`
        })
      } else if (target < at) {
        issues.push({
          path: where,
          rule: "no-backward-jump",
          message: `${where}: ${toPage !== undefined ? `page "${toPage}"` : describe(jump)} comes earlier; jumps only go forward`
        })
      } else {
        const list = edges.get(at) ?? []
        list.push(target)
        edges.set(at, list)
      }
    })
  })
  ;(context.endings ?? []).forEach((ending, e) => {
    if (ending.when !== undefined) checkCondition(ending.when, -1, `settings.endings.${e}.when`, false)
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
    then: { jumpTo: resolveRef(rule.then.jumpTo, ids) as LogicRule["then"]["jumpTo"] }
  }))

/** {@link resolveRefs} for calculations. */
export const resolveCalculations = (calculations: Calculations, ids: ReadonlyMap<string, number>): Calculations =>
  calculations.map((c) => {
    const resolved: Record<string, unknown> = { ...c }
    if (c.if !== undefined) resolved.if = resolveCondition(c.if, ids)
    for (const op of calculationOperators) {
      const operand = c[op]
      if (Predicate.isObject(operand)) resolved[op] = { field: resolveRef(operand.field, ids) }
    }
    return resolved as Calculation
  })

/** {@link resolveRefs} for one condition. */
export const resolveCondition = (condition: Condition, ids: ReadonlyMap<string, number>): Condition =>
  "and" in condition
    ? { and: condition.and.map((c) => resolveCondition(c, ids)) }
    : "or" in condition
      ? { or: condition.or.map((c) => resolveCondition(c, ids)) }
      : { ...condition, field: resolveRef(condition.field, ids) as FieldRef }

const resolveRef = (ref: number | string, ids: ReadonlyMap<string, number>): number | string =>
  Predicate.isString(ref) && ref.startsWith(refPrefix) ? (ids.get(ref.slice(refPrefix.length)) ?? ref) : ref

/** Whether rules, a condition or calculations refer to a question by `"ref:<ref>"`. */
export const hasRefs = (
  logic: Logic | undefined,
  showIf: Condition | null | undefined,
  calculate?: Calculations | undefined
): boolean => JSON.stringify([logic ?? [], showIf ?? null, calculate ?? []]).includes(`"${refPrefix}`)
