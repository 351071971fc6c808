/**
 * Text that qforms shows to people (names, titles, labels, stage names,
 * notes, file names) never carries bidirectional formatting controls: an
 * override such as U+202E turns `invoice‮fdp.exe` into what reads as
 * `invoiceexe.pdf`, and embeddings or isolates reorder what follows them.
 * They are removed when such text is decoded; the letters of every script,
 * right-to-left ones included, are kept as typed. Where such text is put
 * into HTML (pages and e-mails alike) it is escaped with {@link escapeHtml};
 * where it must fit a length it is {@link cut}, and where it must stay on one
 * line (an e-mail's subject) it is made {@link oneLine}.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { DisplayTrim, stripBidiControls } from "./DisplayText.ts"
 *
 * stripBidiControls("invoice\u202Efdp.exe") // "invoicefdp.exe"
 * Schema.decodeUnknownSync(DisplayTrim)("  \u2067Ada\u2069 ") // "Ada"
 * ```
 */
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * The bidirectional formatting controls: ALM (U+061C), LRM/RLM (U+200E,
 * U+200F), the embeddings and overrides LRE…RLO (U+202A–U+202E) and the
 * isolates LRI…PDI (U+2066–U+2069).
 */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** `text` without bidirectional formatting controls. */
export const stripBidiControls = (text: string): string => text.replace(bidiControls, "")

/** Decodes a string to itself without bidirectional formatting controls (encodes unchanged). */
export const withoutBidiControls: SchemaTransformation.Transformation<string, string> = SchemaTransformation.transform({
  decode: stripBidiControls,
  encode: (text: string) => text
})

/** `SchemaTransformation.trim()` that also removes bidirectional formatting controls. */
export const trimWithoutBidiControls: SchemaTransformation.Transformation<string, string> =
  SchemaTransformation.transform({
    decode: (text: string) => stripBidiControls(text).trim(),
    encode: (text: string) => text
  })

/** A string decoded without bidirectional formatting controls and trimmed: `Schema.Trim` for text people see. */
export const DisplayTrim = Schema.String.annotate({
  expected: "a string that will be decoded trimmed, without bidirectional formatting controls"
}).pipe(Schema.decodeTo(Schema.Trimmed, trimWithoutBidiControls))

/**
 * A short text of a form (a page's or an ending's title, a translation's words): trimmed and without
 * bidirectional formatting controls ({@link DisplayTrim}), then 1 to `max`
 * characters, each refusal naming the text.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(BoundedText("a page's title", 200))("  Contact  ") // "Contact"
 * ```
 */
export const BoundedText = (name: string, max: number) =>
  DisplayTrim.check(
    Schema.isNonEmpty({ message: `${name} must not be empty` }),
    Schema.isMaxLength(max, { message: `${name} must be at most ${max} characters` })
  )

const htmlEntities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;"
}

/**
 * Escapes text for an HTML element body or a quoted attribute value: the one
 * escape of every page and e-mail qforms writes.
 *
 * @example
 * ```ts
 * escapeHtml("<b>\"hi\"</b>") // "&lt;b&gt;&quot;hi&quot;&lt;/b&gt;"
 * ```
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => htmlEntities[c]!)

/**
 * Cuts `text` to at most `max` characters (code points), ending with "…" when cut.
 *
 * @example
 * ```ts
 * cut("abcdef", 4) // "abc…"
 * ```
 */
export const cut = (text: string, max: number): string => {
  if (text.length <= max) return text
  const points = Array.from(text)
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join("")}…`
}

/**
 * `text` on one line, cut to `max` characters: each run of line breaks
 * becomes a space, since a line break in a header (an e-mail's subject)
 * would start another header.
 *
 * @example
 * ```ts
 * oneLine("Support\r\nBcc: x@example.com", 200) // "Support Bcc: x@example.com"
 * ```
 */
export const oneLine = (text: string, max: number): string => cut(text.replace(/[\r\n\u2028\u2029]+/g, " "), max)
