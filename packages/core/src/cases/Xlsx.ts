/**
 * Responses as an Excel workbook (XLSX): one sheet, the header row bold and
 * frozen, one row per response. The workbook is written by hand
 * ({@link XlsxWorkbook} for its parts, {@link ZipWriter} for the archive) page
 * by page while the rows are read from the database: each page of rows becomes
 * the sheet's XML, is compressed and handed to the reader before the next page
 * is read, so a list of any length is exported in flat memory.
 *
 * The columns are the CSV's ({@link Csv.metadataColumns}, then the questions,
 * then the values beyond them), with typed cells as each question's type
 * writes them (`forms/questions/`): numbers as numbers, dates and date-times
 * as Excel dates (UTC, the way they were given), yes/no and legal answers as
 * booleans, everything else as text. A checkboxes question has one column per
 * choice (`TRUE` or blank, plus its Other text when it has one) and a matrix
 * one column per row.
 *
 * Formula-safe: a text is always a string cell, never a formula, so
 * `=HYPERLINK(…)` typed by a respondent stays text.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { ZipWriter } from "../files/index.ts"
import {
  type AnswerValue,
  byPosition,
  type Field,
  QuestionTypes,
  SheetColumns,
  type Stage,
  Summaries,
  takesAnswer
} from "../forms/index.ts"
import type { Member } from "../identity/index.ts"
import type { CaseField } from "./CaseFields.ts"
import { caseFieldText, metadataColumns } from "./Csv.ts"
import type { ResponseRow } from "./ResponseModels.ts"
import * as XlsxWorkbook from "./XlsxWorkbook.ts"

/** The media type of an XLSX workbook. */
export const contentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

/** What one cell holds: text, a number, a yes/no, a moment, or nothing (a blank cell). */
export type XlsxCell = XlsxWorkbook.Cell

/** One column of the sheet: its header, width (characters), number format, and the cell of a response. */
export interface XlsxColumn extends XlsxWorkbook.SheetColumn {
  readonly cell: (response: ResponseRow) => XlsxCell
}

/** The number format of the submission's moment. */
const TIMESTAMP_FORMAT = "yyyy-mm-dd hh:mm:ss"

/** The longest text an Excel cell holds. */
const CELL_MAX = 32_767
/** Characters XML 1.0 does not allow (an Excel file with one does not open). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern removes
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/
const NOT_XML_ALL = new RegExp(NOT_XML.source, "g")

/**
 * A text cell: blank when empty, without the characters XML refuses, cut at
 * Excel's 32,767 characters. Always a string: never read as a formula.
 *
 * @example
 * ```ts
 * text("=HYPERLINK(\"x\")") // "=HYPERLINK(\"x\")" (a string cell)
 * text("") // null
 * ```
 */
export const text = (value: string): string | null => {
  if (value === "") return null
  const clean = NOT_XML.test(value) ? value.replace(NOT_XML_ALL, "") : value
  return clean.length > CELL_MAX ? clean.slice(0, CELL_MAX) : clean
}

/** A moment read as UTC, or undefined when it is not one. */
const utc = (iso: string): Date | undefined => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? undefined : date
}

const { widthOf } = SheetColumns

const answerOf = (response: ResponseRow, field: Field): AnswerValue | undefined => {
  const key = String(field.id)
  return Object.hasOwn(response.values, key) ? response.values[key] : undefined
}

/**
 * The columns of one question: its type's (one, or one per choice or matrix
 * row), else one column of its text; each cell read from the response's
 * answer, its text made safe.
 */
const questionColumns = (field: Field, key: string, linkBase: string): ReadonlyArray<XlsxColumn> => {
  const shown = (answer: unknown): string => Summaries.formatAnswer(field, answer as AnswerValue | undefined, linkBase)
  const sheet = QuestionTypes.typeOf(field).sheet
  const columns = sheet === undefined ? [SheetColumns.textColumn(key, shown)] : sheet(field, key, shown)
  return columns.map(({ cell, ...column }) => ({
    ...column,
    cell: (r: ResponseRow) => {
      const value = cell(answerOf(r, field))
      return Predicate.isString(value) ? text(value) : value
    }
  }))
}

/**
 * The columns of a form's sheet: the CSV's metadata columns (the response id
 * a number, the submission a date-time in UTC), one or more per question in
 * question order (headed as the CSV heads them; a checkboxes choice or matrix
 * row as `Question: choice`), then one per value beyond the questions
 * (`ResponseListHead.valueKeys`), headed by its key.
 *
 * @example
 * ```ts
 * const columns = Xlsx.columns(fields, stages, members, "https://forms.example.com")
 * columns.map((c) => c.header) // ["Response ID", "Submitted at", …, "Topics: Sales", "Topics: Support"]
 * ```
 */
