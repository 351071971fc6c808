/**
 * qforms' triggers work from any session (migration 0052): a statement on
 * qforms' tables, schema-qualified, from a session whose `search_path` does
 * not name qforms' schema (an operator's psql, a reporting tool) runs the
 * triggers under qforms' own `search_path`, on each test database.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf } from "@qforms/test-kit/InProcessApi"
import { ownerKey } from "@qforms/test-kit/Seeds"

for (const target of databaseTargets) {
  describe(`triggers under another search_path on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let api: Api

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({ database, delivery: { worker: false } })
      api = apiOf(qforms, await qforms.run(ownerKey({ name: "Search path" })))
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("every trigger of qforms' tables runs a function with its own search_path (a new trigger's too)", async () => {
      const unset = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ readonly fn: string }>`
            select distinct p.proname as fn from pg_trigger t
            join pg_class c on c.oid = t.tgrelid
            join pg_proc p on p.oid = t.tgfoid
            where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal
              and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) as s where s like 'search_path=%')
            order by 1`
        }).pipe(Effect.orDie)
      )
      expect(unset.map((row) => row.fn)).toEqual([])
    })

    it("updates and deletes of responses and forms, schema-qualified, from a session on pg_catalog only", async () => {
      const form = await api("POST", "/forms", { title: "Path", fields: [{ type: "short_text", label: "Name" }] })
      expect(form.status).toBe(201)
      expect((await api("PATCH", `/forms/${form.json.id}`, { status: "published" })).status).toBe(200)
      const [name] = (form.json.fields as ReadonlyArray<{ id: number }>).map((f) => f.id)
      const ids: Array<number> = []
      for (const n of [1, 2]) {
        const reply = await api("POST", `/forms/${form.json.id}/responses`, { values: { [name!]: `R${n}` } })
        expect(reply.status).toBe(201)
        ids.push(reply.json.id as number)
      }
      const outcome = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [{ schema }] = (yield* sql.unsafe("select current_schema() as schema")) as unknown as [
            { schema: string }
          ]
          const table = (name: string) => `"${schema}".${name}`
          return yield* sql.withTransaction(
            Effect.gen(function* () {
              yield* sql.unsafe("set local search_path to pg_catalog")
              yield* sql.unsafe(`update ${table("responses")} set answers = '{}'::jsonb where id = $1`, [ids[0]])
              yield* sql.unsafe(`delete from ${table("responses")} where id = $1`, [ids[1]])
              yield* sql.unsafe(`update ${table("forms")} set title = 'Renamed' where id = $1`, [form.json.id])
              return "ok"
            })
          )
        }).pipe(Effect.catch((error) => Effect.succeed(String(error.message ?? error))))
      )
      expect(outcome).toBe("ok")
      // The changes took effect through the triggers: the form's count and its cache followed.
      const list = (await api("GET", "/forms")).json as ReadonlyArray<{
        id: number
        title: string
        responseCount: number
      }>
      expect(list.find((f) => f.id === form.json.id)).toMatchObject({ title: "Renamed", responseCount: 1 })
    })
  })
}
