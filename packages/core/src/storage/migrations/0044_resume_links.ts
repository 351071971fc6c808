/**
 * Migration 0044_resume_links. Save and resume across devices by e-mail
 * (`cases/ResumeLinks.ts`): a respondent of the public page asks for a link
 * to their partial response (`/f/{publicId}/resume/{token}`). Only the
 * SHA-256 of a link's token is stored; a link works once (`used_at`) and
 * until `expires_at`. The e-mail that carries it is a respondent e-mail of
 * its own kind (`resume_link`).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table response_resume_links (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      response_id integer not null references responses (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`
  yield* sql`create index response_resume_links_response on response_resume_links (response_id)`
  yield* sql`alter table response_emails drop constraint response_emails_kind_check`
  yield* sql`alter table response_emails add constraint response_emails_kind_check
    check (kind in ('confirmation', 'message', 'resume_link'))`
})
