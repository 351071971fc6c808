/**
 * The `number` question type: a finite number, optionally from `min` to `max`
 * and on a `step` (answers are `min`, or 0, plus a multiple of it).
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { strictStruct } from "../../kernel/index.ts"
import { bad, isOnStep, offStep, ok } from "./AnswerChecks.ts"
import { TextOptionFields } from "./OptionFields.ts"
import { inputBox } from "./PageControls.ts"
import { postedNumber } from "./PostedAnswers.ts"
import { type AnswerControl, questionType } from "./QuestionType.ts"
import { numberColumn } from "./SheetColumns.ts"
import { numberKeys } from "./TallyKeys.ts"

/**
 * Options of a `number` question: optional finite `min`, `max` (min ≤ max)
 * and `step` (> 0; answers must be `min` (or 0) plus a multiple of it).
 * Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(NumberOptions)({ min: 0, max: 10, step: 0.5 })
 * ```
 */
export const NumberOptions = strictStruct({
  ...TextOptionFields,
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite),
  step: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0, { message: "step must be greater than 0" })))
}).check(
  Schema.makeFilter(
    (o) =>
      o.min !== undefined && o.max !== undefined && o.min > o.max
        ? { path: ["max"], issue: "max must be greater than or equal to min" }
        : undefined,
    { expected: "min ≤ max" }
  )
)

/** Decoded {@link NumberOptions}. @example `const o: NumberOptions = { min: 1 }` */
export type NumberOptions = typeof NumberOptions.Type

/** The operators of numbers: equal, compared, given or not. */
export const numberOperators = ["equals", "notEquals", "greaterThan", "lessThan", "isEmpty", "isNotEmpty"] as const

/** The input of a number (its page view draws it). */
const control = { kind: "line", type: "number", numeric: true } as const satisfies AnswerControl

/** A number: an amount, an age, a count. */
export const NumberType = questionType({
  type: "number",
  label: "Number",
  options: NumberOptions,
  check: (field, value, q) => {
    const options = field.options
    if (!Predicate.isNumber(value) || !Number.isFinite(value)) return bad("answer.number", { q })
    const min = options?.min
    const max = options?.max
    const step = options?.step
    if (min !== undefined && value < min) return bad("answer.atLeast", { q, min })
    if (max !== undefined && value > max) return bad("answer.atMost", { q, max })
    if (step !== undefined && step > 0 && !isOnStep(value, min ?? 0, step)) return offStep(q, min ?? 0, step)
    return ok(value)
  },
  parse: (_field, answers) => postedNumber(answers),
  control,
  view: (field, view) => inputBox(field, view, control),
  sheet: (_field, key, shown) => [numberColumn(key, shown)],
  summary: { kind: "numbers" },
  tallyKeys: numberKeys,
  operators: numberOperators
})
