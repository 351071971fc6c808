/** Migration 0003_deliveries. */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One row per (event, subscription), written with the event. A worker claims
  // due rows by taking a lease; a lease that runs out (the worker died) makes
  // the row due again, so every event is delivered at least once.
  yield* sql`
    create table deliveries (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      subscription_id text not null references webhook_subscriptions (id) on delete cascade,
      event_id text not null references events (id) on delete cascade,
      status text not null check (status in ('pending', 'retrying', 'succeeded', 'failed')),
      attempts integer not null,
      next_attempt_at timestamptz,
      lease_until timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`
  yield* sql`create index deliveries_due on deliveries (next_attempt_at, id) where next_attempt_at is not null`
  yield* sql`create index deliveries_subscription on deliveries (subscription_id, id desc)`
  yield* sql`create index deliveries_event on deliveries (event_id)`
  yield* sql`
    create table delivery_attempts (
      id integer generated always as identity primary key,
      workspace_id integer not null,
      delivery_id integer not null references deliveries (id) on delete cascade,
      attempted_at timestamptz not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      response_body text
    )`
  yield* sql`create index delivery_attempts_delivery on delivery_attempts (delivery_id, id)`
})
