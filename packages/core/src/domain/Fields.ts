/**
 * Questions ("fields") of a form: their types, per-type options, the input
 * schema clients send, the stored model, and validation of submitted answers.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { Id } from "./Ids.ts"
import { Condition, Logic, QuestionKey } from "./FormLogic.ts"
import { DisplayTrim, stripBidiControls } from "./DisplayText.ts"

// ---------------------------------------------------------------------------
// Field types
// ---------------------------------------------------------------------------

/**
 * Every question type. `statement` is text shown to the respondent; it takes
 * no answer.
 *
 * @example
 * ```ts
 * Schema.is(FieldType)("email") // true
 * ```
 */
export const FieldType = Schema.Literals([
  "short_text",
  "long_text",
  "email",
  "tel",
  "url",
  "number",
  "date",
  "select",
  "checkboxes",
  "rating",
  "yes_no",
  "file",
  "statement"
])

/**
 * A question type.
 *
 * @example
 * ```ts
 * const t: FieldType = "rating"
 * ```
 */
export type FieldType = typeof FieldType.Type

/** Types whose options carry only `placeholder` / `help`. */
const PLAIN_TYPES = [
  "short_text",
  "long_text",
  "email",
  "tel",
  "url",
  "date",
  "yes_no",
  "statement"
] as const

/** Default number of stars of a `rating` question when `options.max` is absent. */
export const DEFAULT_RATING_MAX = 5

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/**
 * Builds an object schema that rejects unknown keys whatever the parse
 * options (the default `onExcessProperty: "ignore"` would strip them).
 *
 * The encoded side is the struct plus an open index signature, checked so that
 * only the declared keys may appear; the JSON Schema carries that rule as
 * `propertyNames: { enum: [...] }`. Decoding yields exactly the declared struct.
 */
const strictStruct = <const Fields extends Schema.Struct.Fields>(fields: Fields) => {
  const allowed = Object.keys(fields)
  const allowedSet = new Set(allowed)
  const open = Schema.StructWithRest(Schema.Struct(fields), [Schema.Record(Schema.String, Schema.Unknown)]).check(
    Schema.makeFilter(
      (input: object) =>
        Object.keys(input)
          .filter((key) => !allowedSet.has(key))
          .map((key) => ({ path: [key], issue: `unknown option "${key}" (allowed: ${allowed.join(", ")})` })),
      {
        expected: `an object with only the keys ${allowed.join(", ")}`,
        toJsonSchema: () => ({ propertyNames: { enum: allowed } })
      }
    )
  )
  return open.pipe(Schema.decodeTo(Schema.toType(Schema.Struct(fields)), SchemaTransformation.passthrough({ strict: false })))
}

const TextOptionFields = {
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

const Choices = Schema.Array(Choice).check(
  Schema.isMinLength(1, { message: "choices must contain at least 1 item" }),
  Schema.isMaxLength(200, { message: "choices must contain at most 200 items" }),
  Schema.isUnique({ message: "choices must not contain duplicates" })
)

const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const PositiveInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

/**
 * Options of a plain question (text, email, tel, url, date, yes_no,
 * statement): only `placeholder` (≤ 200 chars) and `help` (≤ 2000 chars).
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

/**
 * Options of a `select` question: `choices` (1..200 distinct, trimmed,
 * non-empty strings of ≤ 200 chars). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(SelectOptions)({ choices: [" Red ", "Blue"] }) // { choices: ["Red", "Blue"] }
 * ```
 */
export const SelectOptions = strictStruct({ ...TextOptionFields, choices: Choices })

/** Decoded {@link SelectOptions}. @example `const o: SelectOptions = { choices: ["Red"] }` */
export type SelectOptions = typeof SelectOptions.Type

/**
 * Options of a `checkboxes` question: `choices` plus optional
 * `minSelections` (int ≥ 0) and `maxSelections` (int ≥ 1), with
 * min ≤ max ≤ number of choices. Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(CheckboxesOptions)({ choices: ["A", "B"], maxSelections: 2 })
 * ```
 */
export const CheckboxesOptions = strictStruct({
  ...TextOptionFields,
  choices: Choices,
  minSelections: Schema.optionalKey(NonNegativeInt),
  maxSelections: Schema.optionalKey(PositiveInt)
}).check(
  Schema.makeFilter((o) => {
    const issues: Array<Schema.FilterIssue> = []
    const n = o.choices.length
    if (o.minSelections !== undefined && o.maxSelections !== undefined && o.minSelections > o.maxSelections) {
      issues.push({ path: ["minSelections"], issue: "minSelections must be less than or equal to maxSelections" })
    }
    if (o.maxSelections !== undefined && o.maxSelections > n) {
      issues.push({ path: ["maxSelections"], issue: `maxSelections must be at most the number of choices (${n})` })
    }
    if (o.minSelections !== undefined && o.minSelections > n) {
      issues.push({ path: ["minSelections"], issue: `minSelections must be at most the number of choices (${n})` })
    }
    return issues
  }, { expected: "minSelections ≤ maxSelections ≤ number of choices" })
)

/** Decoded {@link CheckboxesOptions}. @example `const o: CheckboxesOptions = { choices: ["A"], minSelections: 1 }` */
export type CheckboxesOptions = typeof CheckboxesOptions.Type

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

/**
 * Options of a `rating` question: `max` stars, an integer 2..10 (5 when
 * absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(RatingOptions)({ max: 10 })
 * ```
 */
export const RatingOptions = strictStruct({
  ...TextOptionFields,
  max: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 2, maximum: 10 }, { message: "max must be an integer from 2 to 10" }))
  )
})

