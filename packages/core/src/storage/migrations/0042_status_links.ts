/**
 * Migration 0042_status_links. A respondent's status page (`/s/{token}`,
 * `pages/StatusPage.ts`): a link per response, unguessable and revocable
 * (`cases/StatusLinks.ts`). Only the SHA-256 of a link's token is stored, so
 * the table never holds a working link; a revoked link keeps its row (with
 * `revoked_at`) so that it stays dead. A stage may carry the name the
 * respondent sees on that page (`stages.public_name`; null: the page says
 * only "received").
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table response_status_links (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      response_id integer not null references responses (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null,
      revoked_at timestamptz
    )`
  yield* sql`create index response_status_links_response on response_status_links (response_id)`
  yield* sql`alter table stages add column public_name text`
})
