/**
 * The built-in message catalogues (languages/catalogues/*): every language has
 * every key of the English source and nothing else; every message parses as
 * ICU MessageFormat, takes the same values as the English one, chooses plurals
 * only by categories its language has (always with `other`); the page
 * script's messages take plain values only; each formats with sample values;
 * and a catalogue is a translation, not a copy of English.
 */
import { parse } from "@formatjs/icu-messageformat-parser"
import { IntlMessageFormat } from "intl-messageformat"
import { describe, expect, it } from "vitest"
import { builtIn, english, messageKeys } from "../src/languages/Messages.ts"
import { catalogueProblems, sample, shapeOf } from "./support/Catalogues.ts"

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

      it("has every key of the English catalogue and no other", () => {
        expect(Object.keys(catalogue).sort()).toEqual([...messageKeys].sort())
      })

      it("has messages that parse, take the English values and choose by the language's plural categories", () => {
        const problems = catalogueProblems(language, catalogue, english)
        for (const key of messageKeys) {
          if (key.startsWith("client.") && shapeOf(parse(catalogue[key])).kinds.size > 0)
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
