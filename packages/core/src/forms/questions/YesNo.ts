/**
 * The `yes_no` question type: yes or no (a boolean). Its options are only a
 * placeholder and help.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import { bad, ok } from "./AnswerChecks.ts"
import { BaseOptions } from "./OptionFields.ts"
import { group } from "./PageControls.ts"
import { postedBoolean } from "./PostedAnswers.ts"
import { questionType } from "./QuestionType.ts"
import { booleanColumn } from "./SheetColumns.ts"
import { booleanKeys } from "./TallyKeys.ts"

/** A yes or a no as the summary counts them (`c:true`, `c:false`). */
export const yesAndNo = () =>
  [
    ["true", "Yes"],
    ["false", "No"]
  ] as const

/** Yes or no. */
export const YesNo = questionType({
  type: "yes_no",
  label: "Yes / no",
  look: { kind: "yesNo" },
  options: BaseOptions,
  check: (_field, value, q) => (Predicate.isBoolean(value) ? ok(value) : bad("answer.boolean", { q })),
  parse: (_field, answers) => postedBoolean(answers),
  view: (field, { voice, entered, error }) =>
    group(
      voice.say,
      field,
      error,
      "radio",
      [
        { value: "yes", label: voice.say("question.yes") },
        { value: "no", label: voice.say("question.no") }
      ],
      entered.texts,
      "yes-no"
    ),
  sheet: (_field, key, shown) => [booleanColumn(key, shown)],
  summary: { kind: "choices", named: yesAndNo },
  tallyKeys: booleanKeys,
  operators: ["equals", "notEquals", "isEmpty", "isNotEmpty"]
})
