/**
 * The HTTP contract: CSV export.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { expectStatus, expectError, parseCsv } from "./Expectations.ts"

export const csvExport = group("CSV export", { transport: true }, (c) => {
  const { api, createForm, publishedForm, test, transportTest } = c
  transportTest(
    "GET /forms/{formId}/responses.csv → text/csv, labels as header, RFC 4180 quoting, formula cells prefixed",
    async () => {
      const created = await createForm({
        title: "Export",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true },
          { type: "long_text", label: 'Comment, "quoted"' },
          { type: "short_text", label: "Formula" }
        ]
      })
      expectStatus(await api("PATCH", `/forms/${created.id}`, { body: { status: "published" } }), 200)
      const [name, email, comment, formula] = (await api("GET", `/forms/${created.id}`)).body.fields as Array<{
        id: number
      }>
      const send = async (who: string, values: Record<string, string>) => {
        const reply = await api("POST", `/forms/${created.id}/responses`, {
          body: {
            values: {
              [name!.id]: who,
              [email!.id]: `${who.toLowerCase()}@example.com`,
              ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v]))
            }
          }
        })
        expectStatus(reply, 201)
        return reply.body as { id: number }
      }
      const tricky = 'He said "hi", then left\nSecond line'
      const eq = await send("Eve", { [comment!.id]: tricky, [formula!.id]: "=1+1" })
      await send("Pat", { [formula!.id]: "+1" })
      await send("Max", { [formula!.id]: "-1" })
      await send("Ann", { [formula!.id]: "@SUM(A1)" })
      expectStatus(await api("PATCH", `/responses/${eq.id}`, { body: { tags: ["csv"] } }), 200)

      const reply = await api("GET", `/forms/${created.id}/responses.csv`)
      expectStatus(reply, 200)
      expect(reply.headers.get("content-type")).toMatch(/^text\/csv/)
      expect(reply.text).toContain('"He said ""hi"", then left\nSecond line"')
      expect(reply.text).toContain('"Comment, ""quoted"""')
      const rows = parseCsv(reply.text)
      const header = rows[0]!
      for (const label of ["Name", "Email", 'Comment, "quoted"', "Formula"]) expect(header).toContain(label)
      expect(header.length).toBeGreaterThan(4)
      const data = rows.slice(1).filter((row) => row.some((cell) => cell !== ""))
      expect(data).toHaveLength(4)
      for (const row of data) expect(row).toHaveLength(header.length)
      const column = (label: string) => header.indexOf(label)
      expect(data.map((row) => row[column("Formula")]).sort()).toEqual(["'+1", "'-1", "'=1+1", "'@SUM(A1)"].sort())
      const eve = data.find((row) => row[column("Name")] === "Eve")!
      expect(eve[column('Comment, "quoted"')]).toBe(tricky)
      expect(eve[column("Email")]).toBe("eve@example.com")
      // Same filters as the list.
      const tagged = await api("GET", `/forms/${created.id}/responses.csv?tag=csv`)
      expectStatus(tagged, 200)
      const taggedRows = parseCsv(tagged.text)
        .slice(1)
        .filter((row) => row.some((cell) => cell !== ""))
      expect(taggedRows.map((row) => row[column("Name")])).toEqual(["Eve"])
      const searched = await api("GET", `/forms/${created.id}/responses.csv?q=pat`)
      const searchedRows = parseCsv(searched.text)
        .slice(1)
        .filter((row) => row.some((cell) => cell !== ""))
      expect(searchedRows.map((row) => row[column("Name")])).toEqual(["Pat"])
    }
  )

  test("400 for invalid filters, 404 for an absent form", async () => {
    const form = await publishedForm("Export errors")
    expectError(await api("GET", `/forms/${form.formId}/responses.csv?from=yesterday`), 400, "from")
    expectError(await api("GET", `/forms/${form.formId}/responses.csv?stage=abc`), 400, "stage")
    expectError(await api("GET", "/forms/987654/responses.csv"), 404)
  })
})
