/**
 * Language tags and the choice of a language (languages/Languages.ts), and
 * the message catalogues as a host uses them (languages/Messages.ts): tags
 * taken only in canonical form, `Accept-Language` read in bounded time,
 * the best offered language chosen as browsers expect (a region falls back
 * to its language, Chinese by script), right-to-left languages known, and a
 * host's messages checked, laid over the built-in ones or added as a language.
 */
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import {
  acceptedLanguages,
  canonicalOf,
  directionOf,
  LanguageTag,
  nativeName,
  negotiate
} from "../src/languages/Languages.ts"
import { customProblem, make } from "../src/languages/Messages.ts"

describe("Languages", () => {
  it("takes language tags in canonical form only, naming a bad one", () => {
    const decode = Schema.decodeUnknownSync(LanguageTag)
    for (const tag of ["en", "de", "pt-BR", "zh-Hans", "es-419", "sr-Latn-RS", "ckb"]) expect(decode(tag)).toBe(tag)
    for (const bad of ["", "EN", "pt_br", "pt-br", "english", "d", "de-", "x-private", "de-DE-1996x", "a".repeat(40)]) {
      expect(() => decode(bad), bad).toThrow(/a language must be a tag such as de, pt-BR or zh-Hans/)
    }
    expect(canonicalOf("ZH-hans")).toBe("zh-Hans")
    expect(canonicalOf("pt-br")).toBe("pt-BR")
    expect(canonicalOf("de_DE")).toBeUndefined()
  })

  it("reads Accept-Language best first, passing over what is not a language, in bounded time", () => {
    expect(acceptedLanguages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual(["fr-CH", "fr", "en", "de"])
    expect(acceptedLanguages("en;q=0.1, ja")).toEqual(["ja", "en"])
    expect(acceptedLanguages("de;q=0, it;q=2, es;q=abc, nl")).toEqual(["nl"])
    expect(acceptedLanguages(undefined)).toEqual([])
    // A hostile header: a megabyte of entries is read no further than its first 1,000 characters and 20 entries.
    const huge = Array.from({ length: 200_000 }, (_, i) => `x${i % 10}`).join(",")
    const started = performance.now()
    expect(acceptedLanguages(`de,${huge}`)).toEqual(["de"])
    expect(acceptedLanguages(`${"en,".repeat(100)}fr`)).toHaveLength(20)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it("chooses the best offered language: exact, then the same language, Chinese by script", () => {
    expect(negotiate(["fr-CH", "de"], ["en", "de", "fr"])).toBe("fr")
    expect(negotiate(["de-AT"], ["en", "de"])).toBe("de")
    expect(negotiate(["pt"], ["en", "pt-BR"])).toBe("pt-BR")
    expect(negotiate(["zh-CN"], ["en", "zh-Hans"])).toBe("zh-Hans")
    expect(negotiate(["zh-TW"], ["en", "zh-Hans"])).toBeUndefined()
    expect(negotiate(["zh-Hant"], ["zh-Hans"])).toBeUndefined()
    expect(negotiate(["ja", "ko"], ["en", "de"])).toBeUndefined()
  })

  it("knows which languages are written right to left, and what each calls itself", () => {
    for (const rtl of ["ar", "he", "fa", "ur", "he-IL", "ar-EG", "ku-Arab"]) expect(directionOf(rtl), rtl).toBe("rtl")
    for (const ltr of ["en", "de", "ja", "zh-Hans", "tr"]) expect(directionOf(ltr), ltr).toBe("ltr")
    expect(nativeName("de")).toBe("Deutsch")
    expect(nativeName("ar")).toBe("العربية")
    expect(nativeName("ja")).toBe("日本語")
  })
})

describe("Messages as a host uses them", () => {
  it("says a message in a language with its plural rules and digits, English where a language lacks one", () => {
    const messages = make()
    expect(messages.say("en", "page.questionCount", { count: 1 })).toBe("1 question")
    expect(messages.say("en", "page.questionCount", { count: 3 })).toBe("3 questions")
    expect(messages.say("de", "page.questionCount", { count: 3 })).toBe("3 Fragen")
    // Polish has "few" and "many"; Arabic six categories: the catalogue's forms, chosen by CLDR's rules.
    expect(messages.say("pl", "page.questionCount", { count: 2 })).not.toBe(
      messages.say("pl", "page.questionCount", { count: 5 })
    )
    expect(messages.say("ar", "page.questionCount", { count: 2 })).not.toBe(
      messages.say("ar", "page.questionCount", { count: 11 })
    )
    // A plain number is the language's: a decimal comma in German.
    expect(messages.say("de", "answer.range", { q: '"Alter"', min: 1.5, max: 10 })).toContain("1,5")
    expect(messages.say("en", "answer.range", { q: '"Age"', min: 1.5, max: 1000 })).toBe(
      '"Age" must be from 1.5 to 1000'
    )
    // A language qforms does not speak is answered in English.
    expect(messages.say("sv", "page.submit")).toBe("Submit")
  })

  it("lays a host's messages over the built-in ones and adds a language, refusing what cannot work", () => {
    const messages = make({ de: { "page.submit": "Abschicken" }, sv: { "page.submit": "Skicka" } })
    expect(messages.say("de", "page.submit")).toBe("Abschicken")
    expect(messages.say("de", "page.back")).toBe(make().say("de", "page.back"))
    expect(messages.say("sv", "page.submit")).toBe("Skicka")
    expect(messages.say("sv", "page.back")).toBe("Back")
    expect(messages.languages).toContain("sv")
    expect(messages.languages[0]).toBe("en")

    expect(customProblem({ de: { "page.submit": "Abschicken" } })).toBeUndefined()
    expect(customProblem({ de_DE: {} })).toContain('"de_DE" is not a language tag')
    expect(customProblem({ de: { "page.sumbit": "x" } })).toContain('messages.de: no message "page.sumbit"')
    expect(customProblem({ de: { "page.questionCount": "{count, plural, one {# Frage}" } })).toContain(
      "messages.de.page.questionCount: not ICU MessageFormat"
    )
    expect(customProblem({ de: { "page.submit": "Send {name}" } })).toBe(
      "messages.de.page.submit: takes no value {name}"
    )
    expect(customProblem({ de: { "page.submit": "" } })).toContain("must be a non-empty string")
    expect(customProblem(["de"])).toContain("must be an object")
  })
})
