/**
 * A team signs in: invitations by e-mail (or a link the inviter copies),
 * password resets by e-mail. Only a SHA-256 of each token is stored; each is
 * single-use (`accepted_at` / `used_at` set in the same statement that checks
 * it) and expires. One-time sign-in links issued for a member reuse
 * `sign_in_links` (0011).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table invitations (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      email text not null,
      role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
      token_hash text not null unique,
      invited_by integer references accounts (id) on delete set null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      accepted_at timestamptz,
      accepted_by integer references accounts (id) on delete set null,
      revoked_at timestamptz
    )`
  yield* sql`create index invitations_workspace on invitations (workspace_id, created_at)`
  yield* sql`
    create table password_resets (
      token_hash text primary key,
      account_id integer not null references accounts (id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`
  yield* sql`create index password_resets_account on password_resets (account_id)`
  yield* sql`create index password_resets_expires on password_resets (expires_at)`
})
