/**
 * The hand-written workbook, without a database: Python's zipfile finds the
 * parts of a one-sheet workbook, each part well-formed XML (ElementTree);
 * exceljs reads back texts that XML or Excel would otherwise alter (markup,
 * carriage returns, `_xHHHH_`, characters XML refuses), numbers, booleans and
 * moments; and the export reads a page of rows only once the bytes before it
 * were taken.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ExcelJS from "exceljs"
import { Effect, Option, Stream } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import type { ResponseRow } from "../src/cases/ResponseModels.ts"
import * as Xlsx from "../src/cases/Xlsx.ts"
import * as XlsxWorkbook from "../src/cases/XlsxWorkbook.ts"

const directory = mkdtempSync(join(tmpdir(), "qforms-xlsx-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const response = (id: number): ResponseRow => ({
  id,
  submittedAt: "2026-11-26T14:30:15.250Z",
  updatedAt: "2026-11-26T14:30:15.250Z",
  name: null,
  email: null,
  stageId: null,
  assigneeId: null,
  tags: [],
  source: "api",
  values: {},
  finished: true,
  language: null,
  caseFields: {}
})

const bytesOf = (stream: Stream.Stream<Uint8Array, unknown>): Promise<Buffer> =>
  Effect.runPromise(Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(chunks)))

/** Columns whose cells are given by row id. */
const columnsOf = (
  cells: ReadonlyArray<{ header: string; numFmt?: string; values: Record<number, Xlsx.XlsxCell> }>
): ReadonlyArray<Xlsx.XlsxColumn> =>
  cells.map(({ header, numFmt, values }) => ({
    header,
    width: 15,
    ...(numFmt === undefined ? {} : { numFmt }),
    cell: (row: ResponseRow) => values[row.id] ?? null
  }))

describe("the workbook", () => {
  it("has the parts of a one-sheet workbook, each well-formed XML, as Python's zipfile reads them", async () => {
    const columns = columnsOf([
      { header: "Id", values: { 1: 1, 2: 2 } },
      { header: "A & <b>", values: { 1: "x", 2: "y" } }
    ])
    const path = join(directory, "parts.xlsx")
    writeFileSync(path, await bytesOf(Xlsx.stream(columns, Stream.make(response(1), response(2)))))
    const script = `
import json, sys, zipfile
import xml.etree.ElementTree as ET
main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    parts = {name: ET.fromstring(z.read(name)) for name in z.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    pane = sheet.find(f"{main}sheetViews/{main}sheetView/{main}pane")
    print(json.dumps({
        "names": z.namelist(),
        "rows": len(sheet.findall(f"{main}sheetData/{main}row")),
        "pane": pane.attrib,
        "widths": [col.get("width") for col in sheet.findall(f"{main}cols/{main}col")],
        "header": ["".join(t.itertext()) for t in sheet.findall(f"{main}sheetData/{main}row/{main}c/{main}is")][:2],
    }))
`
    const run = spawnSync("python3", ["-c", script, path], { encoding: "utf8" })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      names: [
        "[Content_Types].xml",
        "_rels/.rels",
        "xl/workbook.xml",
        "xl/_rels/workbook.xml.rels",
        "xl/styles.xml",
        "xl/worksheets/sheet1.xml"
      ],
      rows: 3,
      pane: { ySplit: "1", topLeftCell: "A2", activePane: "bottomLeft", state: "frozen" },
      widths: ["15", "15"],
      header: ["Id", "A & <b>"]
    })
  })

  it("keeps every text as typed, and numbers, booleans and moments typed", async () => {
    const texts = [
      "a < b & c > d",
      "_x0041_ stays _x0041_, _x00e9_ too",
      "line one\r\nline two\rthree",
      "  leading and trailing spaces  ",
      "Grüße 世界 🌍",
      '=HYPERLINK("https://evil.example","click")',
      "]]> and &amp; as typed"
    ]
    const moment = new Date(Date.UTC(2026, 10, 26, 14, 30, 15, 250))
    const columns = columnsOf([
      { header: "Text", values: Object.fromEntries(texts.map((text, i) => [i + 1, text])) },
      { header: "Number", values: { 1: 0.1, 2: -5, 3: 1e21, 4: 2 ** 53, 5: Number.NaN } },
      { header: "Yes/no", values: { 1: true, 2: false } },
      { header: "Moment", numFmt: "yyyy-mm-dd hh:mm:ss", values: { 1: moment, 2: new Date(Date.UTC(1970, 0, 1)) } },
      { header: "Day", numFmt: "yyyy-mm-dd", values: { 1: new Date(Date.UTC(2026, 0, 31)) } },
      { header: 'Header "quoted" & <odd>\u0007', values: {} }
    ])
    const rows = Stream.fromIterable(texts.map((_, i) => response(i + 1)))
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(new Uint8Array(await bytesOf(Xlsx.stream(columns, rows))).buffer)
    const sheet = workbook.worksheets[0]!
    expect(sheet.name).toBe("Responses")
    expect(sheet.rowCount).toBe(texts.length + 1)
    expect((sheet.getRow(1).values as Array<unknown>).slice(1)).toEqual([
      "Text",
      "Number",
      "Yes/no",
      "Moment",
      "Day",
      'Header "quoted" & <odd>'
    ])
    texts.forEach((text, i) => {
      const cell = sheet.getRow(i + 2).getCell(1)
      expect(cell.type, text).toBe(ExcelJS.ValueType.String)
      // Excel (and openpyxl) read `_xHHHH_` in any text as the character HHHH; exceljs does so in shared strings
      // only, so its inline strings are read here as Excel reads them.
      expect(
        String(cell.value).replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
      ).toBe(text)
    })
    expect([2, 3, 4, 5, 6].map((n) => sheet.getRow(n).getCell(2).value)).toEqual([0.1, -5, 1e21, 2 ** 53, "NaN"])
    expect(sheet.getRow(2).getCell(3).value).toBe(true)
    expect(sheet.getRow(3).getCell(3).value).toBe(false)
    expect(sheet.getRow(4).getCell(3).value).toBe(null)
    expect(sheet.getRow(2).getCell(4).value).toEqual(moment)
    expect(sheet.getRow(2).getCell(4).numFmt).toBe("yyyy-mm-dd hh:mm:ss")
    expect(sheet.getRow(3).getCell(4).value).toEqual(new Date(0))
    expect(sheet.getRow(2).getCell(5).value).toEqual(new Date(Date.UTC(2026, 0, 31)))
    expect(sheet.getRow(2).getCell(5).numFmt).toBe("yyyy-mm-dd")
  })

  it("reads the next page of rows only once the bytes before it were taken", async () => {
    let pages = 0
    const rows = Stream.paginate(0, (page: number) =>
      Effect.sync(() => {
        pages += 1
        const batch = Array.from({ length: 500 }, (_, i) => response(page * 500 + i + 1))
        return [batch, page < 19 ? Option.some(page + 1) : Option.none()] as const
      })
    )
    const columns = columnsOf([{ header: "Id", values: {} }])
    const seen = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const pull = yield* Stream.toPull(Xlsx.stream(columns, rows))
          const out: Array<number> = []
          // Five fixed parts: a local header, the compressed part, its descriptor each (3 pulls a part).
          for (let i = 0; i < 5 * 3 + 2; i++) yield* pull
          // The sheet's local header and its start are out: no page read yet.
          out.push(pages)
          for (let i = 0; i < 3; i++) {
            yield* pull
            out.push(pages)
          }
          return out
        })
      )
    )
    expect(seen).toEqual([0, 1, 2, 3])
  })
})