/** Decoded {@link RatingOptions}. @example `const o: RatingOptions = { max: 10 }` */
export type RatingOptions = typeof RatingOptions.Type

const AcceptPattern = /^(?:\.[A-Za-z0-9][A-Za-z0-9+_-]*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/(?:\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*))$/

/**
 * Options of a `file` question: `accept` (up to 50 MIME types such as
 * `"application/pdf"`, wildcards such as `"image/*"`, or extensions such as
 * `".pdf"`) and `maxSizeMb` (> 0, ≤ 100). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(FileOptions)({ accept: ["image/*", ".pdf"], maxSizeMb: 5 })
 * ```
 */
export const FileOptions = strictStruct({
  ...TextOptionFields,
  accept: Schema.optionalKey(
    Schema.Array(
      Schema.Trim.check(
        Schema.isMaxLength(100),
        Schema.isPattern(AcceptPattern, {
          message: "accept entries must be MIME types (\"image/png\", \"image/*\") or extensions (\".pdf\")"
        })
      )
    ).check(Schema.isMaxLength(50))
  ),
  maxSizeMb: Schema.optionalKey(
    Schema.Finite.check(
      Schema.isGreaterThan(0, { message: "maxSizeMb must be greater than 0" }),
      Schema.isLessThanOrEqualTo(100, { message: "maxSizeMb must be at most 100" })
    )
  )
})

/** Decoded {@link FileOptions}. @example `const o: FileOptions = { maxSizeMb: 5 }` */
export type FileOptions = typeof FileOptions.Type

/**
 * The decoded options of any question type (a union of the per-type option
 * types).
 *
 * @example
 * ```ts
 * const o: FieldOptions = { choices: ["Yes", "No"] }
 * ```
 */
export type FieldOptions = BaseOptions | SelectOptions | CheckboxesOptions | NumberOptions | RatingOptions | FileOptions

/**
 * The options stored on a {@link Field}: one flat object with every option key
 * optional (a supertype of every {@link FieldOptions} member). Used for output
 * and for decoding stored rows; input is validated per type by {@link FieldInput}.
 *
 * @example
 * ```ts
 * const o: AnyFieldOptions = { choices: ["A", "B"], maxSelections: 1 }
 * ```
 */
export const AnyFieldOptions = Schema.Struct({
  placeholder: Schema.optionalKey(Schema.String),
  help: Schema.optionalKey(Schema.String),
  choices: Schema.optionalKey(Schema.Array(Schema.String)),
  minSelections: Schema.optionalKey(Schema.Int),
  maxSelections: Schema.optionalKey(Schema.Int),
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite),
  step: Schema.optionalKey(Schema.Finite),
  accept: Schema.optionalKey(Schema.Array(Schema.String)),
  maxSizeMb: Schema.optionalKey(Schema.Finite)
})

/** Decoded {@link AnyFieldOptions}. @example `const o: AnyFieldOptions = {}` */
export type AnyFieldOptions = typeof AnyFieldOptions.Type

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
  required: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false)))
}

const logicFields = {
  /** This question's key in the request, so that logic can refer to it as `"ref:<ref>"` before it has an id (not stored). */
  ref: Schema.optionalKey(QuestionKey),
  /** Where to go after this question (see `FormLogic.ts`); `[]` or absent for none. */
  logic: Schema.optionalKey(Logic),
  /** Only asked when this holds (see `FormLogic.ts`); `null` or absent for always. */
  showIf: Schema.optionalKey(Schema.NullOr(Condition))
}

