/**
 * Custom case fields (issue #28) through the API of a real qforms: a form's
 * definitions (GET/PUT and their refusals, who may define them), values of
 * every type set and cleared through `PATCH /responses/{id}` and the bulk
 * `PATCH /responses` (each refusal naming the key), the `case_field_changed`
 * activity and the `response.updated` event written with the change (and
 * neither when it is refused), the `field=` filter in the form's list, the
 * workspace inbox and the bulk filter, the values in rows, `flat=1` bodies,
 * the event payload and the CSV and XLSX exports, never on the status page; removing a
 * definition removes its values; another workspace gets 404. On PGlite always,
 * on PostgreSQL too when QFORMS_TEST_DATABASE_URL is set.
 */
import ExcelJS from "exceljs"
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"

const appUrl = "http://qforms.test"

const definitions = [
  { key: "note", label: "Internal note", type: "text" },
  { key: "amount", label: "Amount", type: "number" },
  { key: "due_on", label: "Due on", type: "date" },
  { key: "priority", label: "Priority", type: "select", options: ["low", "high"] },
  { key: "owner", label: "Owner", type: "member" }
]

for (const target of databaseTargets) {
  describe(`case fields on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let api: Api
    let ownerKey: string
    let viewer: Api
    let other: Api
    let ownerId: number
    let formId: number
    let nameId: number
    let otherFormId: number

    const query = <A>(run: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      qforms.run(
        Effect.gen(function* () {
          return yield* run(yield* SqlClient.SqlClient)
        }).pipe(Effect.orDie)
      )

    const submit = async (name: string) => {
      const reply = await api("POST", `/forms/${formId}/responses`, { values: { [nameId]: name } })
      expect(reply.status).toBe(201)
      return reply.json.id as number
    }
    const caseFieldsOf = async (responseId: number) => {
      const reply = await api("GET", `/responses/${responseId}`)
      expect(reply.status).toBe(200)
      return reply.json.response.caseFields as Record<string, unknown>
    }

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({ database, appUrl, rateLimit: { requestsPerSecond: 10_000, burst: 10_000 } })
      const mine = await workspace(qforms, "casefields")
      ownerKey = mine.owner
      api = apiOf(qforms, mine.owner)
      viewer = apiOf(qforms, mine.viewer)
      other = apiOf(qforms, (await workspace(qforms, "casefields-other")).owner)
      ownerId = (
        await query(
          (sql) => sql<{ readonly id: number }>`select id from accounts where email = 'casefields@example.com'`
        )
      )[0]!.id
      const created = await api("POST", "/forms", {
        title: "Claims",
        fields: [{ type: "short_text", label: "Name" }]
      })
      formId = created.json.id as number
      nameId = ((await api("GET", `/forms/${formId}`)).json.fields as Array<{ id: number }>)[0]!.id
      expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      otherFormId = (await other("POST", "/forms", { title: "Elsewhere", fields: [] })).json.id as number
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("defines a form's fields in order; any member reads them; a viewer may not define them", async () => {
      expect((await api("GET", `/forms/${formId}/case-fields`)).json).toEqual({ fields: [] })
      const put = await api("PUT", `/forms/${formId}/case-fields`, { fields: definitions })
      expect(put.status).toBe(200)
      expect(put.json).toEqual({ fields: definitions })
      const read = await viewer("GET", `/forms/${formId}/case-fields`)
      expect(read.status).toBe(200)
      expect(read.json.fields.map((field: { key: string }) => field.key)).toEqual([
        "note",
        "amount",
        "due_on",
        "priority",
        "owner"
      ])
      expect((await viewer("PUT", `/forms/${formId}/case-fields`, { fields: [] })).status).toBe(403)
    })

    it("refuses bad definitions with a 400 naming the problem", async () => {
      const refused = async (fields: unknown, words: RegExp) => {
        const reply = await api("PUT", `/forms/${formId}/case-fields`, { fields })
        expect(reply.status).toBe(400)
        expect(reply.json.error).toMatch(words)
      }
      await refused([{ key: "Bad", label: "x", type: "text" }], /lower-case letter/)
      await refused(
        [
          { key: "a", label: "A", type: "text" },
          { key: "a", label: "B", type: "text" }
        ],
        /key a is used more than once/
      )
      await refused([{ key: "a", label: "", type: "text" }], /label is not empty/)
      await refused([{ key: "a", label: "x".repeat(101), type: "text" }], /at most 100 characters/)
      await refused([{ key: "a", label: "A", type: "colour" }], /type/)
      await refused([{ key: "a", label: "A", type: "select" }], /a select lists its options/)
      await refused([{ key: "a", label: "A", type: "select", options: [] }], /at least one option/)
      await refused([{ key: "a", label: "A", type: "select", options: ["x", "x"] }], /distinct/)
      await refused([{ key: "a", label: "A", type: "text", options: ["x"] }], /only a select has options/)
      await refused(
        Array.from({ length: 31 }, (_, i) => ({ key: `f${i}`, label: "F", type: "text" })),
        /at most 30 case fields/
      )
      // Nothing of it was kept.
      expect((await api("GET", `/forms/${formId}/case-fields`)).json).toEqual({ fields: definitions })
    })

    it("another workspace's form is 404 to read and to define", async () => {
      expect((await api("GET", `/forms/${otherFormId}/case-fields`)).status).toBe(404)
      expect((await api("PUT", `/forms/${otherFormId}/case-fields`, { fields: [] })).status).toBe(404)
      expect((await other("GET", `/forms/${formId}/case-fields`)).status).toBe(404)
    })

    it("sets and clears values of every type, with an activity and a response.updated event each change", async () => {
      const id = await submit("Ada")
      expect(await caseFieldsOf(id)).toEqual({})
      const values = { note: "call back", amount: 12.5, due_on: "2026-12-24", priority: "high", owner: ownerId }
      const set = await api("PATCH", `/responses/${id}`, { caseFields: values })
      expect(set.status).toBe(200)
      expect(set.json.changes).toEqual([
        {
          field: "caseFields",
          from: { note: null, amount: null, due_on: null, priority: null, owner: null },
          to: values
        }
      ])
      expect(await caseFieldsOf(id)).toEqual(values)
      const detail = (await api("GET", `/responses/${id}`)).json
      expect(detail.caseFieldDefinitions).toEqual(definitions)
      const changed = (detail.activities as Array<{ type: string; payload: Record<string, unknown> }>).filter(
        (activity) => activity.type === "case_field_changed"
      )
      expect(changed.map((activity) => activity.payload.key).sort()).toEqual(Object.keys(values).sort())
      expect(changed.find((activity) => activity.payload.key === "priority")?.payload).toEqual({
        key: "priority",
        label: "Priority",
        from: null,
        to: "high"
      })
      const event = await query(
        (sql) => sql<{ readonly payload: unknown; readonly created_at: Date }>`
          select payload, created_at from events where type = 'response.updated' and response_id = ${id}`
      )
      expect(event).toHaveLength(1)
      const payload = (typeof event[0]!.payload === "string" ? JSON.parse(event[0]!.payload) : event[0]!.payload) as {
        caseFields: unknown
        changes: Array<unknown>
      }
      expect(payload.caseFields).toEqual(values)
      expect(payload.changes).toContainEqual({ caseField: "amount", label: "Amount", from: null, to: 12.5 })

      // Setting the same values again changes nothing; null clears.
      expect((await api("PATCH", `/responses/${id}`, { caseFields: values })).json.changes).toEqual([])
      const cleared = await api("PATCH", `/responses/${id}`, { caseFields: { note: null, amount: null } })
      expect(cleared.status).toBe(200)
      expect(await caseFieldsOf(id)).toEqual({ due_on: "2026-12-24", priority: "high", owner: ownerId })
    })

    it("refuses an unknown key or a value not of its type with a 400 naming the key, changing nothing", async () => {
      const id = await submit("Bea")
      const refused = async (caseFields: Record<string, unknown>, key: string, words: RegExp) => {
        const reply = await api("PATCH", `/responses/${id}`, { caseFields: { note: "kept?", ...caseFields } })
        expect(reply.status).toBe(400)
        expect(reply.json.error).toContain(`caseFields.${key}`)
        expect(reply.json.error).toMatch(words)
      }
      await refused({ colour: "red" }, "colour", /no case field/)
      await refused({ amount: "12" }, "amount", /finite number/)
      await refused({ due_on: "2026-02-30" }, "due_on", /YYYY-MM-DD/)
      await refused({ due_on: "24.12.2026" }, "due_on", /YYYY-MM-DD/)
      await refused({ priority: "urgent" }, "priority", /one of "low", "high"/)
      await refused({ owner: 999_999 }, "owner", /not a member/)
      await refused({ owner: "me" }, "owner", /account id/)
      await refused({ note: "x".repeat(1001) }, "note", /1000 characters/)
      expect(await caseFieldsOf(id)).toEqual({})
      const activities = await query(
        (sql) => sql`select id from activities where response_id = ${id} and type = 'case_field_changed'`
      )
      expect(activities).toHaveLength(0)
      const events = await query(
        (sql) => sql`select seq from events where response_id = ${id} and type = 'response.updated'`
      )
      expect(events).toHaveLength(0)
      // A viewer may not set them.
      expect((await viewer("PATCH", `/responses/${id}`, { caseFields: { note: "no" } })).status).toBe(403)
    })

    it("filters the form's list, the inbox and the bulk change by field=<key>:<value> and <key>:none", async () => {
      const low = await submit("Low one")
      const high = await submit("High one")
      await api("PATCH", `/responses/${low}`, { caseFields: { priority: "low", amount: 3 } })
      await api("PATCH", `/responses/${high}`, { caseFields: { priority: "high", amount: 3 } })
      const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id)

      const list = await api("GET", `/forms/${formId}/responses?field=priority:low`)
      expect(list.status).toBe(200)
      expect(ids(list.json.responses)).toEqual([low])
      const both = await api("GET", `/forms/${formId}/responses?field=amount:3&field=priority:high`)
      expect(ids(both.json.responses)).toEqual([high])
      const unset = await api("GET", `/forms/${formId}/responses?field=priority:none`)
      expect(ids(unset.json.responses)).not.toContain(low)
      expect(ids(unset.json.responses)).not.toContain(high)
      expect(unset.json.responses.length).toBeGreaterThan(0)

      const inbox = await api("GET", `/responses?field=priority:high&field=amount:3`)
      expect(inbox.status).toBe(200)
      expect(ids(inbox.json.responses)).toEqual([high])
      expect(inbox.json.responses[0].caseFields).toEqual({ priority: "high", amount: 3 })

      // A quote in the value is a value, not SQL.
      const quoted = await api("GET", `/responses?field=${encodeURIComponent("note:it's'); drop table responses; --")}`)
      expect(quoted.status).toBe(200)
      expect(quoted.json.responses).toEqual([])

      const malformed = await api("GET", `/forms/${formId}/responses?field=Priority`)
      expect(malformed.status).toBe(400)
      expect(malformed.json.error).toMatch(/field/)
      const tooMany = await api("GET", `/responses?${Array.from({ length: 6 }, (_, i) => `field=f${i}:x`).join("&")}`)
      expect(tooMany.status).toBe(400)
      expect(tooMany.json.error).toMatch(/at most 5 field filters/)

      const bulk = await api("PATCH", "/responses", {
        filter: { formId, field: "priority:low" },
        caseFields: { note: "bulk" }
      })
      expect(bulk.status).toBe(200)
      expect(bulk.json.changed).toBe(1)
      expect(bulk.json.responses[0].id).toBe(low)
      expect((await caseFieldsOf(low)).note).toBe("bulk")
      const badBulk = await api("PATCH", "/responses", { ids: [low, high], caseFields: { priority: "urgent" } })
      expect(badBulk.status).toBe(400)
      expect(badBulk.json.error).toContain("caseFields.priority")
    })

    it("shows the values in flat=1 rows and the CSV export, not on the status page", async () => {
      const id = await submit("Cleo")
      await api("PATCH", `/responses/${id}`, { caseFields: { note: "secret team note", priority: "low" } })
      const flat = await api("GET", `/forms/${formId}/responses?flat=1&field=note:secret%20team%20note`)
      expect(flat.json.responses).toHaveLength(1)
      expect(flat.json.responses[0].caseFields).toEqual({ note: "secret team note", priority: "low" })
      expect(flat.json.responses[0].summary).not.toContain("secret team note")

      const csv = await qforms.handler(
        new Request(`${appUrl}/api/forms/${formId}/responses.csv?field=note:secret%20team%20note`, {
          headers: { authorization: `Bearer ${ownerKey}` }
        })
      )
      expect(csv.status).toBe(200)
      const [head, row] = (await csv.text()).trim().split(/\r?\n/)
      expect(head).toContain("Internal note,Amount,Due on,Priority,Owner")
      expect(row).toContain("secret team note")

      const xlsx = await qforms.handler(
        new Request(`${appUrl}/api/forms/${formId}/responses.xlsx?field=note:secret%20team%20note`, {
          headers: { authorization: `Bearer ${ownerKey}` }
        })
      )
      expect(xlsx.status).toBe(200)
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(await xlsx.arrayBuffer())
      const sheet = workbook.worksheets[0]!
      const cells = (n: number) => {
        const values = sheet.getRow(n).values
        return Array.isArray(values) ? values.slice(1) : []
      }
      const header = cells(1).map(String)
      const at = header.indexOf("Internal note")
      expect(header.slice(at, at + 5)).toEqual(["Internal note", "Amount", "Due on", "Priority", "Owner"])
      expect(header[at - 1]).toBe("Source")
      expect(cells(2)[at]).toBe("secret team note")
      expect(cells(2)[at + 3]).toBe("low")

      const link = await api("POST", `/responses/${id}/status-link`)
      expect(link.status).toBe(201)
      const page = await qforms.handler(new Request(`${appUrl}${new URL(link.json.url).pathname}`))
      expect(page.status).toBe(200)
      const text = await page.text()
      expect(text).toContain("Claims")
      expect(text).not.toContain("secret team note")
      expect(text).not.toContain("Internal note")
    })

    it("removing a definition (or changing its type) removes its values in the same change", async () => {
      const id = await submit("Dan")
      await api("PATCH", `/responses/${id}`, { caseFields: { note: "gone soon", amount: 7, priority: "high" } })
      const put = await api("PUT", `/forms/${formId}/case-fields`, {
        fields: [
          { key: "amount", label: "Amount", type: "text" },
          { key: "priority", label: "Priority", type: "select", options: ["low"] },
          ...definitions.filter((field) => field.key === "due_on" || field.key === "owner")
        ]
      })
      expect(put.status).toBe(200)
      expect(await caseFieldsOf(id)).toEqual({})
      const still = await query(
        (sql) => sql<{ readonly n: number }>`
          select count(*)::int as n from responses where form_id = ${formId} and case_fields -> 'note' is not null`
      )
      expect(still[0]!.n).toBe(0)
      const refused = await api("PATCH", `/responses/${id}`, { caseFields: { note: "x" } })
      expect(refused.status).toBe(400)
      expect(refused.json.error).toContain("caseFields.note")
    })
  })
}
