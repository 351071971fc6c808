/**
 * The `currency` question type: an amount of money and its currency, by its
 * ISO 4217 code (`{"amount": 12.5, "currency": "EUR"}`), shown with
 * `Intl.NumberFormat` ("€12.50"). Its options: `currency`, the code the
 * amount is in (or, with `currencies`, the one chosen first), `currencies`,
 * the codes the respondent chooses from (every code when neither is given),
 * and `min` / `max`, the amount's bounds. An amount takes at most its
 * currency's decimals (two for EUR, none for JPY).
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { attr, html, strictStruct } from "../../kernel/index.ts"
import { bad, isOnStep, ok } from "./AnswerChecks.ts"
import { TextOptionFields } from "./OptionFields.ts"
import { describedBy, invalid, questionLabel } from "./PageControls.ts"
import { postedNumber, postedUnder } from "./PostedAnswers.ts"
import { type Options, questionType } from "./QuestionType.ts"
import { widthOf } from "./SheetColumns.ts"

/** The ISO 4217 codes this runtime formats (`Intl.supportedValuesOf`). */
export const currencyCodes: ReadonlyArray<string> = Intl.supportedValuesOf("currency")

const known: ReadonlySet<string> = new Set(currencyCodes)

/**
 * Whether a text is an ISO 4217 currency code (upper case, as `EUR`).
 *
 * @example
 * ```ts
 * isCurrencyCode("EUR") // true
 * isCurrencyCode("eur") // false
 * ```
 */
export const isCurrencyCode = (code: string): boolean => known.has(code)

const Code = Schema.String.check(
  Schema.makeFilter(
    (code: string) =>
      isCurrencyCode(code)
        ? undefined
        : `${JSON.stringify(code)} is not an ISO 4217 currency code (such as EUR or USD)`,
    { expected: "an ISO 4217 currency code" }
  )
)

/**
 * Options of a `currency` question: `currency` (the ISO 4217 code the amount
 * is in; with `currencies`, the one chosen first), `currencies` (1..50
 * distinct codes the respondent chooses from; every code when neither is
 * given), and `min` / `max` (the amount's bounds, min ≤ max). Unknown keys
 * are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(CurrencyOptions)({ currency: "EUR", min: 0 })
 * Schema.decodeUnknownSync(CurrencyOptions)({ currencies: ["EUR", "USD", "GBP"], currency: "USD" })
 * ```
 */
export const CurrencyOptions = strictStruct({
  ...TextOptionFields,
  currency: Schema.optionalKey(Code),
  currencies: Schema.optionalKey(
    Schema.Array(Code).check(
      Schema.isMinLength(1, { message: "currencies must contain at least 1 item" }),
      Schema.isMaxLength(50, { message: "currencies must contain at most 50 items" }),
      Schema.isUnique({ message: "currencies must not contain duplicates" })
    )
  ),
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite)
}).check(
  Schema.makeFilter(
    (o) => {
      if (o.min !== undefined && o.max !== undefined && o.min > o.max) {
        return { path: ["max"], issue: "max must be greater than or equal to min" }
      }
      return o.currency !== undefined && o.currencies !== undefined && !o.currencies.includes(o.currency)
        ? { path: ["currency"], issue: `currency must be one of currencies (${o.currencies.join(", ")})` }
        : undefined
    },
    { expected: "min ≤ max, currency among currencies" }
  )
)

/** Decoded {@link CurrencyOptions}. @example `const o: CurrencyOptions = { currency: "EUR" }` */
export type CurrencyOptions = typeof CurrencyOptions.Type

/** The stored option keys a `currency` question adds. */
const storedOptions = {
  currency: Schema.optionalKey(Schema.String),
  currencies: Schema.optionalKey(Schema.Array(Schema.String))
}

/**
 * The answer to a `currency` question: the amount and its currency's ISO
 * 4217 code.
 *
 * @example
 * ```ts
 * const a: CurrencyAnswer = { amount: 12.5, currency: "EUR" }
 * ```
 */
export const CurrencyAnswer = Schema.Struct({ amount: Schema.Finite, currency: Schema.String }).annotate({
  identifier: "CurrencyAnswer",
  description: "An amount of money and its currency's ISO 4217 code."
})

