/**
 * Migration 0030_digests. Digest e-mails (`insights/Digests.ts`): a member's
 * choice to get a form's digest daily or weekly (`digest_subscriptions`, gone
 * with the form or the membership), each digest made (`digest_emails`, one
 * per member, form and period), and the outbox's deliveries of them
 * (`deliveries.digest_id`).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table digest_subscriptions (
      workspace_id integer not null,
      form_id integer not null references forms(id) on delete cascade,
      account_id integer not null,
      frequency text not null check (frequency in ('daily', 'weekly')),
      hour integer not null check (hour between 0 and 23),
      time_zone text not null check (char_length(time_zone) between 1 and 64),
      next_at timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (form_id, account_id),
      foreign key (workspace_id, account_id) references members(workspace_id, account_id) on delete cascade
    )`
  yield* sql`create index digest_subscriptions_due on digest_subscriptions (next_at)`
  yield* sql`create index digest_subscriptions_member on digest_subscriptions (workspace_id, account_id)`
  yield* sql`
    create table digest_emails (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces(id) on delete cascade,
      form_id integer not null references forms(id) on delete cascade,
      account_id integer not null references accounts(id) on delete cascade,
      to_address text not null,
      subject text not null,
      text text not null,
      html text not null,
      message_id text not null unique,
      unsubscribe_url text not null,
      period_start timestamptz not null,
      period_end timestamptz not null,
      status text not null check (status in ('queued', 'retrying', 'sent', 'failed')),
      sent_at timestamptz,
      created_at timestamptz not null
    )`
  // A scheduled digest is made once per member, form and period (a test digest has no period key).
  yield* sql`create index digest_emails_form on digest_emails (form_id, account_id, period_end)`
  yield* sql`create index digest_emails_created on digest_emails (created_at)`
  yield* sql`alter table deliveries add column digest_id integer references digest_emails(id) on delete cascade`
  yield* sql`create index deliveries_digest on deliveries (digest_id) where digest_id is not null`
  yield* sql`alter table deliveries drop constraint deliveries_one_target`
  yield* sql`
    alter table deliveries add constraint deliveries_one_target check (
      num_nonnulls(subscription_id, channel_id, email_id, digest_id) = 1
      and (email_id is not null or digest_id is not null or event_id is not null))`
})
