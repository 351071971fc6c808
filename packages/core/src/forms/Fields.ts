/**
 * Questions ("fields") of a form: their types, per-type options, the input
 * schema clients send and the stored model. Answers and their validation are
 * in `Answers.ts`; who answered (name, e-mail) is inferred in
 * `cases/Respondents.ts`.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { DisplayTrim, Id, strictStruct } from "../kernel/index.ts"
import { Calculations, Condition, Logic, PageKey, QuestionKey } from "./LogicRules.ts"
import { ImageId } from "./ImageRefs.ts"

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
  "nps",
  "opinion_scale",
  "slider",
  "time",
  "datetime",
  "yes_no",
  "legal",
  "contact",
  "address",
  "matrix",
  "ranking",
  "file",
  "signature",
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
  "time",
  "datetime",
  "yes_no",
  "legal",
  "signature",
  "statement"
] as const

/** Default number of stars of a `rating` question when `options.max` is absent. */
export const DEFAULT_RATING_MAX = 5

/** The range of an `opinion_scale` question when `options.min` / `options.max` are absent. */
export const DEFAULT_SCALE = { min: 1, max: 5 } as const

/** The range and step of a `slider` question when its options name none. */
export const DEFAULT_SLIDER = { min: 0, max: 100, step: 1 } as const

/** The end labels of an `nps` question when its options name none. */
export const DEFAULT_NPS_LABELS = { minLabel: "Not at all likely", maxLabel: "Extremely likely" } as const

/**
 * A part of a `contact` or `address` question: its name in the answer
 * object, its label on the page, the browser's autofill token, the longest
 * text it takes, and whether it is asked and optional when the question's
 * options do not say.
 */
export interface PartInfo {
  readonly name: string
  readonly label: string
  readonly autocomplete: string
  readonly maxLength: number
  readonly asked: boolean
  readonly optional: boolean
}

const part = (
  name: string,
  label: string,
  autocomplete: string,
  maxLength: number,
  defaults: { readonly asked?: boolean; readonly optional?: boolean } = {}
): PartInfo => ({
  name,
  label,
  autocomplete,
  maxLength,
  asked: defaults.asked ?? true,
  optional: defaults.optional ?? false
})

/**
 * The parts of a `contact` question (name, e-mail, phone, company) and of an
 * `address` question (two lines, city, region, postal code, country), in the
 * order the page asks them.
 *
 * @example
 * ```ts
 * PARTS.contact.map((p) => p.name) // ["name", "email", "phone", "company"]
 * ```
 */
export const PARTS = {
  contact: [
    part("name", "Name", "name", 200),
    part("email", "E-mail", "email", 254),
    part("phone", "Phone", "tel", 20),
    part("company", "Company", "organization", 200, { asked: false })
  ],
  address: [
    part("line1", "Address", "address-line1", 200),
    part("line2", "Address line 2", "address-line2", 200, { optional: true }),
    part("city", "City", "address-level2", 200),
    part("region", "State, province or region", "address-level1", 200, { optional: true }),
    part("postalCode", "Postal code", "postal-code", 20),
    part("country", "Country", "country-name", 100)
  ]
} as const satisfies Record<string, ReadonlyArray<PartInfo>>

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

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
const PositiveIntOf = (key: string) =>
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: `${key} must be a whole number of at least 1` }))

/** The label of the "Other" choice when a question does not name its own. */
export const DEFAULT_OTHER_LABEL = "Other"

/** The most characters of an answer typed for "Other" (as long as a choice may be). */
export const OTHER_MAX = 200

/** Option fields shared by the questions that offer choices: a shuffled order, and "Other" with free text. */
const RandomizeField = {
  /** Shows the choices in a random order, the same for one respondent throughout (Other stays last). */
  randomize: Schema.optionalKey(Schema.Boolean)
}

const OtherFields = {
  /** Adds an "Other" choice with a text box; the answer is then the text typed (at most 200 characters). */
  allowOther: Schema.optionalKey(Schema.Boolean),
  /** The label of that choice (default "Other"), 1..100 characters. */
  otherLabel: Schema.optionalKey(
    Schema.Trim.check(
      Schema.isNonEmpty({ message: "otherLabel must not be empty" }),
      Schema.isMaxLength(100, { message: "otherLabel must be at most 100 characters" })
    )
  )
}

