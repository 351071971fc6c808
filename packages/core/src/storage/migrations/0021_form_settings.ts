/**
 * Migration 0021_form_settings. A form's settings (forms/FormSettings.ts: how
 * its public page behaves, such as skipping the questions pre-filled from the
 * link) as one JSON object, so that the next setting is a key rather than a
 * column. Existing forms have none: every default.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table forms add column settings jsonb not null default '{}'::jsonb`
})