/** A decoded {@link CurrencyAnswer}. @example `const amount: CurrencyAnswer["amount"] = 12.5` */
export type CurrencyAnswer = typeof CurrencyAnswer.Type

/**
 * A currency answer as submitted: the amount (a number, or its text), and the
 * code, which the question's own `currency` stands in for when it is absent.
 */
const CurrencyAnswerInput = Schema.Struct({
  amount: Schema.NullOr(Schema.Union([Schema.Finite, Schema.String])),
  currency: Schema.optionalKey(Schema.NullOr(Schema.String))
}).annotate({
  identifier: "CurrencyAnswerInput",
  description: "An amount of money: `amount`, and `currency`, its ISO 4217 code (the question's own when absent)."
})

/** Whether a value is a currency answer as stored. */
const isCurrencyAnswer = (value: unknown): value is CurrencyAnswer =>
  Predicate.isObject(value) &&
  !Array.isArray(value) &&
  Object.keys(value).length === 2 &&
  Predicate.isNumber(value["amount"]) &&
  Predicate.isString(value["currency"])

type CurrencyField = { readonly options: Options<typeof storedOptions> | null }

/** The codes a question's respondent chooses from; undefined: any code. */
const offeredCodes = (field: CurrencyField): ReadonlyArray<string> | undefined =>
  field.options?.currencies ?? (field.options?.currency === undefined ? undefined : [field.options.currency])

/** The code chosen first, and assumed when an answer names none. */
const defaultCode = (field: CurrencyField): string | undefined => {
  const offered = offeredCodes(field)
  return field.options?.currency ?? (offered?.length === 1 ? offered[0] : undefined)
}

const formats = new Map<string, Intl.NumberFormat>()
/** The amount's format in a currency (English, as exports and lists write answers). */
const formatOf = (code: string): Intl.NumberFormat => {
  let format = formats.get(code)
  if (format === undefined)
    formats.set(code, (format = new Intl.NumberFormat("en", { style: "currency", currency: code })))
  return format
}

/** How many decimals an amount in a currency takes (2 for EUR, 0 for JPY). */
const decimalsOf = (code: string): number => formatOf(code).resolvedOptions().maximumFractionDigits ?? 2

/**
 * An amount of money as text: `€12.50` (with `Intl.NumberFormat`), or the
 * amount and the code when the code is none the runtime knows.
 *
 * @example
 * ```ts
 * money(12.5, "EUR") // "€12.50"
 * ```
 */
export const money = (amount: number, code: string): string =>
  isCurrencyCode(code) ? formatOf(code).format(amount) : `${amount} ${code}`

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i

/** Currency words and signs as the offline generator hears them, with their codes. */
const spoken: ReadonlyArray<readonly [RegExp, string]> = [
  [/€|\beuros?\b/i, "EUR"],
  [/£|\bpounds?\s+sterling\b/i, "GBP"],
  [/¥|\byen\b/i, "JPY"],
  [/\$|\bdollars?\b/i, "USD"],
  [/\bswiss\s+francs?\b/i, "CHF"]
]