/** The most places a quota may give one choice. */
export const MAX_QUOTA = 1_000_000

/** How many responses may pick each choice (select, checkboxes): `{"Keynote": 20}`; a full choice is shown as full. */
const QuotaFields = {
  quotas: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Finite.check(
        Schema.isInt({ message: `a quota must be a whole number from 1 to ${MAX_QUOTA}` }),
        Schema.isBetween(
          { minimum: 1, maximum: MAX_QUOTA },
          { message: `a quota must be a whole number from 1 to ${MAX_QUOTA}` }
        )
      )
    )
  )
}

/** The most points one choice may give, either way. */
export const MAX_POINTS = 1_000_000

/**
 * What each choice adds to the form's `score` when it is picked (select,
 * checkboxes): `{"Paris": 1}` for a quiz's right answer; negative points
 * take away. Choices without points add nothing.
 */
const PointsFields = {
  points: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Finite.check(
        Schema.isBetween(
          { minimum: -MAX_POINTS, maximum: MAX_POINTS },
          { message: `points must be a number from -${MAX_POINTS} to ${MAX_POINTS}` }
        )
      )
    )
  )
}

/**
 * A picture shown with each choice that has one (select, checkboxes):
 * `{"Tea": "img_…"}`, images of the workspace's library (`/api/images`). The
 * choice's words stay its label; the picture is decoration beside them.
 */
const ImagesFields = {
  images: Schema.optionalKey(Schema.Record(Schema.String, ImageId))
}

/** Every quota, every choice given points and every choice given an image must be one of the choices. */
const quotaIssues = (o: {
  readonly choices: ReadonlyArray<string>
  readonly quotas?: Readonly<Record<string, number>> | undefined
  readonly points?: Readonly<Record<string, number>> | undefined
  readonly images?: Readonly<Record<string, string>> | undefined
}): ReadonlyArray<Schema.FilterIssue> =>
  (["quotas", "points", "images"] as const).flatMap((key) =>
    Object.keys(o[key] ?? {})
      .filter((choice) => !o.choices.includes(choice))
      .map((choice) => ({
        path: [key, choice],
        issue: `${key} names ${JSON.stringify(choice)}, which is not a choice`
      }))
  )

/**
 * The quota of each choice that has one, as stored on a question.
 *
 * @example
 * ```ts
 * quotasOf({ options: { choices: ["A", "B"], quotas: { A: 20 } } }) // [["A", 20]]
 * ```
 */
export const quotasOf = (field: {
  readonly options: AnyFieldOptions | null
}): ReadonlyArray<readonly [string, number]> =>
  Object.entries(field.options?.quotas ?? {}).filter(([choice]) => (field.options?.choices ?? []).includes(choice))

/** A choice may not be called like the Other choice that `allowOther` adds: both would read the same. */
const otherClash = (o: {
  readonly choices: ReadonlyArray<string>
  readonly allowOther?: boolean | undefined
  readonly otherLabel?: string | undefined
}): Schema.FilterIssue | undefined => {
  if (o.allowOther !== true) return undefined
  const label = o.otherLabel ?? DEFAULT_OTHER_LABEL
  return o.choices.some((c) => c.toLowerCase() === label.toLowerCase())
    ? {
        path: ["choices"],
        issue: `choices must not include ${JSON.stringify(label)} when allowOther is on: that choice is added with its text box`
      }
    : undefined
}

/**
 * Whether a question offers "Other" with a text box, and that choice's label.
 *
 * @example
 * ```ts
 * otherOf({ options: { choices: ["A"], allowOther: true } }) // "Other"
 * otherOf({ options: { choices: ["A"] } }) // undefined
 * ```
 */
export const otherOf = (field: { readonly options: AnyFieldOptions | null }): string | undefined =>
  field.options?.allowOther === true ? (field.options.otherLabel ?? DEFAULT_OTHER_LABEL) : undefined

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

/**
 * Options of a `select` question: `choices` (1..200 distinct, trimmed,
 * non-empty strings of ≤ 200 chars), `randomize` (shuffled per respondent),
 * `allowOther` with `otherLabel` (an "Other" choice with a text box; no
 * choice may be called like it), `quotas` (places per choice, each naming a
 * choice), `points` (a quiz's score per choice) and `images` (a picture per
 * choice, from the image library). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(SelectOptions)({ choices: [" Red ", "Blue"] }) // { choices: ["Red", "Blue"] }
 * Schema.decodeUnknownSync(SelectOptions)({ choices: ["Red"], allowOther: true, randomize: true })
 * ```
 */
