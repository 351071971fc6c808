/**
 * Tags on a case: what one may be, and a list of them cleaned. On their own so
 * the contexts that filter by tags (webhook subscriptions) do not depend on
 * the response models.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { trimWithoutBidiControls } from "./DisplayText.ts"

/** A tag: trimmed, 1 to 30 characters, no control characters, bidirectional formatting controls removed. */
export const Tag = Schema.String.check(Schema.isMaxLength(30, { message: "each tag must be at most 30 characters" }))
  .pipe(Schema.decodeTo(Schema.Trimmed, trimWithoutBidiControls))
  .check(
    Schema.isNonEmpty({ message: "a tag must not be empty" }),
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern refuses
    Schema.isPattern(/^[^\u0000-\u001f\u007f]*$/, { message: "a tag must not contain control characters" })
  )

/** Trimmed tags without duplicates (the first spelling wins, compared case-insensitively). */
export const normalizeTags = (tags: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  return tags
    .map((tag) => tag.trim())
    .filter((tag) => {
      const key = tag.toLowerCase()
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}
