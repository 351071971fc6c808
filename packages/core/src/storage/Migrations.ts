/**
 * The one set of migrations, run on PostgreSQL and on PGlite alike.
 *
 * Tables are created unqualified: the connection's `search_path` starts with
 * the configured qforms schema (see `Database.ts`), so qforms can live in its
 * own schema of a host application's database.
 */
import * as Effect from "effect/Effect"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"

const initial = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may
  // create it. It goes into public, not the qforms schema: an extension inside
  // one qforms schema would be dropped with that schema, taking the search
  // indexes of every other schema that uses it along.
  yield* sql`create extension if not exists pg_trgm with schema public`
  yield* sql`
    create table workspaces (
      id integer generated always as identity primary key,
      name text not null,
      created_at timestamptz not null
    )`
  yield* sql`
    create table accounts (
      id integer generated always as identity primary key,
      email text not null,
      name text,
      created_at timestamptz not null
    )`
  yield* sql`create unique index accounts_email on accounts (lower(email))`
  yield* sql`
    create table members (
      workspace_id integer not null references workspaces (id) on delete cascade,
      account_id integer not null references accounts (id) on delete cascade,
      role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
      created_at timestamptz not null,
      primary key (workspace_id, account_id)
    )`
  yield* sql`
    create table api_keys (
      id integer generated always as identity primary key,
      workspace_id integer not null,
      account_id integer not null,
      name text,
      prefix text not null,
      hash text not null,
      created_at timestamptz not null,
      last_used_at timestamptz,
      revoked_at timestamptz,
      foreign key (workspace_id, account_id) references members (workspace_id, account_id) on delete cascade
    )`
  yield* sql`create unique index api_keys_hash on api_keys (hash)`
  yield* sql`create index api_keys_workspace on api_keys (workspace_id, id)`
  yield* sql`
    create table forms (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      public_id text not null,
      title text not null,
      description text,
      status text not null check (status in ('draft', 'published', 'closed')),
      folder_id integer,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`
  yield* sql`create unique index forms_public_id on forms (public_id)`
  yield* sql`create index forms_workspace_updated on forms (workspace_id, updated_at desc, id desc)`
  yield* sql`
    create table fields (
      id integer generated always as identity primary key,
      workspace_id integer not null,
      form_id integer not null references forms (id) on delete cascade,
      type text not null,
      label text not null,
      required boolean not null,
      position integer not null,
      options jsonb
    )`
  yield* sql`create index fields_form on fields (form_id, position)`
  yield* sql`
    create table stages (
      id integer generated always as identity primary key,
      workspace_id integer not null,
      form_id integer not null references forms (id) on delete cascade,
      name text not null,
      color text,
      is_closed boolean not null,
      position integer not null
    )`
  yield* sql`create index stages_form on stages (form_id, position)`
  yield* sql`
    create table contacts (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      email text not null,
      name text,
      created_at timestamptz not null
    )`
  yield* sql`create unique index contacts_email on contacts (workspace_id, lower(email))`
  yield* sql`
    create table responses (
      id integer generated always as identity primary key,
      workspace_id integer not null,
      form_id integer not null references forms (id) on delete cascade,
      contact_id integer references contacts (id) on delete set null,
      submitted_at timestamptz not null,
      updated_at timestamptz not null,
      name text,
      email text,
      stage_id integer references stages (id) on delete set null,
      assignee_id integer references accounts (id) on delete set null,
      tags text[] not null,
      source text not null,
      answers jsonb not null,
      search_text text not null
    )`
  // The response list is always one form's, newest first; each filter has an
  // index that keeps that order, so a filtered page is an index range scan.
  yield* sql`create index responses_form_submitted on responses (form_id, submitted_at desc, id desc)`
  yield* sql`create index responses_form_stage on responses (form_id, stage_id, submitted_at desc, id desc)`
  yield* sql`create index responses_form_assignee on responses (form_id, assignee_id, submitted_at desc, id desc)`
  yield* sql`create index responses_tags on responses using gin (tags)`
  // The extension may live in any schema (one qforms schema created it, or the
  // host did): name its operator class by that schema.
  const [trgm] = yield* sql<{ readonly schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`
  yield* sql`create index responses_search on responses using gin (search_text ${sql(trgm!.schema)}.gin_trgm_ops)`
  yield* sql`create index responses_contact on responses (contact_id)`
  // Counts kept beside the rows they count: the form list must not count a
  // million responses, and a submission must not wait on one hot counter row,
  // so each form's count is spread over a few shards that writers pick at random.
  yield* sql`
    create table form_response_counts (
      workspace_id integer not null,
      form_id integer not null references forms (id) on delete cascade,
      shard smallint not null,
      n integer not null,
      primary key (form_id, shard)
    )`
  // The distinct tags of a form's responses with how many carry each (allTags of the list).
  yield* sql`
    create table form_tags (
      workspace_id integer not null,
      form_id integer not null references forms (id) on delete cascade,
      tag text not null,
      n integer not null,
      primary key (form_id, tag)
    )`
  yield* sql`
    create table activities (
      id integer generated always as identity primary key,
      workspace_id integer not null,
      response_id integer not null references responses (id) on delete cascade,
      type text not null,
      actor jsonb not null,
      payload jsonb not null,
      created_at timestamptz not null
    )`
  yield* sql`create index activities_response on activities (response_id, id desc)`
  // The outbox: written in the transaction of the change that causes the event.
  yield* sql`
    create table events (
      seq integer generated always as identity primary key,
      id text not null,
      workspace_id integer not null references workspaces (id) on delete cascade,
      type text not null,
      form_id integer references forms (id) on delete cascade,
      response_id integer,
      payload jsonb not null,
      created_at timestamptz not null
    )`
  yield* sql`create unique index events_id on events (id)`
  yield* sql`create index events_workspace on events (workspace_id, seq)`
})

const webhookSubscriptions = Effect.gen(function*() {
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

const deliveries = Effect.gen(function*() {
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

const files = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One row per uploaded file. An upload belongs to one question of one form;
  // a submission attaches it to its response (response_id set), and a file
  // never attached is swept after a while. Deleting a response or a form
  // deletes these rows in its transaction and the blobs after it commits.
  yield* sql`
    create table files (
      id text primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      form_id integer not null references forms (id) on delete cascade,
      field_id integer not null,
      response_id integer references responses (id) on delete cascade,
      name text not null,
      size integer not null,
      type text not null,
      storage_key text not null,
      created_at timestamptz not null,
      attached_at timestamptz
    )`
  yield* sql`create index files_response on files (response_id) where response_id is not null`
  yield* sql`create index files_form on files (form_id)`
  yield* sql`create index files_unattached on files (created_at) where response_id is null`
})

/**
 * Server-wide secrets, one row per purpose (e.g. `public_page_token`): made
 * once by whichever process needs it first, then shared by every process on
 * the database and kept across restarts.
 */
const signingSecrets = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table signing_secrets (
      name text primary key,
      secret text not null,
      created_at timestamptz not null
    )`
})

