/**
 * A form's theme (`settings.theme`): colours, a font stack, corner radius and
 * light or dark, applied to its public page (and so to its embed) through the
 * page's CSS variables (`pages/Assets.ts`).
 *
 * A theme with a colour is one palette for light and dark devices alike; the
 * colours it does not name come from the built-in palette of its `mode` (or,
 * for `auto`, of its background's lightness). The secondary text, borders and
 * choice backgrounds are mixed from its text and background, and fall back to
 * the text colour where a mix would be too faint. A theme whose text would
 * fail WCAG AA is refused, naming the pair and its contrast: text and error
 * messages 4.5:1 on the background (and text on a choice), button text 4.5:1
 * on the accent, the accent (focus ring, selected choices, borders of
 * buttons) 3:1 on the background. Fonts are system stacks only: the page
 * downloads nothing. A `logo` is an image of the workspace's library, shown
 * at the top of every screen.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { strictStruct } from "../kernel/index.ts"
import { ImageId } from "./ImageRefs.ts"

/** A button's words: trimmed, 1 to 40 characters, no control characters. */
const ButtonLabel = (name: string) =>
  Schema.Trim.check(
    Schema.isNonEmpty({ message: `theme: buttons.${name} must not be empty` }),
    Schema.isMaxLength(40, { message: `theme: buttons.${name} must be at most 40 characters` }),
    Schema.isPattern(/^[^\p{Cc}\p{Cf}]*$/u, { message: `theme: buttons.${name} must not contain control characters` })
  )

/** The words of the page's four buttons. */
export interface ButtonWords {
  readonly start: string
  readonly next: string
  readonly submit: string
  readonly back: string
}

/** The page's own button words in English (the page says them in the respondent's language). */
export const englishButtonWords: ButtonWords = { start: "Start", next: "OK", submit: "Submit", back: "Back" }

/**
 * The words of a page's buttons: the theme's (`theme.buttons`), else the
 * page's own (`defaults`, in the page's language).
 *
 * @example
 * ```ts
 * buttonWords({ buttons: { submit: "Send" } }).submit // "Send"
 * buttonWords(undefined).next // "OK"
 * ```
 */
export const buttonWords = (
  theme:
    | { readonly buttons?: { readonly [K in "start" | "next" | "submit" | "back"]?: string | undefined } | undefined }
    | undefined,
  defaults: ButtonWords = englishButtonWords
): ButtonWords => ({
  start: theme?.buttons?.start ?? defaults.start,
  next: theme?.buttons?.next ?? defaults.next,
  submit: theme?.buttons?.submit ?? defaults.submit,
  back: theme?.buttons?.back ?? defaults.back
})

/** The font stacks a theme may name (all system fonts: nothing is downloaded). */
export const fontStacks = {
  system: 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
  serif: 'ui-serif,Georgia,Cambria,"Times New Roman",Times,serif',
  rounded: 'ui-rounded,"SF Pro Rounded","Segoe UI",system-ui,sans-serif',
  monospace: 'ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace'
} as const

/** A page's colours, as CSS variables name them. */
export interface Palette {
  readonly bg: string
  readonly fg: string
  readonly muted: string
  readonly line: string
  readonly accent: string
  readonly accentFg: string
  readonly error: string
  readonly soft: string
  readonly scheme: "light" | "dark"
}

/** The built-in palettes (the page's own, see `pages/Assets.ts`). */
export const builtInPalettes: { readonly light: Palette; readonly dark: Palette } = {
  light: {
    bg: "#ffffff",
    fg: "#1a1a1a",
    muted: "#4a4a4a",
    line: "#767676",
    accent: "#0b57d0",
    accentFg: "#ffffff",
    error: "#b3261e",
    soft: "#f1f4f9",
    scheme: "light"
  },
  dark: {
    bg: "#121212",
    fg: "#ececec",
    muted: "#c4c4c4",
    line: "#8a8a8a",
    accent: "#a8c7fa",
    accentFg: "#062e6f",
    error: "#ffb4ab",
    soft: "#1f2328",
    scheme: "dark"
  }
}

