/**
 * The XLSX export (`GET /api/forms/{formId}/responses.xlsx`), read back with
 * exceljs: typed cells, a column per checkbox choice and matrix row, the
 * list's filters, formula-safe text, the bold frozen header, and the same
 * keys and workspaces as the CSV. On every database.
 */
import ExcelJS from "exceljs"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Csv from "../src/cases/Csv.ts"
import * as Xlsx from "../src/cases/Xlsx.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { api, createForm } from "@qforms/test-kit/PublicForms"
import { keysByRole } from "@qforms/test-kit/Seeds"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const download = (server: TestServer, key: string | null, path: string) =>
  fetch(`${server.url}/api${path}`, key === null ? {} : { headers: { authorization: `Bearer ${key}` } })

/** The first sheet of a workbook. */
const sheetOf = async (response: Response): Promise<ExcelJS.Worksheet> => {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(await response.arrayBuffer())
  return workbook.worksheets[0]!
}

/** Row `n`'s cells as values, from column 1 (exceljs's arrays start at 1). */
const valuesOf = (sheet: ExcelJS.Worksheet, n: number): Array<unknown> => {
  const values = sheet.getRow(n).values
  return Array.isArray(values) ? values.slice(1) : []
}

const headerOf = (sheet: ExcelJS.Worksheet): Array<string> => valuesOf(sheet, 1).map(String)

/** The cell of row `n` under `header`. */
const cellAt = (sheet: ExcelJS.Worksheet, n: number, header: string): ExcelJS.Cell => {
  const column = headerOf(sheet).indexOf(header)
  if (column < 0) throw new Error(`no column ${JSON.stringify(header)} in ${JSON.stringify(headerOf(sheet))}`)
  return sheet.getRow(n).getCell(column + 1)
}

const fields = [
  { type: "short_text", label: "Name" },
  { type: "email", label: "Email" },
  { type: "long_text", label: "Note" },
  { type: "number", label: "Count" },
  { type: "rating", label: "Stars" },
  { type: "nps", label: "Recommend" },
  { type: "opinion_scale", label: "Opinion" },
  { type: "slider", label: "Level", options: { min: 0, max: 100, step: 0.5 } },
  { type: "date", label: "Day" },
  { type: "datetime", label: "Moment" },
  { type: "time", label: "Arrival" },
  { type: "yes_no", label: "Again?" },
  { type: "legal", label: "Terms" },
  { type: "checkboxes", label: "Topics", options: { choices: ["Sales", "Support", "Billing"], allowOther: true } },
  {
    type: "matrix",
    label: "Rate",
    options: { rows: ["Speed", "Price"], columns: ["Bad", "OK", "Good"], multiple: true }
  },
  { type: "statement", label: "Thanks" }
]

