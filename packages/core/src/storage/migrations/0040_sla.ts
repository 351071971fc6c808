/**
 * Migration 0040_sla. SLAs per form (`cases/Sla.ts`): each submitted response
 * of a form with SLA targets gets its due times when it is submitted (first
 * response, resolution, and the moments to warn before each), the moments
 * they were met, and `sla_sent`, the bits of the events already sent
 * (1: first-response warning, 2: first-response breach, 4: resolution
 * warning, 8: resolution breach), so that each is sent once.
 *
 * Two generated columns keep the queries simple and indexed:
 * `sla_next_at`, the next moment the scan must look at the case (its earliest
 * pending warning or due time whose event is not sent yet), and `sla_due_at`,
 * the earliest due time of a target not met yet (the list's `due` filter).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    alter table responses
      add column first_response_due_at timestamptz,
      add column first_response_warn_at timestamptz,
      add column first_responded_at timestamptz,
      add column resolve_due_at timestamptz,
      add column resolve_warn_at timestamptz,
      add column resolved_at timestamptz,
      add column sla_sent smallint not null default 0`
  yield* sql`
    alter table responses
      add column sla_next_at timestamptz generated always as (least(
        case when first_responded_at is null and sla_sent & 1 = 0 then first_response_warn_at end,
        case when first_responded_at is null and sla_sent & 2 = 0 then first_response_due_at end,
        case when resolved_at is null and sla_sent & 4 = 0 then resolve_warn_at end,
        case when resolved_at is null and sla_sent & 8 = 0 then resolve_due_at end
      )) stored,
      add column sla_due_at timestamptz generated always as (least(
        case when first_responded_at is null then first_response_due_at end,
        case when resolved_at is null then resolve_due_at end
      )) stored`
  // The scan looks across workspaces at the cases whose next moment has come.
  yield* sql`create index responses_sla_next_idx on responses (sla_next_at) where sla_next_at is not null`
  // The list's due filter, within one workspace's form.
  yield* sql`
    create index responses_sla_due_idx on responses (workspace_id, form_id, sla_due_at)
    where sla_due_at is not null`
})