const SelectOptionFields = {
  ...TextOptionFields,
  choices: Choices,
  ...RandomizeField,
  ...OtherFields,
  ...QuotaFields,
  ...PointsFields,
  ...ImagesFields
}

export const SelectOptions = strictStruct(SelectOptionFields).check(
  Schema.makeFilter(
    (o) => {
      const clash = otherClash(o)
      return [...(clash === undefined ? [] : [clash]), ...quotaIssues(o)]
    },
    { expected: "no choice called like the Other choice, quotas of choices only" }
  )
)

/** Decoded {@link SelectOptions}. @example `const o: SelectOptions = { choices: ["Red"] }` */
export type SelectOptions = typeof SelectOptions.Type

const MatrixLabel = (what: string, max: number) =>
  Schema.Trim.check(
    Schema.isNonEmpty({ message: `a ${what} must not be empty` }),
    Schema.isMaxLength(max, { message: `a ${what} must be at most ${max} characters` })
  )

const MatrixOptionFields = {
  ...TextOptionFields,
  /** The statements rated, one per row (1..50, distinct; the keys of the answer). */
  rows: Schema.Array(MatrixLabel("row", 200)).check(
    Schema.isMinLength(1, { message: "rows must contain at least 1 item" }),
    Schema.isMaxLength(50, { message: "rows must contain at most 50 items" }),
    Schema.isUnique({ message: "rows must not contain duplicates" })
  ),
  /** The choices offered in every row (2..20, distinct). */
  columns: Schema.Array(MatrixLabel("column", 100)).check(
    Schema.isMinLength(2, { message: "columns must contain at least 2 items" }),
    Schema.isMaxLength(20, { message: "columns must contain at most 20 items" }),
    Schema.isUnique({ message: "columns must not contain duplicates" })
  ),
  /** Several columns per row (checkboxes) instead of one (radio buttons). */
  multiple: Schema.optionalKey(Schema.Boolean),
  /** When the question is required, how many rows must be answered (every row when absent). */
  minRows: Schema.optionalKey(PositiveIntOf("minRows"))
}

/**
 * Options of a `matrix` question (rows × columns: rate each statement on the
 * same scale): `rows` (1..50 distinct, ≤ 200 chars), `columns` (2..20
 * distinct, ≤ 100 chars), `multiple` (several columns per row; one when
 * absent) and `minRows` (1..number of rows: how many rows a required matrix
 * needs; all when absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(MatrixOptions)({ rows: ["Speed", "Price"], columns: ["Bad", "OK", "Good"] })
 * ```
 */
export const MatrixOptions = strictStruct(MatrixOptionFields).check(
  Schema.makeFilter(
    (o) =>
      o.minRows !== undefined && o.minRows > o.rows.length
        ? { path: ["minRows"], issue: `minRows must be at most the number of rows (${o.rows.length})` }
        : undefined,
    { expected: "minRows ≤ number of rows" }
  )
)

/** Decoded {@link MatrixOptions}. @example `const o: MatrixOptions = { rows: ["Speed"], columns: ["Bad", "Good"] }` */
export type MatrixOptions = typeof MatrixOptions.Type

const RankingOptionFields = {
  ...TextOptionFields,
  /** The choices to put in order (2..20, distinct). */
  choices: Choices,
  /** Rank only the first `top` places (every choice when absent). */
  top: Schema.optionalKey(PositiveIntOf("top")),
  ...RandomizeField
}

/**
 * Options of a `ranking` question (put the choices in order): `choices`
 * (2..20 distinct, trimmed, ≤ 200 chars) and `top` (1..number of choices:
 * rank only the first places; every choice when absent). Unknown keys are
 * rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(RankingOptions)({ choices: ["Price", "Speed", "Support"], top: 2 })
 * ```
 */
export const RankingOptions = strictStruct(RankingOptionFields).check(
  Schema.makeFilter(
    (o) => {
      const n = o.choices.length
      if (n < 2 || n > 20) return { path: ["choices"], issue: `a ranking takes 2 to 20 choices (${n} given)` }
      return o.top !== undefined && o.top > n
        ? { path: ["top"], issue: `top must be at most the number of choices (${n})` }
        : undefined
    },
    { expected: "2 to 20 choices, top ≤ number of choices" }
  )
)

