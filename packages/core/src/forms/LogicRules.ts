/**
 * The language of form logic, as Schemas: hidden fields and their values,
 * references to questions (by id, by `ref` before saving, or to a hidden
 * field), conditions (simple, `and`/`or` groups nesting at most
 * {@link maxConditionDepth} deep) and the `logic` rules that jump after a
 * question. `FormLogic.ts` evaluates them; `Fields.ts` puts them on questions.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/**
 * A check that the items of a list have distinct keys (names of hidden
 * fields, variables, endings); the message names the first repeated one:
 * `hidden field "ref" is listed twice`.
 *
 * @example
 * ```ts
 * Schema.Array(Ending).check(isUniqueBy((e: Ending) => e.key, "ending"))
 * ```
 */
export const isUniqueBy = <A>(keyOf: (item: A) => string, what: string) =>
  Schema.makeFilter((list: ReadonlyArray<A>) => {
    const keys = list.map(keyOf)
    const repeated = keys.find((key, index) => keys.indexOf(key) !== index)
    return repeated === undefined || `${what} "${repeated}" is listed twice`
  })

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
  isUniqueBy((h: HiddenField) => h.name, "hidden field")
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
    Schema.isMaxLength(maxHiddenValueLength, {
      message: `a hidden value must be at most ${maxHiddenValueLength} characters`
    })
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
  Schema.isPattern(/^ref:[A-Za-z_][A-Za-z0-9_-]{0,39}$/, { message: 'a question reference is "ref:<ref>"' })
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
    Schema.isPattern(/^(?:hidden|ref|var):[A-Za-z_][A-Za-z0-9_-]{0,39}$/, {
      message: 'a reference is a question id, "ref:<question ref>", "hidden:<name>" or "var:<variable>"'
    })
  )
]).annotate({
  description:
    'A question id, "hidden:<name>" for a hidden field, "var:<name>" for a variable (its value at that point of the ' +
    'form), or "ref:<ref>" for a question saved in the same request'
})
export type FieldRef = typeof FieldRef.Type

const Scalar = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean])
/** A value a condition compares with: text, a number or a boolean. */
export type Scalar = typeof Scalar.Type

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
export type Operator = (typeof operators)[number]

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
    return (
      used.length === 1 ||
      (used.length === 0
        ? `a condition needs one operator: ${operators.join(", ")}`
        : `a condition takes exactly one operator, not ${used.join(" and ")}`)
    )
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
    description: `{"field": <question id> | "hidden:<name>", "<operator>": value}, or {"and": [...]} / {"or": [...]} (groups nest at most ${maxConditionDepth} deep)`
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

/** The prefix of a jump to one of the form's pages: `"page:<key>"` (see `Pages.ts`). */
export const pagePrefix = "page:"

/**
 * A page's key: a letter or `_`, then at most 39 letters, digits, `_` or `-`.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(PageKey)("contact")
 * ```
 */
export const PageKey = Schema.String.check(
  Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_-]{0,39}$/, {
    message: "a page's key starts with a letter or _ and has at most 40 letters, digits, _ or -"
  })
).annotate({ identifier: "PageKey" })

const PageJump = Schema.String.check(
  Schema.isPattern(/^page:[A-Za-z_][A-Za-z0-9_-]{0,39}$/, { message: 'a jump to a page is "page:<key>"' })
)

/** The prefix of a jump to one of the form's endings: `"ending:<key>"`. */
export const endingPrefix = "ending:"

const EndingJump = Schema.String.check(
  Schema.isPattern(/^ending:[A-Za-z_][A-Za-z0-9_-]{0,39}$/, { message: 'a jump to an ending is "ending:<key>"' })
)

/**
 * One rule of a question's logic: after the question is answered, when `if`
 * holds, go to `jumpTo` (a later question's id, `"page:<key>"` for a later
 * page, `"end"` to finish, or `"ending:<key>"` to finish with that one of the
 * form's endings). On a page of several questions, the jump is taken once the
 * page is sent.
 *
 * @example
 * ```ts
 * const r: LogicRule = { if: { field: 12, equals: "Free" }, then: { jumpTo: "end" } }
 * ```
 */
