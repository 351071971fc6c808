/**
 * Migration 0053_submission_keys. A submission sent with an `Idempotency-Key`
 * (issue #52: a 503 was answered for submissions that were in fact stored,
 * their connection lost around COMMIT) records the key with the response it
 * made, in the statement that writes the response: sent again with the same
 * key, the submission answers that response instead of storing a second one
 * (`cases/SubmissionKeys.ts`). The fingerprint (a hash of the form and the
 * body) tells a retry from another submission that reuses the key. A key goes
 * with its response, and is forgotten after a day.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table submission_keys (
      workspace_id integer not null references workspaces (id) on delete cascade,
      key text not null,
      fingerprint text not null,
      response_id integer not null references responses (id) on delete cascade,
      created_at timestamptz not null,
      primary key (workspace_id, key)
    )`
  yield* sql`create index submission_keys_response on submission_keys (response_id)`
  yield* sql`create index submission_keys_created on submission_keys (created_at)`
})