for (const target of databaseTargets) {
  describe(`XLSX export on ${target.name}`, () => {
    let server: TestServer
    let a: { workspaceId: number; keys: Record<"owner" | "admin" | "member" | "viewer", string> }
    let b: typeof a
    let form: Awaited<ReturnType<typeof createForm>>
    let ids: Record<string, number>
    let first: number
    let second: number
    let stageName: string

    beforeAll(async () => {
      server = await startTestServer(target)
      a = await server.run(keysByRole("xlsx-a"))
      b = await server.run(keysByRole("xlsx-b"))
      form = await createForm(server, a.keys.owner, { title: "Everything", fields })
      ids = Object.fromEntries(form.fields.map((field) => [field.label, field.id]))
      const one = await api(server, a.keys.owner, "POST", `/forms/${form.id}/responses`, {
        values: {
          [ids.Name!]: '=HYPERLINK("https://evil.example","click")',
          [ids.Email!]: "ada@example.com",
          [ids.Note!]: "+1 and @SUM(A1)\nsecond line",
          [ids.Count!]: 42,
          [ids.Stars!]: 4,
          [ids.Recommend!]: 9,
          [ids.Opinion!]: 3,
          [ids.Level!]: 37.5,
          [ids.Day!]: "2026-01-31",
          [ids.Moment!]: "2026-11-26T14:30",
          [ids.Arrival!]: "09:30",
          [ids["Again?"]!]: true,
          [ids.Terms!]: true,
          [ids.Topics!]: ["Sales", "Billing", "Partnership"],
          [ids.Rate!]: { Speed: ["OK", "Good"], Price: ["Bad"] }
        }
      })
      expect(one.status, one.text).toBe(201)
      first = one.body.id
      const two = await api(server, a.keys.owner, "POST", `/forms/${form.id}/responses`, {
        values: { [ids.Name!]: "Grace", [ids["Again?"]!]: false, [ids.Topics!]: ["Support"] }
      })
      expect(two.status, two.text).toBe(201)
      second = two.body.id
      const stages = await api(server, a.keys.owner, "GET", `/forms/${form.id}/stages`)
      stageName = stages.body.stages[0].name
      const tagged = await api(server, a.keys.owner, "PATCH", `/responses/${second}`, {
        tags: ["vip", "follow-up"],
        stageId: stages.body.stages[0].id
      })
      expect(tagged.status, tagged.text).toBe(200)
    })
    afterAll(async () => {
      await server?.close()
    })

    it("is an attachment of the XLSX media type, bold frozen header, sensible widths", async () => {
      const response = await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx`)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe(Xlsx.contentType)
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="form-${form.id}-responses.xlsx"`)
      const sheet = await sheetOf(response)
      expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 })
      for (let i = 1; i <= headerOf(sheet).length; i++) {
        expect(sheet.getRow(1).getCell(i).font?.bold, headerOf(sheet)[i - 1]).toBe(true)
        const width = sheet.getColumn(i).width
        expect(width, headerOf(sheet)[i - 1]).toBeGreaterThanOrEqual(8)
        expect(width).toBeLessThanOrEqual(50)
      }
      expect(sheet.getColumn(headerOf(sheet).indexOf("Note") + 1).width).toBe(40)
      expect(sheet.rowCount).toBe(3)
    })

    it("has the CSV's columns, a checkbox choice and a matrix row each in a column of their own", async () => {
      const sheet = await sheetOf(await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx`))
      expect(headerOf(sheet)).toEqual([
        ...Csv.metadataColumns,
        "Name (2)",
        "Email (2)",
        "Note",
        "Count",
        "Stars",
        "Recommend",
        "Opinion",
        "Level",
        "Day",
        "Moment",
        "Arrival",
        "Again?",
        "Terms",
        "Topics: Sales",
        "Topics: Support",
        "Topics: Billing",
        "Topics: Other",
        "Rate: Speed",
        "Rate: Price"
      ])
      // Newest first, as the list: the second response, then the first.
      expect(valuesOf(sheet, 2)[0]).toBe(second)
      expect(valuesOf(sheet, 3)[0]).toBe(first)
      const row = 3
      expect(cellAt(sheet, row, "Topics: Sales").value).toBe(true)
      expect(cellAt(sheet, row, "Topics: Support").value).toBe(null)
      expect(cellAt(sheet, row, "Topics: Billing").value).toBe(true)
      expect(cellAt(sheet, row, "Topics: Other").value).toBe("Partnership")
      expect(cellAt(sheet, row, "Rate: Speed").value).toBe("OK, Good")
      expect(cellAt(sheet, row, "Rate: Price").value).toBe("Bad")
      expect(cellAt(sheet, 2, "Topics: Support").value).toBe(true)
      expect(cellAt(sheet, 2, "Topics: Other").value).toBe(null)
      expect(cellAt(sheet, 2, "Rate: Speed").value).toBe(null)
    })

    it("types its cells: numbers, Excel dates, booleans, text", async () => {
      const sheet = await sheetOf(await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx`))
      const row = 3
      const typed = (header: string) => {
        const cell = cellAt(sheet, row, header)
        return { type: cell.type, value: cell.value }
      }
      expect(typed("Response ID")).toEqual({ type: ExcelJS.ValueType.Number, value: first })
      for (const [header, value] of [
        ["Count", 42],
        ["Stars", 4],
        ["Recommend", 9],
        ["Opinion", 3],
        ["Level", 37.5]
      ] as const) {
        expect(typed(header), header).toEqual({ type: ExcelJS.ValueType.Number, value })
      }
      expect(typed("Day")).toEqual({ type: ExcelJS.ValueType.Date, value: new Date(Date.UTC(2026, 0, 31)) })
      expect(cellAt(sheet, row, "Day").numFmt).toBe("yyyy-mm-dd")
      expect(typed("Moment")).toEqual({ type: ExcelJS.ValueType.Date, value: new Date(Date.UTC(2026, 10, 26, 14, 30)) })
      expect(cellAt(sheet, row, "Moment").numFmt).toBe("yyyy-mm-dd hh:mm")
      const submitted = typed("Submitted at")
      expect(submitted.type).toBe(ExcelJS.ValueType.Date)
      const list = await api(server, a.keys.owner, "GET", `/forms/${form.id}/responses`)
      const submittedAt = list.body.responses.find((r: { id: number }) => r.id === first).submittedAt as string
      // Excel keeps milliseconds; exceljs reads them back to the millisecond (give or take rounding).
      expect(Math.abs((submitted.value as Date).getTime() - new Date(submittedAt).getTime())).toBeLessThan(2)
      expect(typed("Again?")).toEqual({ type: ExcelJS.ValueType.Boolean, value: true })
      expect(cellAt(sheet, 2, "Again?").value).toBe(false)
      expect(typed("Terms")).toEqual({ type: ExcelJS.ValueType.Boolean, value: true })
      expect(typed("Arrival")).toEqual({ type: ExcelJS.ValueType.String, value: "09:30" })
      expect(typed("Email (2)")).toEqual({ type: ExcelJS.ValueType.String, value: "ada@example.com" })
      expect(typed("Note")).toEqual({ type: ExcelJS.ValueType.String, value: "+1 and @SUM(A1)\nsecond line" })
      expect(cellAt(sheet, 2, "Stage").value).toBe(stageName)
      expect(cellAt(sheet, 2, "Tags").value).toBe("vip, follow-up")
      expect(cellAt(sheet, 2, "Source").value).toBe("api")
    })

    it("never writes a formula: a respondent's =HYPERLINK stays text", async () => {
      const sheet = await sheetOf(await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx`))
      const cell = cellAt(sheet, 3, "Name (2)")
      expect(cell.type).toBe(ExcelJS.ValueType.String)
      expect(cell.value).toBe('=HYPERLINK("https://evil.example","click")')
      expect(cell.formula).toBeUndefined()
      sheet.eachRow((row) =>
        row.eachCell((c) => {
          expect(c.type, c.address).not.toBe(ExcelJS.ValueType.Formula)
          expect(c.type, c.address).not.toBe(ExcelJS.ValueType.Hyperlink)
        })
      )
    })

    it("applies the list's filters", async () => {
      const byTag = await sheetOf(await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx?tag=vip`))
      expect(byTag.rowCount).toBe(2)
      expect(valuesOf(byTag, 2)[0]).toBe(second)
      const byText = await sheetOf(
        await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx?q=${encodeURIComponent("ada@")}`)
      )
      expect(byText.rowCount).toBe(2)
      expect(valuesOf(byText, 2)[0]).toBe(first)
      const none = await sheetOf(
        await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx?from=2999-01-01T00:00:00Z`)
      )
      expect(none.rowCount).toBe(1)
      expect(headerOf(none)[0]).toBe("Response ID")
      const bad = await download(server, a.keys.owner, `/forms/${form.id}/responses.xlsx?stage=abc`)
      expect(bad.status).toBe(400)
    })

    it("a viewer reads it; another workspace gets 404; no key gets 401", async () => {
      const viewer = await download(server, a.keys.viewer, `/forms/${form.id}/responses.xlsx`)
      expect(viewer.status).toBe(200)
      expect((await sheetOf(viewer)).rowCount).toBe(3)
      for (const key of Object.values(b.keys)) {
        const other = await download(server, key, `/forms/${form.id}/responses.xlsx`)
        expect(other.status).toBe(404)
        const text = await other.text()
        expect(JSON.parse(text)).toHaveProperty("error")
        expect(text).not.toContain("Everything")
      }
      const anonymous = await download(server, null, `/forms/${form.id}/responses.xlsx`)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get("www-authenticate") ?? "").toMatch(/^Bearer/)
      expect((await download(server, a.keys.owner, "/forms/2147483647/responses.xlsx")).status).toBe(404)
    })

    it("streams a list of many pages: every row, in the JSON list's order", async () => {
      const long = await createForm(server, a.keys.owner, {
        title: "Long",
        fields: [
          { type: "short_text", label: "Name" },
          { type: "number", label: "N" }
        ]
      })
      const [name, n] = long.fields.map((field) => field.id) as [number, number]
      await server.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`
            insert into responses (workspace_id, form_id, submitted_at, updated_at, name, email, tags, source,
              answers, search_text)
            select f.workspace_id, f.id, timestamptz '2026-01-01' + (g / 3) * interval '1 second', now(), 'P' || g,
              'p' || g || '@example.com', '{}'::text[], 'import',
              jsonb_build_object(${String(name)}::text, '=P' || g, ${String(n)}::text, g), ''
            from forms f, generate_series(1, 2500) g where f.id = ${long.id}`
        })
      )
      const list = await api(server, a.keys.owner, "GET", `/forms/${long.id}/responses`)
      const expected = (list.body.responses as Array<{ id: number }>).map((r) => r.id)
      expect(expected).toHaveLength(2500)
      const sheet = await sheetOf(await download(server, a.keys.owner, `/forms/${long.id}/responses.xlsx`))
      expect(sheet.rowCount).toBe(2501)
      const got: Array<number> = []
      sheet.eachRow((row, i) => {
        if (i === 1) return
        got.push(row.getCell(1).value as number)
        const nameCell = row.getCell(Csv.metadataColumns.length + 1)
        expect(nameCell.type).toBe(ExcelJS.ValueType.String)
        expect(String(nameCell.value)).toMatch(/^=P\d+$/)
        expect(row.getCell(Csv.metadataColumns.length + 2).type).toBe(ExcelJS.ValueType.Number)
      })
      expect(got).toEqual(expected)
    })
  })
}

describe("Xlsx.text", () => {
  it("keeps a formula's text as text, drops what XML refuses, cuts at 32,767 characters", () => {
    expect(Xlsx.text("=1+1")).toBe("=1+1")
    expect(Xlsx.text("")).toBe(null)
    expect(Xlsx.text("a\u0000b\u0007c\td\ne")).toBe("abc\td\ne")
    expect(Xlsx.text("x".repeat(40_000))).toHaveLength(32_767)
  })
})