/** Decoded {@link RankingOptions}. @example `const o: RankingOptions = { choices: ["A", "B"] }` */
export type RankingOptions = typeof RankingOptions.Type

/**
 * Whether a question's answer may be an upload (through the page's upload
 * route): a `file` question's always, a `signature`'s when it is drawn (a PNG).
 * Such answers are attached at submission and never kept by a partial response.
 *
 * @example
 * ```ts
 * takesUploads({ type: "signature" }) // true
 * ```
 */
export const takesUploads = (field: { readonly type: FieldType }): boolean =>
  field.type === "file" || field.type === "signature"

/**
 * How many places a `ranking` question asks for: `top`, or every choice.
 *
 * @example
 * ```ts
 * rankedPlaces({ options: { choices: ["A", "B", "C"], top: 2 } }) // 2
 * ```
 */
export const rankedPlaces = (field: { readonly options: AnyFieldOptions | null }): number =>
  field.options?.top ?? field.options?.choices?.length ?? 0

/**
 * Options of a `checkboxes` question: `choices` plus optional
 * `minSelections` (int ≥ 0) and `maxSelections` (int ≥ 1), with
 * min ≤ max ≤ number of choices (Other counting as one), `randomize`,
 * `allowOther` with `otherLabel` and `quotas` as for `select`. Unknown keys
 * are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(CheckboxesOptions)({ choices: ["A", "B"], maxSelections: 2 })
 * ```
 */
const CheckboxesOptionFields = {
  ...TextOptionFields,
  choices: Choices,
  minSelections: Schema.optionalKey(NonNegativeInt),
  maxSelections: Schema.optionalKey(PositiveInt),
  ...RandomizeField,
  ...OtherFields,
  ...QuotaFields,
  ...PointsFields,
  ...ImagesFields
}

export const CheckboxesOptions = strictStruct(CheckboxesOptionFields).check(
  Schema.makeFilter(
    (o) => {
      const issues: Array<Schema.FilterIssue> = []
      // The Other choice counts as one more.
      const n = o.choices.length + (o.allowOther === true ? 1 : 0)
      const clash = otherClash(o)
      if (clash !== undefined) issues.push(clash)
      issues.push(...quotaIssues(o))
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
    },
    { expected: "minSelections ≤ maxSelections ≤ number of choices" }
  )
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
const NumberOptionFields = {
  ...TextOptionFields,
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite),
  step: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0, { message: "step must be greater than 0" })))
}

export const NumberOptions = strictStruct(NumberOptionFields).check(
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
const RatingOptionFields = {
  ...TextOptionFields,
  max: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 2, maximum: 10 }, { message: "max must be an integer from 2 to 10" }))
  )
}

export const RatingOptions = strictStruct(RatingOptionFields)

/** Decoded {@link RatingOptions}. @example `const o: RatingOptions = { max: 10 }` */
export type RatingOptions = typeof RatingOptions.Type

const AcceptPattern =
  /^(?:\.[A-Za-z0-9][A-Za-z0-9+_-]*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/(?:\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*))$/

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
const FileOptionFields = {
  ...TextOptionFields,
  accept: Schema.optionalKey(
    Schema.Array(
      Schema.Trim.check(
        Schema.isMaxLength(100),
        Schema.isPattern(AcceptPattern, {
          message: 'accept entries must be MIME types ("image/png", "image/*") or extensions (".pdf")'
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
}

export const FileOptions = strictStruct(FileOptionFields)

const EndLabel = Schema.Trim.check(
  Schema.isNonEmpty({ message: "an end label must not be empty" }),
  Schema.isMaxLength(100, { message: "an end label must be at most 100 characters" })
)

const EndLabelFields = {
  /** What the lowest value means ("Not at all likely"), shown at that end. */
  minLabel: Schema.optionalKey(EndLabel),
  /** What the highest value means ("Extremely likely"), shown at that end. */
  maxLabel: Schema.optionalKey(EndLabel)
}

/**
 * Options of an `nps` question (Net Promoter Score: a whole number from 0 to
 * 10): the end labels `minLabel` and `maxLabel` (≤ 100 chars each; "Not at
 * all likely" and "Extremely likely" when absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(NpsOptions)({ minLabel: "Never", maxLabel: "Certainly" })
 * ```
 */
const NpsOptionFields = { ...TextOptionFields, ...EndLabelFields }

export const NpsOptions = strictStruct(NpsOptionFields)

/** Decoded {@link NpsOptions}. @example `const o: NpsOptions = { maxLabel: "Certainly" }` */
export type NpsOptions = typeof NpsOptions.Type

/**
 * Options of an `opinion_scale` question (a whole number on a scale): `min`
 * 0 or 1 (1 when absent), `max` 2..10 (5 when absent), and the end labels
 * `minLabel` and `maxLabel` (≤ 100 chars each). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(OpinionScaleOptions)({ min: 0, max: 10, minLabel: "Disagree", maxLabel: "Agree" })
 * ```
 */
const OpinionScaleOptionFields = {
  ...TextOptionFields,
  min: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1 }, { message: "min must be 0 or 1" }))
  ),
  max: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 2, maximum: 10 }, { message: "max must be an integer from 2 to 10" }))
  ),
  ...EndLabelFields
}

