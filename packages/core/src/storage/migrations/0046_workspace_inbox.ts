/**
 * Migration 0046_workspace_inbox. The workspace-wide list (`GET /responses`,
 * cases/ResponseViews.ts `listWorkspace`) reads submitted responses of every
 * form newest first, a keyset page at a time: the existing indexes all start
 * with `form_id`, so without these it sorted every response of the workspace.
 * `responses_workspace_submitted` serves the list and its other filters;
 * `responses_workspace_assignee` serves `assignee` ("My open cases":
 * `assignee=me&open=true`). Both only hold submitted responses (`finished`),
 * the only ones the list shows.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create index responses_workspace_submitted on responses (workspace_id, submitted_at desc, id desc) where finished`
  yield* sql`
    create index responses_workspace_assignee on responses (workspace_id, assignee_id, submitted_at desc, id desc)
    where finished`
})
