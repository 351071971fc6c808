/**
 * Form logic: hidden fields, conditions, jumps, `showIf`, variables and
 * answer recall. Its parts live beside it — the language as Schemas
 * (`LogicRules.ts`), conditions (`Conditions.ts`), the path through a form
 * given the answers so far (`FormPath.ts`), the checks of saved logic
 * (`LogicChecks.ts`) — and are gathered here, with the recall of answers into
 * texts. The public page (on every step, server-side, with or without
 * JavaScript), the API submission, the MCP tools and the generator all use
 * these functions.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import type { Field } from "./Fields.ts"
import type { AnswerValue } from "./Answers.ts"
import { variablePrefix } from "./LogicRules.ts"

import { type Facts, lookup } from "./Conditions.ts"

export * from "./LogicRules.ts"
export { evaluate, type Facts, type VariableValue } from "./Conditions.ts"
export * from "./FormPath.ts"
export * from "./LogicChecks.ts"

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
