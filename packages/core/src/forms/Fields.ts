/**
 * Questions ("fields") of a form: their types, the input schema clients send
 * and the stored model. What each type takes and does is its module's, in
 * `questions/` (listed by the registry, `questions/QuestionTypes.ts`): this
 * file makes the Schemas of every question from them, and re-exports what the
 * rest of qforms reads of the types. Answers and their validation are in
 * `Answers.ts`; who answered (name, e-mail) is inferred in
 * `cases/Respondents.ts`.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { DisplayTrim, Id } from "../kernel/index.ts"
import { Calculations, Condition, Logic, PageKey, QuestionKey } from "./LogicRules.ts"
import { BaseOptions } from "./questions/OptionFields.ts"
import type { AnyQuestionType, QuestionType } from "./questions/QuestionType.ts"
import { questionTypes, type RegisteredType, storedOptionFields, typeNames } from "./questions/QuestionTypes.ts"

export {
  CheckboxesOptions,
  DEFAULT_OTHER_LABEL,
  MAX_POINTS,
  MAX_QUOTA,
  OTHER_MAX,
  otherOf,
  quotasOf,
  SelectOptions
} from "./questions/Choice.ts"
export { AddressOptions, ContactOptions, PARTS } from "./questions/Contact.ts"
export { FileOptions } from "./questions/File.ts"
export { MatrixOptions } from "./questions/Matrix.ts"
export { NumberOptions } from "./questions/Number.ts"
export { BaseOptions } from "./questions/OptionFields.ts"
export type { PartInfo } from "./questions/QuestionType.ts"
export {
  builderTypes,
  isConsent,
  isTypeName,
  optionKeys,
  partsOf,
  takesAnswer,
  takesUploads,
  typeOf
} from "./questions/QuestionTypes.ts"
export { RankingOptions, rankedPlaces } from "./questions/Ranking.ts"
export {
  DEFAULT_NPS_LABELS,
  DEFAULT_RATING_MAX,
  DEFAULT_SCALE,
  DEFAULT_SLIDER,
  NpsOptions,
  OpinionScaleOptions,
  RatingOptions,
  scaleOf,
  SliderOptions,
  sliderOf
} from "./questions/Scale.ts"

// ---------------------------------------------------------------------------
// Field types and options
// ---------------------------------------------------------------------------

/**
 * Every question type (the registry's, in its order). `statement` is text
 * shown to the respondent; it takes no answer.
 *
 * @example
 * ```ts
 * Schema.is(FieldType)("email") // true
 * ```
 */
export const FieldType = Schema.Literals(typeNames)

/**
 * A question type.
 *
 * @example
 * ```ts
 * const t: FieldType = "rating"
 * ```
 */
export type FieldType = typeof FieldType.Type

/**
 * The options stored on a {@link Field}: one flat object with every option key
 * optional (a supertype of every type's options). Used for output and for
 * decoding stored rows; input is validated per type by {@link FieldInput}.
 *
 * @example
 * ```ts
 * const o: AnyFieldOptions = { choices: ["A", "B"], maxSelections: 1 }
 * ```
 */
export const AnyFieldOptions = Schema.Struct(storedOptionFields)

/** Decoded {@link AnyFieldOptions}. @example `const o: AnyFieldOptions = {}` */
export type AnyFieldOptions = typeof AnyFieldOptions.Type

/**
 * The decoded options of any question type (a union of the per-type option
 * types).
 *
 * @example
 * ```ts
 * const o: FieldOptions = { choices: ["Yes", "No"] }
 * ```
 */
export type FieldOptions = RegisteredType["options"]["Type"]

// ---------------------------------------------------------------------------
// FieldInput
// ---------------------------------------------------------------------------

const Label = DisplayTrim.check(
  Schema.isNonEmpty({ message: "label must not be empty" }),
  Schema.isMaxLength(1000, { message: "label must be at most 1000 characters" })
).annotate({ description: "The question text; trimmed, then 1 to 1000 characters" })

const inputFields = {
  id: Schema.optionalKey(Id),
  label: Label,
  required: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false))),
  /** Extension: the answers are sensitive (see `Sensitive.ts`); absent or false for an ordinary question. */
  sensitive: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Extension: the answers are sensitive: left out of webhook posts, notifications and respondents' e-mails " +
      "unless the receiver allows them, and masked for viewers. Default false."
  })
}

const logicFields = {
  /** This question's key in the request, so that logic can refer to it as `"ref:<ref>"` before it has an id (not stored). */
  ref: Schema.optionalKey(QuestionKey),
  /** Where to go after this question (see `FormLogic.ts`); `[]` or absent for none. */
  logic: Schema.optionalKey(Logic),
  /** Only asked when this holds (see `FormLogic.ts`); `null` or absent for always. */
  showIf: Schema.optionalKey(Schema.NullOr(Condition)),
  /** Changes the form's variables after this question (see `FormLogic.ts`); `[]` or absent for none. */
  calculate: Schema.optionalKey(Calculations),
  /** The page of `settings.pages` the question is on, with the questions beside it (see `Pages.ts`); `null` or absent for a page of its own. */
  page: Schema.optionalKey(Schema.NullOr(PageKey))
}

