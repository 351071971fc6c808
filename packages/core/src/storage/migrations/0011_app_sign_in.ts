/**
 * The application's sign-in: password hashes (scrypt) and lockout counters on
 * accounts, sessions (only a hash of each session id is kept), and one-time
 * sign-in links (the first start's, for the owner).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table accounts add column password_hash text`
  yield* sql`alter table accounts add column failed_sign_ins integer not null default 0`
  yield* sql`alter table accounts add column locked_until timestamptz`
  yield* sql`
    create table sessions (
      id_hash text primary key,
      account_id integer not null references accounts (id) on delete cascade,
      workspace_id integer not null references workspaces (id) on delete cascade,
      csrf_token text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`
  yield* sql`create index sessions_account on sessions (account_id)`
  yield* sql`
    create table sign_in_links (
      token_hash text primary key,
      account_id integer not null references accounts (id) on delete cascade,
      workspace_id integer not null references workspaces (id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`
})
