/**
 * The built-in message catalogues (languages/catalogues/*): every language has
 * every key of the English source and nothing else; every message parses as
 * ICU MessageFormat, takes the same values as the English one, chooses plurals
 * only by categories its language has (always with `other`); the page
 * script's messages take plain values only; each formats with sample values;
 * and a catalogue is a translation, not a copy of English.
 */
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser"
import { IntlMessageFormat } from "intl-messageformat"
import { describe, expect, it } from "vitest"
import { builtIn, english, messageKeys } from "../src/languages/Messages.ts"

/** The names of the values a message takes, and the plural categories it chooses by. */
const shapeOf = (
  elements: ReadonlyArray<MessageFormatElement>,
  into = { args: new Set<string>(), kinds: new Set<string>(), categories: new Set<string>() }
) => {
  for (const element of elements) {
    if (element.type === TYPE.argument) into.args.add(element.value)
    if (element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time) {
      into.args.add(element.value)
      into.kinds.add("formatted")
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.args.add(element.value)
      into.kinds.add(element.type === TYPE.plural ? "plural" : "select")
      for (const [category, option] of Object.entries(element.options)) {
        if (element.type === TYPE.plural) into.categories.add(category)
        shapeOf(option.value, into)
      }
    }
  }
  return into
}

const sample = (name: string): string | number =>
  [
    "count",
    "min",
    "max",
    "at",
    "of",
    "seconds",
    "bytes",
    "size",
    "step",
    "base",
    "place",
    "ranked",
    "status",
    "value"
  ].includes(name)
    ? 2
    : `«${name}»`

describe("Messages", () => {
  const languages = Object.keys(builtIn)

  it("has the thirteen built-in languages", () => {
    expect(languages.sort()).toEqual([
      "ar",
      "de",
      "en",
      "es",
      "fr",
      "he",
      "it",
      "ja",
      "nl",
      "pl",
      "pt",
      "tr",
      "zh-Hans"
    ])
  })

  for (const language of languages) {
    describe(language, () => {
      const catalogue = builtIn[language]!
      const plural = new Intl.PluralRules(language)
      const categories = new Set<string>(plural.resolvedOptions().pluralCategories)

      it("has every key of the English catalogue and no other", () => {
        expect(Object.keys(catalogue).sort()).toEqual([...messageKeys].sort())
      })

      it("has messages that parse, take the English values and choose by the language's plural categories", () => {
        const problems: Array<string> = []
        for (const key of messageKeys) {
          const text = catalogue[key]
          if (typeof text !== "string" || text.trim() === "") {
            problems.push(`${key}: empty`)
            continue
          }
          let shape: ReturnType<typeof shapeOf>
          try {
            shape = shapeOf(parse(text))
          } catch (error) {
            problems.push(`${key}: does not parse (${String(error)})`)
            continue
          }
          const source = shapeOf(parse(english[key]))
          const args = [...shape.args].sort().join(",")
          const sourceArgs = [...source.args].sort().join(",")
          if (args !== sourceArgs) problems.push(`${key}: takes {${args}} where English takes {${sourceArgs}}`)
          for (const category of shape.categories) {
            if (!category.startsWith("=") && !categories.has(category))
              problems.push(
                `${key}: plural category "${category}" is not one of ${language}'s (${[...categories].join(", ")})`
              )
          }
          if (shape.kinds.has("plural") && !shape.categories.has("other"))
            problems.push(`${key}: a plural without "other"`)
          if (key.startsWith("client.") && shape.kinds.size > 0)
            problems.push(`${key}: the page's script fills in plain values only (no plural, select or format)`)
        }
        expect(problems).toEqual([])
      })

      it("formats every message with sample values", () => {
        for (const key of messageKeys) {
          const values = Object.fromEntries([...shapeOf(parse(english[key])).args].map((name) => [name, sample(name)]))
          const text = new IntlMessageFormat(catalogue[key], language).format(values)
          expect(typeof text === "string" && text.trim() !== "", key).toBe(true)
        }
      })

      if (language !== "en") {
        it("is a translation, not a copy of the English words", () => {
          const same = messageKeys.filter((key) => catalogue[key] === english[key])
          expect(same.length, `the same as English: ${same.join(", ")}`).toBeLessThan(messageKeys.length * 0.1)
        })
      }
    })
  }
})