const Colour = Schema.String.check(
  Schema.isPattern(/^#[0-9a-fA-F]{6}$/, { message: "a colour is #rrggbb, such as #0b57d0" })
)

const rgb = (hex: string): readonly [number, number, number] => [
  Number.parseInt(hex.slice(1, 3), 16),
  Number.parseInt(hex.slice(3, 5), 16),
  Number.parseInt(hex.slice(5, 7), 16)
]

/** WCAG 2 relative luminance of a #rrggbb colour. */
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/**
 * The WCAG 2 contrast ratio of two #rrggbb colours (1 to 21).
 *
 * @example
 * ```ts
 * contrast("#ffffff", "#000000") // 21
 * ```
 */
export const contrast = (a: string, b: string): number => {
  const [x, y] = [luminance(a), luminance(b)]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

/** `a` moved `share` of the way towards `b`. */
const mix = (a: string, b: string, share: number) => {
  const [x, y] = [rgb(a), rgb(b)]
  return `#${x
    .map((c, i) =>
      Math.round(c + (y[i]! - c) * share)
        .toString(16)
        .padStart(2, "0")
    )
    .join("")}`
}

/**
 * The words of the page's four buttons, each optional, 1 to 40 characters.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(ThemeButtons)({ submit: "Send" }) // { submit: "Send" }
 * ```
 */
export const ThemeButtons = strictStruct(
  {
    start: Schema.optionalKey(ButtonLabel("start")),
    next: Schema.optionalKey(ButtonLabel("next")),
    submit: Schema.optionalKey(ButtonLabel("submit")),
    back: Schema.optionalKey(ButtonLabel("back"))
  },
  "button"
).annotate({ identifier: "ThemeButtons" })

const fields = {
  mode: Schema.optionalKey(Schema.Literals(["auto", "light", "dark"])).annotate({
    description:
      "auto (default): the device's light or dark; light or dark: always that one. With colours, the palette the " +
      "colours not named come from."
  }),
  background: Schema.optionalKey(Colour).annotate({ description: "The page's background, #rrggbb." }),
  text: Schema.optionalKey(Colour).annotate({ description: "The text, #rrggbb (4.5:1 on the background at least)." }),
  accent: Schema.optionalKey(Colour).annotate({
    description: "Buttons, focus ring and selected choices, #rrggbb (3:1 on the background at least)."
  }),
  buttonText: Schema.optionalKey(Colour).annotate({
    description: "The text of buttons, #rrggbb (4.5:1 on the accent at least)."
  }),
  font: Schema.optionalKey(Schema.Literals(["system", "serif", "rounded", "monospace"])).annotate({
    description: "A system font stack (nothing is downloaded)."
  }),
  radius: Schema.optionalKey(
    Schema.Finite.check(
      Schema.isInt({ message: "radius must be a whole number of pixels from 0 to 24" }),
      Schema.isBetween({ minimum: 0, maximum: 24 }, { message: "radius must be a whole number of pixels from 0 to 24" })
    )
  ).annotate({ description: "The corner radius of fields, choices and buttons, in pixels (0 to 24)." }),
  logo: Schema.optionalKey(ImageId).annotate({
    description: "An image of the workspace's library (`/api/images`) shown at the top of every screen of the page."
  }),
  logoAlt: Schema.optionalKey(
    Schema.Trim.check(
      Schema.isMaxLength(200, { message: "theme: logoAlt must be at most 200 characters" }),
      Schema.isPattern(/^[^\p{Cc}\p{Cf}]*$/u, { message: "theme: logoAlt must not contain control characters" })
    )
  ).annotate({
    description:
      "What the logo says, for screen readers (e.g. the organisation's name), at most 200 characters; without it " +
      "the logo is decoration."
  }),
  buttons: Schema.optionalKey(ThemeButtons).annotate({
    description:
      'The words of the page\'s buttons instead of "Start", "OK" (and the access code\'s "Continue"), "Submit" ' +
      'and "Back": 1 to 40 characters each.'
  })
}

const ThemeFields = strictStruct(fields, "theme key")
type ThemeFields = typeof ThemeFields.Type

/** Whether the theme names a colour (then it is one palette for light and dark devices). */
export const hasColours = (theme: ThemeFields): boolean =>
  theme.background !== undefined ||
  theme.text !== undefined ||
  theme.accent !== undefined ||
  theme.buttonText !== undefined

/**
 * The palette of a theme with colours, or of a fixed `mode`; undefined when
 * the page keeps the device's own light or dark palette.
 *
 * @example
 * ```ts
 * paletteOf({ background: "#fdf6e3", text: "#073642" })?.scheme // "light"
 * ```
 */
export const paletteOf = (theme: ThemeFields): Palette | undefined => {
  if (!hasColours(theme))
    return theme.mode === "light" || theme.mode === "dark" ? builtInPalettes[theme.mode] : undefined
  const base =
    theme.mode === "light" || theme.mode === "dark"
      ? builtInPalettes[theme.mode]
      : theme.background !== undefined && luminance(theme.background) < 0.18
        ? builtInPalettes.dark
        : builtInPalettes.light
  const bg = theme.background ?? base.bg
  const fg = theme.text ?? base.fg
  const scheme = luminance(bg) < 0.18 ? "dark" : "light"
  const soft = mix(bg, fg, 0.06)
  const muted = mix(fg, bg, 0.25)
  const line = mix(fg, bg, 0.45)
  return {
    bg,
    fg,
    // Secondary text and borders are mixed only where they stay readable.
    muted: contrast(muted, bg) >= 4.5 && contrast(muted, soft) >= 4.5 ? muted : fg,
    line: contrast(line, bg) >= 3 ? line : fg,
    accent: theme.accent ?? base.accent,
    accentFg: theme.buttonText ?? base.accentFg,
    error: builtInPalettes[scheme].error,
    soft,
    scheme
  }
}

const ratio = (n: number) => `${Math.floor(n * 100) / 100}:1`

/** Why the theme's colours fail WCAG AA, or undefined when they pass. */
export const contrastProblem = (theme: ThemeFields): string | undefined => {
  if (!hasColours(theme)) return undefined
  const p = paletteOf(theme)!
  const pairs: ReadonlyArray<readonly [string, string, string, number]> = [
    ["text", p.fg, p.bg, 4.5],
    ["text on a choice", p.fg, p.soft, 4.5],
    ["buttonText on accent", p.accentFg, p.accent, 4.5],
    ["accent", p.accent, p.bg, 3],
    ["error messages", p.error, p.bg, 4.5]
  ]
  for (const [what, fg, bg, needed] of pairs) {
    const found = contrast(fg, bg)
    if (found < needed)
      return `theme: ${what} (${fg} on ${bg}) has a contrast of ${ratio(found)}; WCAG AA needs ${needed}:1`
  }
  return undefined
}

/**
 * A form's theme (an extension): every key optional, unknown keys refused,
 * colours checked for WCAG AA contrast.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Theme)({ background: "#FDF6E3", text: "#073642", font: "serif", radius: 12 })
 * Schema.decodeUnknownSync(Theme)({ text: "#777777" }) // throws: theme: text (#777777 on #ffffff) has a contrast of 4.47:1; …
 * ```
 */
export const Theme = ThemeFields.check(
  Schema.makeFilter((theme: ThemeFields) => contrastProblem(theme), {
    expected: "a theme whose colours pass WCAG AA contrast"
  })
).annotate({
  identifier: "Theme",
  description:
    "Extension: the public page's look — colours (#rrggbb, checked for WCAG AA contrast), a system font stack, " +
    "corner radius, light or dark."
})

/** Decoded {@link Theme}. @example `const t: Theme = { font: "serif", radius: 12 }` */
export type Theme = typeof Theme.Type
