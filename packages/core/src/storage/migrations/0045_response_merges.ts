/**
 * Migration 0045_response_merges. Merging duplicates (`cases/ResponseMerges.ts`):
 * a response merged into another keeps its row as a pointer (`merged_into`)
 * and leaves lists, counts and the board (deleting the kept case deletes its
 * merged-away duplicates with it); `response_merges` records what each
 * merge moved (the activities, e-mails and replies, and the answers and tags
 * the kept case took) so that it can be undone exactly for a while.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table responses add column merged_into integer references responses (id) on delete cascade`
  yield* sql`
    create table response_merges (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      kept_id integer not null references responses (id) on delete cascade,
      duplicate_id integer not null references responses (id) on delete cascade,
      activity_ids integer[] not null,
      email_ids integer[] not null,
      reply_ids integer[] not null,
      answers_taken jsonb not null,
      tags_taken text[] not null,
      merged_at timestamptz not null,
      undone_at timestamptz
    )`
  yield* sql`create index response_merges_kept on response_merges (kept_id, id desc)`
  yield* sql`create index response_merges_duplicate on response_merges (duplicate_id, id desc)`
})
