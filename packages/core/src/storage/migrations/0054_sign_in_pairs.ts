/**
 * Migration 0054_sign_in_pairs. The sign-in lockout counted wrong passwords
 * per account, so anyone could lock an owner out for 15 minutes, again and
 * again (issue #52). Now each client address has its own count for an
 * account (a row keyed by the hash of both), beside the account's own row
 * with a higher limit (`identity/Sessions.ts`). A pair's row names its
 * account's key (`account_hash`), so a right password or a reset lifts every
 * lock of the account at once.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table sign_in_failures add column account_hash text`
  yield* sql`create index sign_in_failures_account on sign_in_failures (account_hash)`
})
