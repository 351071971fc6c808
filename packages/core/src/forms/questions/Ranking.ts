/**
 * The `ranking` question type: put the choices in order (2..20 of them),
 * every one or only the first `top` places. The answer is the choices in
 * place order. The page without JavaScript asks each choice's place in a
 * select; its script turns them into a list moved with buttons or dragged.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { attr, type Html, html, strictStruct } from "../../kernel/index.ts"
import { bad, ok } from "./AnswerChecks.ts"
import { Choices, PositiveIntOf, RandomizeField, TextOptionFields } from "./OptionFields.ts"
import { describedBy, legend, ordered } from "./PageControls.ts"
import { postedUnder } from "./PostedAnswers.ts"
import { type Check, type PageView, type QuestionField, questionType } from "./QuestionType.ts"
import { textColumn, WIDE } from "./SheetColumns.ts"
import type { StoredOptions } from "./StoredOptions.ts"

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
export const RankingOptions = strictStruct({
  ...TextOptionFields,
  /** The choices to put in order (2..20, distinct). */
  choices: Choices,
  /** Rank only the first `top` places (every choice when absent). */
  top: Schema.optionalKey(PositiveIntOf("top")),
  ...RandomizeField
}).check(
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
 * How many places a `ranking` question asks for: `top`, or every choice.
 *
 * @example
 * ```ts
 * rankedPlaces({ options: { choices: ["A", "B", "C"], top: 2 } }) // 2
 * ```
 */
export const rankedPlaces = (field: { readonly options: StoredOptions | null }): number =>
  field.options?.top ?? field.options?.choices?.length ?? 0

/** A ranking: the choices in order, each once, as many as the places asked. */
const checkRanking = (field: QuestionField, value: unknown, q: string): Check => {
  if (!Array.isArray(value) || !value.every(Predicate.isString)) return bad("answer.rankingList", { q })
  const choices = field.options?.choices ?? []
  const ranked = value.map((s) => s.trim())
  const unknown = ranked.find((s) => !choices.includes(s))
  if (unknown !== undefined) return bad("answer.unknownChoice", { q, choice: JSON.stringify(unknown) })
  if (new Set(ranked).size !== ranked.length) return bad("answer.repeatChoice", { q })
  const places = rankedPlaces(field)
  if (ranked.length !== places) {
    return bad(places === choices.length ? "answer.rankAll" : "answer.rankExactly", {
      q,
      count: places,
      ranked: ranked.length
    })
  }
  return ok(ranked)
}

/**
 * A ranking: a place select per choice (the page without JavaScript); the
 * page's script turns it into a list moved with buttons or dragged, which
 * sets the same selects.
 */
const rankingView = (field: QuestionField, { entered, error, seed, voice }: PageView): Html => {
  const choices = ordered(field, seed)
  const places = rankedPlaces(field)
  const hint =
    places === choices.length ? voice.say("question.rankAll") : voice.say("question.rankTop", { count: places })
  // The places posted (a step that failed), or those of a kept answer.
  const placeOf = (choice: string): string => {
    const posted =
      entered.parts !== undefined && Object.hasOwn(entered.parts, choice) ? entered.parts[choice] : undefined
    if (posted !== undefined) return posted[0] ?? ""
    const index = entered.texts.indexOf(choice)
    return index === -1 ? "" : String(index + 1)
  }
  return html`<fieldset${attr("aria-describedby", describedBy(field, error, "choice-hint"))}>
${legend(field, voice.say)}
<p class="hint" id="choice-hint">${hint}</p>
<div class="ranking" data-ranking data-places="${places}">
${choices.map((choice, index) => {
  const place = placeOf(choice)
  return html`<div class="rank-item"><select id="rank-${index}" name="a.${choice}"${attr(
    "autofocus",
    index === 0 && "autofocus"
  )}${attr("aria-invalid", error ? "true" : false)}>
<option value="">${voice.say("question.noPlace")}</option>
${Array.from({ length: places }, (_, i) => {
  const value = String(i + 1)
  return html`<option value="${value}"${attr("selected", place === value && "selected")}>${value}</option>`
})}</select> <label for="rank-${index}">${voice.wording.choice(field, choice)}</label></div>\n`
})}</div>
</fieldset>`
}

/** Choices put in order. */
export const Ranking = questionType({
  type: "ranking",
  label: "Ranking (put in order)",
  options: RankingOptions,
  optionsRequired: true,
  check: checkRanking,
  parse: (field, _answers, posted) => {
    // Each choice's place, from its own select (`a.<choice>`): the placed choices in place order.
    const choices = field.options?.choices ?? []
    const placed = choices.flatMap((choice, index) => {
      const place = Number(postedUnder(posted, choice)[0] ?? "")
      return Number.isInteger(place) && place >= 1 ? [{ choice, place, index }] : []
    })
    placed.sort((a, b) => a.place - b.place || a.index - b.index)
    return placed.length === 0 ? undefined : placed.map((p) => p.choice)
  },
  // A place given twice, or not one of those offered.
  postedProblem: (field, _answers, posted, say) => {
    const q = JSON.stringify(field.label)
    const places = rankedPlaces(field)
    const seen = new Map<number, string>()
    for (const choice of field.options?.choices ?? []) {
      const raw = postedUnder(posted, choice)[0]?.trim() ?? ""
      if (raw === "") continue
      const place = Number(raw)
      if (!Number.isInteger(place) || place < 1 || place > places) return say("answer.rankPlace", { q, max: places })
      const before = seen.get(place)
      if (before !== undefined)
        return say("answer.rankSamePlace", { q, first: JSON.stringify(before), second: JSON.stringify(choice), place })
      seen.set(place, choice)
    }
    return undefined
  },
  view: rankingView,
  // "1. First, 2. Second"
  display: (_field, answer) =>
    Array.isArray(answer) ? answer.map((choice, index) => `${index + 1}. ${choice}`).join(", ") : undefined,
  sheet: (_field, key, shown) => [textColumn(key, shown, WIDE)],
  summary: { kind: "ranking" },
  tallyKeys: ({ key, elements }) => ({
    scalars: [],
    arrays: [
      `array(select ${key("r:")} || left(e.value, 200) || chr(31) || e.n ` +
        `from jsonb_array_elements_text(${elements("array")}) with ordinality e(value, n))`
    ]
  }),
  operators: ["contains", "notContains", "isEmpty", "isNotEmpty"],
  generator: {
    describe: "ranking (put choices in order: options.choices, 2 to 20; options.top to rank only the first places)"
  }
})
