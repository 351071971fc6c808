/**
 * The application's messages of given words: ICU plurals by the language's rules, a key the catalogue lacks said
 * as the key (and whether it has one), and elements placed where the language's word order puts them.
 */
import { describe, expect, it } from "vitest"
import { messagesOf } from "../src/shared/Messages.js"

const english = messagesOf({
  language: "en",
  direction: "ltr",
  messages: {
    "inbox.selectedCount": "{count, plural, one {# selected} other {# selected}}",
    "inbox.columnCount": "{count, plural, one {# case} other {# cases}}",
    "builder.prefillHelp": "Pre-fill a question with {syntax} in the page's address."
  }
})

const german = messagesOf({
  language: "de",
  direction: "ltr",
  messages: { "builder.prefillHelp": "Mit {syntax} in der Adresse der Seite wird eine Frage vorausgefüllt." }
})

const arabic = messagesOf({
  language: "ar",
  direction: "rtl",
  messages: {
    "inbox.columnCount":
      "{count, plural, zero {لا حالات} one {حالة واحدة} two {حالتان} few {# حالات} many {# حالة} other {# حالة}}"
  }
})

describe("Messages", () => {
  it("fills in values and chooses the plural by the language's rules", () => {
    expect(english.t("inbox.columnCount", { count: 1 })).toBe("1 case")
    expect(english.t("inbox.columnCount", { count: 3 })).toBe("3 cases")
    expect(arabic.t("inbox.columnCount", { count: 2 })).toBe("حالتان")
    expect(arabic.t("inbox.columnCount", { count: 3 })).toBe("3 حالات")
    expect(arabic.t("inbox.columnCount", { count: 11 })).toBe("11 حالة")
  })

  it("says a message the catalogue lacks as its key", () => {
    expect(english.t("shell.forms")).toBe("shell.forms")
  })

  it("says whether it has a message of a key made from a value (its own keys only, not an object's)", () => {
    expect(english.has("inbox.columnCount")).toBe(true)
    expect(english.has("inbox.columnCount.other")).toBe(false)
    expect(german.has("inbox.columnCount")).toBe(false)
    expect(english.has("toString")).toBe(false)
  })

  it("puts elements where each language's word order needs them", () => {
    const code = { tag: "code" }
    expect(english.withParts("builder.prefillHelp", { syntax: code })).toEqual([
      "Pre-fill a question with ",
      code,
      " in the page's address."
    ])
    expect(german.withParts("builder.prefillHelp", { syntax: code })).toEqual([
      "Mit ",
      code,
      " in der Adresse der Seite wird eine Frage vorausgefüllt."
    ])
  })
})
