/**
 * The question types of a scale: `rating` (1 to `max` stars, 5 by default),
 * `nps` (Net Promoter Score: 0 to 10, with end labels), `opinion_scale` (a
 * whole number from `min` 0 or 1 to `max` 2..10, with end labels) and
 * `slider` (a number from `min` to `max` on a `step`, picked on a track).
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { attr, DisplayTrim, html, strictStruct } from "../../kernel/index.ts"
import { onScale, wholeNumber } from "./AnswerChecks.ts"
import { TextOptionFields } from "./OptionFields.ts"
import { describedBy, group, invalid, numberChoices, questionLabel } from "./PageControls.ts"
import { postedNumber } from "./PostedAnswers.ts"
import { type PageView, type QuestionField, questionType } from "./QuestionType.ts"
import { numberColumn } from "./SheetColumns.ts"
import type { StoredOptions } from "./StoredOptions.ts"
import { numberKeys } from "./TallyKeys.ts"
import { numberOperators } from "./Number.ts"

/** Default number of stars of a `rating` question when `options.max` is absent. */
export const DEFAULT_RATING_MAX = 5

/** The range of an `opinion_scale` question when `options.min` / `options.max` are absent. */
export const DEFAULT_SCALE = { min: 1, max: 5 } as const

/** The range and step of a `slider` question when its options name none. */
export const DEFAULT_SLIDER = { min: 0, max: 100, step: 1 } as const

/** The end labels of an `nps` question when its options name none. */
export const DEFAULT_NPS_LABELS = { minLabel: "Not at all likely", maxLabel: "Extremely likely" } as const

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

