/**
 * Migration 0036_privacy. Erasure of a person (`cases/Erasure.ts`): an
 * internal note that names an erased person is flagged for review (when and
 * by whom; its text is left as written), and each erasure is recorded
 * without personal data: what was removed (counts) and a salted hash of the
 * address, so that "was this address erased?" can be answered later without
 * keeping the address.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table activities add column review_flagged_at timestamptz`
  yield* sql`alter table activities add column review_flagged_by jsonb`
  yield* sql`
    create table erasures (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      subject_salt text not null,
      subject_hash text not null,
      counts jsonb not null,
      actor jsonb not null,
      created_at timestamptz not null
    )`
  yield* sql`create index erasures_workspace on erasures (workspace_id, id desc)`
})
