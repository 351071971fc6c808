/**
 * An answer as text by its shape, what every question type's display text
 * falls back to (see `QuestionType.display`): a text as it is, yes or no, a
 * number, a list joined with `", "`, a typed signature by its name, a file by
 * its name and download link.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"

/**
 * The download link of an uploaded file: `{linkBase}/api/files/{fileId}`.
 *
 * @example
 * ```ts
 * fileLink("https://forms.example.com", "file_abc") // "https://forms.example.com/api/files/file_abc"
 * ```
 */
export const fileLink = (linkBase: string, fileId: string): string =>
  `${linkBase.replace(/\/$/, "")}/api/files/${encodeURIComponent(fileId)}`

/**
 * An answer's text by its shape: strings as they are, booleans `Yes`/`No`,
 * numbers via `String`, lists joined with `", "`, a typed signature as
 * "Ada Lovelace (typed signature)", a file by its name followed by its
 * download link in parentheses when `linkBase` is given, and `""` for
 * anything else.
 *
 * @example
 * ```ts
 * shapeText(["A", "B"]) // "A, B"
 * ```
 */
export const shapeText = (value: unknown, linkBase?: string): string => {
  if (Predicate.isString(value)) return value
  if (Predicate.isBoolean(value)) return value ? "Yes" : "No"
  if (Predicate.isNumber(value)) return String(value)
  if (Array.isArray(value)) return value.join(", ")
  if (!Predicate.isObject(value)) return ""
  if ("typedName" in value && Predicate.isString(value.typedName)) return `${value.typedName} (typed signature)`
  if (!("fileId" in value) || !Predicate.isString(value.fileId) || !Predicate.isString(value.name)) return ""
  return linkBase === undefined ? value.name : `${value.name} (${fileLink(linkBase, value.fileId)})`
}
