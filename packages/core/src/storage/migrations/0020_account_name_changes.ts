/**
 * Migration 0020_account_name_changes. Every process keeps the API keys it
 * has checked in memory (identity/ApiKeyCache.ts), each with the actor it
 * stands for, and drops a workspace's keys on its `credentials:<workspaceId>`
 * notice (migration 0016: a key revoked or deleted, a member removed or given
 * another role). An actor also carries its account's name (activities record
 * who did what by name), so a changed name sends the notice too: once for each
 * workspace the account is a member of, in the change's own transaction,
 * whatever path made it.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create function qforms_account_name_changed() returns trigger language plpgsql as $$
    begin
      -- The events channel of this deployment's schema (storage/Notifications.ts channelName).
      perform pg_notify(
        case when length('qforms_events_' || tg_table_schema) <= 63 then 'qforms_events_' || tg_table_schema
          else 'qforms_events_' || md5(tg_table_schema) end,
        'credentials:' || m.workspace_id)
      from members m where m.account_id = new.id;
      return null;
    end
    $$`
  yield* sql`
    create trigger accounts_name_changed after update of name on accounts
    for each row when (old.name is distinct from new.name) execute function qforms_account_name_changed()`
})
