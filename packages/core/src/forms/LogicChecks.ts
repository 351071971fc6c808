/**
 * The checks of saved form logic (references, jumps, pages, variables; one
 * issue per problem, naming its rule and path), and the replacement of the
 * `"ref:<ref>"` references of questions saved in the same request by their
 * ids. Exported through `FormLogic.ts`.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import { typeNamed } from "./questions/QuestionTypes.ts"
import {
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
  pagePrefix,
  refPrefix,
  scoreVariable,
  type Variable,
  variablePrefix
} from "./LogicRules.ts"

import { givesPoints } from "./FormPath.ts"

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
