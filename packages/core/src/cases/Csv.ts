/**
 * Responses as CSV (RFC 4180): a header of metadata columns and question
 * labels, one line per response, CRLF line ends.
 *
 * No cell runs as a formula in a spreadsheet, whichever delimiter its locale
 * splits on (`,` `;` or tab; a semicolon locale reads this comma-separated
 * file split on `;`, where quotes do not protect a `;` in mid-cell): a cell
 * starting with = + - @ tab or carriage return, or holding a delimiter or line
 * break followed by one of = + - @, is prefixed with ' (OWASP's advice
 * against CSV injection), and so is each such sign after a delimiter or line
 * break inside the cell.
 */
import type { CaseField } from "./CaseFields.ts"
import { type Field, type Stage, Summaries, takesAnswer } from "../forms/index.ts"
import type { Member } from "../identity/index.ts"
import type { ResponseRow } from "./Responses.ts"

/** A sign that starts a formula, at the start of the cell (after blanks or quotes), or a leading tab / CR. */
const FORMULA_START = /^(?:[\s"]*[=+\-@]|[\t\r])/
/** A delimiter or line break (and any quotes) right before a formula sign: where a spreadsheet may start a cell. */
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n]"*)(?=[=+\-@])/g

/**
 * One cell, made safe for spreadsheets and quoted when needed.
 *
 * @example
 * ```ts
 * Csv.cell("=HYPERLINK(\"x\")") // "\"'=HYPERLINK(\"\"x\"\")\""
 * Csv.cell("a;=cmd") // "\"'a;'=cmd\""
 * Csv.cell("plain") // "plain"
 * ```
 */
export const cell = (value: string): string => {
  const inside = value.replace(FORMULA_AFTER_SEPARATOR, "$1'")
  const safe = FORMULA_START.test(value) || inside !== value ? `'${inside}` : value
  return /[",;\t\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replaceAll('"', '""')}"` : safe
}

const line = (cells: ReadonlyArray<string>): string => `${cells.map(cell).join(",")}\r\n`

/** The questions with an answer column, in the order of `Summaries.answerKeys`. */
const answered = (fields: ReadonlyArray<Field>) =>
  [...fields].filter(takesAnswer).sort((a, b) => a.position - b.position || a.id - b.id)

/** The metadata columns that come before the questions. */
export const metadataColumns: ReadonlyArray<string> = [
  "Response ID",
  "Submitted at",
  "Name",
  "Email",
  "Stage",
  "Assignee",
  "Tags",
  "Source"
]

/** A case field's value as a cell's text: a member by name, the rest as stored; "" when not set. */
export const caseFieldText = (
  field: CaseField,
  value: string | number | undefined,
  memberNames: ReadonlyMap<number, string>
): string =>
  value === undefined
    ? ""
    : field.type === "member" && typeof value === "number"
      ? (memberNames.get(value) ?? String(value))
      : String(value)

/** The CSV writer of one form's responses. */
export interface CsvWriter {
  readonly header: string
  readonly row: (response: ResponseRow) => string
}

/**
 * A writer for a form: the header line and a function writing each response
 * (answers in question order, stage and assignee by name, files by name and
 * download link under `linkBase`). Every column has its own header: a label
 * repeated, or equal to a metadata column, is numbered (`Name (2)`) as in
 * `flat=1` answers.
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
  /**
   * The keys of values beyond the questions (`ResponseListHead.valueKeys`: `hidden:<name>`, `var:<name>`,
   * `ending`): one column each after the questions, headed by the key.
   */
  valueKeys: ReadonlyArray<string> = [],
  /** The form's case fields (`CaseFields.ts`): one column each after the metadata, headed by its label. */
  caseFields: ReadonlyArray<CaseField> = []
): CsvWriter => {
  const caseLabels = caseFields.map((field) => field.label)
  const keyed = Summaries.answerKeys(fields, [...metadataColumns, ...caseLabels, ...valueKeys])
  const questions = answered(fields)
  const stageNames = new Map(stages.map((stage) => [stage.id, stage.name]))
  const memberNames = new Map(members.map((member) => [member.accountId, member.name ?? member.email]))
  return {
    header: line([...metadataColumns, ...caseLabels, ...keyed.map((k) => k.key), ...valueKeys]),
    row: (response) =>
      line([
        String(response.id),
        response.submittedAt,
        response.name ?? "",
        response.email ?? "",
        response.stageId === null ? "" : (stageNames.get(response.stageId) ?? ""),
        response.assigneeId === null ? "" : (memberNames.get(response.assigneeId) ?? ""),
        response.tags.join(", "),
        response.source,
        ...caseFields.map((field) => caseFieldText(field, response.caseFields[field.key], memberNames)),
        ...questions.map((field) =>
          Summaries.formatAnswer(
            field,
            response.values[String(field.id)] as Parameters<typeof Summaries.formatAnswer>[1],
            linkBase
          )
        ),
        ...valueKeys.map((key) => {
          const value = response.values[key]
          return typeof value === "string" || typeof value === "number" ? String(value) : ""
        })
      ])
  }
}