const EndLabel = DisplayTrim.check(
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
export const NpsOptions = strictStruct({ ...TextOptionFields, ...EndLabelFields })

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
export const OpinionScaleOptions = strictStruct({
  ...TextOptionFields,
  min: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1 }, { message: "min must be 0 or 1" }))
  ),
  max: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 2, maximum: 10 }, { message: "max must be an integer from 2 to 10" }))
  ),
  ...EndLabelFields
})

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
export const SliderOptions = strictStruct({
  ...TextOptionFields,
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite),
  step: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0, { message: "step must be greater than 0" }))),
  ...EndLabelFields
}).check(
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
  readonly options: StoredOptions | null
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
  readonly type: string
  readonly options: StoredOptions | null
}): { readonly min: number; readonly max: number; readonly minLabel?: string; readonly maxLabel?: string } => {
  const options = field.options
  if (field.type === Nps.type) {
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

/** The whole numbers of a scale question, from its `min` to its `max`. */
const scaleValues = (field: QuestionField): ReadonlyArray<number> => {
  const { min, max } = scaleOf(field)
  return Array.from({ length: max - min + 1 }, (_, i) => min + i)
}

const round = (value: number, digits: number): number => {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

/** A scale of whole numbers as radio buttons, with its hint (an NPS without labels has the page's). */
const scaleView = (field: QuestionField, view: PageView) => {
  const { voice, entered, error } = view
  const options = field.options
  const scale = scaleOf(field)
  // An NPS question without labels of its own has the page's, in the page's language.
  const nps = field.type === Nps.type
  const hint = voice.say("question.scale", {
    min: scale.min,
    max: scale.max,
    minLabel:
      (nps && options?.minLabel === undefined ? voice.say("question.npsLow") : scale.minLabel) ??
      voice.say("question.lowest"),
    maxLabel:
      (nps && options?.maxLabel === undefined ? voice.say("question.npsHigh") : scale.maxLabel) ??
      voice.say("question.highest")
  })
  return group(voice.say, field, error, "radio", numberChoices(scale.min, scale.max), entered.texts, "rating", hint)
}

/** Stars: a whole number from 1 to `max`. */
export const Rating = questionType({
  type: "rating",
  label: "Rating",
  look: { kind: "scale", min: 1, max: DEFAULT_RATING_MAX },
  options: RatingOptions,
  check: (field, value, q) => wholeNumber(q, value, 1, field.options?.max ?? DEFAULT_RATING_MAX),
  parse: (_field, answers) => postedNumber(answers),
  view: (field, { voice, entered, error }) => {
    const max = field.options?.max ?? DEFAULT_RATING_MAX
    return group(
      voice.say,
      field,
      error,
      "radio",
      numberChoices(1, max),
      entered.texts,
      "rating",
      voice.say("question.scale", {
        min: 1,
        max,
        minLabel: voice.say("question.lowest"),
        maxLabel: voice.say("question.highest")
      })
    )
  },
  display: (field, answer) =>
    Predicate.isNumber(answer) ? `${answer}/${field.options?.max ?? DEFAULT_RATING_MAX}` : undefined,
  sheet: (_field, key, shown) => [numberColumn(key, shown)],
  summary: {
    kind: "numbers",
    scale: (field) => Array.from({ length: field.options?.max ?? 5 }, (_, i) => i + 1)
  },
  tallyKeys: numberKeys,
  operators: numberOperators,
  generator: { describe: "rating (stars; options.max from 2 to 10)" }
})

/** The Net Promoter Score's question: how likely, from 0 to 10. */
export const Nps = questionType({
  type: "nps",
  label: "Net Promoter Score (0–10)",
  look: { kind: "scale", min: 0, max: 10 },
  options: NpsOptions,
  check: (field, value, q) => {
    const { min, max } = scaleOf(field)
    return wholeNumber(q, value, min, max)
  },
  parse: (_field, answers) => postedNumber(answers),
  view: (field, view) => scaleView(field, view),
  sheet: (_field, key, shown) => [numberColumn(key, shown)],
  summary: { kind: "numbers", scale: scaleValues, nps: true },
  tallyKeys: numberKeys,
  operators: numberOperators,
  generator: { describe: "nps (how likely to recommend, 0 to 10; options.minLabel and options.maxLabel)" }
})

/** Agreement or another scale of whole numbers. */
export const OpinionScale = questionType({
  type: "opinion_scale",
  label: "Opinion scale",
  look: { kind: "scale", ...DEFAULT_SCALE },
  options: OpinionScaleOptions,
  check: (field, value, q) => {
    const { min, max } = scaleOf(field)
    return wholeNumber(q, value, min, max)
  },
  parse: (_field, answers) => postedNumber(answers),
  view: (field, view) => scaleView(field, view),
  sheet: (_field, key, shown) => [numberColumn(key, shown)],
  summary: { kind: "numbers", scale: scaleValues },
  tallyKeys: numberKeys,
  operators: numberOperators,
  generator: {
    describe:
      "opinion_scale (agreement or a scale; options.min 0 or 1, options.max from 2 to 10, options.minLabel, options.maxLabel)"
  }
})

/** A number picked on a track. */
export const Slider = questionType({
  type: "slider",
  label: "Slider",
  look: { kind: "range", min: DEFAULT_SLIDER.min, max: DEFAULT_SLIDER.max },
  options: SliderOptions,
  check: (field, value, q) => {
    const { min, max, step } = sliderOf(field)
    return onScale(q, value, min, max, step)
  },
  parse: (_field, answers) => postedNumber(answers),
  view: (field, { voice, entered, error }) => {
    // A number box the page's script pairs with a range track (a slider without JavaScript would
    // always post a value, even for a question left unanswered).
    const slider = sliderOf(field)
    const end = (value: number, label: string | undefined) =>
      label === undefined ? value : voice.say("question.sliderEnd", { value, label })
    const min = end(slider.min, slider.minLabel)
    const max = end(slider.max, slider.maxLabel)
    const hint =
      slider.step === 1
        ? voice.say("question.sliderRange", { min, max })
        : voice.say("question.sliderRangeStep", { min, max, step: slider.step })
    return html`${questionLabel(field, voice.say)}
<div class="slider" data-slider><input id="a" name="a" type="number" value="${entered.texts[0] ?? ""}" autofocus min="${slider.min}" max="${
      slider.max
    }" step="${slider.step}" inputmode="decimal"${attr("required", field.required && "required")}${attr(
      "placeholder",
      field.options?.placeholder
    )}${attr("aria-describedby", describedBy(field, error, "slider-hint"))}${invalid(error)}></div>
<p class="hint" id="slider-hint">${hint}</p>`
  },
  sheet: (_field, key, shown) => [numberColumn(key, shown)],
  summary: {
    kind: "numbers",
    scale: (field) => {
      const { min, max, step } = sliderOf(field)
      const steps = Math.floor((max - min) / step + 1e-9)
      return steps <= 100 ? Array.from({ length: steps + 1 }, (_, i) => round(min + i * step, 6)) : undefined
    }
  },
  tallyKeys: numberKeys,
  operators: numberOperators,
  generator: {
    describe: "slider (a number on a track; options.min, options.max, options.step, options.minLabel, options.maxLabel)"
  }
})
