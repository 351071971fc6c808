/**
 * Migration 0035_audit_log. The workspace audit log (`audit/AuditLog.ts`):
 * one row per security-relevant event (sign-ins, keys, members,
 * invitations, exports, settings, webhooks), append-only. A trigger refuses
 * every UPDATE and every DELETE, except a DELETE made while the
 * transaction-local setting `qforms_audit.prune` is `on` (the retention
 * prune sets it with `set_config(..., true)`) or one cascading from the
 * deletion of the workspace itself (its row is gone by then). TRUNCATE is
 * refused too.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table audit_log (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces(id) on delete cascade,
      occurred_at timestamptz not null,
      actor_kind text not null check (actor_kind in ('member', 'api_key', 'system', 'cli')),
      actor_id integer,
      actor_label text check (char_length(actor_label) <= 320),
      surface text not null check (surface in ('api', 'app', 'mcp', 'cli', 'system')),
      address text check (char_length(address) <= 100),
      action text not null check (char_length(action) <= 60),
      target_type text check (char_length(target_type) <= 40),
      target_id text check (char_length(target_id) <= 100),
      details jsonb not null default '{}'::jsonb
    )`
  yield* sql`create index audit_log_workspace on audit_log (workspace_id, id desc)`
  yield* sql`create index audit_log_occurred on audit_log (workspace_id, occurred_at)`
  yield* sql`
    create function qforms_audit_log_guard() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and (
        coalesce(current_setting('qforms_audit.prune', true), '') = 'on'
        or not exists (select 1 from workspaces where id = old.workspace_id)
      ) then
        return old;
      end if;
      raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end
    $$`
  yield* sql`
    create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function qforms_audit_log_guard()`
  yield* sql`
    create function qforms_audit_log_no_truncate() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only: TRUNCATE refused' using errcode = 'insufficient_privilege';
    end
    $$`
  yield* sql`
    create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function qforms_audit_log_no_truncate()`
})
