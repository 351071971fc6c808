/**
 * The form cache (forms/FormCache.ts) never serves a form that changed:
 * a change made by another process (or by plain SQL: the CLI, a cascade)
 * reaches every reader through the triggers' notice, on PGlite and on
 * PostgreSQL; a process's own change is seen by its next read at once.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import type * as Qforms from "../src/Qforms.ts"
import { waitFor } from "@qforms/test-kit/Conditions"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { instancesOn } from "@qforms/test-kit/Instances"
import { apiOf } from "@qforms/test-kit/InProcessApi"
import { ownerKey } from "@qforms/test-kit/Seeds"

const settings = (database: Qforms.QformsOptions["database"]): Qforms.QformsOptions => ({
  database,
  delivery: { worker: false },
  rateLimit: { requestsPerSecond: 10_000, burst: 10_000 }
})

for (const target of databaseTargets) {
  describe(`form cache on ${target.name}`, () => {
    const instances = instancesOn(target, settings)

    const setUp = async () => {
      const { qforms: q, database } = await instances.fresh()
      const key = await q.run(ownerKey({ name: "Cache" }))
      const api = apiOf(q, key)
      const form = await api("POST", "/forms", { title: "Before", fields: [{ type: "short_text", label: "Name" }] })
      expect((await api("PATCH", `/forms/${form.json.id}`, { status: "published" })).status).toBe(200)
      return { q, key, api, formId: form.json.id as number, publicId: form.json.publicId as string, database }
    }

    it("a change by plain SQL (another process, the CLI, a cascade) reaches the API, the public page and submissions", async () => {
      const { q, api, formId, publicId } = await setUp()
      const page = async () => (await q.handler(new Request(`http://qforms.test/f/${publicId}`))).text()
      // Read twice: the second read is served from memory.
      for (let i = 0; i < 2; i++) {
        expect((await api("GET", `/forms/${formId}`)).json.title).toBe("Before")
        expect(await page()).toContain("Before")
      }
      await q.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`update forms set title = 'After', status = 'closed' where id = ${formId}`
        })
      )
      await waitFor(async () => (await api("GET", `/forms/${formId}`)).json.title === "After", 10_000, "the new title")
      expect(await page()).toContain("After")
      // The closed status is seen by a submission too.
      expect((await api("POST", `/forms/${formId}/responses`, { values: {} })).status).toBe(409)
      // A question added by plain SQL, likewise.
      await q.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`
            insert into fields (workspace_id, form_id, type, label, required, position)
            select workspace_id, id, 'email', 'Email', false, 5 from forms where id = ${formId}`
        })
      )
      await waitFor(
        async () => (await api("GET", `/forms/${formId}`)).json.fields.length === 2,
        10_000,
        "the new question"
      )
    })

    it("the process's own change is read back at once", async () => {
      const { api, formId } = await setUp()
      for (let i = 0; i < 50; i++) {
        expect((await api("GET", `/forms/${formId}`)).json.title).toBe(i === 0 ? "Before" : `T${i - 1}`)
        expect((await api("PATCH", `/forms/${formId}`, { title: `T${i}` })).status).toBe(200)
      }
      expect((await api("DELETE", `/forms/${formId}`)).status).toBe(204)
      expect((await api("GET", `/forms/${formId}`)).status).toBe(404)
    })

    it("a form's assignment rules, kept in memory, follow the process's own change at once and plain SQL by its notice", async () => {
      const { q, api, formId } = await setUp()
      const ownerId = (await api("GET", "/members")).json.members[0].accountId as number
      const assigneeOf = async () => {
        const reply = await api("POST", `/forms/${formId}/responses`, { values: {} })
        expect(reply.status, JSON.stringify(reply.json)).toBe(201)
        return reply.json.assigneeId as number | null
      }
      // Twice without rules: the second is answered from memory.
      for (let i = 0; i < 2; i++) expect(await assigneeOf()).toBe(null)
      const put = await api("PUT", `/forms/${formId}/assignment-rules`, {
        rules: [{ kind: "roundRobin", memberIds: [ownerId] }]
      })
      expect(put.status, JSON.stringify(put.json)).toBe(200)
      expect(await assigneeOf()).toBe(ownerId)
      expect(await assigneeOf()).toBe(ownerId)
      const bySql = (statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
        q.run(Effect.orDie(Effect.flatMap(Effect.service(SqlClient.SqlClient), statement)))
      await bySql((sql) => sql`delete from assignment_rules where form_id = ${formId}`)
      await waitFor(async () => (await assigneeOf()) === null, 10_000, "submissions without the removed rules")
      await bySql(
        (sql) => sql`
          insert into assignment_rules (workspace_id, form_id, position, kind, config, next_slot)
          select workspace_id, id, 0, 'roundRobin', ${JSON.stringify({ memberIds: [ownerId] })}::jsonb, 0
          from forms where id = ${formId}`
      )
      await waitFor(async () => (await assigneeOf()) === ownerId, 10_000, "submissions under the inserted rule")
    })

    it.skipIf(target.name !== "postgres")(
      "a change made through another instance on the same database reaches this one",
      async () => {
        const { key, api, formId, database } = await setUp()
        const other = await instances.sharing(database)
        const otherApi = apiOf(other, key)
        for (let i = 0; i < 2; i++) expect((await api("GET", `/forms/${formId}`)).json.title).toBe("Before")
        expect((await otherApi("PATCH", `/forms/${formId}`, { title: "Elsewhere" })).status).toBe(200)
        await waitFor(
          async () => (await api("GET", `/forms/${formId}`)).json.title === "Elsewhere",
          10_000,
          "the other instance's title"
        )
        expect((await otherApi("DELETE", `/forms/${formId}`)).status).toBe(204)
        await waitFor(async () => (await api("GET", `/forms/${formId}`)).status === 404, 10_000, "the deletion")
      }
    )
  })
}
