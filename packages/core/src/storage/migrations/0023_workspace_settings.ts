/**
 * Migration 0023_workspace_settings. A workspace's settings
 * (forms/WorkspaceSettings.ts: the theme of its forms' pages when a form has
 * none of its own) as one JSON object, so that the next setting is a key
 * rather than a column. A change NOTIFYs `workspace:<id>` on the schema's
 * events channel (as forms do, migration 0019), so every process drops the
 * settings it keeps in memory, whatever path made the change.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table workspaces add column settings jsonb not null default '{}'::jsonb`
  yield* sql`
    create function qforms_workspace_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify(
        case when length('qforms_events_' || tg_table_schema) <= 63 then 'qforms_events_' || tg_table_schema
          else 'qforms_events_' || md5(tg_table_schema) end,
        'workspace:' || new.id);
      return null;
    end
    $$`
  yield* sql`
    create trigger workspaces_settings_changed after update of settings on workspaces
    for each row execute function qforms_workspace_changed()`
})