/** An amount of money in its currency. */
export const Currency = questionType({
  type: "currency",
  label: "Amount of money",
  options: CurrencyOptions,
  storedOptions,
  answerShape: {
    value: CurrencyAnswer,
    input: CurrencyAnswerInput,
    description: "Also an amount of money: `{amount, currency}`, its currency by its ISO 4217 code."
  },
  check: (field, value, q) => {
    if (!Predicate.isObject(value) || Array.isArray(value)) return bad("answer.currencyAmount", { q })
    if (Object.keys(value).some((key) => key !== "amount" && key !== "currency")) {
      return bad("answer.currencyAmount", { q })
    }
    const raw = value["amount"]
    const amount = Predicate.isNumber(raw)
      ? raw
      : Predicate.isString(raw) && NUMBER.test(raw.trim())
        ? Number(raw.trim())
        : Number.NaN
    if (!Number.isFinite(amount)) return bad("answer.currencyAmount", { q })
    const given = value["currency"]
    if (given !== undefined && given !== null && !Predicate.isString(given)) return bad("answer.currencyCode", { q })
    const named = Predicate.isString(given) ? given.trim().toUpperCase() : ""
    const code = named === "" ? defaultCode(field) : named
    const offered = offeredCodes(field)
    if (code === undefined || (offered === undefined && !isCurrencyCode(code))) return bad("answer.currencyCode", { q })
    if (offered !== undefined && !offered.includes(code)) {
      return bad("answer.currencyOneOf", { q, codes: offered.join(", ") })
    }
    const min = field.options?.min
    const max = field.options?.max
    if (min !== undefined && amount < min) return bad("answer.atLeast", { q, min })
    if (max !== undefined && amount > max) return bad("answer.atMost", { q, max })
    const decimals = decimalsOf(code)
    if (!isOnStep(amount, 0, 10 ** -decimals)) {
      return bad("answer.currencyDecimals", { q, currency: code, count: decimals })
    }
    return ok({ amount, currency: code })
  },
  // The amount typed (`a`) and the currency chosen (`a.currency`).
  parse: (_field, answers, parts) => {
    const amount = postedNumber(answers)
    if (amount === undefined) return undefined
    const code = postedUnder(parts, "currency")[0]
    return code === undefined ? { amount } : { amount, currency: code }
  },
  view: (field, { entered, error, voice }) => {
    const offered = offeredCodes(field) ?? currencyCodes
    const chosen = entered.parts?.currency?.[0] ?? defaultCode(field) ?? ""
    const amount = entered.texts[0] ?? entered.parts?.amount?.[0] ?? ""
    return html`${questionLabel(field, voice.say)}
<div class="amount" data-currency><input id="a" name="a" type="number" value="${amount}" autofocus step="any" inputmode="decimal"${attr(
      "required",
      field.required && "required"
    )}${attr("placeholder", field.options?.placeholder)}${attr("min", field.options?.min)}${attr(
      "max",
      field.options?.max
    )}${attr("aria-describedby", describedBy(field, error, "a-currency"))}${invalid(error)}>
${
  offered.length === 1
    ? html`<span class="currency" id="a-currency">${offered[0]}</span><input type="hidden" name="a.currency" value="${offered[0]}">`
    : html`<label class="sr-only" for="a-currency">${voice.say("question.currency")}</label><select id="a-currency" name="a.currency"${invalid(error)}>
${chosen === "" ? html`<option value="">${voice.say("question.selectPlaceholder")}</option>\n` : null}${offered.map(
  (code) => html`<option value="${code}"${attr("selected", code === chosen && "selected")}>${code}</option>\n`
)}</select>`
}</div>`
  },
  display: (_field, answer) => (isCurrencyAnswer(answer) ? money(answer.amount, answer.currency) : undefined),
  // The amount as a number, and its code beside it.
  sheet: (_field, key, shown) => {
    const code = `${key}: currency`
    return [
      { header: key, width: widthOf(key, 12), cell: (a) => (isCurrencyAnswer(a) ? a.amount : shown(a)) },
      { header: code, width: widthOf(code, 8), cell: (a) => (isCurrencyAnswer(a) ? a.currency : null) }
    ]
  },
  operators: ["equals", "notEquals", "greaterThan", "lessThan", "isEmpty", "isNotEmpty"],
  // Conditions compare the amount.
  comparable: (answer) => (isCurrencyAnswer(answer) ? [String(answer.amount)] : undefined),
  generator: {
    describe:
      "currency (an amount of money: options.currency, its ISO 4217 code such as EUR; options.currencies, the codes " +
      "to choose from; options.min, options.max)",
    heard: {
      hint: /\b(?:price|cost|budget|amount|salary|fees?|donation|spend(?:ing)?|revenue|income|how\s+much)\b.*(?:[€$£¥]|\b(?:currency|eur|usd|gbp|chf|jpy|euros?|dollars?|yen|swiss\s+francs?|pounds?\s+sterling)\b)|(?:[€$£¥]|\b(?:currency|eur|usd|gbp|chf|jpy|euros?|dollars?)\b).*\b(?:price|cost|budget|amount|salary|fees?|donation)\b/i,
      options: (item) => {
        const code =
          /\b(EUR|USD|GBP|CHF|JPY|CAD|AUD|SEK|NOK|DKK|PLN|INR|CNY|BRL|MXN)\b/.exec(item)?.[1] ??
          spoken.find(([pattern]) => pattern.test(item))?.[1]
        return code === undefined ? null : { currency: code }
      }
    }
  }
})