export const LogicRule = Schema.Struct({
  if: Condition,
  then: Schema.Struct({
    jumpTo: Schema.Union([Schema.Int, Schema.Literal("end"), QuestionRefText, EndingJump, PageJump]).annotate({
      description:
        'The id of a later question (or "ref:<ref>" of one saved in the same request), "page:<key>" for a later ' +
        'page (settings.pages), "end", or "ending:<key>" to finish with that ending of the form (settings.endings)'
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
// Variables and calculations
// ---------------------------------------------------------------------------

/** The prefix of variable references (`"var:score"`) and of their keys in stored values and flat answers. */
export const variablePrefix = "var:"

/**
 * The key of a variable's final value in a response's `values` and in flat
 * answers: `var:<name>`.
 *
 * @example
 * ```ts
 * variableKey("score") // "var:score"
 * ```
 */
export const variableKey = (name: string): string => `${variablePrefix}${name}`

/** The variable that the points of choices (`options.points`) add to. */
export const scoreVariable = "score"

/** The longest text a text variable keeps (longer results are cut). */
export const maxVariableText = 1000

const VariableText = Schema.String.check(
  Schema.isMaxLength(maxVariableText, { message: `a variable's text must be at most ${maxVariableText} characters` })
)

/** The largest size of a number a variable or a calculation may name. */
export const maxVariableNumber = 1e12

const VariableNumber = Schema.Finite.check(
  Schema.isBetween(
    { minimum: -maxVariableNumber, maximum: maxVariableNumber },
    { message: `a variable's number must be from -${maxVariableNumber} to ${maxVariableNumber}` }
  )
)

/**
 * A variable of a form (`settings.variables`): a number (starting at
 * `initial`, or 0) or a text (starting at `initial`, or ""), changed by the
 * questions' `calculate` rules as the respondent goes through the form, read
 * by conditions as `"var:<name>"`, recalled as `{{var:<name>}}`, and stored
 * on the response as `var:<name>`.
 *
 * @example
 * ```ts
 * const v: Variable = { name: "price", type: "number", initial: 10 }
 * ```
 */
export const Variable = Schema.Struct({
  name: HiddenFieldName,
  type: Schema.Literals(["number", "text"]),
  initial: Schema.optionalKey(Schema.Union([VariableNumber, VariableText]))
})
  .check(
    Schema.makeFilter((v) =>
      v.initial === undefined || typeof v.initial === (v.type === "number" ? "number" : "string")
        ? undefined
        : `variable "${v.name}" is a ${v.type}, so its initial value must be ${v.type === "number" ? "a number" : "a text"}`
    )
  )
  .annotate({ identifier: "Variable" })
export type Variable = typeof Variable.Type

/**
 * A form's variables: at most 20, names unique.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Variables)([{ name: "score", type: "number" }])
 * ```
 */
export const Variables = Schema.Array(Variable).check(
  Schema.isMaxLength(20, { message: "a form has at most 20 variables" }),
  isUniqueBy((v: Variable) => v.name, "variable")
)

/**
 * A calculation's value taken from the form as the respondent fills it: a
 * question's answer (its id, or `"ref:<ref>"` in the request that saves
 * it), a hidden field (`"hidden:<name>"`) or another variable
 * (`"var:<name>"`), as it is when the calculation runs. A number reads an
 * answer as a number (a number question, a rating, a numeric text; anything
 * else, or no answer, is 0); `set` on a text variable reads it as text.
 *
 * @example
 * ```ts
 * const c: Calculation = { variable: "total", multiply: { field: 14 } } // price × the quantity asked in question 14
 * ```
 */
export const AnswerOperand = Schema.Struct({ field: FieldRef }).annotate({
  identifier: "AnswerOperand",
  description: "The value of a question's answer, a hidden field or a variable when the calculation runs."
})
export type AnswerOperand = typeof AnswerOperand.Type

/** What `add`, `subtract` and `multiply` take: a number, or a value of the form read as a number. */
const Operand = Schema.Union([VariableNumber, AnswerOperand])

/** The operations of a calculation; exactly one per calculation. */
export const calculationOperators = ["add", "subtract", "multiply", "set"] as const

/**
 * One calculation of a question (`calculate`): after the question is
 * answered, when `if` holds (or always, without `if`), change `variable`:
 * `add`, `subtract` or `multiply` it by a number, or `set` it to a number
 * or a text; each may instead take `{ "field": … }`, the value of an answer,
 * hidden field or variable ({@link AnswerOperand}: price × quantity).
 *
 * @example
 * ```ts
 * const c: Calculation = { if: { field: 12, equals: "Paris" }, variable: "score", add: 1 }
 * ```
 */
export const Calculation = Schema.Struct({
  if: Schema.optionalKey(Condition),
  variable: HiddenFieldName,
  add: Schema.optionalKey(Operand),
  subtract: Schema.optionalKey(Operand),
  multiply: Schema.optionalKey(Operand),
  set: Schema.optionalKey(Schema.Union([VariableNumber, VariableText, AnswerOperand]))
})
  .check(
    Schema.makeFilter((c) => {
      const used = calculationOperators.filter((op) => c[op] !== undefined)
      return (
        used.length === 1 ||
        (used.length === 0
          ? `a calculation needs one operation: ${calculationOperators.join(", ")}`
          : `a calculation takes exactly one operation, not ${used.join(" and ")}`)
      )
    })
  )
  .annotate({ identifier: "Calculation" })
export type Calculation = typeof Calculation.Type

/**
 * A question's calculations, run in order after it is answered (at most 50).
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Calculations)([{ variable: "score", add: 2 }])
 * ```
 */
export const Calculations = Schema.Array(Calculation).check(
  Schema.isMaxLength(50, { message: "a question has at most 50 calculations" })
)
export type Calculations = typeof Calculations.Type
