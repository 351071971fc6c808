/**
 * The first schema: workspaces, accounts, members, API keys, forms and their
 * questions, stages, responses, contacts, notes, activities and the events
 * outbox, with the trigram search index (`pg_trgm`).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
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
