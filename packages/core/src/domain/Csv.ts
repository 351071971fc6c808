/**
 * Responses as CSV (RFC 4180): a header of metadata columns and question
 * labels, one line per response, CRLF line ends. A cell that a spreadsheet
 * would run as a formula (starting with = + - @, tab or carriage return) is
 * prefixed with ' (OWASP's advice against CSV injection).
 */
import type { Field } from "./Fields.ts"
import type { Member } from "./Members.ts"
import type { ResponseRow } from "./Responses.ts"
import type { Stage } from "./Stages.ts"
import { hiddenKey } from "./FormLogic.ts"
import * as Summaries from "./Summaries.ts"

/**
 * One cell, made safe for spreadsheets and quoted when needed.
 *
 * @example
 * ```ts
 * Csv.cell("=HYPERLINK(\"x\")") // "\"'=HYPERLINK(\"\"x\"\")\""
 * Csv.cell("plain") // "plain"
 * ```
 */
export const cell = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replaceAll("\"", "\"\"")}"` : safe
}

const line = (cells: ReadonlyArray<string>): string => `${cells.map(cell).join(",")}\r\n`

const answered = (fields: ReadonlyArray<Field>) =>
  [...fields].filter((field) => field.type !== "statement").sort((a, b) => a.position - b.position || a.id - b.id)

/** The metadata columns that come before the questions. */
export const metadataColumns = ["Response ID", "Submitted at", "Name", "Email", "Stage", "Assignee", "Tags", "Source"]

/** The CSV writer of one form's responses. */
export interface CsvWriter {
  readonly header: string
  readonly row: (response: ResponseRow) => string
}

/**
 * A writer for a form: the header line and a function writing each response
 * (answers in question order, stage and assignee by name, files by name and
 * download link under `linkBase`).
 *
 * @example
 * ```ts
 * const csv = Csv.writer(fields, stages, members, "https://forms.example.com")
 * const text = csv.header + rows.map(csv.row).join("")
 * ```
 */
export const writer = (
  fields: ReadonlyArray<Field>,
  stages: ReadonlyArray<Stage>,
  members: ReadonlyArray<Member>,
  linkBase = "",
  /** The form's hidden fields (form logic): one column each after the questions, headed `hidden:<name>`. */
  hiddenNames: ReadonlyArray<string> = []
): CsvWriter => {
  const questions = answered(fields)
  const stageNames = new Map(stages.map((stage) => [stage.id, stage.name]))
  const memberNames = new Map(members.map((member) => [member.accountId, member.name ?? member.email]))
  return {
    header: line([...metadataColumns, ...questions.map((field) => field.label), ...hiddenNames.map(hiddenKey)]),
    row: (response) =>
      line([
        String(response.id),
        response.submittedAt,
        response.name ?? "",
        response.email ?? "",
        response.stageId === null ? "" : stageNames.get(response.stageId) ?? "",
        response.assigneeId === null ? "" : memberNames.get(response.assigneeId) ?? "",
        response.tags.join(", "),
        response.source,
        ...questions.map((field) =>
          Summaries.formatAnswer(
            field,
            response.values[String(field.id)] as Parameters<typeof Summaries.formatAnswer>[1],
            linkBase
          )
        ),
        ...hiddenNames.map((name) => {
          const value = response.values[hiddenKey(name)]
          return typeof value === "string" ? value : ""
        })
      ])
  }
}
