/**
 * Form themes (forms/Theme.ts): WCAG contrast computed as the standard does,
 * palettes filled from the built-in ones, secondary colours that fall back to
 * the text colour where a mix would be too faint, refusals naming the pair and
 * its contrast, and the CSS the page gets (pages/Assets.ts).
 */
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { themeCss } from "../src/pages/Assets.ts"
import { buttonWords, builtInPalettes, contrast, contrastProblem, paletteOf, Theme } from "../src/forms/Theme.ts"

const decode = Schema.decodeUnknownSync(Theme)

describe("Theme", () => {
  it("takes the words of the page's buttons, trimmed, and names a bad one", () => {
    expect(decode({ buttons: { submit: "  Send  ", back: "Previous" } })).toEqual({
      buttons: { submit: "Send", back: "Previous" }
    })
    expect(buttonWords(decode({ buttons: { submit: "Send" } }))).toEqual({
      start: "Start",
      next: "OK",
      submit: "Send",
      back: "Back"
    })
    const message = (input: unknown) => {
      const result = Schema.decodeUnknownExit(Theme)(input)
      return result._tag === "Failure" ? String(result.cause) : "accepted"
    }
    expect(message({ buttons: { submit: " " } })).toContain("theme: buttons.submit must not be empty")
    expect(message({ buttons: { next: "x".repeat(41) } })).toContain(
      "theme: buttons.next must be at most 40 characters"
    )
    expect(message({ buttons: { back: "a\u0000b" } })).toContain("must not contain control characters")
    expect(message({ buttons: { finish: "Done" } })).toContain('unknown button "finish"')
  })

  it("computes WCAG 2 contrast ratios", () => {
    expect(contrast("#ffffff", "#000000")).toBeCloseTo(21, 5)
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2)
    expect(contrast("#767676", "#ffffff")).toBeCloseTo(4.54, 2)
    expect(contrast("#0b57d0", "#0b57d0")).toBe(1)
  })

  it("the built-in palettes pass their own checks", () => {
    for (const mode of ["light", "dark"] as const) {
      const p = builtInPalettes[mode]
      expect(contrast(p.fg, p.bg)).toBeGreaterThanOrEqual(4.5)
      expect(contrast(p.muted, p.bg)).toBeGreaterThanOrEqual(4.5)
      expect(contrast(p.accentFg, p.accent)).toBeGreaterThanOrEqual(4.5)
      expect(contrast(p.error, p.bg)).toBeGreaterThanOrEqual(4.5)
    }
  })

  it("refuses colours that fail WCAG AA, naming the pair and its contrast", () => {
    expect(() => decode({ text: "#777777" })).toThrow(
      "theme: text (#777777 on #ffffff) has a contrast of 4.47:1; WCAG AA needs 4.5:1"
    )
    expect(() => decode({ accent: "#ffeb3b" })).toThrow(/theme: buttonText on accent \(#ffffff on #ffeb3b\)/)
    expect(() => decode({ accent: "#dddddd", buttonText: "#000000" })).toThrow(
      /theme: accent \(#dddddd on #ffffff\) has a contrast of 1\.\d+:1; WCAG AA needs 3:1/
    )
    // A mid-grey background leaves the error messages unreadable.
    expect(() => decode({ background: "#808080", text: "#000000", accent: "#000000" })).toThrow(/theme: error messages/)
    expect(() => decode({ background: "red" })).toThrow("a colour is #rrggbb, such as #0b57d0")
    expect(() => decode({ radius: 25 })).toThrow("radius must be a whole number of pixels from 0 to 24")
    expect(() => decode({ font: "Comic Sans" })).toThrow()
    expect(() => decode({ colour: "#000000" })).toThrow('unknown theme key "colour"')
  })

  it("fills a palette from the built-in one of its mode or background, mixing only what stays readable", () => {
    const solarized = paletteOf(
      decode({ background: "#fdf6e3", text: "#073642", accent: "#268bd2", buttonText: "#000000" })
    )!
    expect(solarized.scheme).toBe("light")
    expect(solarized.error).toBe(builtInPalettes.light.error)
    expect(contrast(solarized.muted, solarized.bg)).toBeGreaterThanOrEqual(4.5)
    expect(solarized.muted).not.toBe(solarized.fg)
    const night = paletteOf(decode({ background: "#002b36", text: "#eee8d5" }))!
    expect(night.scheme).toBe("dark")
    expect(night.accent).toBe(builtInPalettes.dark.accent)
    expect(night.error).toBe(builtInPalettes.dark.error)
    // Text that only just passes: the secondary text is the text itself.
    const tight = paletteOf(decode({ text: "#6b6b6b" }))!
    expect(tight.muted).toBe("#6b6b6b")
    expect(contrastProblem({ text: "#6b6b6b" })).toBeUndefined()
    expect(paletteOf(decode({ mode: "dark" }))).toEqual(builtInPalettes.dark)
    expect(paletteOf(decode({ font: "serif" }))).toBeUndefined()
  })

  it("becomes CSS variables of checked values only", () => {
    expect(themeCss(undefined)).toBe("")
    expect(themeCss(decode({ font: "serif", radius: 12 }))).toBe(
      '\n:root{--font:ui-serif,Georgia,Cambria,"Times New Roman",Times,serif;--radius:12px}\n'
    )
    const css = themeCss(decode({ mode: "dark" }))
    expect(css).toContain("color-scheme:dark;--bg:#121212;--fg:#ececec")
  })
})