export const columns = (
  fields: ReadonlyArray<Field>,
  stages: ReadonlyArray<Stage>,
  members: ReadonlyArray<Member>,
  linkBase = "",
  valueKeys: ReadonlyArray<string> = [],
  /** The form's case fields (`CaseFields.ts`): one column each after the metadata, headed by its label. */
  caseFields: ReadonlyArray<CaseField> = []
): ReadonlyArray<XlsxColumn> => {
  const keys = Summaries.answerKeys(fields, [
    ...metadataColumns,
    ...caseFields.map((field) => field.label),
    ...valueKeys
  ])
  const questions = byPosition(fields).filter(takesAnswer)
  const stageNames = new Map(stages.map((stage) => [stage.id, stage.name]))
  const memberNames = new Map(members.map((member) => [member.accountId, member.name ?? member.email]))
  const [id, submittedAt, name, email, stage, assignee, tags, source] = metadataColumns as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string
  ]
  return [
    { header: id, width: 12, cell: (r) => r.id },
    {
      header: submittedAt,
      width: 20,
      numFmt: TIMESTAMP_FORMAT,
      cell: (r) => utc(r.submittedAt) ?? text(r.submittedAt)
    },
    { header: name, width: 20, cell: (r) => text(r.name ?? "") },
    { header: email, width: 28, cell: (r) => text(r.email ?? "") },
    {
      header: stage,
      width: 14,
      cell: (r) => (r.stageId === null ? null : text(stageNames.get(r.stageId) ?? ""))
    },
    {
      header: assignee,
      width: 20,
      cell: (r) => (r.assigneeId === null ? null : text(memberNames.get(r.assigneeId) ?? ""))
    },
    { header: tags, width: 20, cell: (r) => text(r.tags.join(", ")) },
    { header: source, width: 10, cell: (r) => text(r.source) },
    ...caseFields.map(
      (field): XlsxColumn => ({
        header: field.label,
        width: widthOf(field.label, field.type === "text" ? 30 : 14),
        cell: (r) => {
          const value = r.caseFields[field.key]
          if (value === undefined) return null
          return field.type === "number" && Predicate.isNumber(value)
            ? value
            : text(caseFieldText(field, value, memberNames))
        }
      })
    ),
    ...questions.flatMap((field, i) => questionColumns(field, keys[i]!.key, linkBase)),
    ...valueKeys.map(
      (key): XlsxColumn => ({
        header: key,
        width: widthOf(key, 12),
        cell: (r) => {
          const value = r.values[key]
          return Predicate.isNumber(value) ? value : Predicate.isString(value) ? text(value) : null
        }
      })
    )
  ]
}

/** The XLSX writer failed (the compressor, or a workbook beyond 4 GiB). */
export class XlsxWriteFailed extends Schema.TaggedError<XlsxWriteFailed>()("XlsxWriteFailed", {
  cause: Schema.Defect()
}) {}

/** The name of the one sheet. */
const SHEET_NAME = "Responses"

/**
 * The workbook of `rows` under `columns`, as bytes while it is written: each
 * page of rows (a chunk of the stream) is written as the sheet's XML,
 * compressed and handed on, and the next page is read only once the reader
 * has taken the bytes so far, so memory stays flat whatever the number of
 * rows. Fails with the rows' error, or {@link XlsxWriteFailed}.
 *
 * @example
 * ```ts
 * const bytes = Xlsx.stream(Xlsx.columns(head.fields, head.stages, head.members), rows)
 * HttpServerResponse.stream(bytes, { contentType: Xlsx.contentType })
 * ```
 */
export const stream = <E>(
  sheetColumns: ReadonlyArray<XlsxColumn>,
  rows: Stream.Stream<ResponseRow, E>
): Stream.Stream<Uint8Array, E | XlsxWriteFailed> =>
  Stream.suspend(() => {
    const sheet = XlsxWorkbook.sheet(sheetColumns)
    const sheetXml = Stream.make(sheet.start).pipe(
      // One piece of XML per page of rows, in the sheet writer's buffer (compressed before the next page is read).
      Stream.concat(
        Stream.mapArray(rows, (page) => [sheet.rows(page.map((row) => sheetColumns.map((column) => column.cell(row))))])
      ),
      Stream.concat(Stream.make(sheet.end))
    )
    return ZipWriter.archive([
      ...XlsxWorkbook.parts(SHEET_NAME, sheetColumns).map(([path, xml]) => ZipWriter.text(path, xml)),
      { name: XlsxWorkbook.sheetPath, content: sheetXml }
    ]).pipe(
      Stream.mapError((error) =>
        error instanceof ZipWriter.ZipWriteFailed ? new XlsxWriteFailed({ cause: error }) : error
      )
    )
  })