export const OpinionScaleOptions = strictStruct(OpinionScaleOptionFields)

/** Decoded {@link OpinionScaleOptions}. @example `const o: OpinionScaleOptions = { min: 0, max: 10 }` */
export type OpinionScaleOptions = typeof OpinionScaleOptions.Type

/**
 * Options of a `slider` question (a number picked on a track): `min` (0 when
 * absent), `max` (100 when absent) and `step` (> 0, 1 when absent), with
 * min < max and step ≤ max − min, and the end labels `minLabel` and
 * `maxLabel` (≤ 100 chars each). Answers are `min` plus a multiple of `step`.
 * Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(SliderOptions)({ min: 0, max: 10, step: 0.5, minLabel: "Cold", maxLabel: "Hot" })
 * ```
 */
const SliderOptionFields = {
  ...TextOptionFields,
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite),
  step: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0, { message: "step must be greater than 0" }))),
  ...EndLabelFields
}

export const SliderOptions = strictStruct(SliderOptionFields).check(
  Schema.makeFilter(
    (o) => {
      const min = o.min ?? DEFAULT_SLIDER.min
      const max = o.max ?? DEFAULT_SLIDER.max
      const step = o.step ?? DEFAULT_SLIDER.step
      if (min >= max) {
        return {
          path: [o.max === undefined ? "min" : "max"],
          issue: `max (${max}) must be greater than min (${min})`
        }
      }
      return step > max - min ? { path: ["step"], issue: `step must be at most max − min (${max - min})` } : undefined
    },
    { expected: "min < max and step ≤ max − min" }
  )
)

/** Decoded {@link SliderOptions}. @example `const o: SliderOptions = { max: 10 }` */
export type SliderOptions = typeof SliderOptions.Type

const partListOf = (names: ReadonlyArray<string>, key: string, least: number) =>
  Schema.Array(
    Schema.Literals(names as [string, ...Array<string>]).annotate({
      message: `a part must be one of ${names.join(", ")}`
    })
  ).check(
    Schema.isMinLength(least, { message: `${key} must name at least ${least} part` }),
    Schema.isUnique({ message: `${key} must not repeat a part` })
  )

const partsOptionsOf = (type: keyof typeof PARTS) => {
  const names = PARTS[type].map((p) => p.name)
  const fields = {
    ...TextOptionFields,
    /** The parts asked, in order (by default every part but those not asked by default). */
    parts: Schema.optionalKey(partListOf(names, "parts", 1)),
    /** The asked parts that may be left empty (the others are required once the question is answered). */
    optionalParts: Schema.optionalKey(partListOf(names, "optionalParts", 0))
  }
  const schema = strictStruct(fields).check(
    Schema.makeFilter(
      (o) => {
        const asked = o.parts ?? PARTS[type].filter((p) => p.asked).map((p) => p.name)
        const stray = (o.optionalParts ?? []).find((name) => !asked.includes(name))
        return stray === undefined
          ? undefined
          : {
              path: ["optionalParts"],
              issue: `optionalParts names "${stray}", which is not asked (parts: ${asked.join(", ")})`
            }
      },
      { expected: "optionalParts within parts" }
    )
  )
  return { fields, schema }
}

const contactOptions = partsOptionsOf("contact")
const addressOptions = partsOptionsOf("address")

