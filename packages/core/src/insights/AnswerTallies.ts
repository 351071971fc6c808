/**
 * Answer tallies: how many responses carry each answer key of a question, and
 * the summary of each question read from them. The keys are made by the
 * database (`qforms_answer_keys`, migration 0029) both for the tallies kept as
 * responses arrive and for a filtered list counted on the spot, so both read
 * the same here:
 *
 * - `a`: answered (a real answer);
 * - `c:<choice>`: a choice of a select or checkboxes question (any text not
 *   among the question's choices now is "Other"), `c:true`/`c:false` of a
 *   yes/no or legal question, `c:drawn`/`c:typed` of a signature;
 * - `n:<number>`: a number, rating, NPS, opinion scale or slider answer;
 * - `m:<row>`: a matrix row answered; `m:<row>\u001f<column>`: a matrix cell;
 * - `r:<choice>\u001f<place>`: a ranked choice and its place (1 = first);
 * - `d:<yyyy-mm>`: the month of a date or date-time; `h:<hh>`: the hour of a time;
 * - question 0: `n` (responses), `s:<source>`, `t:<seconds>` (time to
 *   complete, two significant figures).
 *
 * Everything here is pure.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { byPosition, type Field, type FieldType, otherOf, QuestionTypes, type SummaryHints } from "../forms/index.ts"

/** One tally: question `fieldId` (0 for the response itself), its key, and how many responses carry it. */
export interface Tally {
  readonly fieldId: number
  readonly key: string
  readonly count: number
}

/** The unit separator between a matrix row and its column, or a ranked choice and its place. */
const SEPARATOR = "\u001f"

/** The longest name a key keeps of a choice, row or column (the database cuts at 200 characters). */
const KEY_NAME_MAX = 200

/** A name as a key keeps it: its first 200 characters (code points, as the database counts). */
export const keyName = (name: string): string => {
  if (name.length <= KEY_NAME_MAX) return name
  const points = Array.from(name)
  return points.length <= KEY_NAME_MAX ? name : points.slice(0, KEY_NAME_MAX).join("")
}

const Percent = Schema.Number.annotate({
  description: "Share of the question's answers, in percent, one decimal (checkboxes: several per answer)."
})

/** A choice (or column, or value) with its count. */
export const ChoiceCount = Schema.Struct({
  choice: Schema.String,
  count: Schema.Int,
  percent: Percent
}).annotate({ identifier: "ChoiceCount" })
export type ChoiceCount = typeof ChoiceCount.Type

/** The fields every question's summary has after its `kind` (spread into each kind's Schema; built by `baseOf`). */
const common = {
  fieldId: Schema.Int,
  label: Schema.String,
  type: Schema.String.annotate({ description: "The question's type (`select`, `rating`, `long_text`, …)." }),
  answered: Schema.Int.annotate({ description: "Responses in the summary that answered the question." }),
  withheld: Schema.optional(Schema.Literal(true)).annotate({
    description:
      "Extension: true for a viewer on a sensitive question: its answers are not summarised for a role that reads " +
      "them masked (a summary narrowed to one person would give them away); only `answered` is counted."
  })
}

/** Select, checkboxes, yes/no and legal questions: the count and share of each choice, and of Other. */
export const ChoicesSummary = Schema.Struct({
  kind: Schema.Literal("choices"),
  ...common,
  choices: Schema.Array(ChoiceCount),
  other: Schema.NullOr(ChoiceCount).annotate({
    description: "Answers that are none of the choices (typed for Other, or a choice since removed); null without."
  })
}).annotate({ identifier: "ChoicesSummary" })

/** A bar of a distribution: the values from `from` to `to` (equal for one value). */
export const Bin = Schema.Struct({
  from: Schema.Number,
  to: Schema.Number,
  count: Schema.Int,
  percent: Percent
}).annotate({ identifier: "DistributionBin" })
export type Bin = typeof Bin.Type