const optionalOptions = <S extends Schema.Top>(schema: S) =>
  Schema.NullOr(schema).pipe(Schema.withDecodingDefaultKey(Effect.succeed(null)))

/**
 * What a client sends to create or replace a question. A union discriminated
 * by `type`:
 *
 * - `select` / `checkboxes` require `options` with `choices`;
 * - `number`, `rating`, `file` take optional (or `null`) typed options;
 * - every other type takes optional (or `null`) `{ placeholder?, help? }`.
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
  return Schema.Union([
    ...PLAIN_TYPES.map((type) =>
      Schema.Struct({ type: Schema.Literal(type), ...base, options: optionalOptions(BaseOptions) })
    ),
    Schema.Struct({ type: Schema.Literal("select"), ...base, options: SelectOptions }),
    Schema.Struct({ type: Schema.Literal("checkboxes"), ...base, options: CheckboxesOptions }),
    Schema.Struct({ type: Schema.Literal("number"), ...base, options: optionalOptions(NumberOptions) }),
    Schema.Struct({ type: Schema.Literal("rating"), ...base, options: optionalOptions(RatingOptions) }),
    Schema.Struct({ type: Schema.Literal("file"), ...base, options: optionalOptions(FileOptions) })
  ]).annotate({
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
  showIf: Schema.optionalKey(Condition)
}).annotate({ identifier: "Field" })

/** A decoded {@link Field}. @example `const id: Field["id"] = 1` */
export type Field = typeof Field.Type

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

/**
 * The answer to a `file` question: a reference to an uploaded file.
 *
 * @example
 * ```ts
 * const a: FileAnswer = { fileId: "f_1", name: "cv.pdf", size: 1024, type: "application/pdf" }
 * ```
 */
export const FileAnswer = Schema.Struct({
  fileId: Schema.String.check(Schema.isNonEmpty()),
  name: Schema.String,
  size: NonNegativeInt,
  type: Schema.String
}).annotate({ identifier: "FileAnswer" })

/** A decoded {@link FileAnswer}. @example `const size: FileAnswer["size"] = 0` */
export type FileAnswer = typeof FileAnswer.Type

/**
 * An answer: text, number, boolean, selected choices, or a file. The schema
 * of every answer map (`values`) in requests, responses and the OpenAPI
 * document; which of these a question takes is checked by `validateAnswers`.
 *
 * @example
 * ```ts
 * const answers: Record<string, AnswerValue> = { "1": "Ada", "2": 4, "3": ["A", "B"] }
 * ```
 */
export const AnswerValue = Schema.Union([
  Schema.String,
  Schema.Finite,
  Schema.Boolean,
  Schema.Array(Schema.String),
  FileAnswer
]).annotate({
  identifier: "AnswerValue",
  description: "Text (also dates, e-mail addresses, choices), a number, a boolean, the selected choices, or an uploaded file."
})
export type AnswerValue = typeof AnswerValue.Type

/**
 * Whether a value is a real answer: text that is not blank, a number, a yes
 * or no, at least one chosen option, or a file. An empty text, an empty
 * selection or no value at all is not (such answers alone keep no partial
 * response).
 *
 * @example
 * ```ts
 * isRealAnswer("  ") // false
 * isRealAnswer(0) // true
 * ```
 */
export const isRealAnswer = (value: unknown): boolean => {
  if (value === undefined || value === null) return false
  if (Predicate.isString(value)) return stripBidiControls(value).trim() !== ""
  if (Array.isArray(value)) return value.some(isRealAnswer)
  return true
}

/**
 * A file answer as submitted: the `fileId` of an upload to that question
 * (the upload's own name, size and type replace any sent along).
 *
 * @example
 * ```ts
 * const a: FileAnswerInput = { fileId: "file_1" }
 * ```
 */
export const FileAnswerInput = Schema.Struct({
  fileId: Schema.String.check(Schema.isNonEmpty()),
  name: Schema.optionalKey(Schema.String),
  size: Schema.optionalKey(NonNegativeInt),
  type: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "FileAnswerInput" })
export type FileAnswerInput = typeof FileAnswerInput.Type

/**
 * An answer as submitted: like {@link AnswerValue}, with a file given by its
 * upload's `fileId`; `null` leaves an optional question unanswered.
 */