/**
 * Options of a `contact` question (a person's details in one step): `parts`,
 * which of `name`, `email`, `phone`, `company` to ask and in which order
 * (name, e-mail and phone when absent), and `optionalParts`, the asked parts
 * that may be left empty (none when absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(ContactOptions)({ parts: ["name", "email", "company"], optionalParts: ["company"] })
 * ```
 */
export const ContactOptions = contactOptions.schema

/** Decoded {@link ContactOptions}. @example `const o: ContactOptions = { parts: ["name", "email"] }` */
export type ContactOptions = typeof ContactOptions.Type

/**
 * Options of an `address` question: `parts`, which of `line1`, `line2`,
 * `city`, `region`, `postalCode`, `country` to ask and in which order (all
 * when absent), and `optionalParts`, the asked parts that may be left empty
 * (`line2` and `region` when absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(AddressOptions)({ parts: ["line1", "city", "postalCode"] })
 * ```
 */
export const AddressOptions = addressOptions.schema

/** Decoded {@link AddressOptions}. @example `const o: AddressOptions = { optionalParts: [] }` */
export type AddressOptions = typeof AddressOptions.Type

/**
 * The parts a `contact` or `address` question asks, in order, with whether
 * each may be left empty: its options, or the defaults. Empty for other types.
 *
 * @example
 * ```ts
 * partsOf({ type: "contact", options: null }).map((p) => [p.name, p.optional])
 * // [["name", false], ["email", false], ["phone", false]]
 * ```
 */
export const partsOf = (field: {
  readonly type: FieldType
  readonly options: AnyFieldOptions | null
}): ReadonlyArray<PartInfo> => {
  if (field.type !== "contact" && field.type !== "address") return []
  const all: ReadonlyArray<PartInfo> = PARTS[field.type]
  const names = field.options?.parts ?? all.filter((p) => p.asked).map((p) => p.name)
  const optional = field.options?.optionalParts
  return names.flatMap((name) => {
    const info = all.find((p) => p.name === name)
    return info === undefined
      ? []
      : [{ ...info, optional: optional === undefined ? info.optional : optional.includes(name) }]
  })
}

/**
 * The range, step and end labels a `slider` question shows, with the
 * defaults filled in.
 *
 * @example
 * ```ts
 * sliderOf({ options: { max: 10 } }) // { min: 0, max: 10, step: 1 }
 * ```
 */
export const sliderOf = (field: {
  readonly options: AnyFieldOptions | null
}): {
  readonly min: number
  readonly max: number
  readonly step: number
  readonly minLabel?: string
  readonly maxLabel?: string
} => {
  const options = field.options
  return {
    min: options?.min ?? DEFAULT_SLIDER.min,
    max: options?.max ?? DEFAULT_SLIDER.max,
    step: options?.step ?? DEFAULT_SLIDER.step,
    ...(options?.minLabel === undefined ? {} : { minLabel: options.minLabel }),
    ...(options?.maxLabel === undefined ? {} : { maxLabel: options.maxLabel })
  }
}

/**
 * The range and end labels a scale question (`nps`, `opinion_scale`) shows,
 * with the defaults filled in.
 *
 * @example
 * ```ts
 * scaleOf({ type: "nps", options: null }) // { min: 0, max: 10, minLabel: "Not at all likely", maxLabel: "Extremely likely" }
 * ```
 */
export const scaleOf = (field: {
  readonly type: FieldType
  readonly options: AnyFieldOptions | null
}): { readonly min: number; readonly max: number; readonly minLabel?: string; readonly maxLabel?: string } => {
  const options = field.options
  if (field.type === "nps") {
    return {
      min: 0,
      max: 10,
      minLabel: options?.minLabel ?? DEFAULT_NPS_LABELS.minLabel,
      maxLabel: options?.maxLabel ?? DEFAULT_NPS_LABELS.maxLabel
    }
  }
  return {
    min: options?.min ?? DEFAULT_SCALE.min,
    max: options?.max ?? DEFAULT_SCALE.max,
    ...(options?.minLabel === undefined ? {} : { minLabel: options.minLabel }),
    ...(options?.maxLabel === undefined ? {} : { maxLabel: options.maxLabel })
  }
}

/** Decoded {@link FileOptions}. @example `const o: FileOptions = { maxSizeMb: 5 }` */
export type FileOptions = typeof FileOptions.Type

const plainOptionKeys = Object.keys(TextOptionFields)

