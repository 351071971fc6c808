/**
 * Migration 0022_field_calculations. A question's calculations (forms/LogicRules.ts:
 * `calculate`, rules that change the form's variables after it is answered) as
 * JSON beside its logic. Existing questions have none.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table fields add column calculate jsonb`
})
