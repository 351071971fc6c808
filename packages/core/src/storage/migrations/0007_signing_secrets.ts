/**
 * Server-wide secrets, one row per purpose (e.g. `public_page_token`): made
 * once by whichever process needs it first, then shared by every process on
 * the database and kept across restarts.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table signing_secrets (
      name text primary key,
      secret text not null,
      created_at timestamptz not null
    )`
})