export const AnswerInput = Schema.NullOr(Schema.Union([
  Schema.String,
  Schema.Finite,
  Schema.Boolean,
  Schema.Array(Schema.String),
  FileAnswerInput
])).annotate({
  identifier: "AnswerInput",
  description: "Text (also dates, e-mail addresses, choices), a number, a boolean, the selected choices, " +
    "an uploaded file's `{fileId}`, or null for no answer."
})
export type AnswerInput = typeof AnswerInput.Type

/**
 * Answers keyed by question id as sent: an {@link AnswerInput} per question;
 * `null` (like an empty string or array) leaves an optional question unanswered.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Fields.AnswerInputs)({ "12": "Ada", "13": null })
 * ```
 */
export const AnswerInputs = Schema.Record(Schema.String, AnswerInput).annotate({
  description: "Answers keyed by question id (`fields[].id`); `null` leaves an optional question unanswered."
})

/**
 * One problem with submitted answers. `path` is `values` or `values.<id>`;
 * `fieldId` is the question concerned (null for whole-object or unknown keys).
 *
 * @example
 * ```ts
 * const i: AnswerIssue = { path: "values.3", fieldId: 3, message: "\"Email\" is required" }
 * ```
 */
export interface AnswerIssue {
  readonly path: string
  readonly fieldId: number | null
  readonly message: string
}

type Check = Result.Result<AnswerValue, string>

const ok = (value: AnswerValue): Check => Result.succeed(value)
const bad = (message: string): Check => Result.fail(message)

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
const TEL = /^[0-9 +\-().]{7,20}$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (Predicate.isString(value) && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0)

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
    : [4, 6, 9, 11].includes(month)
    ? 30
    : 31

const isCalendarDate = (s: string): boolean => {
  const m = DATE.exec(s)
  if (m === null) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

const isHttpUrl = (s: string): boolean => {
  if (!URL.canParse(s)) return false
  const protocol = new URL(s).protocol
  return protocol === "http:" || protocol === "https:"
}

const formatNumber = (n: number): string => String(n)

const isOnStep = (value: number, base: number, step: number): boolean => {
  const q = (value - base) / step
  return Math.abs(q - Math.round(q)) <= 1e-9 * Math.max(1, Math.abs(q))
}

const decodeFileAnswer = Schema.decodeUnknownResult(FileAnswer)

/**
 * The types behind the extensions of files whose content can be recognised
 * (images and PDF): an `accept` entry `.jpg` also matches a file whose type is
 * `image/jpeg`, whatever its name.
 *
 * @example
 * ```ts
 * extensionTypes[".jpg"] // "image/jpeg"
 * ```
 */
export const extensionTypes: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".jpe": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".bmp": "image/bmp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".ico": "image/x-icon",
  ".avif": "image/avif",
  ".heic": "image/heic",
  ".heif": "image/heif"
}

const matchesAccept = (file: FileAnswer, accept: ReadonlyArray<string>): boolean => {
  const type = file.type.toLowerCase()
  const name = file.name.toLowerCase()
  return accept.some((pattern) => {
    const p = pattern.toLowerCase()
    if (p.startsWith(".")) return name.endsWith(p) || extensionTypes[p] === type
    if (p.endsWith("/*")) return type.startsWith(p.slice(0, -1))
    return type === p
  })
}

const text = (q: string, value: unknown, max: number): Check => {
  if (!Predicate.isString(value)) return bad(`${q} must be text`)
  const s = value.trim()
  return s.length > max ? bad(`${q} must be at most ${max} characters`) : ok(s)
}

