/**
 * Form logic (issue 11): a form's hidden fields, each question's jump rules
 * and `showIf`, and partial responses (`finished = false` until the
 * respondent submits; purged after a while, oldest first by `updated_at`).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table forms add column hidden_fields jsonb not null default '[]'::jsonb`
  yield* sql`alter table fields add column logic jsonb`
  yield* sql`alter table fields add column show_if jsonb`
  yield* sql`alter table responses add column finished boolean not null default true`
  yield* sql`create index responses_partial on responses (updated_at) where not finished`
})