/** The Net Promoter Score of an NPS question: promoters (9–10) minus detractors (0–6), in percent. */
export const NpsScore = Schema.Struct({
  score: Schema.Number.annotate({ description: "From -100 to 100, one decimal." }),
  promoters: Schema.Int,
  passives: Schema.Int,
  detractors: Schema.Int
}).annotate({ identifier: "NpsScore" })
export type NpsScore = typeof NpsScore.Type

/** Number, rating, NPS, opinion scale and slider questions. */
export const NumbersSummary = Schema.Struct({
  kind: Schema.Literal("numbers"),
  ...common,
  mean: Schema.NullOr(Schema.Number),
  median: Schema.NullOr(Schema.Number),
  p25: Schema.NullOr(Schema.Number),
  p75: Schema.NullOr(Schema.Number),
  p90: Schema.NullOr(Schema.Number),
  min: Schema.NullOr(Schema.Number),
  max: Schema.NullOr(Schema.Number),
  distribution: Schema.Array(Bin).annotate({
    description:
      "One bar per value of a scale (every value of its range, answered or not); a number question with more " +
      "than 30 distinct answers in 20 bars of equal width."
  }),
  nps: Schema.NullOr(NpsScore)
}).annotate({ identifier: "NumbersSummary" })

/** A matrix question: per row, the count and share of each column. */
export const MatrixSummary = Schema.Struct({
  kind: Schema.Literal("matrix"),
  ...common,
  rows: Schema.Array(
    Schema.Struct({
      row: Schema.String,
      answered: Schema.Int,
      columns: Schema.Array(ChoiceCount)
    })
  )
}).annotate({ identifier: "MatrixSummary" })

/** A ranking question: each choice's average place (1 = first) and how often it took each place. */
export const RankingSummary = Schema.Struct({
  kind: Schema.Literal("ranking"),
  ...common,
  items: Schema.Array(
    Schema.Struct({
      choice: Schema.String,
      averagePlace: Schema.NullOr(Schema.Number),
      places: Schema.Array(Schema.Int).annotate({ description: "How many ranked it first, second, …" })
    })
  ).annotate({ description: "Best average place first; choices never ranked last." })
}).annotate({ identifier: "RankingSummary" })

/** Date and date-time questions (per month), time questions (per hour). */
export const DatesSummary = Schema.Struct({
  kind: Schema.Literal("dates"),
  ...common,
  unit: Schema.Literals(["month", "hour"]),
  buckets: Schema.Array(ChoiceCount).annotate({
    description: "`2026-05` per month (every month from the first to the last answered), `09` per hour (0–23)."
  })
}).annotate({ identifier: "DatesSummary" })

/** A text answer as the summary shows it. */
export const TextSample = Schema.Struct({
  responseId: Schema.Int,
  submittedAt: Schema.String,
  text: Schema.String
}).annotate({ identifier: "TextSample" })
export type TextSample = typeof TextSample.Type

/** A word and how many of the latest answers use it. */
export const WordCount = Schema.Struct({ word: Schema.String, count: Schema.Int }).annotate({
  identifier: "WordCount"
})
export type WordCount = typeof WordCount.Type

/** Text questions (short and long text, e-mail, phone, URL, contact, address). */
export const TextsSummary = Schema.Struct({
  kind: Schema.Literal("texts"),
  ...common,
  latest: Schema.Array(TextSample),
  words: Schema.Array(WordCount).annotate({
    description: "The most frequent words of the latest 1,000 answers, without the stop words of the form's languages."
  })
}).annotate({ identifier: "TextsSummary" })

/** File and signature questions: how many answered (a signature: drawn or typed). */
export const FilesSummary = Schema.Struct({
  kind: Schema.Literal("files"),
  ...common,
  drawn: Schema.optionalKey(Schema.Int),
  typed: Schema.optionalKey(Schema.Int)
}).annotate({ identifier: "FilesSummary" })