const checkAnswer = (field: Field, value: unknown): Check => {
  const q = JSON.stringify(field.label)
  const options = field.options
  switch (field.type) {
    case "short_text":
      return text(q, value, 1000)
    case "long_text":
      return text(q, value, 10000)
    case "email": {
      if (!Predicate.isString(value)) return bad(`${q} must be an email address`)
      const s = value.trim()
      return s.length <= 254 && EMAIL.test(s) ? ok(s) : bad(`${q} must be an email address`)
    }
    case "tel": {
      if (!Predicate.isString(value)) return bad(`${q} must be a phone number`)
      const s = value.trim()
      const digits = s.replace(/\D/g, "").length
      return TEL.test(s) && digits >= 7 ? ok(s) : bad(`${q} must be a phone number`)
    }
    case "url": {
      const message = `${q} must be a URL starting with http:// or https://`
      if (!Predicate.isString(value)) return bad(message)
      const s = value.trim()
      return s.length <= 2000 && isHttpUrl(s) ? ok(s) : bad(message)
    }
    case "number": {
      if (!Predicate.isNumber(value) || !Number.isFinite(value)) return bad(`${q} must be a number`)
      const min = options?.min
      const max = options?.max
      const step = options?.step
      if (min !== undefined && value < min) return bad(`${q} must be at least ${formatNumber(min)}`)
      if (max !== undefined && value > max) return bad(`${q} must be at most ${formatNumber(max)}`)
      if (step !== undefined && step > 0 && !isOnStep(value, min ?? 0, step)) {
        return bad(
          min === undefined || min === 0
            ? `${q} must be a multiple of ${formatNumber(step)}`
            : `${q} must be ${formatNumber(min)} plus a multiple of ${formatNumber(step)}`
        )
      }
      return ok(value)
    }
    case "date": {
      const message = `${q} must be a date in the form YYYY-MM-DD`
      if (!Predicate.isString(value)) return bad(message)
      const s = value.trim()
      return isCalendarDate(s) ? ok(s) : bad(message)
    }
    case "select": {
      const message = `${q} must be one of the choices`
      if (!Predicate.isString(value)) return bad(message)
      const s = value.trim()
      return (options?.choices ?? []).includes(s) ? ok(s) : bad(message)
    }
    case "checkboxes":
      return checkCheckboxes(q, options, value)
    case "rating": {
      const max = options?.max ?? DEFAULT_RATING_MAX
      return Predicate.isNumber(value) && Number.isInteger(value) && value >= 1 && value <= max
        ? ok(value)
        : bad(`${q} must be a whole number from 1 to ${max}`)
    }
    case "yes_no":
      return Predicate.isBoolean(value) ? ok(value) : bad(`${q} must be true or false`)
    case "file": {
      const decoded = decodeFileAnswer(value)
      if (Result.isFailure(decoded)) return bad(`${q} must be an uploaded file`)
      const file = decoded.success
      const maxSizeMb = options?.maxSizeMb
      if (maxSizeMb !== undefined && file.size > maxSizeMb * 1024 * 1024) {
        return bad(`${q} must be at most ${formatNumber(maxSizeMb)} MB`)
      }
      const accept = options?.accept
      if (accept !== undefined && accept.length > 0 && !matchesAccept(file, accept)) {
        return bad(`${q} must be a file of type ${accept.join(", ")}`)
      }
      return ok(file)
    }
    case "statement":
      return bad(`${q} does not take an answer`)
  }
}

const checkCheckboxes = (q: string, options: AnyFieldOptions | null, value: unknown): Check => {
  if (!Array.isArray(value) || !value.every(Predicate.isString)) return bad(`${q} must be a list of choices`)
  const choices = options?.choices ?? []
  const picked = value.map((s) => s.trim())
  const unknown = picked.find((s) => !choices.includes(s))
  if (unknown !== undefined) return bad(`${q} has an unknown choice ${JSON.stringify(unknown)}`)
  if (new Set(picked).size !== picked.length) return bad(`${q} must not repeat a choice`)
  const min = options?.minSelections
  const max = options?.maxSelections
  if (min !== undefined && picked.length < min) {
    return bad(`${q} needs at least ${min} selection${min === 1 ? "" : "s"}`)
  }
  if (max !== undefined && picked.length > max) {
    return bad(`${q} allows at most ${max} selection${max === 1 ? "" : "s"}`)
  }
  return ok(choices.filter((c) => picked.includes(c)))
}

const byPosition = (fields: ReadonlyArray<Field>): ReadonlyArray<Field> =>
  [...fields].sort((a, b) => a.position - b.position || a.id - b.id)

/**
 * Validates submitted answers against a form's questions. Pure and total:
 * never throws, whatever `values` is.
 *
 * `values` must be an object keyed by question id. Empty answers (`undefined`,
 * `null`, blank strings, empty arrays) count as missing; missing optional
 * answers are omitted from the output. Strings are trimmed; checkbox answers
 * are returned in the choices' order. All issues are collected, at most one
 * per question, questions in position order, then unknown keys.
 *
 * @example
 * ```ts
 * const fields: ReadonlyArray<Field> = [
 *   { id: 1, type: "email", label: "Email", required: true, position: 0, options: null }
 * ]
 * validateAnswers(fields, { "1": " ada@example.com " }) // Result.succeed({ "1": "ada@example.com" })
 * validateAnswers(fields, {}) // Result.fail([{ path: "values.1", fieldId: 1, message: "\"Email\" is required" }])
 * ```
 */
