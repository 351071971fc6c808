/**
 * Migration 0026_field_pages. The page a question is on (`fields.page`,
 * `forms/Pages.ts`): questions of one page are shown together on the public
 * page; null, the default, asks the question on its own.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table fields add column page text`
})