/** The summary of one question, by its kind. */
export const QuestionSummary = Schema.Union([
  ChoicesSummary,
  NumbersSummary,
  MatrixSummary,
  RankingSummary,
  DatesSummary,
  TextsSummary,
  FilesSummary
]).annotate({ identifier: "QuestionSummary" })
export type QuestionSummary = typeof QuestionSummary.Type

/** How the summary reads a question's tallies: its type's hints (none for a statement; texts by default). */
const hintsOf = (field: Pick<Field, "type">): SummaryHints | undefined => {
  const type = QuestionTypes.typeOf(field)
  return type.answered === false ? undefined : (type.summary ?? { kind: "texts" })
}

/**
 * The kind of summary a question type has (statements have none).
 *
 * @example
 * ```ts
 * kindOf("nps") // "numbers"
 * ```
 */
export const kindOf = (type: FieldType): QuestionSummary["kind"] | undefined => hintsOf({ type })?.kind

/**
 * Whether the summary counts the frequent words of a question's answers (a
 * text type that says so: short and long texts).
 *
 * @example
 * ```ts
 * countsWords({ type: "long_text" }) // true
 * ```
 */
export const countsWords = (field: Pick<Field, "type">): boolean => {
  const hints = hintsOf(field)
  return hints?.kind === "texts" && hints.words === true
}

/** `part` of `whole` in percent, one decimal (0 of nothing). */
export const percentOf = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10

