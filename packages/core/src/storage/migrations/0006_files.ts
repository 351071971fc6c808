/** Migration 0006_files. */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One row per uploaded file. An upload belongs to one question of one form;
  // a submission attaches it to its response (response_id set), and a file
  // never attached is swept after a while. Deleting a response or a form
  // deletes these rows in its transaction and the blobs after it commits.
  yield* sql`
    create table files (
      id text primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      form_id integer not null references forms (id) on delete cascade,
      field_id integer not null,
      response_id integer references responses (id) on delete cascade,
      name text not null,
      size integer not null,
      type text not null,
      storage_key text not null,
      created_at timestamptz not null,
      attached_at timestamptz
    )`
  yield* sql`create index files_response on files (response_id) where response_id is not null`
  yield* sql`create index files_form on files (form_id)`
  yield* sql`create index files_unattached on files (created_at) where response_id is null`
})
