/**
 * Live event streams re-check their credential when it changes: a key
 * revoked or deleted, a member removed or given another role, a session
 * ended. Triggers (rather than calls in each code path) send the notice, so
 * every path — the API, the application, the CLI, a cascade — sends it, in the
 * change's own transaction. The notice goes on the events channel itself
 * (`credentials:<workspaceId>`), so a stream hears it in commit order with the
 * events: no event committed after the change reaches a stream still open on
 * the old credential.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create function qforms_credentials_changed() returns trigger language plpgsql as $$
    begin
      -- The events channel of this deployment's schema (storage/Notifications.ts channelName).
      perform pg_notify(
        case when length('qforms_events_' || tg_table_schema) <= 63 then 'qforms_events_' || tg_table_schema
          else 'qforms_events_' || md5(tg_table_schema) end,
        'credentials:' || (case when tg_op = 'DELETE' then old.workspace_id else new.workspace_id end));
      return null;
    end
    $$`
  yield* sql`
    create trigger api_keys_credentials_changed after update of revoked_at on api_keys
    for each row when (old.revoked_at is distinct from new.revoked_at) execute function qforms_credentials_changed()`
  yield* sql`
    create trigger api_keys_credentials_deleted after delete on api_keys
    for each row execute function qforms_credentials_changed()`
  yield* sql`
    create trigger members_credentials_changed after update of role on members
    for each row when (old.role is distinct from new.role) execute function qforms_credentials_changed()`
  yield* sql`
    create trigger members_credentials_deleted after delete on members
    for each row execute function qforms_credentials_changed()`
  yield* sql`
    create trigger sessions_credentials_deleted after delete on sessions
    for each row execute function qforms_credentials_changed()`
})
