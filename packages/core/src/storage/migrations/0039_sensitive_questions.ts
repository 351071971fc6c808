/**
 * Migration 0039_sensitive_questions. A question can be marked sensitive
 * (`forms/Sensitive.ts`): its answers are left out of webhook posts,
 * notifications and respondents' e-mails, and masked for viewers. A webhook
 * subscription may be allowed to receive them (`include_sensitive`); a
 * notification channel's allowance lives in its `config` (jsonb), which needs
 * no column.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table fields add column sensitive boolean not null default false`
  yield* sql`alter table webhook_subscriptions add column include_sensitive boolean not null default false`
})