export const validateAnswers = (
  fields: ReadonlyArray<Field>,
  values: unknown
): Result.Result<Record<string, AnswerValue>, ReadonlyArray<AnswerIssue>> => {
  if (!Predicate.isObject(values)) {
    return Result.fail([{ path: "values", fieldId: null, message: "values must be an object keyed by question id" }])
  }
  const issues: Array<AnswerIssue> = []
  const out: Record<string, AnswerValue> = {}
  const known = new Set<string>()
  for (const field of byPosition(fields)) {
    const key = String(field.id)
    known.add(key)
    const value = Object.hasOwn(values, key) ? values[key] : undefined
    if (isEmpty(value)) {
      if (field.required && field.type !== "statement") {
        issues.push({ path: `values.${key}`, fieldId: field.id, message: `${JSON.stringify(field.label)} is required` })
      }
      continue
    }
    const checked = checkAnswer(field, value)
    if (Result.isSuccess(checked)) {
      out[key] = checked.success
    } else {
      issues.push({ path: `values.${key}`, fieldId: field.id, message: checked.failure })
    }
  }
  for (const key of Object.keys(values)) {
    if (!known.has(key)) {
      issues.push({ path: `values.${key}`, fieldId: null, message: `unknown question ${key}` })
    }
  }
  return issues.length > 0 ? Result.fail(issues) : Result.succeed(out)
}

// ---------------------------------------------------------------------------
// Respondent
// ---------------------------------------------------------------------------

const FULL_NAME_LABELS: ReadonlySet<string> = new Set([
  "name",
  "full name",
  "your name",
  "your full name",
  "first and last name",
  "nom",
  "nombre",
  "name and surname"
])
const FIRST_NAME_LABELS: ReadonlySet<string> = new Set(["first name", "your first name", "given name", "forename"])
const LAST_NAME_LABELS: ReadonlySet<string> = new Set([
  "last name",
  "your last name",
  "surname",
  "family name"
])
const NAME_PATTERN = /\b(full )?name\b/
const NOT_A_PERSON_NAME =
  /\b(company|organisation|organization|business|pet|project|team|first|last|given|family|middle|user|nick)\b/

const normalizeLabel = (label: string): string =>
  label.toLowerCase().trim().replace(/[\s:?*]+$/, "").replace(/\s+/g, " ")

/**
 * Guesses who answered: `email` is the first answered `email` question; `name`
 * is the first answered `short_text` question labelled like a person's name
 * ("Name", "Full name", "Your name", "Nom", …), else one whose label contains
 * "name" but not company/organisation/business/pet/project/team, else the
 * "First name" and "Last name" answers joined by a space.
 *
 * @example
 * ```ts
 * deriveRespondent(fields, { "1": "Ada Lovelace", "2": "ada@example.com" })
 * // { name: "Ada Lovelace", email: "ada@example.com" }
 * ```
 */
export const deriveRespondent = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>
): { name: string | null; email: string | null } => {
  const sorted = byPosition(fields)
  const answerOf = (field: Field): string | null => {
    const key = String(field.id)
    const value = Object.hasOwn(values, key) ? values[key] : undefined
    if (!Predicate.isString(value)) return null
    const s = stripBidiControls(value).trim()
    return s === "" ? null : s
  }
  const firstAnswer = (predicate: (field: Field) => boolean): string | null => {
    for (const field of sorted) {
      if (predicate(field)) {
        const answer = answerOf(field)
        if (answer !== null) return answer
      }
    }
    return null
  }
  const email = firstAnswer((f) => f.type === "email")
  const textLabel = (labels: ReadonlySet<string>) => (f: Field) =>
    f.type === "short_text" && labels.has(normalizeLabel(f.label))
  const name = firstAnswer(textLabel(FULL_NAME_LABELS)) ??
    firstAnswer((f) => {
      if (f.type !== "short_text") return false
      const label = normalizeLabel(f.label)
      return NAME_PATTERN.test(label) && !NOT_A_PERSON_NAME.test(label)
    }) ??
    joinNames(firstAnswer(textLabel(FIRST_NAME_LABELS)), firstAnswer(textLabel(LAST_NAME_LABELS)))
  return { name, email }
}

const joinNames = (first: string | null, last: string | null): string | null =>
  first !== null && last !== null ? `${first} ${last}` : first ?? last
