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
import {
  type Condition,
  type FieldRef,
  type HiddenField,
  hiddenPrefix,
  type Logic,
  refPrefix,
  type Scalar
} from "./LogicRules.ts"

export * from "./LogicRules.ts"

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

/** The comparable text of one answer value (a file by its name, a contact or address by its parts), if it has one. */
const textOf = (value: unknown): ReadonlyArray<string> => {
  if (Predicate.isString(value)) return value.trim() === "" ? [] : [value.trim()]
  if (Predicate.isNumber(value)) return [String(value)]
  if (Predicate.isBoolean(value)) return [value ? "true" : "false"]
  if (!Predicate.isObject(value) || Array.isArray(value)) return []
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
  fields.some((field) => (field.logic !== undefined && field.logic.length > 0) || field.showIf !== undefined)

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
  const describe = (ref: number | string) => (Predicate.isNumber(ref) ? `question ${ref}` : `question "${ref}"`)
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
          message: `${where}: ${describe(jump)} comes earlier; jumps only go forward`
        })
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
  Predicate.isString(ref) && ref.startsWith(refPrefix) ? (ids.get(ref.slice(refPrefix.length)) ?? ref) : ref

/** Whether rules or a condition refer to a question by `"ref:<ref>"`. */
export const hasRefs = (logic: Logic | undefined, showIf: Condition | null | undefined): boolean =>
  JSON.stringify([logic ?? [], showIf ?? null]).includes(`"${refPrefix}`)
