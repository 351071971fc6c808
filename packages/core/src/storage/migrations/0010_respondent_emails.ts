/**
 * E-mail with respondents: per-form confirmation settings, per-workspace
 * e-mail settings, the e-mails sent (each sent through the outbox: a delivery
 * row references it), their opens and clicks, and the replies received.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table form_confirmations (
      form_id integer primary key references forms (id) on delete cascade,
      workspace_id integer not null references workspaces (id) on delete cascade,
      enabled boolean not null,
      subject text not null,
      body text not null
    )`
  yield* sql`
    create table workspace_email_settings (
      workspace_id integer primary key references workspaces (id) on delete cascade,
      tracking boolean not null,
      reopen_on_reply boolean not null
    )`
  yield* sql`
    create table response_emails (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      response_id integer not null references responses (id) on delete cascade,
      kind text not null check (kind in ('confirmation', 'message')),
      to_address text not null,
      subject text not null,
      text text not null,
      html text not null,
      reply_to text,
      message_id text not null,
      links jsonb not null,
      status text not null check (status in ('queued', 'retrying', 'sent', 'failed')),
      sent_at timestamptz,
      opened_at timestamptz,
      opens integer not null,
      created_at timestamptz not null
    )`
  yield* sql`create index response_emails_response on response_emails (response_id, id)`
  yield* sql`create unique index response_emails_message_id on response_emails (message_id)`
  yield* sql`
    create table response_email_clicks (
      id integer generated always as identity primary key,
      workspace_id integer not null,
      email_id integer not null references response_emails (id) on delete cascade,
      url text not null,
      clicked_at timestamptz not null
    )`
  yield* sql`create index response_email_clicks_email on response_email_clicks (email_id, id)`
  yield* sql`
    create table response_replies (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      response_id integer not null references responses (id) on delete cascade,
      from_address text not null,
      subject text not null,
      text text not null,
      message_id text,
      file_ids text[] not null,
      received_at timestamptz not null
    )`
  yield* sql`create index response_replies_response on response_replies (response_id, id)`
  yield* sql`alter table deliveries add column email_id integer references response_emails (id) on delete cascade`
  yield* sql`alter table deliveries alter column event_id drop not null`
  yield* sql`alter table deliveries drop constraint deliveries_one_target`
  yield* sql`
    alter table deliveries add constraint deliveries_one_target
    check (num_nonnulls(subscription_id, channel_id, email_id) = 1 and (email_id is not null or event_id is not null))`
})
