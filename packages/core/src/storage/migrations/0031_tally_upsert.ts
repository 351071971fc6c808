/**
 * Migration 0031_tally_upsert. The three statement triggers on `responses`
 * that keep `answer_tallies` (migration 0029) each repeated the same upsert;
 * it is now one function, `qforms_tallies_add(added, subtracted)`, and the
 * triggers only say which rows count: the rows inserted are added, the rows
 * deleted subtracted, and of the rows updated whose counted columns changed,
 * the old version is subtracted and the new one added.
 *
 * `qforms_tallies_add` sums the keys of every row (`qforms_tally_keys`, +1 for
 * an added row, -1 for a subtracted one) per form, UTC day of submission,
 * question and key, leaves out the keys whose sum is 0, and upserts the rest
 * into one shard picked at random for the statement, in one order (form, day,
 * question, key), so two statements never deadlock. Rows not `finished` count
 * for nothing. What the tallies hold is unchanged.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create function qforms_tallies_add(p_added responses[], p_subtracted responses[]) returns void
    language plpgsql as $$
    declare
      pick smallint := floor(random() * 8);
    begin
      insert into answer_tallies (workspace_id, form_id, day, field_id, key, shard, count)
      select r.workspace_id, r.form_id, (r.submitted_at at time zone 'UTC')::date, k.field_id, k.key, pick,
        sum(r.delta)
      from (
        select a.workspace_id, a.form_id, a.submitted_at, a.answers, a.source, a.started_at, 1 as delta
        from unnest(p_added) as a
        where a.finished
        union all
        select s.workspace_id, s.form_id, s.submitted_at, s.answers, s.source, s.started_at, -1 as delta
        from unnest(p_subtracted) as s
        where s.finished
      ) as r
      cross join lateral qforms_tally_keys(r.form_id, r.answers, r.source, r.started_at, r.submitted_at) as k
      group by 1, 2, 3, 4, 5
      having sum(r.delta) <> 0
      order by 2, 3, 4, 5
      on conflict (form_id, day, field_id, key, shard) do update set count = answer_tallies.count + excluded.count;
    end
    $$`
  yield* sql`
    create or replace function qforms_tallies_inserted() returns trigger language plpgsql as $$
    begin
      perform qforms_tallies_add(array(select n::responses from new_rows as n), '{}');
      return null;
    end
    $$`
  // A response deleted with its form (a cascade) leaves nothing to count: its form's tallies go too.
  yield* sql`
    create or replace function qforms_tallies_deleted() returns trigger language plpgsql as $$
    begin
      perform qforms_tallies_add('{}',
        array(select o::responses from old_rows as o where exists (select 1 from forms as f where f.id = o.form_id)));
      return null;
    end
    $$`
  // Only rows whose counted columns changed: a stage, assignee or tag change writes nothing.
  yield* sql`
    create or replace function qforms_tallies_updated() returns trigger language plpgsql as $$
    begin
      perform qforms_tallies_add(coalesce(array_agg(n::responses), '{}'), coalesce(array_agg(o::responses), '{}'))
      from old_rows as o join new_rows as n on n.id = o.id
      where row(o.form_id, o.answers, o.finished, o.submitted_at, o.started_at, o.source)
        is distinct from row(n.form_id, n.answers, n.finished, n.submitted_at, n.started_at, n.source);
      return null;
    end
    $$`
})
