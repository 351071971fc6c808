/**
 * The columns of the responses' spreadsheet (`cases/Xlsx.ts`) that question
 * types share: widths from their headers, the number formats of dates and
 * moments, and the one column of an answer's text (which the writer makes
 * safe: never a formula, without the characters XML refuses).
 *
 * @module
 */
import type { SheetColumn } from "./QuestionType.ts"

/** The number format of a date. */
export const DATE_FORMAT = "yyyy-mm-dd"
/** The number format of a date with a time. */
export const DATETIME_FORMAT = "yyyy-mm-dd hh:mm"

/** A column's width: its header's, within 10–50 characters (`atLeast` for wide answers). */
export const widthOf = (header: string, atLeast = 10): number => Math.min(50, Math.max(atLeast, header.length + 2))

/** The one column of an answer's text (16 characters wide at least; 40 for long answers). */
export const textColumn = (key: string, text: (answer: unknown) => string, atLeast = 16): SheetColumn => ({
  header: key,
  width: widthOf(key, atLeast),
  cell: text
})

/** The width at least of a column of long answers (long texts, contacts, files, rankings). */
export const WIDE = 40

/** The column of a number: a number cell, or the answer's text when it is not one. */
export const numberColumn = (key: string, text: (answer: unknown) => string): SheetColumn => ({
  header: key,
  width: widthOf(key, 8),
  cell: (answer) => (typeof answer === "number" ? answer : text(answer))
})

/** The column of a yes or no: a boolean cell, or the answer's text when it is not one. */
export const booleanColumn = (key: string, text: (answer: unknown) => string): SheetColumn => ({
  header: key,
  width: widthOf(key, 8),
  cell: (answer) => (typeof answer === "boolean" ? answer : text(answer))
})