const round = (value: number, digits = 2): number => {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

/**
 * The value at quantile `q` (0–1) of a distribution given as sorted
 * `[value, count]` pairs, interpolated between neighbours as PostgreSQL's
 * `percentile_cont` and spreadsheets' PERCENTILE do.
 *
 * @example
 * ```ts
 * quantile([[1, 1], [2, 1], [3, 1], [4, 1]], 0.5) // 2.5
 * ```
 */
export const quantile = (sorted: ReadonlyArray<readonly [number, number]>, q: number): number | null => {
  const total = sorted.reduce((n, [, count]) => n + count, 0)
  if (total === 0) return null
  const position = q * (total - 1)
  const valueAt = (index: number): number => {
    let seen = 0
    for (const [value, count] of sorted) {
      seen += count
      if (index < seen) return value
    }
    return sorted.at(-1)![0]
  }
  const lower = Math.floor(position)
  const below = valueAt(lower)
  const above = valueAt(Math.ceil(position))
  return below + (above - below) * (position - lower)
}

/** A question's tallies by key. */
type Keys = ReadonlyMap<string, number>

/** A summary's `kind` and common fields, in the order its JSON lists them; each kind adds its own after them. */
const baseOf = <K extends QuestionSummary["kind"]>(kind: K, field: Field, answered: number) => ({
  kind,
  fieldId: field.id,
  label: field.label,
  type: field.type,
  answered
})

/** A question's summary with nothing of its answers: empty of each kind, `withheld: true`. */
const withheldSummary = (field: Field, hints: SummaryHints, answered: number): QuestionSummary => {
  const withheld = { withheld: true as const }
  const kind = hints.kind
  switch (kind) {
    case "choices":
      return { ...baseOf(kind, field, answered), ...withheld, choices: [], other: null }
    case "numbers":
      return {
        ...baseOf(kind, field, answered),
        ...withheld,
        mean: null,
        median: null,
        p25: null,
        p75: null,
        p90: null,
        min: null,
        max: null,
        distribution: [],
        nps: null
      }
    case "matrix":
      return { ...baseOf(kind, field, answered), ...withheld, rows: [] }
    case "ranking":
      return { ...baseOf(kind, field, answered), ...withheld, items: [] }
    case "dates":
      return { ...baseOf(kind, field, answered), ...withheld, unit: hints.unit, buckets: [] }
    case "files":
      return { ...baseOf(kind, field, answered), ...withheld }
    case "texts":
      return { ...baseOf(kind, field, answered), ...withheld, latest: [], words: [] }
  }
}

const choicesSummary = (
  field: Field,
  hints: Extract<SummaryHints, { readonly kind: "choices" }>,
  keys: Keys,
  answered: number
): typeof ChoicesSummary.Type => {
  const named = hints.named(field).map(([value, name]) => [keyName(value), name])
  const known = new Set(named.map(([key]) => `c:${key}`))
  const choices = named.map(([key, choice]) => {
    const count = keys.get(`c:${key}`) ?? 0
    return { choice: choice!, count, percent: percentOf(count, answered) }
  })
  let others = 0
  for (const [key, count] of keys) if (key.startsWith("c:") && !known.has(key)) others += count
  const otherLabel = otherOf(field) ?? "Other"
  const hasOther = otherOf(field) !== undefined || others > 0
  return {
    ...baseOf("choices", field, answered),
    choices,
    other: hasOther ? { choice: otherLabel, count: others, percent: percentOf(others, answered) } : null
  }
}

/** More distinct answers than this to a number question: the distribution is drawn as {@link BINS} bars. */
const EXACT_MAX = 30
const BINS = 20

const numbersSummary = (
  field: Field,
  hints: Extract<SummaryHints, { readonly kind: "numbers" }>,
  keys: Keys,
  answered: number
): typeof NumbersSummary.Type => {
  const pairs: Array<[number, number]> = []
  for (const [key, count] of keys) {
    if (!key.startsWith("n:") || count <= 0) continue
    const value = Number(key.slice(2))
    if (Number.isFinite(value)) pairs.push([value, count])
  }
  pairs.sort((a, b) => a[0] - b[0])
  const total = pairs.reduce((n, [, count]) => n + count, 0)
  const sum = pairs.reduce((n, [value, count]) => n + value * count, 0)
  const at = (q: number) => {
    const value = quantile(pairs, q)
    return value === null ? null : round(value)
  }
  const scale = hints.scale?.(field)
  let distribution: Array<Bin>
  if (scale !== undefined) {
    const counts = new Map(pairs)
    const values = [...new Set([...scale, ...pairs.map(([value]) => value)])].sort((a, b) => a - b)
    distribution = values.map((value) => {
      const count = counts.get(value) ?? 0
      return { from: value, to: value, count, percent: percentOf(count, total) }
    })
  } else if (pairs.length <= EXACT_MAX) {
    distribution = pairs.map(([value, count]) => ({ from: value, to: value, count, percent: percentOf(count, total) }))
  } else {
    const low = pairs[0]![0]
    const high = pairs.at(-1)![0]
    const width = (high - low) / BINS
    const counts = Array.from({ length: BINS }, () => 0)
    for (const [value, count] of pairs) counts[Math.min(BINS - 1, Math.floor((value - low) / width))]! += count
    distribution = counts.map((count, i) => ({
      from: round(low + i * width, 6),
      to: i === BINS - 1 ? high : round(low + (i + 1) * width, 6),
      count,
      percent: percentOf(count, total)
    }))
  }
  let nps: NpsScore | null = null
  if (hints.nps === true) {
    let promoters = 0
    let passives = 0
    let detractors = 0
    for (const [value, count] of pairs) {
      if (value >= 9) promoters += count
      else if (value >= 7) passives += count
      else detractors += count
    }
    nps = {
      score: total === 0 ? 0 : Math.round(((promoters - detractors) / total) * 1000) / 10,
      promoters,
      passives,
      detractors
    }
  }
  return {
    ...baseOf("numbers", field, answered),
    mean: total === 0 ? null : round(sum / total),
    median: at(0.5),
    p25: at(0.25),
    p75: at(0.75),
    p90: at(0.9),
    min: total === 0 ? null : pairs[0]![0],
    max: total === 0 ? null : pairs.at(-1)![0],
    distribution,
    nps
  }
}

const matrixSummary = (field: Field, keys: Keys, answered: number): typeof MatrixSummary.Type => {
  const columns = field.options?.columns ?? []
  return {
    ...baseOf("matrix", field, answered),
    rows: (field.options?.rows ?? []).map((row) => {
      const prefix = `m:${keyName(row)}${SEPARATOR}`
      const counts = columns.map((column) => keys.get(prefix + keyName(column)) ?? 0)
      const rowAnswered = keys.get(`m:${keyName(row)}`) ?? 0
      return {
        row,
        answered: rowAnswered,
        columns: columns.map((column, i) => ({
          choice: column,
          count: counts[i]!,
          percent: percentOf(counts[i]!, rowAnswered)
        }))
      }
    })
  }
}

const rankingSummary = (field: Field, keys: Keys, answered: number): typeof RankingSummary.Type => {
  const choices = field.options?.choices ?? []
  const items = choices.map((choice) => {
    const prefix = `r:${keyName(choice)}${SEPARATOR}`
    const places: Array<number> = []
    for (const [key, count] of keys) {
      if (!key.startsWith(prefix) || count <= 0) continue
      const place = Number(key.slice(prefix.length))
      if (Number.isInteger(place) && place >= 1 && place <= 200) places[place - 1] = (places[place - 1] ?? 0) + count
    }
    const filled = Array.from(places, (n) => n ?? 0)
    const ranked = filled.reduce((n, count) => n + count, 0)
    const placeSum = filled.reduce((n, count, i) => n + count * (i + 1), 0)
    return { choice, averagePlace: ranked === 0 ? null : round(placeSum / ranked), places: filled }
  })
  const sorted = [...items].sort(
    (a, b) => (a.averagePlace ?? Number.POSITIVE_INFINITY) - (b.averagePlace ?? Number.POSITIVE_INFINITY)
  )
  const width = Math.max(0, ...sorted.map((item) => item.places.length))
  return {
    ...baseOf("ranking", field, answered),
    items: sorted.map((item) => ({
      ...item,
      places: Array.from({ length: width }, (_, i) => item.places[i] ?? 0)
    }))
  }
}

const nextMonth = (month: string): string => {
  const [year, m] = month.split("-").map(Number) as [number, number]
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, "0")}`
}

/** Months from the first to the last answered fill the gaps, up to this many bars (else only answered months). */
const MONTHS_MAX = 240

const datesSummary = (
  field: Field,
  hints: Extract<SummaryHints, { readonly kind: "dates" }>,
  keys: Keys,
  answered: number
): typeof DatesSummary.Type => {
  const base = baseOf("dates", field, answered)
  if (hints.unit === "hour") {
    return {
      ...base,
      unit: "hour",
      buckets: Array.from({ length: 24 }, (_, hour) => {
        const name = String(hour).padStart(2, "0")
        const count = keys.get(`h:${name}`) ?? 0
        return { choice: name, count, percent: percentOf(count, answered) }
      })
    }
  }
  const months = [...keys]
    .filter(([key, count]) => key.startsWith("d:") && /^d:\d{4}-\d{2}$/.test(key) && count > 0)
    .map(([key]) => key.slice(2))
    .sort()
  let names = months
  if (months.length > 1) {
    const filled = [months[0]!]
    while (filled.length < MONTHS_MAX && filled.at(-1)! < months.at(-1)!) filled.push(nextMonth(filled.at(-1)!))
    if (filled.at(-1) === months.at(-1)) names = filled
  }
  return {
    ...base,
    unit: "month",
    buckets: names.map((name) => {
      const count = keys.get(`d:${name}`) ?? 0
      return { choice: name, count, percent: percentOf(count, answered) }
    })
  }
}

/** What a text question's summary adds to its tallies: its latest answers and frequent words. */
export interface TextFacts {
  readonly latest: ReadonlyArray<TextSample>
  readonly words: ReadonlyArray<WordCount>
}

/**
 * The summary of each question (statements left out), in question order,
 * from the tallies of the responses summarized and, for text questions, their
 * latest answers and frequent words.
 *
 * @example
 * ```ts
 * const [rating] = summarizeQuestions([ratingField], [
 *   { fieldId: ratingField.id, key: "a", count: 2 },
 *   { fieldId: ratingField.id, key: "n:4", count: 1 },
 *   { fieldId: ratingField.id, key: "n:5", count: 1 }
 * ], new Map())
 * rating.kind === "numbers" && rating.mean // 4.5
 * ```
 */
export const summarizeQuestions = (
  fields: ReadonlyArray<Field>,
  tallies: ReadonlyArray<Tally>,
  texts: ReadonlyMap<number, TextFacts>,
  withheld: ReadonlySet<number> = new Set()
): ReadonlyArray<QuestionSummary> => {
  const byField = new Map<number, Map<string, number>>()
  for (const tally of tallies) {
    // Of a withheld question, only how many answered it.
    if (withheld.has(tally.fieldId) && tally.key !== "a") continue
    let keys = byField.get(tally.fieldId)
    if (keys === undefined) byField.set(tally.fieldId, (keys = new Map()))
    keys.set(tally.key, (keys.get(tally.key) ?? 0) + tally.count)
  }
  const summaries: Array<QuestionSummary> = []
  for (const field of byPosition(fields)) {
    const hints = hintsOf(field)
    if (hints === undefined) continue
    const keys = byField.get(field.id) ?? new Map<string, number>()
    const answered = Math.max(0, keys.get("a") ?? 0)
    if (withheld.has(field.id)) {
      summaries.push(withheldSummary(field, hints, answered))
      continue
    }
    switch (hints.kind) {
      case "choices":
        summaries.push(choicesSummary(field, hints, keys, answered))
        break
      case "numbers":
        summaries.push(numbersSummary(field, hints, keys, answered))
        break
      case "matrix":
        summaries.push(matrixSummary(field, keys, answered))
        break
      case "ranking":
        summaries.push(rankingSummary(field, keys, answered))
        break
      case "dates":
        summaries.push(datesSummary(field, hints, keys, answered))
        break
      case "files":
        summaries.push({
          ...baseOf("files", field, answered),
          ...(hints.drawnOrTyped === true ? { drawn: keys.get("c:drawn") ?? 0, typed: keys.get("c:typed") ?? 0 } : {})
        })
        break
      case "texts": {
        const facts = texts.get(field.id)
        summaries.push({
          ...baseOf("texts", field, answered),
          latest: facts?.latest ?? [],
          words: facts?.words ?? []
        })
        break
      }
    }
  }
  return summaries
}

/**
 * The median of question 0's `t:<seconds>` tallies (time from opening the
 * page to submitting, two significant figures), or null without any.
 *
 * @example
 * ```ts
 * medianSeconds([{ fieldId: 0, key: "t:40", count: 1 }, { fieldId: 0, key: "t:60", count: 1 }]) // 50
 * ```
 */
export const medianSeconds = (tallies: ReadonlyArray<Tally>): number | null => {
  const pairs: Array<[number, number]> = []
  for (const tally of tallies) {
    if (tally.fieldId !== 0 || !tally.key.startsWith("t:") || tally.count <= 0) continue
    const seconds = Number(tally.key.slice(2))
    if (Number.isFinite(seconds)) pairs.push([seconds, tally.count])
  }
  pairs.sort((a, b) => a[0] - b[0])
  const value = quantile(pairs, 0.5)
  return value === null ? null : Math.round(value)
}

/** Question 0's count of `key` (`n`, `s:form`, …). */
export const totalOf = (tallies: ReadonlyArray<Tally>, key: string): number =>
  tallies.reduce((n, tally) => (tally.fieldId === 0 && tally.key === key ? n + tally.count : n), 0)
