/**
 * The most frequent words of text answers, without the stop words ("the",
 * "und", "في", …) of the form's languages. The database splits the answers
 * at spaces and ASCII punctuation and counts the pieces; here each piece is
 * trimmed of any other punctuation, lower-cased, and dropped when it is a
 * stop word, a number, a single letter or longer than a word gets.
 *
 * Stop words come from the `stopword` package (lists for 62 languages),
 * loaded on the first summary.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import type { WordCount } from "./AnswerTallies.ts"

/** The `stopword` list of each page language (ISO 639-1 and its script or region variants by their base). */
const LISTS: Readonly<Record<string, string>> = {
  ar: "ara",
  de: "deu",
  en: "eng",
  es: "spa",
  fr: "fra",
  he: "heb",
  it: "ita",
  ja: "jpn",
  nl: "nld",
  pl: "pol",
  pt: "por",
  tr: "tur",
  zh: "zho",
  ru: "rus",
  uk: "ukr",
  sv: "swe",
  da: "dan",
  nb: "nob",
  fi: "fin",
  cs: "ces",
  ko: "kor",
  hi: "hin",
  fa: "fas",
  el: "ell",
  hu: "hun",
  ro: "ron",
  id: "ind",
  vi: "vie",
  th: "tha"
}

/** A piece longer than this is not a word (a link, a code, a run of letters). */
const WORD_MAX = 40

/** Punctuation and symbols at either end of a piece. */
const EDGES = /^[\p{P}\p{S}\p{Z}]+|[\p{P}\p{S}\p{Z}]+$/gu
const LETTER = /\p{L}/u

let loaded: Promise<Readonly<Record<string, ReadonlyArray<string>>>> | undefined

/** The stop-word lists, loaded once. */
const lists = Effect.promise(() => {
  loaded ??= import("stopword").then((module) => {
    const stopword = module.default as unknown as Readonly<Record<string, ReadonlyArray<string>>>
    return stopword
  })
  return loaded
})

/**
 * The stop words of `languages` (BCP 47 tags: `de`, `pt-BR`, …; English always).
 *
 * @example
 * ```ts
 * const stop = yield* stopWords(["de"])
 * stop.has("und") // true
 * stop.has("the") // true
 * ```
 */
export const stopWords = (languages: ReadonlyArray<string>) =>
  Effect.map(lists, (all) => {
    const words = new Set<string>()
    for (const language of new Set(["en", ...languages.map((tag) => tag.toLowerCase().split("-")[0]!)])) {
      const name = LISTS[language]
      for (const word of (name === undefined ? undefined : all[name]) ?? []) words.add(word.toLowerCase())
    }
    return words as ReadonlySet<string>
  })

/**
 * The `limit` most frequent words of pieces counted by the database: each
 * piece trimmed of punctuation and lower-cased (pieces that become the same
 * word are added up), without stop words, numbers and single letters; most
 * frequent first, then alphabetically.
 *
 * @example
 * ```ts
 * frequentWords([["delivery", 3], ["the", 9], ["Delivery,", 1], ["42", 5]], new Set(["the"]), 10)
 * // [{ word: "delivery", count: 4 }]
 * ```
 */
export const frequentWords = (
  pieces: ReadonlyArray<readonly [string, number]>,
  stop: ReadonlySet<string>,
  limit: number
): ReadonlyArray<WordCount> => {
  const counts = new Map<string, number>()
  for (const [piece, count] of pieces) {
    const word = piece.replace(EDGES, "").toLocaleLowerCase()
    if (word.length < 2 || word.length > WORD_MAX || !LETTER.test(word) || stop.has(word)) continue
    counts.set(word, (counts.get(word) ?? 0) + count)
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([word, count]) => ({ word, count }))
}
