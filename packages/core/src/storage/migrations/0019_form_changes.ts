/**
 * Migration 0019_form_changes. Every process keeps the forms it serves most
 * (an API read, a submission, the public page) in memory (forms/FormCache.ts)
 * and drops one when it changes. Triggers, rather than calls in each code
 * path, send the notice, so every path — the API, the application, the CLI in
 * another process, a cascade — sends it, in the change's own transaction: a
 * form or one of its questions changed or deleted NOTIFYs
 * `form:<workspaceId>:<formId>` on the schema's events channel (which a
 * process already listens on: no connection more).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create function qforms_form_changed() returns trigger language plpgsql as $$
    declare
      changed record;
      form_id integer;
    begin
      if tg_op = 'DELETE' then changed := old; else changed := new; end if;
      -- Each branch reads only the columns its table has.
      if tg_table_name = 'forms' then form_id := changed.id; else form_id := changed.form_id; end if;
      -- The events channel of this deployment's schema (storage/Notifications.ts channelName).
      perform pg_notify(
        case when length('qforms_events_' || tg_table_schema) <= 63 then 'qforms_events_' || tg_table_schema
          else 'qforms_events_' || md5(tg_table_schema) end,
        'form:' || changed.workspace_id || ':' || form_id);
      return null;
    end
    $$`
  yield* sql`
    create trigger forms_changed after update or delete on forms
    for each row execute function qforms_form_changed()`
  yield* sql`
    create trigger fields_changed after insert or update or delete on fields
    for each row execute function qforms_form_changed()`
})
