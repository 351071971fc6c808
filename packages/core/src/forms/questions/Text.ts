/**
 * The text question types: `short_text` (one line, ≤ 1000 characters),
 * `long_text` (several lines, ≤ 10,000), and the texts of a format: `email`
 * (an e-mail address, the respondent's when it is theirs), `tel` (a phone
 * number of 7 digits or more) and `url` (an http(s) address, ≤ 2000
 * characters). Their options are only a placeholder and help.
 *
 * @module
 */
import { attr, html } from "../../kernel/index.ts"
import { formatted, isEmail, isPhone, text } from "./AnswerChecks.ts"
import { BaseOptions } from "./OptionFields.ts"
import { describedBy, inputBox, invalid, questionLabel } from "./PageControls.ts"
import { type AnswerControl, questionType } from "./QuestionType.ts"
import { textColumn, WIDE } from "./SheetColumns.ts"

/** The text's operators: conditions compare it, look into it, or ask whether it is given. */
const textOperators = ["equals", "notEquals", "contains", "notContains", "isEmpty", "isNotEmpty"] as const

const isHttpUrl = (s: string): boolean => {
  if (!URL.canParse(s)) return false
  const protocol = new URL(s).protocol
  return protocol === "http:" || protocol === "https:"
}

/** The one-line inputs of the texts, and the lines of a long text (their page views draw them). */
const controls = {
  short: { kind: "line", type: "text", maxLength: 1000 },
  long: { kind: "lines", maxLength: 10000 },
  email: { kind: "line", type: "email", autocomplete: "email" },
  tel: { kind: "line", type: "tel", autocomplete: "tel" },
  url: { kind: "line", type: "url", autocomplete: "url" }
} as const satisfies Record<string, AnswerControl>

/** A one-line text: a name, a title, a short answer. */
export const ShortText = questionType({
  type: "short_text",
  label: "Short text",
  options: BaseOptions,
  respondent: { nameByLabel: true },
  check: (_field, value, q) => text(q, value, controls.short.maxLength),
  control: controls.short,
  view: (field, view) => inputBox(field, view, controls.short),
  summary: { kind: "texts", words: true },
  operators: textOperators
})

/** Several lines of text: comments, a description, a message. */
export const LongText = questionType({
  type: "long_text",
  label: "Long text",
  options: BaseOptions,
  check: (_field, value, q) => text(q, value, controls.long.maxLength),
  control: controls.long,
  view: (field, { entered, error, voice }) => html`${questionLabel(field, voice.say)}
<textarea id="a" name="a" rows="5" autofocus maxlength="${controls.long.maxLength}"${attr("required", field.required && "required")}${attr(
    "placeholder",
    field.options?.placeholder
  )}${attr("aria-describedby", describedBy(field, error, "newline-hint"))}${invalid(error)}>${entered.texts[0] ?? ""}</textarea>
<p class="hint" id="newline-hint">${voice.say("question.newLine")}</p>`,
  sheet: (_field, key, shown) => [textColumn(key, shown, WIDE)],
  summary: { kind: "texts", words: true },
  operators: textOperators
})

/** An e-mail address: the respondent's, for the case and the e-mails sent to them. */
export const Email = questionType({
  type: "email",
  label: "E-mail",
  options: BaseOptions,
  respondent: { email: true },
  check: formatted("answer.email", isEmail),
  control: controls.email,
  view: (field, view) => inputBox(field, view, controls.email),
  operators: textOperators
})

/** A phone number. */
export const Tel = questionType({
  type: "tel",
  label: "Phone",
  options: BaseOptions,
  check: formatted("answer.phone", isPhone),
  control: controls.tel,
  view: (field, view) => inputBox(field, view, controls.tel),
  operators: textOperators
})

/** A web address (http or https). */
export const Url = questionType({
  type: "url",
  label: "Web address",
  options: BaseOptions,
  check: formatted("answer.url", (s) => s.length <= 2000 && isHttpUrl(s)),
  control: controls.url,
  view: (field, view) => inputBox(field, view, controls.url),
  operators: textOperators
})
