/** Migration 0018_upload_quotas. */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The storage quotas sum the sizes of a workspace's files, and of one form's, at every
  // upload (see Files.claimQuota): an index-only scan over these columns.
  yield* sql`create index files_quota on files (workspace_id, form_id) include (size)`
})
