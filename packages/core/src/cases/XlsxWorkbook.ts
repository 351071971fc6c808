/**
 * The parts of a one-sheet XLSX workbook (SpreadsheetML), written by hand: the
 * fixed parts (content types, relationships, workbook, styles) and the sheet's
 * XML in three pieces (its start and header row, rows as they come, its end),
 * so a sheet of any length is written as it is read.
 *
 * The header row is bold and frozen, columns have their widths; a text is an
 * inline string (never a formula, never kept in a shared-string table), a
 * number a number, a yes/no a boolean, a moment an Excel serial number (UTC)
 * in its column's date format; a blank cell is left out.
 *
 * @module
 */

/** What one cell holds: text, a number, a yes/no, a moment, or nothing (a blank cell). */
export type Cell = string | number | boolean | Date | null

/** A column of the sheet: its header, width (characters) and the number format of its moments. */
export interface SheetColumn {
  readonly header: string
  readonly width: number
  readonly numFmt?: string | undefined
}

/** The formats every workbook has: a moment in a column without its own format is shown as a timestamp. */
const DATE_FORMATS = ["yyyy-mm-dd", "yyyy-mm-dd hh:mm", "yyyy-mm-dd hh:mm:ss"] as const
/** The first id of a custom number format (ids below are Excel's built-in ones). */
const FIRST_NUMFMT = 164
/** Cell styles: 0 the default, 1 the bold header, then one per number format. */
const HEADER_STYLE = 1

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
const RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
const OFFICE_RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

/**
 * What a text cannot hold as it is: XML's markup characters, a carriage return
 * (XML reads it as a line feed), an `_xHHHH_` (Excel reads it as an escaped
 * character: its `_` is written `_x005F_`), and characters XML refuses (dropped).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern removes
const ESCAPED = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/g
const NEEDS_ESCAPE = new RegExp(ESCAPED.source)
const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\r": "&#13;",
  _: "_x005F_"
}
const escapeChar = (char: string): string => ESCAPES[char] ?? ""

/** A text as the content of an XML element: `a < b & _x0041_` → `a &lt; b &amp; _x005F_x0041_`. */
const escapeText = (text: string): string => (NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, escapeChar) : text)

const attribute = (text: string): string => escapeText(text).replaceAll('"', "&quot;")

/**
 * A column's letters: 0 → `A`, 25 → `Z`, 26 → `AA`.
 *
 * @example
 * ```ts
 * XlsxWorkbook.columnName(27) // "AB"
 * ```
 */
