/**
 * The option fields several question types take, as clients send them: a
 * placeholder and help text (every type), the choices of a list (select,
 * checkboxes, ranking) with their shuffled order, and the whole numbers the
 * options count with. The options of a plain type ({@link BaseOptions}) are
 * only the first two. Each type's module builds its options Schema from these
 * and its own fields.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { strictStruct } from "../../kernel/index.ts"

/** `placeholder` (≤ 200 characters) and `help` (≤ 2000 characters): options of every type. */
export const TextOptionFields = {
  placeholder: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(200, { message: "placeholder must be at most 200 characters" }))
  ),
  help: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(2000, { message: "help must be at most 2000 characters" }))
  )
}

const Choice = Schema.Trim.check(
  Schema.isNonEmpty({ message: "a choice must not be empty" }),
  Schema.isMaxLength(200, { message: "a choice must be at most 200 characters" })
)

/** A list's choices: 1..200 distinct, trimmed, non-empty strings of ≤ 200 characters. */
export const Choices = Schema.Array(Choice).check(
  Schema.isMinLength(1, { message: "choices must contain at least 1 item" }),
  Schema.isMaxLength(200, { message: "choices must contain at most 200 items" }),
  Schema.isUnique({ message: "choices must not contain duplicates" })
)

/** A whole number ≥ 0. */
export const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
/** A whole number ≥ 1. */
export const PositiveInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))
/** A whole number ≥ 1 whose message names its key. */
export const PositiveIntOf = (key: string) =>
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: `${key} must be a whole number of at least 1` }))

/** Option fields shared by the questions that offer choices: a shuffled order. */
export const RandomizeField = {
  /** Shows the choices in a random order, the same for one respondent throughout (Other stays last). */
  randomize: Schema.optionalKey(Schema.Boolean)
}

/**
 * Options of a plain question (text, email, tel, url, date, time, datetime,
 * yes_no, legal, signature, statement): only `placeholder` (≤ 200 chars) and `help` (≤ 2000 chars).
 * Unknown keys are rejected (not stripped), whatever the parse options.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(BaseOptions)({ placeholder: "Ada" }) // { placeholder: "Ada" }
 * ```
 */
export const BaseOptions = strictStruct(TextOptionFields)

/** Decoded {@link BaseOptions}. @example `const o: BaseOptions = { help: "Shown below" }` */
export type BaseOptions = typeof BaseOptions.Type
