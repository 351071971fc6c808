/**
 * The path through a form: the one engine that says which questions a
 * respondent goes through given the answers so far, with the points and
 * calculations that change the form's variables on the way, and the ending a
 * jump chose. The public page (on every step, server-side, with or without
 * JavaScript), the API submission, the MCP tools and the generator all use it
 * (through `FormLogic.ts`).
 *
 * A question whose `showIf` is false is skipped; after a question is answered
 * its `logic` rules are tried in order and the first whose `if` holds decides
 * where to go (`jumpTo` a later question, or `"end"`); with no matching rule
 * the next question follows. Saved logic never jumps backwards and
 * conditions only look at earlier answers (and the question's own answer for
 * its `logic`), so every path ends.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import type { Field } from "./Fields.ts"
import { pageKeyOf } from "./Pages.ts"
import { comparableTexts } from "./questions/QuestionTypes.ts"
import {
  type AnswerOperand,
  type Calculation,
  type Calculations,
  type Condition,
  endingPrefix,
  type Logic,
  type LogicRule,
  maxVariableNumber,
  maxVariableText,
  pagePrefix,
  scoreVariable,
  type Variable
} from "./LogicRules.ts"

import { evaluate, type Facts, lookup, textsOf, type VariableValue } from "./Conditions.ts"

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
