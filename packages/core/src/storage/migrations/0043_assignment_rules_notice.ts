/**
 * Migration 0043_assignment_rules_notice. A submission asks whether its form
 * has assignment rules (cases/AssignmentRules.ts); a process keeps the answer
 * in memory, so a form without rules costs no statement. A form's rules
 * written or removed (a replacement deletes and inserts them; a deleted form
 * cascades) NOTIFY `form:<workspaceId>:<formId>` through the function of
 * migration 0019, in the change's transaction, and every process drops what
 * it kept of that form. A round robin taking its turn updates its row on
 * every submission: updates send nothing (the rules stay the same).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create trigger assignment_rules_changed after insert or delete on assignment_rules
    for each row execute function qforms_form_changed()`
})
