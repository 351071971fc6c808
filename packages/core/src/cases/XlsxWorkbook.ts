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

/** A text as an attribute's value (the formats' codes, the sheet's name). */
const attribute = (text: string): string =>
  text.replace(/[&<>"]/g, (char) => (char === "&" ? "&amp;" : char === "<" ? "&lt;" : char === ">" ? "&gt;" : "&quot;"))

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

/** A sheet being written: its XML in pieces, as UTF-8. */
export interface SheetWriter {
  /** From the XML declaration to the header row, included. */
  readonly start: Uint8Array
  /**
   * The next rows (numbered on from the last ones), one array of cells per
   * row, in column order. The bytes are a view of the writer's own buffer:
   * valid until the next call, which writes over them.
   */
  readonly rows: (rows: ReadonlyArray<ReadonlyArray<Cell>>) => Uint8Array
  /** The end of the sheet. */
  readonly end: Uint8Array
}

const utf8 = new TextEncoder()
const bytesOf = (text: string): Uint8Array => utf8.encode(text)

/** The buffer a page of rows is written into: this size at first, given back when a page needed far more. */
const BUFFER_SIZE = 256 * 1024
const KEPT_BUFFER_SIZE = 4 * 1024 * 1024

/** Bytes written into a buffer that grows as needed and is written over from the start by `reset`. */
const byteWriter = () => {
  let buffer = new Uint8Array(BUFFER_SIZE)
  let at = 0
  /** Room for `size` more bytes. */
  const room = (size: number) => {
    if (at + size <= buffer.length) return
    const grown = new Uint8Array(Math.max(2 * buffer.length, at + size))
    grown.set(buffer.subarray(0, at))
    buffer = grown
  }
  const bytes = (part: Uint8Array) => {
    room(part.length)
    buffer.set(part, at)
    at += part.length
  }
  /** Text known to be ASCII without markup (numbers). */
  const ascii = (text: string) => {
    room(text.length)
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i)
  }
  const digits = (n: number) => {
    let size = 1
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) size++
    room(size)
    for (let i = at + size - 1, rest = n; i >= at; i--, rest = Math.floor(rest / 10)) buffer[i] = 48 + (rest % 10)
    at += size
  }
  /**
   * A text as the content of an element, in UTF-8: markup and a carriage
   * return as references, the `_` of an `_xHHHH_` as `_x005F_`, characters
   * XML refuses dropped, a lone surrogate as U+FFFD.
   */
  const text = (value: string) => {
    // The longest a UTF-16 unit becomes: `_` → `_x005F_`.
    room(7 * value.length)
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      if (c < 0x80) {
        if (c >= 0x20 && c !== 0x26 && c !== 0x3c && c !== 0x3e && c !== 0x5f) buffer[at++] = c
        else if (c === 0x26) at = put(AMP, at)
        else if (c === 0x3c) at = put(LT, at)
        else if (c === 0x3e) at = put(GT, at)
        else if (c === 0x0d) at = put(CR, at)
        else if (c === 0x5f) {
          if (excelEscapeAt(value, i + 1)) at = put(UNDERSCORE, at)
          else buffer[at++] = c
        } else if (c === 0x09 || c === 0x0a) buffer[at++] = c
        // Other control characters: dropped.
      } else if (c < 0x800) {
        buffer[at++] = 0xc0 | (c >> 6)
        buffer[at++] = 0x80 | (c & 0x3f)
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length && isLowSurrogate(value.charCodeAt(i + 1))) {
        const point = 0x10000 + ((c - 0xd800) << 10) + (value.charCodeAt(++i) - 0xdc00)
        buffer[at++] = 0xf0 | (point >> 18)
        buffer[at++] = 0x80 | ((point >> 12) & 0x3f)
        buffer[at++] = 0x80 | ((point >> 6) & 0x3f)
        buffer[at++] = 0x80 | (point & 0x3f)
      } else if (c === 0xfffe || c === 0xffff) {
        // Not characters in XML: dropped.
      } else {
        const unit = c >= 0xd800 && c <= 0xdfff ? 0xfffd : c
        buffer[at++] = 0xe0 | (unit >> 12)
        buffer[at++] = 0x80 | ((unit >> 6) & 0x3f)
        buffer[at++] = 0x80 | (unit & 0x3f)
      }
    }
  }
  const put = (part: Uint8Array, offset: number): number => {
    buffer.set(part, offset)
    return offset + part.length
  }
  return {
    bytes,
    ascii,
    digits,
    text,
    /** What was written since the last reset (a view: written over after the next reset). */
    written: () => buffer.subarray(0, at),
    reset: () => {
      if (buffer.length > KEPT_BUFFER_SIZE) buffer = new Uint8Array(BUFFER_SIZE)
      at = 0
    }
  }
}