export const columnName = (index: number): string => {
  let name = ""
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/** Milliseconds per day, and the serial number of 1970-01-01 (Excel counts days from 1899-12-30). */
const DAY_MS = 86_400_000
const UNIX_EPOCH_SERIAL = 25_569

/** The number formats of a sheet: the date formats, then the columns' others; each with its style. */
const numberFormats = (columns: ReadonlyArray<SheetColumn>): ReadonlyArray<string> => [
  ...new Set<string>([...DATE_FORMATS, ...columns.flatMap((column) => (column.numFmt ? [column.numFmt] : []))])
]

/** The style of a number format (its index in {@link numberFormats}). */
const styleOf = (formats: ReadonlyArray<string>, format: string): number => HEADER_STYLE + 1 + formats.indexOf(format)

const styles = (formats: ReadonlyArray<string>): string => {
  const font = (bold: boolean) =>
    `<font>${bold ? "<b/>" : ""}<sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font>`
  return (
    `${DECLARATION}<styleSheet xmlns="${MAIN}">` +
    `<numFmts count="${formats.length}">${formats
      .map((format, i) => `<numFmt numFmtId="${FIRST_NUMFMT + i}" formatCode="${attribute(format)}"/>`)
      .join("")}</numFmts>` +
    `<fonts count="2">${font(false)}${font(true)}</fonts>` +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${2 + formats.length}">` +
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
    formats
      .map(
        (_, i) =>
          `<xf numFmtId="${FIRST_NUMFMT + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`
      )
      .join("") +
    "</cellXfs>" +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    "</styleSheet>"
  )
}

/** The path of the sheet in the package. */
export const sheetPath = "xl/worksheets/sheet1.xml"

/**
 * The fixed parts of a workbook whose one sheet is named `sheetName` and has
 * `columns`, as `[path, XML]` in the package's order (the sheet itself comes
 * after them, from {@link sheet}).
 *
 * @example
 * ```ts
 * XlsxWorkbook.parts("Responses", columns).map(([path]) => path)
 * // ["[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml"]
 * ```
 */
export const parts = (
  sheetName: string,
  columns: ReadonlyArray<SheetColumn>
): ReadonlyArray<readonly [path: string, xml: string]> => [
  [
    "[Content_Types].xml",
    `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      `<Override PartName="/${sheetPath}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      "</Types>"
  ],
  [
    "_rels/.rels",
    `${DECLARATION}<Relationships xmlns="${RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${OFFICE_RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>` +
      "</Relationships>"
  ],
  [
    "xl/workbook.xml",
    `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${OFFICE_RELATIONSHIPS}">` +
      "<bookViews><workbookView/></bookViews>" +
      `<sheets><sheet name="${attribute(sheetName)}" sheetId="1" r:id="rId1"/></sheets>` +
      "</workbook>"
  ],
  [
    "xl/_rels/workbook.xml.rels",
    `${DECLARATION}<Relationships xmlns="${RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${OFFICE_RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${OFFICE_RELATIONSHIPS}/styles" Target="styles.xml"/>` +
      "</Relationships>"
  ],
  ["xl/styles.xml", styles(numberFormats(columns))]
]

/** A sheet being written: its XML in pieces. */
export interface SheetWriter {
  /** From the XML declaration to the header row, included. */
  readonly start: string
  /** The next rows (numbered on from the last ones), one array of cells per row, in column order. */
  readonly rows: (rows: ReadonlyArray<ReadonlyArray<Cell>>) => string
  /** The end of the sheet. */
  readonly end: string
}

/**
 * The writer of a sheet with `columns`: its header row bold and frozen, then
 * the rows given to `rows`, in order.
 *
 * @example
 * ```ts
 * const sheet = XlsxWorkbook.sheet([{ header: "Id", width: 12 }, { header: "At", width: 20, numFmt: "yyyy-mm-dd" }])
 * const xml = sheet.start + sheet.rows([[1, new Date("2026-01-31")], [2, null]]) + sheet.end
 * ```
 */
export const sheet = (columns: ReadonlyArray<SheetColumn>): SheetWriter => {
  const formats = numberFormats(columns)
  const names = columns.map((_, i) => columnName(i))
  /** The style of a moment in each column. */
  const dateStyles = columns.map((column) => styleOf(formats, column.numFmt ?? DATE_FORMATS[2]))
  const cols =
    columns.length === 0
      ? ""
      : `<cols>${columns
          .map((column, i) => {
            const style = column.numFmt === undefined ? "" : ` style="${dateStyles[i]}"`
            return `<col min="${i + 1}" max="${i + 1}" width="${column.width}" customWidth="1"${style}/>`
          })
          .join("")}</cols>`
  const inline = (ref: string, style: string, text: string) =>
    `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${escapeText(text)}</t></is></c>`
  const start =
    `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${OFFICE_RELATIONSHIPS}">` +
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0">' +
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
    '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>' +
    "</sheetView></sheetViews>" +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    cols +
    '<sheetData><row r="1">' +
    columns.map((column, i) => inline(`${names[i]}1`, ` s="${HEADER_STYLE}"`, column.header)).join("") +
    "</row>"
  let row = 1
  const cell = (value: Cell, i: number): string => {
    if (value === null) return ""
    const ref = `${names[i]}${row}`
    switch (typeof value) {
      case "string":
        return value === "" ? "" : inline(ref, "", value)
      case "number":
        return Number.isFinite(value) ? `<c r="${ref}"><v>${value}</v></c>` : inline(ref, "", String(value))
      case "boolean":
        return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`
      default: {
        const time = value.getTime()
        return Number.isNaN(time)
          ? ""
          : `<c r="${ref}" s="${dateStyles[i]}"><v>${time / DAY_MS + UNIX_EPOCH_SERIAL}</v></c>`
      }
    }
  }
  const rows = (cells: ReadonlyArray<ReadonlyArray<Cell>>): string => {
    let xml = ""
    for (const values of cells) {
      row += 1
      xml += `<row r="${row}">`
      for (let i = 0; i < values.length && i < columns.length; i++) xml += cell(values[i]!, i)
      xml += "</row>"
    }
    return xml
  }
  return { start, rows, end: "</sheetData></worksheet>" }
}