const optionalOptions = <S extends Schema.Top>(schema: S) =>
  Schema.NullOr(schema).pipe(Schema.withDecodingDefaultKey(Effect.succeed(null)))

/** The member of the {@link FieldInput} union of one question type (its options required, or optional and null by default). */
type InputMember<Q, Base extends Schema.Struct.Fields> =
  Q extends QuestionType<infer T, infer S, infer _X, infer R>
    ? R extends true
      ? Schema.Struct<{ readonly type: Schema.Literal<T> } & Base & { readonly options: S }>
      : Schema.Struct<
          { readonly type: Schema.Literal<T> } & Base & { readonly options: ReturnType<typeof optionalOptions<S>> }
        >
    : never

/**
 * What a client sends to create or replace a question. A union discriminated
 * by `type`:
 *
 * - a type whose options are required takes them (a `select`'s `choices`, a `matrix`'s `rows` and `columns`);
 * - every other type takes optional (or `null`) options of its type's Schema (`{ placeholder?, help? }` for
 *   the plain ones).
 *
 * `id` (positive int) keeps an existing question; `label` is trimmed and must
 * be 1..1000 chars. Decoding fills `required: false` and `options: null` when
 * absent. Unknown keys inside `options` are rejected; unknown top-level keys
 * follow the parse options (stripped by default, rejected with
 * `onExcessProperty: "error"`).
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(FieldInput)({ type: "email", label: " Email " })
 * // { type: "email", label: "Email", required: false, options: null }
 * ```
 */
const fieldInputOf = <const Extra extends Schema.Struct.Fields>(extra: Extra) => {
  const base = { ...inputFields, ...extra }
  const member = (q: AnyQuestionType) =>
    Schema.Struct({
      type: Schema.Literal(q.type),
      ...base,
      options: q.optionsRequired === true ? q.options : optionalOptions(q.options)
    })
  // The types of plain options first, then those whose options are required, then the rest: the order the API
  // document has always listed them in.
  const plain = questionTypes.filter((q: AnyQuestionType) => q.options === BaseOptions)
  const required = questionTypes.filter((q: AnyQuestionType) => q.options !== BaseOptions && q.optionsRequired === true)
  const typed = questionTypes.filter((q: AnyQuestionType) => q.options !== BaseOptions && q.optionsRequired !== true)
  return Schema.Union(
    [...plain, ...required, ...typed].map(member) as unknown as ReadonlyArray<InputMember<RegisteredType, typeof base>>
  ).annotate({
    identifier: "FieldInput",
    message: `a question must be an object whose "type" is one of ${FieldType.literals.join(", ")}`
  })
}

export const FieldInput = fieldInputOf(logicFields)

/**
 * A {@link FieldInput} without form logic (`logic`, `showIf`): what a form
 * generator writes, since new questions have no ids for logic to refer to.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(PlainFieldInput)({ type: "email", label: "Email" })
 * ```
 */
export const PlainFieldInput = fieldInputOf({}).annotate({ identifier: "PlainFieldInput" })

/**
 * A decoded {@link FieldInput}: `required` and `options` are always present.
 *
 * @example
 * ```ts
 * const q: FieldInput = { type: "select", label: "Color", required: true, options: { choices: ["Red"] } }
 * ```
 */
export type FieldInput = typeof FieldInput.Type

// ---------------------------------------------------------------------------
// Field (stored / output model)
// ---------------------------------------------------------------------------

/**
 * A question as stored and returned by the API.
 *
 * @example
 * ```ts
 * const f: Field = { id: 1, type: "email", label: "Email", required: true, position: 0, options: null }
 * ```
 */
export const Field = Schema.Struct({
  id: Schema.Int,
  type: FieldType,
  label: Schema.String,
  required: Schema.Boolean,
  position: Schema.Int,
  options: Schema.NullOr(AnyFieldOptions),
  /** Extension (form logic): rules tried after the question is answered; absent when none. */
  logic: Schema.optionalKey(Logic),
  /** Extension (form logic): the question is only asked when this holds; absent when always. */
  showIf: Schema.optionalKey(Condition),
  /** Extension (variables): calculations run after the question is answered; absent when none. */
  calculate: Schema.optionalKey(Calculations),
  /** Extension (pages): the page of `settings.pages` the question is on; absent when it is a page of its own. */
  page: Schema.optionalKey(PageKey),
  /** Extension (sensitive marks): `true` when the question's answers are sensitive; absent when not. */
  sensitive: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Extension: true when the answers are sensitive (left out of webhook posts, notifications and e-mails " +
      "unless allowed; masked for viewers); absent when not."
  })
}).annotate({ identifier: "Field" })

/** A decoded {@link Field}. @example `const id: Field["id"] = 1` */
export type Field = typeof Field.Type

/** Questions in their order on the form (by position, then id). */
export const byPosition = (fields: ReadonlyArray<Field>): ReadonlyArray<Field> =>
  [...fields].sort((a, b) => a.position - b.position || a.id - b.id)
