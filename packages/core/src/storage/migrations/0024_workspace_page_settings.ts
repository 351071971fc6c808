/**
 * Migration 0024_workspace_page_settings. A workspace's settings of its
 * forms' pages (forms/WorkspaceSettings.ts: the theme of the pages of its
 * forms that have none of their own) move from a column of `workspaces`
 * (migration 0023), a table of the identity context, to a table of the forms
 * context, as the e-mail settings are the e-mail context's
 * (workspace_email_settings). Settings already saved move with them. A
 * change NOTIFYs `workspace:<id>` on the schema's events channel (as forms
 * do, migration 0019), so every process drops the settings it keeps in
 * memory, whatever path made the change.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table workspace_page_settings (
      workspace_id integer primary key references workspaces(id) on delete cascade,
      settings jsonb not null default '{}'::jsonb
    )`
  yield* sql`
    insert into workspace_page_settings (workspace_id, settings)
    select id, settings from workspaces where settings <> '{}'::jsonb`
  yield* sql`drop trigger workspaces_settings_changed on workspaces`
  yield* sql`drop function qforms_workspace_changed()`
  yield* sql`alter table workspaces drop column settings`
  yield* sql`
    create function qforms_workspace_settings_changed() returns trigger language plpgsql as $$
    declare
      changed record;
    begin
      if tg_op = 'DELETE' then changed := old; else changed := new; end if;
      perform pg_notify(
        case when length('qforms_events_' || tg_table_schema) <= 63 then 'qforms_events_' || tg_table_schema
          else 'qforms_events_' || md5(tg_table_schema) end,
        'workspace:' || changed.workspace_id);
      return null;
    end
    $$`
  yield* sql`
    create trigger workspace_page_settings_changed after insert or update or delete on workspace_page_settings
    for each row execute function qforms_workspace_settings_changed()`
})
