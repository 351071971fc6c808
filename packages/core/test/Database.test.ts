import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { databaseTargets } from "./support/Databases.ts"

for (const target of databaseTargets) {
  describe(`Database on ${target.name}`, () => {
    it.layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("migrates into its own schema", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ readonly schema: string }>`
            select table_schema as schema from information_schema.tables where table_name = 'responses'`
          const current = yield* sql<{ readonly schema: string }>`select current_schema() as schema`
          expect(rows.map((r) => r.schema)).toContain(current[0]!.schema)
          expect(current[0]!.schema).toMatch(/^qforms/)
        }))
    })
  })
}
