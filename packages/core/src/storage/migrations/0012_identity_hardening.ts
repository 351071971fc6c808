/**
 * Identity hardening: failed sign-ins counted per e-mail address (a SHA-256 of
 * the lower-cased address, known or not, so a lockout looks the same for an
 * address without an account) with one atomic upsert each, instead of a
 * read-modify-write counter on accounts; and a batch on sign-in links, so the
 * links offered to choose a workspace at sign-in are spent together.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table sign_in_failures (
      email_hash text primary key,
      failures integer not null,
      locked_until timestamptz,
      updated_at timestamptz not null
    )`
  yield* sql`create index sign_in_failures_updated on sign_in_failures (updated_at)`
  yield* sql`alter table accounts drop column failed_sign_ins`
  yield* sql`alter table accounts drop column locked_until`
  yield* sql`alter table sign_in_links add column batch text`
  yield* sql`create index sign_in_links_batch on sign_in_links (batch) where batch is not null`
})
