/**
 * Migration 0028_account_language. The language an account chose for the
 * application's own interface (`accounts.language`: `en`, `de` or `ar`, see
 * `app/AppLanguage.ts`; null follows the browser's Accept-Language).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table accounts add column language text`
  yield* sql`alter table accounts add constraint accounts_language_length check (char_length(language) <= 35)`
})
