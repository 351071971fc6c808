/**
 * Migration 0047_case_fields. Custom case fields (`cases/CaseFields.ts`): each
 * form's definitions, one row each in their order (key, label, type and, for a
 * select, its options), and the values of a response in `responses.case_fields`
 * (jsonb, keyed by the definition's key; `{}` for none), which the submission
 * does not write, so it costs a submission no statement.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table responses add column case_fields jsonb not null default '{}'`
  yield* sql`
    create table case_field_definitions (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      form_id integer not null references forms (id) on delete cascade,
      position integer not null,
      key text not null,
      label text not null,
      type text not null check (type in ('text', 'number', 'date', 'select', 'member')),
      options jsonb,
      unique (form_id, position),
      unique (form_id, key)
    )`
  yield* sql`create index case_field_definitions_workspace on case_field_definitions (workspace_id, form_id)`
})