/**
 * Form logic (issue 11): a form's hidden fields, each question's jump rules
 * and `showIf`, and partial responses (`finished = false` until the
 * respondent submits; purged after a while, oldest first by `updated_at`).
 */
const formLogic = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table forms add column hidden_fields jsonb not null default '[]'::jsonb`
  yield* sql`alter table fields add column logic jsonb`
  yield* sql`alter table fields add column show_if jsonb`
  yield* sql`alter table responses add column finished boolean not null default true`
  yield* sql`create index responses_partial on responses (updated_at) where not finished`
})

/**
 * Per-form notification channels (Slack, Discord, Teams, a sheet, e-mail, any
 * URL). A channel is a delivery target beside webhook subscriptions: its
 * deliveries are written with the event and sent by the same worker.
 */
const notificationChannels = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table notification_channels (
      id text primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      form_id integer not null references forms (id) on delete cascade,
      position integer not null,
      type text not null check (type in ('slack', 'discord', 'teams', 'sheet', 'email', 'url')),
      enabled boolean not null,
      events text[] not null,
      config jsonb not null,
      secret text not null,
      created_at timestamptz not null,
      last_sent_at timestamptz
    )`
  yield* sql`create index notification_channels_form on notification_channels (form_id, position)`
  yield* sql`alter table deliveries alter column subscription_id drop not null`
  yield* sql`alter table deliveries add column channel_id text references notification_channels (id) on delete cascade`
  yield* sql`alter table deliveries add constraint deliveries_one_target check (num_nonnulls(subscription_id, channel_id) = 1)`
  yield* sql`create index deliveries_channel on deliveries (channel_id, id desc) where channel_id is not null`
})

/**
 * E-mail with respondents: per-form confirmation settings, per-workspace
 * e-mail settings, the e-mails sent (each sent through the outbox: a delivery
 * row references it), their opens and clicks, and the replies received.
 */
