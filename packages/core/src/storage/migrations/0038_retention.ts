/**
 * Migration 0038_retention. Retention per form (`cases/Retention.ts`, the
 * form setting `retention`): a response anonymised by it is marked
 * (`responses.anonymised_at`), so that the next run passes it by; and each
 * workspace's daily run is due at a time (`retention_runs.next_at`), which a
 * process claims by moving it forward in one statement, so that two servers
 * never run one workspace's retention at once.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table responses add column anonymised_at timestamptz`
  yield* sql`
    create table retention_runs (
      workspace_id integer primary key references workspaces (id) on delete cascade,
      next_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz
    )`
  yield* sql`create index retention_runs_due on retention_runs (next_at)`
})
