/**
 * Migration 0033_webhook_alerts. Failure alerts of webhook subscriptions
 * (`outbox/WebhookAlerts.ts`): each subscription counts its deliveries that
 * gave up in a row (`consecutive_failures`, reset by a delivered one or by
 * re-enabling) and remembers which alert of the current incident went out
 * (`failing_alerted_at`, `disabled_alerted_at`); each alert is a workspace
 * activity entry (`webhook_alerts`) and an e-mail to every owner and admin
 * (`alert_emails`), sent by the outbox (`deliveries.alert_email_id`).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table webhook_subscriptions add column consecutive_failures integer not null default 0`
  yield* sql`alter table webhook_subscriptions add column failing_alerted_at timestamptz`
  yield* sql`alter table webhook_subscriptions add column disabled_alerted_at timestamptz`
  yield* sql`
    create table webhook_alerts (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces(id) on delete cascade,
      subscription_id text not null,
      form_id integer not null references forms(id) on delete cascade,
      kind text not null check (kind in ('failing', 'disabled')),
      target text not null,
      failures integer not null,
      reason text,
      created_at timestamptz not null
    )`
  yield* sql`create index webhook_alerts_workspace on webhook_alerts (workspace_id, id desc)`
  yield* sql`
    create table alert_emails (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces(id) on delete cascade,
      alert_id integer not null references webhook_alerts(id) on delete cascade,
      account_id integer not null references accounts(id) on delete cascade,
      to_address text not null,
      subject text not null,
      text text not null,
      html text not null,
      message_id text not null unique,
      status text not null check (status in ('queued', 'retrying', 'sent', 'failed')),
      sent_at timestamptz,
      created_at timestamptz not null
    )`
  yield* sql`create index alert_emails_alert on alert_emails (alert_id)`
  yield* sql`alter table deliveries add column alert_email_id integer references alert_emails(id) on delete cascade`
  yield* sql`create index deliveries_alert_email on deliveries (alert_email_id) where alert_email_id is not null`
  yield* sql`alter table deliveries drop constraint deliveries_one_target`
  yield* sql`
    alter table deliveries add constraint deliveries_one_target check (
      num_nonnulls(subscription_id, channel_id, email_id, digest_id, alert_email_id) = 1
      and (email_id is not null or digest_id is not null or alert_email_id is not null or event_id is not null))`
  // The dead letters: a workspace's deliveries that gave up, newest first.
  yield* sql`create index deliveries_dead_letters on deliveries (workspace_id, id desc) where status = 'failed' and subscription_id is not null`
})
