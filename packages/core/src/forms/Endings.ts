/**
 * A form's endings (`settings.endings`): the screens a respondent may see
 * once their response is sent, instead of the built-in "Thank you!". Each
 * has a title and a message (with recall: `{{field:<id>}}`,
 * `{{hidden:<name>}}`, `{{var:<name>}}`), optionally a button to a link
 * and a redirect. Which one a respondent sees:
 *
 * 1. the ending a logic rule jumped to (`"jumpTo": "ending:<key>"`);
 * 2. else the first whose `when` holds, read after the whole form (answers,
 *    hidden values, the variables' final values: an outcome by score);
 * 3. else the first without `when`;
 * 4. else the built-in one.
 *
 * The chosen ending's key is stored on the response (`values.ending`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { BoundedText } from "../kernel/index.ts"
import type { AnswerValue } from "./Answers.ts"
import type { Field } from "./Fields.ts"
import * as FormLogic from "./FormLogic.ts"

/** The key of the chosen ending in a response's `values` and in flat answers. */
export const endingKey = "ending"

const Key = Schema.String.check(
  Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_-]{0,39}$/, {
    message: "an ending's key starts with a letter or _ and has at most 40 letters, digits, _ or -"
  })
)

/** A text of the form: trimmed, 1 to `max` characters. */
const text = BoundedText

/** The address as a browser writes it, when it is an http(s) one. */
const webAddress = (url: string): string | undefined => {
  if (!URL.canParse(url)) return undefined
  const parsed = new URL(url)
  return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined
}

const PLACEHOLDER = /\{\{[^{}]{0,60}\}\}/g

/** The longest link an ending may name (before recall). */
export const maxUrlLength = 2000

/**
 * A link of an ending (its button, its redirect): `http:` or `https:`, with
 * recall in it (each recalled value is URL-encoded where it goes), at most
 * {@link maxUrlLength} characters.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(EndingUrl)("https://example.com/next?score={{var:score}}")
 * ```
 */
export const EndingUrl = Schema.Trim.check(
  Schema.isMaxLength(maxUrlLength, { message: `an ending's link must be at most ${maxUrlLength} characters` }),
  Schema.makeFilter((url: string) => {
    const one = webAddress(url.replace(PLACEHOLDER, "x"))
    const other = webAddress(url.replace(PLACEHOLDER, "y"))
    if (one === undefined || other === undefined) {
      return `an ending's link must be an http: or https: address, not ${JSON.stringify(url.slice(0, 80))}`
    }
    // Recall only after the host: a respondent's answer never chooses where the page sends them.
    return new URL(one).origin === new URL(other).origin
      ? undefined
      : "an ending's link may recall answers in its path, query or fragment, not in its host"
  })
).annotate({
  description: "An http(s) address; {{field:<id>}}, {{hidden:<name>}} and {{var:<name>}} are filled in, URL-encoded"
})

/**
 * One ending of a form.
 *
 * @example
 * ```ts
 * const e: Ending = {
 *   key: "top",
 *   title: "Well done, {{field:12}}!",
 *   message: "You scored {{var:score}} of 5.",
 *   when: { field: "var:score", greaterThan: 3 },
 *   button: { label: "See the answers", url: "https://example.com/answers" }
 * }
 * ```
 */
export const Ending = Schema.Struct({
  key: Key,
  title: text("an ending's title", 200),
  message: Schema.optionalKey(text("an ending's message", 5000)),
  when: Schema.optionalKey(FormLogic.Condition).annotate({
    description: "Shown when this holds (read after the whole form); without it, the default ending"
  }),
  button: Schema.optionalKey(
    Schema.Struct({ label: text("a button's label", 60), url: EndingUrl }).annotate({ identifier: "EndingButton" })
  ),
  redirectUrl: Schema.optionalKey(EndingUrl).annotate({
    description: "Where the page then takes the respondent (the ending is shown with a link there if it cannot)"
  })
}).annotate({ identifier: "Ending" })
export type Ending = typeof Ending.Type

