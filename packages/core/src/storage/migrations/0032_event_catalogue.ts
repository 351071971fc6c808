/**
 * Migration 0032_event_catalogue. The event catalogue (`outbox/EventCatalogue.ts`):
 * a webhook subscription names one or more events (`events`; `event` stays the
 * first, as the contract lists it) and may keep only the responses in some
 * stages (`stage_ids`) or with some tags (`tags`); null takes any.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table webhook_subscriptions add column events text[]`
  yield* sql`update webhook_subscriptions set events = array[event]`
  yield* sql`alter table webhook_subscriptions alter column events set not null`
  yield* sql`
    alter table webhook_subscriptions add constraint webhook_subscriptions_events_check
      check (cardinality(events) between 1 and 20 and events[1] = event)`
  yield* sql`alter table webhook_subscriptions add column stage_ids integer[]`
  yield* sql`alter table webhook_subscriptions add column tags text[]`
  yield* sql`
    alter table webhook_subscriptions add constraint webhook_subscriptions_filters_check
      check (cardinality(stage_ids) between 1 and 50 and cardinality(tags) between 1 and 50)`
})
