/**
 * Migration 0052_trigger_search_path. qforms' trigger functions name their
 * tables unqualified, so a statement run on qforms' tables from a session
 * whose `search_path` does not start with qforms' schema (an operator's
 * `psql` with the tables schema-qualified, a reporting tool) failed inside
 * the trigger (`relation "response_fold_queue" does not exist`) — issue #52.
 * Each trigger function now runs with the `search_path` qforms' own
 * connections use (`"<schema>", public`, taken from this migration's session);
 * what they call runs under it too.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

/** Every function a trigger runs (schema.sql: `EXECUTE FUNCTION …`). */
const triggerFunctions = [
  "qforms_account_name_changed",
  "qforms_audit_log_guard",
  "qforms_audit_log_no_truncate",
  "qforms_credentials_changed",
  "qforms_fold_deleted",
  "qforms_fold_inserted",
  "qforms_fold_updated",
  "qforms_form_changed",
  "qforms_workspace_settings_changed"
]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const name of triggerFunctions) yield* sql.unsafe(`alter function ${name}() set search_path from current`)
})
