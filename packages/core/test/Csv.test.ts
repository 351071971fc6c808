/**
 * The CSV export: no cell a spreadsheet would run as a formula, whatever
 * delimiter the spreadsheet's locale splits on (`,` `;` or tab), and one
 * header per column (repeated labels numbered as `flat=1` numbers them).
 * Checked on `Csv.cell` for any text and through the HTTP export.
 */
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Csv from "../src/cases/Csv.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { api, createForm, seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const delimiters = [",", ";", "\t"] as const

/** RFC 4180 lines split on `delimiter` (quotes respected), as a spreadsheet of that locale reads them. */
const parse = (text: string, delimiter: string): ReadonlyArray<ReadonlyArray<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let cell = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"' && cell === "") quoted = true
    else if (c === delimiter) {
      row.push(cell)
      cell = ""
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ""
      i++
    } else cell += c
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell])
  return rows
}

/** A cell a spreadsheet would run as a formula (tabs and line breaks before the sign included). */
const runsAsFormula = (cell: string) => /^[\t\r\n]*[=+\-@]/.test(cell)

const withoutQuotes = (text: string) => text.replaceAll("'", "")

describe("Csv.cell", () => {
  it("no cell of any text runs as a formula, split on , ; or tab", () => {
    const risky = fc.constantFrom("=", "+", "-", "@", "\t", "\r", ",", ";", '"', "\n", " ", "a", "cmd|' /C calc'!A0")
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.array(risky, { maxLength: 12 }).map((p) => p.join(""))
          ),
          { minLength: 1, maxLength: 4 }
        ),
        (values) => {
          const line = `${values.map(Csv.cell).join(",")}\r\n`
          for (const delimiter of delimiters) {
            for (const row of parse(line, delimiter)) {
              for (const cell of row)
                expect(runsAsFormula(cell), JSON.stringify({ values, delimiter, cell })).toBe(false)
            }
          }
          // Read back with the delimiter it was written with, each value is itself but for the ' added.
          const [back] = parse(line, ",")
          values.forEach((value, i) => expect(withoutQuotes(back![i]!)).toBe(withoutQuotes(value)))
        }
      ),
      { numRuns: 2000 }
    )
  })

  it.each([
    ["a;=cmd|' /C calc'!A0", "\"'a;'=cmd|' /C calc'!A0\""],
    ["a,+1", "\"'a,'+1\""],
    ["x\t-2", "\"'x\t'-2\""],
    ['b;"=1', '"\'b;""\'=1"'],
    ["=1+1", "'=1+1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["a;b", '"a;b"'],
    ["plain", "plain"],
    ["-", "'-"]
  ])("%j is written %j", (value, written) => {
    expect(Csv.cell(value)).toBe(written)
  })
})

for (const target of databaseTargets) {
  describe(`CSV export on ${target.name}`, () => {
    let server: TestServer
    let key: string

    beforeAll(async () => {
      server = await startTestServer(target)
      key = (await seedWorkspace(server)).key
    })
    afterAll(async () => {
      await server?.close()
    })

    it("neutralises formulas after a delimiter and numbers repeated headers", async () => {
      const form = await createForm(server, key, {
        title: "Contacts",
        fields: [
          { type: "short_text", label: "Name" },
          { type: "email", label: "Email" },
          { type: "long_text", label: "Note" },
          { type: "short_text", label: "Name" },
          { type: "email", label: "Email" }
        ]
      })
      const [name, email, note, name2, email2] = form.fields.map((f) => f.id) as [
        number,
        number,
        number,
        number,
        number
      ]
      const submitted = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: {
          [name]: "Ada;=cmd|' /C calc'!A0",
          [email]: "ada@example.com",
          [note]: 'fine;@SUM(1+1)\tand,-3 and a line\n=HYPERLINK("x")',
          [name2]: "+1 Grace",
          [email2]: "grace@example.com"
        }
      })
      expect(submitted.status, submitted.text).toBe(201)
      const response = await fetch(`${server.url}/api/forms/${form.id}/responses.csv`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(response.status).toBe(200)
      const text = await response.text()
      const [header, row] = parse(text, ",")
      expect(header).toEqual([...Csv.metadataColumns, "Name (2)", "Email (2)", "Note", "Name (3)", "Email (3)"])
      expect(new Set(header).size).toBe(header!.length)
      expect(row!.slice(Csv.metadataColumns.length)).toEqual([
        "'Ada;'=cmd|' /C calc'!A0",
        "ada@example.com",
        "'fine;'@SUM(1+1)\tand,'-3 and a line\n'=HYPERLINK(\"x\")",
        "'+1 Grace",
        "grace@example.com"
      ])
      for (const delimiter of delimiters) {
        for (const cells of parse(text, delimiter)) {
          for (const cell of cells)
            expect(runsAsFormula(cell), `${JSON.stringify(cell)} split on ${JSON.stringify(delimiter)}`).toBe(false)
        }
      }
    })
  })
}
