/** Migration 0002_webhook_subscriptions. */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table webhook_subscriptions (
      id text primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      form_id integer not null references forms (id) on delete cascade,
      event text not null,
      target_url text not null,
      source text not null,
      secret text not null,
      created_at timestamptz not null,
      last_sent_at timestamptz,
      disabled_at timestamptz,
      disabled_reason text
    )`
  yield* sql`create index webhook_subscriptions_workspace on webhook_subscriptions (workspace_id, created_at, id)`
  yield* sql`create index webhook_subscriptions_form on webhook_subscriptions (form_id, event)`
})
