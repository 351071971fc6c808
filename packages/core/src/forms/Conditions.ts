/**
 * The conditions of form logic: what they read (answers, hidden values and
 * variables), an answer's comparable texts, and whether a condition holds.
 * The path through a form (`FormPath.ts`), the checks of saved logic and the
 * endings read them; `FormLogic.ts` gathers them all.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import { comparableTexts } from "./questions/QuestionTypes.ts"
import { type Condition, type FieldRef, hiddenPrefix, type Scalar, variablePrefix } from "./LogicRules.ts"

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

export const lookup = (ref: FieldRef, facts: Facts): unknown => {
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
export const textsOf = (value: unknown): ReadonlyArray<string> =>
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
