/**
 * Migration 0034_workspace_subscriptions. Workspace-wide webhook
 * subscriptions (`outbox/Webhooks.ts`): a subscription without a form
 * (`form_id` null) hears the events of every form of its workspace, or of
 * the forms it names (`form_ids`), and outlives a deleted form, so it can
 * hear `form.deleted`. Their alerts name no form either, and the
 * `form.deleted` event names no row of `forms` (the form is gone).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table webhook_subscriptions alter column form_id drop not null`
  yield* sql`alter table webhook_subscriptions add column form_ids integer[]`
  yield* sql`
    alter table webhook_subscriptions add constraint webhook_subscriptions_form_ids_check
      check (form_ids is null or (form_id is null and cardinality(form_ids) between 1 and 50))`
  yield* sql`
    create index webhook_subscriptions_workspace_wide on webhook_subscriptions (workspace_id)
      where form_id is null`
  yield* sql`alter table webhook_alerts alter column form_id drop not null`
})
