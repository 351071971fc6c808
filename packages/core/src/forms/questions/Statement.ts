/**
 * The `statement` question type: text shown to the respondent (its label as
 * a heading, its help below), which takes no answer: it has no column, no
 * summary, and is never required.
 *
 * @module
 */
import { html, lines } from "../../kernel/index.ts"
import { bad } from "./AnswerChecks.ts"
import { BaseOptions } from "./OptionFields.ts"
import { questionType } from "./QuestionType.ts"

/** Text shown, no answer. */
export const Statement = questionType({
  type: "statement",
  label: "Statement (no answer)",
  options: BaseOptions,
  answered: false,
  check: (_field, _value, q) => bad("answer.noAnswer", { q }),
  parse: () => undefined,
  view: (field) => html`<h2 class="question" id="question" tabindex="-1" data-focus>${field.label}</h2>
${field.options?.help ? html`<p class="help">${lines(field.options.help)}</p>` : null}`,
  operators: [],
  generator: { describe: "statement (text shown to the respondent, no answer)" }
})
