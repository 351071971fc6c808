/**
 * Migration 0027_translations. A form in other languages (`forms.translations`,
 * `forms/Translations.ts`: each language's texts by stable keys, `{}` for
 * none) and the language each response was given in (`responses.language`,
 * null for those from before, given in the form's own language).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table forms add column translations jsonb not null default '{}'::jsonb`
  yield* sql`alter table responses add column language text`
})