/**
 * The option keys each question type takes, read from its options schema
 * (what the application's builder offers, served to it by the server).
 *
 * @example
 * ```ts
 * optionKeys.rating // ["placeholder", "help", "max"]
 * ```
 */
export const optionKeys: { readonly [Type in FieldType]: ReadonlyArray<string> } = {
  short_text: plainOptionKeys,
  long_text: plainOptionKeys,
  email: plainOptionKeys,
  tel: plainOptionKeys,
  url: plainOptionKeys,
  date: plainOptionKeys,
  time: plainOptionKeys,
  datetime: plainOptionKeys,
  yes_no: plainOptionKeys,
  legal: plainOptionKeys,
  signature: plainOptionKeys,
  statement: plainOptionKeys,
  select: Object.keys(SelectOptionFields),
  checkboxes: Object.keys(CheckboxesOptionFields),
  number: Object.keys(NumberOptionFields),
  rating: Object.keys(RatingOptionFields),
  nps: Object.keys(NpsOptionFields),
  opinion_scale: Object.keys(OpinionScaleOptionFields),
  slider: Object.keys(SliderOptionFields),
  contact: Object.keys(contactOptions.fields),
  address: Object.keys(addressOptions.fields),
  matrix: Object.keys(MatrixOptionFields),
  ranking: Object.keys(RankingOptionFields),
  file: Object.keys(FileOptionFields)
}

/**
 * The decoded options of any question type (a union of the per-type option
 * types).
 *
 * @example
 * ```ts
 * const o: FieldOptions = { choices: ["Yes", "No"] }
 * ```
 */
export type FieldOptions =
  | BaseOptions
  | SelectOptions
  | CheckboxesOptions
  | NumberOptions
  | RatingOptions
  | NpsOptions
  | OpinionScaleOptions
  | SliderOptions
  | ContactOptions
  | AddressOptions
  | MatrixOptions
  | RankingOptions
  | FileOptions

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
  maxSizeMb: Schema.optionalKey(Schema.Finite),
  minLabel: Schema.optionalKey(Schema.String),
  maxLabel: Schema.optionalKey(Schema.String),
  parts: Schema.optionalKey(Schema.Array(Schema.String)),
  optionalParts: Schema.optionalKey(Schema.Array(Schema.String)),
  rows: Schema.optionalKey(Schema.Array(Schema.String)),
  columns: Schema.optionalKey(Schema.Array(Schema.String)),
  multiple: Schema.optionalKey(Schema.Boolean),
  minRows: Schema.optionalKey(Schema.Int),
  top: Schema.optionalKey(Schema.Int),
  randomize: Schema.optionalKey(Schema.Boolean),
  allowOther: Schema.optionalKey(Schema.Boolean),
  otherLabel: Schema.optionalKey(Schema.String),
  quotas: Schema.optionalKey(Schema.Record(Schema.String, Schema.Finite)),
  points: Schema.optionalKey(Schema.Record(Schema.String, Schema.Finite)),
  images: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
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

/**
 * What a client sends to create or replace a question. A union discriminated
 * by `type`:
 *
 * - `select` / `checkboxes` / `ranking` require `options` with `choices`; `matrix` requires `options` with `rows` and `columns`;
 * - `number`, `rating`, `nps`, `opinion_scale`, `slider`, `contact`, `address`, `file` take optional (or `null`) typed options;
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
    Schema.Struct({ type: Schema.Literal("matrix"), ...base, options: MatrixOptions }),
    Schema.Struct({ type: Schema.Literal("ranking"), ...base, options: RankingOptions }),
    Schema.Struct({ type: Schema.Literal("number"), ...base, options: optionalOptions(NumberOptions) }),
    Schema.Struct({ type: Schema.Literal("rating"), ...base, options: optionalOptions(RatingOptions) }),
    Schema.Struct({ type: Schema.Literal("nps"), ...base, options: optionalOptions(NpsOptions) }),
    Schema.Struct({ type: Schema.Literal("opinion_scale"), ...base, options: optionalOptions(OpinionScaleOptions) }),
    Schema.Struct({ type: Schema.Literal("slider"), ...base, options: optionalOptions(SliderOptions) }),
    Schema.Struct({ type: Schema.Literal("contact"), ...base, options: optionalOptions(ContactOptions) }),
    Schema.Struct({ type: Schema.Literal("address"), ...base, options: optionalOptions(AddressOptions) }),
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