const AMP = bytesOf("&amp;")
const LT = bytesOf("&lt;")
const GT = bytesOf("&gt;")
const CR = bytesOf("&#13;")
const UNDERSCORE = bytesOf("_x005F_")
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
/** Whether `x` + 4 hex digits + `_` starts at `i`: after a `_`, what Excel reads as an escaped character. */
const excelEscapeAt = (value: string, i: number): boolean =>
  value.charCodeAt(i) === 0x78 &&
  isHex(value.charCodeAt(i + 1)) &&
  isHex(value.charCodeAt(i + 2)) &&
  isHex(value.charCodeAt(i + 3)) &&
  isHex(value.charCodeAt(i + 4)) &&
  value.charCodeAt(i + 5) === 0x5f

const ROW_OPEN = bytesOf('<row r="')
const ROW_OPENED = bytesOf('">')
const ROW_CLOSE = bytesOf("</row>")
const CELL_OPEN = bytesOf('<c r="')
const INLINE_OPEN = bytesOf('" t="inlineStr"><is><t xml:space="preserve">')
const INLINE_CLOSE = bytesOf("</t></is></c>")
const VALUE_OPEN = bytesOf('"><v>')
const VALUE_CLOSE = bytesOf("</v></c>")
const TRUE = bytesOf('" t="b"><v>1</v></c>')
const FALSE = bytesOf('" t="b"><v>0</v></c>')

/**
 * The writer of a sheet with `columns`: its header row bold and frozen, then
 * the rows given to `rows`, in order. The rows are written straight into one
 * buffer as UTF-8, page after page, so a page costs no string per cell.
 *
 * @example
 * ```ts
 * const sheet = XlsxWorkbook.sheet([{ header: "Id", width: 12 }, { header: "At", width: 20, numFmt: "yyyy-mm-dd" }])
 * const pieces = [sheet.start, sheet.rows([[1, new Date("2026-01-31")], [2, null]]).slice(), sheet.end]
 * ```
 */
export const sheet = (columns: ReadonlyArray<SheetColumn>): SheetWriter => {
  const formats = numberFormats(columns)
  /** The style of a moment in each column. */
  const dateStyles = columns.map((column) => styleOf(formats, column.numFmt ?? DATE_FORMATS[2]))
  const names = columns.map((_, i) => bytesOf(columnName(i)))
  const dateOpens = dateStyles.map((style) => bytesOf(`" s="${style}"><v>`))
  const out = byteWriter()
  let row = 1
  /** `<c r="B7` */
  const ref = (i: number) => {
    out.bytes(CELL_OPEN)
    out.bytes(names[i]!)
    out.digits(row)
  }
  const inline = (i: number, value: string) => {
    ref(i)
    out.bytes(INLINE_OPEN)
    out.text(value)
    out.bytes(INLINE_CLOSE)
  }
  const cell = (value: Cell, i: number) => {
    if (value === null) return
    switch (typeof value) {
      case "string":
        if (value !== "") inline(i, value)
        return
      case "number":
        if (!Number.isFinite(value)) return inline(i, String(value))
        ref(i)
        out.bytes(VALUE_OPEN)
        if (Number.isSafeInteger(value) && value >= 0) out.digits(value)
        else out.ascii(String(value))
        out.bytes(VALUE_CLOSE)
        return
      case "boolean":
        ref(i)
        out.bytes(value ? TRUE : FALSE)
        return
      default: {
        const time = value.getTime()
        if (Number.isNaN(time)) return
        ref(i)
        out.bytes(dateOpens[i]!)
        out.ascii(String(time / DAY_MS + UNIX_EPOCH_SERIAL))
        out.bytes(VALUE_CLOSE)
      }
    }
  }
  const cols =
    columns.length === 0
      ? ""
      : `<cols>${columns
          .map((column, i) => {
            const style = column.numFmt === undefined ? "" : ` style="${dateStyles[i]}"`
            return `<col min="${i + 1}" max="${i + 1}" width="${column.width}" customWidth="1"${style}/>`
          })
          .join("")}</cols>`
  out.bytes(
    bytesOf(
      `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${OFFICE_RELATIONSHIPS}">` +
        '<sheetViews><sheetView tabSelected="1" workbookViewId="0">' +
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>' +
        "</sheetView></sheetViews>" +
        '<sheetFormatPr defaultRowHeight="15"/>' +
        cols +
        '<sheetData><row r="1">'
    )
  )
  const headerStyle = bytesOf(`" s="${HEADER_STYLE}" t="inlineStr"><is><t xml:space="preserve">`)
  columns.forEach((column, i) => {
    ref(i)
    out.bytes(headerStyle)
    out.text(column.header)
    out.bytes(INLINE_CLOSE)
  })
  out.bytes(ROW_CLOSE)
  const start = out.written().slice()
  const rows = (cells: ReadonlyArray<ReadonlyArray<Cell>>): Uint8Array => {
    out.reset()
    for (const values of cells) {
      row += 1
      out.bytes(ROW_OPEN)
      out.digits(row)
      out.bytes(ROW_OPENED)
      for (let i = 0; i < values.length && i < columns.length; i++) cell(values[i]!, i)
      out.bytes(ROW_CLOSE)
    }
    return out.written()
  }
  return { start, rows, end: bytesOf("</sheetData></worksheet>") }
}
