/**
 * The question types of a list of choices: `select` (one choice: radio
 * buttons, or a dropdown past seven choices) and `checkboxes` (several, with
 * `minSelections` and `maxSelections`). Both may shuffle their choices per
 * respondent (`randomize`), offer "Other" with a text box (`allowOther`,
 * `otherLabel`), give each choice a number of places (`quotas`), points
 * towards the form's score (`points`) and a picture (`images`).
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { attr, DisplayTrim, type Html, html, strictStruct } from "../../kernel/index.ts"
import { ImageId } from "../ImageRefs.ts"
import { bad, ok } from "./AnswerChecks.ts"
import { Choices, NonNegativeInt, PositiveInt, RandomizeField, TextOptionFields } from "./OptionFields.ts"
import { describedBy, type GroupChoice, group, invalid, ordered, questionLabel } from "./PageControls.ts"
import { postedUnder } from "./PostedAnswers.ts"
import {
  type Check,
  type Entered,
  type PageView,
  type Posted,
  type QuestionField,
  questionType,
  type Say
} from "./QuestionType.ts"
import { widthOf } from "./SheetColumns.ts"
import type { StoredOptions } from "./StoredOptions.ts"

/** The label of the "Other" choice when a question does not name its own. */
export const DEFAULT_OTHER_LABEL = "Other"

/** The most characters of an answer typed for "Other" (as long as a choice may be). */
export const OTHER_MAX = 200