/**
 * A form's endings: at most 20, keys unique.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Endings)([{ key: "thanks", title: "Thank you, {{field:3}}!" }])
 * ```
 */
export const Endings = Schema.Array(Ending).check(
  Schema.isMaxLength(20, { message: "a form has at most 20 endings" }),
  FormLogic.isUniqueBy((e: Ending) => e.key, "ending")
)

/**
 * The ending a respondent sees (see the module's order), or undefined for
 * the built-in one. `facts` hold the final variables (the walk's).
 *
 * @example
 * ```ts
 * choose([{ key: "a", title: "A", when: { field: "var:score", greaterThan: 2 } }, { key: "b", title: "B" }],
 *   undefined, { values: {}, hidden: {}, variables: { score: 1 } })?.key // "b"
 * ```
 */
export const choose = (
  endings: ReadonlyArray<Ending> | undefined,
  jumped: string | undefined,
  facts: FormLogic.Facts
): Ending | undefined => {
  if (endings === undefined || endings.length === 0) return undefined
  const named = jumped === undefined ? undefined : endings.find((e) => e.key === jumped)
  return (
    named ??
    endings.find((e) => e.when !== undefined && FormLogic.evaluate(e.when, facts)) ??
    endings.find((e) => e.when === undefined)
  )
}

/** An ending with its recall filled in: the texts as they read, the links with their values URL-encoded. */
export interface FilledEnding {
  readonly key: string
  readonly title: string
  readonly message: string | undefined
  readonly button: { readonly label: string; readonly url: string } | undefined
  readonly redirectUrl: string | undefined
}

/**
 * Fills in an ending's recall from a response's answers, hidden values and
 * variables; `format` writes an answer as text (`Summaries.formatAnswer`).
 * A link whose filled-in form is no longer an http(s) address is left out.
 *
 * @example
 * ```ts
 * fill({ key: "t", title: "Thanks {{field:1}}", redirectUrl: "https://x.test/?n={{field:1}}" }, fields,
 *   { values: { "1": "Ada L" }, hidden: {} }, format).redirectUrl // "https://x.test/?n=Ada%20L"
 * ```
 */
export const fill = (
  ending: Ending,
  fields: ReadonlyArray<Field>,
  facts: FormLogic.Facts,
  format: (field: Field, value: AnswerValue) => string
): FilledEnding => {
  const say = (text: string) => FormLogic.recall(text, fields, facts, format)
  const link = (url: string) => {
    return webAddress(FormLogic.recall(url, fields, facts, format, encodeURIComponent))
  }
  const buttonUrl = ending.button === undefined ? undefined : link(ending.button.url)
  return {
    key: ending.key,
    title: say(ending.title),
    message: ending.message === undefined ? undefined : say(ending.message),
    button:
      ending.button === undefined || buttonUrl === undefined
        ? undefined
        : { label: say(ending.button.label), url: buttonUrl },
    redirectUrl: ending.redirectUrl === undefined ? undefined : link(ending.redirectUrl)
  }
}

/**
 * The facts of a stored response, as conditions and recall read them: its
 * answers by question id, its hidden values and variables (stored as
 * `hidden:<name>` and `var:<name>`).
 *
 * @example
 * ```ts
 * factsOfStored({ "1": "Ada", "hidden:ref": "news", "var:score": 3 })
 * // { values: { "1": "Ada", ... }, hidden: { ref: "news" }, variables: { score: 3 } }
 * ```
 */
export const factsOfStored = (values: Readonly<Record<string, unknown>>): FormLogic.Facts => {
  const hidden: Record<string, string> = {}
  const variables: Record<string, FormLogic.VariableValue> = {}
  for (const [key, value] of Object.entries(values)) {
    if (key.startsWith(FormLogic.hiddenPrefix) && typeof value === "string") {
      hidden[key.slice(FormLogic.hiddenPrefix.length)] = value
    } else if (key.startsWith(FormLogic.variablePrefix) && (typeof value === "string" || typeof value === "number")) {
      variables[key.slice(FormLogic.variablePrefix.length)] = value
    }
  }
  return { values, hidden, variables }
}