describe("XlsxWorkbook.sheet", () => {
  /** The text of a cell's XML as Excel reads it: XML references, then `_xHHHH_`. */
  const readBack = (xml: string): string =>
    xml
      .replace(/&(lt|gt|amp|#13);/g, (_, name) => ({ lt: "<", gt: ">", amp: "&", "#13": "\r" })[name as string]!)
      .replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))

  it("writes any text as UTF-8 that reads back as the text, less what XML refuses", () => {
    const decoder = new TextDecoder("utf-8", { fatal: true })
    // One sheet, page after page: each text is its own page.
    const sheet = XlsxWorkbook.sheet([{ header: "Text", width: 10 }])
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom("_x0041_", "_x00e9_", "&", "<", ">", "\r", "_"),
            fc.string({ unit: "binary", maxLength: 3 })
          )
        }),
        (text) => {
          const xml = decoder.decode(sheet.rows([[text]]))
          if (text === "") {
            expect(xml).toMatch(/^<row r="\d+"><\/row>$/)
            return
          }
          const inner =
            /^<row r="(\d+)"><c r="A\1" t="inlineStr"><is><t xml:space="preserve">([^<]*)<\/t><\/is><\/c><\/row>$/.exec(
              xml
            )
          expect(inner, xml).not.toBe(null)
          // Lone surrogates become U+FFFD (as TextEncoder writes them); characters XML refuses are dropped.
          const expected = decoder
            .decode(new TextEncoder().encode(text))
            // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML refuses
            .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
          expect(readBack(inner![2]!)).toBe(expected)
        }
      ),
      { numRuns: 500 }
    )
  })

  it("numbers its rows on from page to page, and writes each page over the last one's bytes", () => {
    const sheet = XlsxWorkbook.sheet([{ header: "N", width: 10 }])
    const first = sheet.rows([[1], [2]])
    expect(new TextDecoder().decode(first)).toBe(
      '<row r="2"><c r="A2"><v>1</v></c></row><row r="3"><c r="A3"><v>2</v></c></row>'
    )
    const second = new TextDecoder().decode(sheet.rows([[true, "ignored: beyond the columns"], [-1.5]]))
    expect(second).toBe('<row r="4"><c r="A4" t="b"><v>1</v></c></row><row r="5"><c r="A5"><v>-1.5</v></c></row>')
  })
})

describe("XlsxWorkbook.columnName", () => {
  it("names columns as Excel does", () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702, 16_383].map(XlsxWorkbook.columnName)).toEqual([
      "A",
      "Z",
      "AA",
      "AB",
      "AZ",
      "BA",
      "ZZ",
      "AAA",
      "XFD"
    ])
  })
})