const OtherFields = {
  /** Adds an "Other" choice with a text box; the answer is then the text typed (at most 200 characters). */
  allowOther: Schema.optionalKey(Schema.Boolean),
  /** The label of that choice (default "Other"), 1..100 characters. */
  otherLabel: Schema.optionalKey(
    DisplayTrim.check(
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
export const quotasOf = (field: { readonly options: StoredOptions | null }): ReadonlyArray<readonly [string, number]> =>
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
export const otherOf = (field: { readonly options: StoredOptions | null }): string | undefined =>
  field.options?.allowOther === true ? (field.options.otherLabel ?? DEFAULT_OTHER_LABEL) : undefined

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
export const SelectOptions = strictStruct({
  ...TextOptionFields,
  choices: Choices,
  ...RandomizeField,
  ...OtherFields,
  ...QuotaFields,
  ...PointsFields,
  ...ImagesFields
}).check(
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
export const CheckboxesOptions = strictStruct({
  ...TextOptionFields,
  choices: Choices,
  minSelections: Schema.optionalKey(NonNegativeInt),
  maxSelections: Schema.optionalKey(PositiveInt),
  ...RandomizeField,
  ...OtherFields,
  ...QuotaFields,
  ...PointsFields,
  ...ImagesFields
}).check(
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

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

/** The message of a text typed for "Other" that is too long (select, checkboxes). */
const otherTooLong = (q: string): Check => bad("answer.otherTooLong", { q, max: OTHER_MAX })

const checkSelect = (field: QuestionField, value: unknown, q: string): Check => {
  const other = otherOf(field)
  const message = other === undefined ? "answer.oneOfChoices" : "answer.oneOfChoicesOrText"
  if (!Predicate.isString(value)) return bad(message, { q })
  const s = value.trim()
  if ((field.options?.choices ?? []).includes(s)) return ok(s)
  if (other === undefined) return bad(message, { q })
  return s.length > OTHER_MAX ? otherTooLong(q) : ok(s)
}

const checkCheckboxes = (field: QuestionField, value: unknown, q: string): Check => {
  const options = field.options
  if (!Array.isArray(value) || !value.every(Predicate.isString)) return bad("answer.choiceList", { q })
  const choices = options?.choices ?? []
  const picked = value.map((s) => s.trim())
  const unknown = picked.filter((s) => !choices.includes(s))
  // With Other, one answer may be any text (it goes last); without, every answer is a choice.
  const other = otherOf(field)
  if (other === undefined) {
    if (unknown[0] !== undefined) return bad("answer.unknownChoice", { q, choice: JSON.stringify(unknown[0]) })
  } else if (unknown[0] !== undefined) {
    if (unknown.length > 1) return bad("answer.oneOther", { q, count: unknown.length })
    if (unknown[0] === "") return bad("answer.typeOther", { q, other: JSON.stringify(other) })
    if (unknown[0].length > OTHER_MAX) return otherTooLong(q)
  }
  if (new Set(picked).size !== picked.length) return bad("answer.repeatChoice", { q })
  const min = options?.minSelections
  const max = options?.maxSelections
  if (min !== undefined && picked.length < min) {
    return bad("answer.minSelections", { q, count: min })
  }
  if (max !== undefined && picked.length > max) {
    return bad("answer.maxSelections", { q, count: max })
  }
  return ok([...choices.filter((c) => picked.includes(c)), ...unknown])
}

// ---------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------

/** The text typed in the Other box (`a.other`), trimmed; "" when none. */
const otherText = (parts: Posted): string => postedUnder(parts, "other")[0]?.trim() ?? ""

/** "Other" chosen with its box left empty. */
const postedProblem = (field: QuestionField, answers: ReadonlyArray<string>, parts: Posted, say: Say) => {
  const other = otherOf(field)
  if (other === undefined || !answers.includes(other) || otherText(parts) !== "") return undefined
  const named = field.options?.otherLabel === undefined ? say("question.other") : other
  return say("answer.typeOther", { q: JSON.stringify(field.label), other: JSON.stringify(named) })
}

/** Past this many choices a `select` question is a dropdown instead of radio buttons. */
export const maxRadioChoices = 7

/** The Other choice of a question that offers it: its value and label, the text typed for it, and whether it is chosen. */
interface OtherChoice {
  /** What the page posts for it: the form's own label of the choice. */
  readonly value: string
  /** What the respondent reads. */
  readonly label: string
  readonly text: string
  readonly chosen: boolean
}

const otherChoice = (field: QuestionField, entered: Entered, voice: PageView["voice"]): OtherChoice | undefined => {
  const label = otherOf(field)
  if (label === undefined) return undefined
  // The built-in label is the page's word; one the form set is the form's text.
  const shown =
    field.options?.otherLabel === undefined ? voice.say("question.other") : voice.wording.choice(field, label)
  const choices = field.options?.choices ?? []
  // A kept answer holds the typed text itself; a refused step holds the label and the box's text.
  const kept = entered.texts.find((t) => t.trim() !== "" && t !== label && !choices.includes(t))
  return {
    value: label,
    label: shown,
    text: entered.parts?.other?.[0] ?? kept ?? "",
    chosen: entered.texts.includes(label) || kept !== undefined
  }
}

/** The text box of the Other choice. */
const otherBox = (other: OtherChoice, error: string | undefined, say: Say): Html =>
  html`<div class="part other"><label for="a-other">${say("question.otherAnswer", { choice: other.label })}</label>
<input id="a-other" name="a.other" type="text" value="${other.text}" maxlength="${OTHER_MAX}" data-other-text${attr(
    "aria-describedby",
    error ? "error" : null
  )}${attr("aria-invalid", error ? "true" : false)}></div>`

/** A question's choices in the respondent's order, then its Other choice; and which of them are checked. */
const choiceList = (field: QuestionField, view: PageView) => {
  const { entered, voice, full } = view
  const choices = ordered(field, view.seed)
  const other = otherChoice(field, entered, voice)
  const images = field.options?.images ?? {}
  const imageOf = (c: string) => (Object.hasOwn(images, c) ? view.imageSrc(images[c]!) : undefined)
  const listed: ReadonlyArray<GroupChoice> = [
    // A choice whose quota is used up is shown, marked full, and cannot be chosen.
    ...choices.map((c) => {
      const label = voice.wording.choice(field, c)
      return full.has(c)
        ? {
            value: c,
            label: voice.say("question.full", { choice: label }),
            other: false,
            disabled: true,
            image: imageOf(c)
          }
        : { value: c, label, other: false, image: imageOf(c) }
    }),
    ...(other === undefined ? [] : [{ value: other.value, label: other.label, other: true }])
  ]
  return {
    other,
    after: other === undefined ? undefined : otherBox(other, view.error, voice.say),
    pictures: Object.keys(images).length > 0,
    choices: listed,
    checked: [...entered.texts.filter((t) => choices.includes(t)), ...(other?.chosen ? [other.value] : [])]
  }
}

const selectView = (field: QuestionField, view: PageView): Html => {
  const { error, voice } = view
  const list = choiceList(field, view)
  // Many choices fit a dropdown, unless they have pictures (a dropdown cannot show them).
  if (list.choices.length > maxRadioChoices && !list.pictures) {
    const chosen = list.checked[0]
    return html`${questionLabel(field, voice.say)}
<select id="a" name="a" autofocus${attr("required", field.required && "required")}${attr(
      "aria-describedby",
      describedBy(field, error)
    )}${invalid(error)}>
<option value="">${voice.say("question.selectPlaceholder")}</option>
${list.choices.map(
  (c) =>
    html`<option value="${c.value}"${attr("selected", c.value === chosen ? "selected" : false)}${attr(
      "data-other",
      c.other === true && ""
    )}${attr("disabled", c.disabled === true && "disabled")}>${c.label}</option>\n`
)}</select>
${list.after ?? null}`
  }
  return group(voice.say, field, error, "radio", list.choices, list.checked, "", undefined, list.after)
}

const checkboxHint = (field: QuestionField, say: Say): string => {
  const min = field.options?.minSelections
  const max = field.options?.maxSelections
  if (min !== undefined && max !== undefined)
    return min === max ? say("question.chooseExactly", { count: min }) : say("question.chooseRange", { min, max })
  if (min !== undefined && min > 0) return say("question.chooseAtLeast", { min })
  if (max !== undefined) return say("question.chooseUpTo", { max })
  return say("question.chooseAny")
}

/** The choices as the summary names them: each choice, by its own text. */
const namedChoices = (field: QuestionField) => (field.options?.choices ?? []).map((c) => [c, c] as const)

const choiceOperators = ["equals", "notEquals", "contains", "notContains", "anyOf", "isEmpty", "isNotEmpty"] as const

/** What the model is told of writing lists of choices (select, checkboxes, ranking). */
const choiceAdvice =
  "select and checkboxes need options.choices (distinct, short); instead of a choice called Other, set options.allowOther " +
  "to true (an Other choice with a text box); options.randomize shuffles the choices (also for ranking). " +
  "For a quiz or a test with right answers, give select and checkboxes options.points: the points of each right choice " +
  '(such as {"Paris": 1}); the points are added up into the score.'

/** One choice of a list. */
export const Select = questionType({
  type: "select",
  label: "One choice",
  options: SelectOptions,
  optionsRequired: true,
  check: checkSelect,
  control: { kind: "choice" },
  parse: (field, answers, parts) => {
    // "Other" stands for the text typed in its box; a text typed with nothing chosen is meant as Other too.
    const first = (answers[0] ?? "").trim()
    const other = otherOf(field)
    const typed = otherText(parts)
    if (other !== undefined && (first === other || (first === "" && typed !== ""))) return typed
    return first === "" ? undefined : answers[0]
  },
  postedProblem,
  view: selectView,
  summary: { kind: "choices", named: namedChoices },
  tallyKeys: ({ typed, key, text }) => ({
    scalars: [`case when ${typed("string")} then ${key("c:")} || left(${text}, 200) end`],
    arrays: []
  }),
  operators: choiceOperators,
  generator: { describe: "select (one choice)", advice: choiceAdvice }
})

/** Several choices of a list. */
export const Checkboxes = questionType({
  type: "checkboxes",
  label: "Several choices",
  options: CheckboxesOptions,
  optionsRequired: true,
  check: checkCheckboxes,
  control: { kind: "choices" },
  parse: (field, answers, parts) => {
    const other = otherOf(field)
    return other === undefined ? answers : answers.map((a) => (a === other ? otherText(parts) : a))
  },
  postedProblem,
  view: (field, view) => {
    const list = choiceList(field, view)
    return group(
      view.voice.say,
      field,
      view.error,
      "checkbox",
      list.choices,
      list.checked,
      "",
      checkboxHint(field, view.voice.say),
      list.after
    )
  },
  // One column per choice (`TRUE` or blank), then the Other text when the question has one.
  sheet: (field, key) => {
    const choices = field.options?.choices ?? []
    const other = otherOf(field)
    const picked = (answer: unknown): ReadonlyArray<string> => (Array.isArray(answer) ? answer : [])
    const columns = choices.map((choice) => {
      const header = `${key}: ${choice}`
      return { header, width: widthOf(header, 8), cell: (a: unknown) => (picked(a).includes(choice) ? true : null) }
    })
    if (other === undefined) return columns
    const header = `${key}: ${other}`
    return [
      ...columns,
      { header, width: widthOf(header, 16), cell: (a: unknown) => picked(a).find((c) => !choices.includes(c)) ?? "" }
    ]
  },
  summary: { kind: "choices", named: namedChoices },
  tallyKeys: ({ key, elements }) => ({
    scalars: [],
    arrays: [`array(select ${key("c:")} || left(e, 200) from jsonb_array_elements_text(${elements("array")}) e)`]
  }),
  operators: [...choiceOperators, "allOf"],
  generator: { describe: "checkboxes (several choices)", advice: choiceAdvice }
})
