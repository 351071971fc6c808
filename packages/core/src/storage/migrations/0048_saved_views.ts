/**
 * Migration 0048_saved_views. Saved views of the workspace-wide list
 * (`cases/SavedViews.ts`, `GET /views`): a name, the list's filter (as its
 * query string takes it), a sort and the columns shown. A personal view
 * belongs to `owner_account_id` and goes with the member (removing the member
 * removes their personal views); a shared view has no owner, is seen by every
 * member and remembers who made it (`created_by`, kept when that member
 * leaves). Names are unique, ignoring case, per owner among personal views and
 * per workspace among shared ones.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table saved_views (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      owner_account_id integer,
      created_by integer not null,
      shared boolean not null,
      name text not null,
      filter jsonb not null,
      sort text not null,
      columns jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check (shared = (owner_account_id is null)),
      foreign key (workspace_id, owner_account_id) references members (workspace_id, account_id) on delete cascade
    )`
  yield* sql`
    create unique index saved_views_personal_name on saved_views (workspace_id, owner_account_id, lower(name))
    where not shared`
  yield* sql`create unique index saved_views_shared_name on saved_views (workspace_id, lower(name)) where shared`
})
