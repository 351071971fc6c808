/**
 * The `legal` question type: terms or a consent the respondent accepts (the
 * label is the statement accepted). Required, it must be accepted; the
 * answer is the respondent's own: never pre-filled from a link, never edited
 * by a member or on the status page. Its options are only a placeholder and
 * help.
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
import { yesAndNo } from "./YesNo.ts"

/** Terms or a consent to accept. */
export const Legal = questionType({
  type: "legal",
  label: "Legal (must be accepted)",
  options: BaseOptions,
  consent: true,
  check: (field, value, q) => {
    if (!Predicate.isBoolean(value)) return bad("answer.legal", { q })
    return value || !field.required ? ok(value) : bad("answer.mustAccept", { q })
  },
  requiredMessage: "answer.mustAccept",
  parse: (_field, answers) => postedBoolean(answers),
  view: (field, { voice, entered, error }) =>
    group(
      voice.say,
      field,
      error,
      "checkbox",
      [{ value: "yes", label: voice.say("question.accept") }],
      entered.texts,
      "legal"
    ),
  sheet: (_field, key, shown) => [booleanColumn(key, shown)],
  summary: { kind: "choices", named: yesAndNo },
  tallyKeys: booleanKeys,
  operators: ["equals", "notEquals", "isEmpty", "isNotEmpty"],
  generator: {
    describe:
      "legal (terms or consent the respondent must accept: the label is the statement accepted; set required to true)"
  }
})
