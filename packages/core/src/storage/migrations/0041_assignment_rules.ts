/**
 * Migration 0041_assignment_rules. A member can be away (`members.away`):
 * assignment rules pass them by. Each form has an ordered list of assignment
 * rules (`cases/AssignmentRules.ts`), one row each: its kind, its settings
 * (jsonb) and, for a round robin, the next slot to give (`next_slot`), which a
 * submission takes and moves on in one statement inside its transaction, so
 * two submissions never get the same slot and a rolled back one gives its slot
 * back.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table members add column away boolean not null default false`
  yield* sql`
    create table assignment_rules (
      id integer generated always as identity primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      form_id integer not null references forms (id) on delete cascade,
      position integer not null,
      kind text not null check (kind in ('byAnswer', 'roundRobin', 'leastOpen')),
      config jsonb not null,
      next_slot integer not null default 0,
      unique (form_id, position)
    )`
  yield* sql`create index assignment_rules_workspace on assignment_rules (workspace_id, form_id)`
})
