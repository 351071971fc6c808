/**
 * Language tags and the choice of a language: which tags qforms takes (BCP 47
 * in its canonical case: `de`, `pt-BR`, `zh-Hans`), which way a language is
 * written, what a language calls itself, and which of the languages on offer
 * a respondent gets: the one the link asks for (`?lang=`), else the best of
 * their browser's `Accept-Language`, else the form's own.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/** A language tag: a language (2–3 letters), then optionally a script (`Hans`) and a region (`BR`, `419`). */
const TAG = /^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|\d{3}))?$/

/**
 * A language tag as qforms stores it: BCP 47, canonical case, language with
 * an optional script and region.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(LanguageTag)("pt-BR") // "pt-BR"
 * Schema.decodeUnknownSync(LanguageTag)("pt_br") // throws: "a language must be a tag such as de, pt-BR or zh-Hans"
 * ```
 */
export const LanguageTag = Schema.String.check(
  Schema.makeFilter(
    (tag: string) =>
      canonicalOf(tag) === tag
        ? undefined
        : `a language must be a tag such as de, pt-BR or zh-Hans, not ${JSON.stringify(tag.slice(0, 40))}`,
    { expected: "a BCP 47 language tag such as de, pt-BR or zh-Hans" }
  )
).annotate({
  identifier: "LanguageTag",
  description:
    "A BCP 47 language tag in canonical case: a language, optionally a script and a region (de, pt-BR, zh-Hans)."
})
export type LanguageTag = typeof LanguageTag.Type

/**
 * The canonical form of a tag (`PT-br` → `pt-BR`), or undefined when it is not one.
 *
 * @example
 * ```ts
 * canonicalOf("ZH-hans") // "zh-Hans"
 * canonicalOf("not a tag") // undefined
 * ```
 */
export const canonicalOf = (tag: string): string | undefined => {
  if (tag.length === 0 || tag.length > 16 || !/^[A-Za-z0-9-]+$/.test(tag)) return undefined
  const [language, ...rest] = tag.split("-")
  const canonical = [
    language!.toLowerCase(),
    ...rest.map((p) =>
      p.length === 4 ? p[0]!.toUpperCase() + p.slice(1).toLowerCase() : p.length === 2 ? p.toUpperCase() : p
    )
  ].join("-")
  return TAG.test(canonical) ? canonical : undefined
}

/** Languages written right to left (by their language or script). */
const RTL_LANGUAGES = new Set(["ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug", "syr"])
const RTL_SCRIPTS = new Set(["Arab", "Hebr", "Syrc", "Thaa", "Nkoo", "Adlm", "Rohg"])

/**
 * Which way a language is written: `"rtl"` for Arabic, Hebrew, Persian, Urdu and the like, else `"ltr"`.
 *
 * @example
 * ```ts
 * directionOf("ar") // "rtl"
 * directionOf("he-IL") // "rtl"
 * directionOf("de") // "ltr"
 * ```
 */
export const directionOf = (tag: string): "ltr" | "rtl" => {
  const [language, script] = tag.split("-")
  if (script !== undefined && RTL_SCRIPTS.has(script)) return "rtl"
  return RTL_LANGUAGES.has(language ?? "") ? "rtl" : "ltr"
}

/**
 * What a language calls itself (`de` → "Deutsch"), for a language switcher.
 *
 * @example
 * ```ts
 * nativeName("ja") // "日本語"
 * ```
 */
export const nativeName = (tag: string): string => {
  const name = new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1)
}

/** At most this many languages of an `Accept-Language` header are read. */
const MAX_ACCEPTED = 20

/**
 * The languages an `Accept-Language` header asks for, best first (by `q`,
 * then by order); `*` and malformed entries are passed over. Reads at most
 * the first 1,000 characters and 20 entries: a header is untrusted input.
 *
 * @example
 * ```ts
 * acceptedLanguages("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5") // ["fr-CH", "fr", "en"]
 * ```
 */
export const acceptedLanguages = (header: string | undefined): ReadonlyArray<string> => {
  if (header === undefined || header === "") return []
  const entries: Array<{ readonly tag: string; readonly q: number; readonly at: number }> = []
  for (const entry of header.slice(0, 1000).split(",", MAX_ACCEPTED)) {
    const [range, ...params] = entry.trim().split(";")
    const tag = canonicalOf(range?.trim() ?? "")
    if (tag === undefined) continue
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    const q = weight === undefined ? 1 : Number(weight.slice(2))
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue
    entries.push({ tag, q, at: entries.length })
  }
  return entries.sort((a, b) => b.q - a.q || a.at - b.at).map((e) => e.tag)
}

/** Chinese tags by region, as the script they are written in. */
const CHINESE_SCRIPTS: Readonly<Record<string, string>> = {
  CN: "Hans",
  SG: "Hans",
  MY: "Hans",
  TW: "Hant",
  HK: "Hant",
  MO: "Hant"
}

/** The script a tag is written in, where it says (`zh-Hans`) or its region tells (`zh-TW` → `Hant`). */
const scriptOf = (tag: string): string | undefined => {
  const [language, ...rest] = tag.split("-")
  const script = rest.find((p) => p.length === 4)
  if (script !== undefined) return script
  const region = rest.find((p) => p.length !== 4)
  return language === "zh" && region !== undefined ? CHINESE_SCRIPTS[region] : undefined
}

/**
 * The language on offer that best matches what is wanted, in the order
 * wanted: the same tag, else the same language in a script that does not
 * differ (`de-AT` gets `de`, `pt` gets `pt-BR`, `zh-CN` gets `zh-Hans` but
 * `zh-TW` does not); undefined when none matches.
 *
 * @example
 * ```ts
 * negotiate(["fr-CH", "de"], ["en", "de", "fr"]) // "fr"
 * negotiate(["zh-CN"], ["en", "zh-Hans"]) // "zh-Hans"
 * negotiate(["ja"], ["en", "de"]) // undefined
 * ```
 */
export const negotiate = (wanted: ReadonlyArray<string>, available: ReadonlyArray<string>): string | undefined => {
  const base = (tag: string) => tag.split("-")[0]
  for (const tag of wanted) {
    const exact = available.find((a) => a === tag)
    if (exact !== undefined) return exact
    const script = scriptOf(tag)
    const close = available.filter((a) => base(a) === base(tag))
    const sameScript = close.find((a) => script !== undefined && scriptOf(a) === script)
    if (sameScript !== undefined) return sameScript
    const match = close.find((a) => script === undefined || scriptOf(a) === undefined)
    if (match !== undefined) return match
  }
  return undefined
}