const respondentEmails = Effect.gen(function*() {
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

/**
 * The application's sign-in: password hashes (scrypt) and lockout counters on
 * accounts, sessions (only a hash of each session id is kept), and one-time
 * sign-in links (the first start's, for the owner).
 */
const appSignIn = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table accounts add column password_hash text`
  yield* sql`alter table accounts add column failed_sign_ins integer not null default 0`
  yield* sql`alter table accounts add column locked_until timestamptz`
  yield* sql`
    create table sessions (
      id_hash text primary key,
      account_id integer not null references accounts (id) on delete cascade,
      workspace_id integer not null references workspaces (id) on delete cascade,
      csrf_token text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`
  yield* sql`create index sessions_account on sessions (account_id)`
  yield* sql`
    create table sign_in_links (
      token_hash text primary key,
      account_id integer not null references accounts (id) on delete cascade,
      workspace_id integer not null references workspaces (id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`
})

/**
 * Identity hardening: failed sign-ins counted per e-mail address (a SHA-256 of
 * the lower-cased address, known or not, so a lockout looks the same for an
 * address without an account) with one atomic upsert each, instead of a
 * read-modify-write counter on accounts; and a batch on sign-in links, so the
 * links offered to choose a workspace at sign-in are spent together.
 */
const identityHardening = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table sign_in_failures (
      email_hash text primary key,
      failures integer not null,
      locked_until timestamptz,
      updated_at timestamptz not null
    )`
  yield* sql`create index sign_in_failures_updated on sign_in_failures (updated_at)`
  yield* sql`alter table accounts drop column failed_sign_ins`
  yield* sql`alter table accounts drop column locked_until`
  yield* sql`alter table sign_in_links add column batch text`
  yield* sql`create index sign_in_links_batch on sign_in_links (batch) where batch is not null`
})

/**
 * Live event streams re-check their credential when it changes: a key
 * revoked or deleted, a member removed or given another role, a session
 * ended. Triggers (rather than calls in each code path) send the notice, so
 * every path — the API, the application, the CLI, a cascade — sends it, in the
 * change's own transaction. The notice goes on the events channel itself
 * (`credentials:<workspaceId>`), so a stream hears it in commit order with the
 * events: no event committed after the change reaches a stream still open on
 * the old credential.
 */
const streamHardening = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create function qforms_credentials_changed() returns trigger language plpgsql as $$
    begin
      -- The events channel of this deployment's schema (storage/Notifications.ts channelName).
      perform pg_notify(
        case when length('qforms_events_' || tg_table_schema) <= 63 then 'qforms_events_' || tg_table_schema
          else 'qforms_events_' || md5(tg_table_schema) end,
        'credentials:' || (case when tg_op = 'DELETE' then old.workspace_id else new.workspace_id end));
      return null;
    end
    $$`
  yield* sql`
    create trigger api_keys_credentials_changed after update of revoked_at on api_keys
    for each row when (old.revoked_at is distinct from new.revoked_at) execute function qforms_credentials_changed()`
  yield* sql`
    create trigger api_keys_credentials_deleted after delete on api_keys
    for each row execute function qforms_credentials_changed()`
  yield* sql`
    create trigger members_credentials_changed after update of role on members
    for each row when (old.role is distinct from new.role) execute function qforms_credentials_changed()`
  yield* sql`
    create trigger members_credentials_deleted after delete on members
    for each row execute function qforms_credentials_changed()`
  yield* sql`
    create trigger sessions_credentials_deleted after delete on sessions
    for each row execute function qforms_credentials_changed()`
})

const uploadQuotas = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The storage quotas sum the sizes of a workspace's files, and of one form's, at every
  // upload (see Files.claimQuota): an index-only scan over these columns.
  yield* sql`create index files_quota on files (workspace_id, form_id) include (size)`
})

/**
 * A team signs in: invitations by e-mail (or a link the inviter copies),
 * password resets by e-mail. Only a SHA-256 of each token is stored; each is
 * single-use (`accepted_at` / `used_at` set in the same statement that checks
 * it) and expires. One-time sign-in links issued for a member reuse
 * `sign_in_links` (0011).
 */
const invitations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table invitations (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      email text not null,
      role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
      token_hash text not null unique,
      invited_by integer references accounts (id) on delete set null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      accepted_at timestamptz,
      accepted_by integer references accounts (id) on delete set null,
      revoked_at timestamptz
    )`
  yield* sql`create index invitations_workspace on invitations (workspace_id, created_at)`
  yield* sql`
    create table password_resets (
      token_hash text primary key,
      account_id integer not null references accounts (id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`
  yield* sql`create index password_resets_account on password_resets (account_id)`
  yield* sql`create index password_resets_expires on password_resets (expires_at)`
})

/**
 * Every migration of qforms, in order. Add new ones at the end; never edit a
 * released one.
 */
export const loader = Migrator.fromRecord({
  "0001_initial": initial,
  "0002_webhook_subscriptions": webhookSubscriptions,
  "0003_deliveries": deliveries,
  "0006_files": files,
  "0007_signing_secrets": signingSecrets,
  "0008_notification_channels": notificationChannels,
  "0009_form_logic": formLogic,
  "0010_respondent_emails": respondentEmails,
  "0011_app_sign_in": appSignIn,
  "0012_identity_hardening": identityHardening,
  "0016_stream_hardening": streamHardening,
  "0017_invitations": invitations,
  "0018_upload_quotas": uploadQuotas
})

/**
 * Runs the migrations that have not run yet (in one transaction, with a lock
 * on PostgreSQL so concurrent starts do not race).
 */
export const run = Migrator.make({})({ loader, table: "qforms_migrations" })
