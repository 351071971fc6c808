/**
 * Migration 0051_response_fold. What is derived from responses (the answer
 * tallies of migration 0029 and each form's response count) is no longer
 * written by the transaction that writes a response: concurrent submissions
 * of a form wrote the same tally and count rows, and PostgreSQL spent most of
 * a submission extracting keys and waiting on those rows (issue #51). Now:
 *
 * - `response_fold_queue` holds the responses not yet folded in: a row per
 *   submitted response that the derived counts do not include yet. A
 *   statement trigger queues each finished response inserted; a response's
 *   own row, never shared with another submission.
 * - `qforms_fold(limit)` folds a batch in one statement: it takes up to
 *   `limit` queued responses (skipping those another transaction holds), adds
 *   their tally keys and counts, and removes them from the queue, in its
 *   transaction (`cases/ResponseFold.ts` calls it in the background).
 * - A response changed in a counted column (its answers, whether finished,
 *   its times, its source, its form, whether merged into another) or deleted:
 *   if it is still queued, it only leaves the queue (and a changed one
 *   re-enters it as it is now); if it was folded, its old keys and count are
 *   subtracted in the change's transaction. Those are a member's, an
 *   erasure's or a retention run's changes, never a submission's. A change
 *   that waits on a fold holding the same queued response waits for it to
 *   commit, then subtracts what it folded: nothing is counted twice or lost.
 * - Reads are exact: the folded counts plus those of the queued responses
 *   (`insights/FormSummaries.ts`, `forms/Forms.ts`, `cases/ResponseLimits.ts`).
 *
 * The response count of a form now excludes a merged response by its
 * `merged_into` (as the explicit count updates of merges did). Nothing is
 * recounted: the tallies and counts hold every response written before.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`drop trigger responses_tallies_inserted on responses`
  yield* sql`drop trigger responses_tallies_deleted on responses`
  yield* sql`drop trigger responses_tallies_updated on responses`
  yield* sql`drop function qforms_tallies_inserted()`
  yield* sql`drop function qforms_tallies_deleted()`
  yield* sql`drop function qforms_tallies_updated()`
  yield* sql`
    create table response_fold_queue (
      workspace_id integer not null,
      form_id integer not null references forms(id) on delete cascade,
      response_id integer not null,
      primary key (form_id, response_id)
    )`
  // Each form's response count: finished responses not merged into another, +1 added, -1 subtracted.
  yield* sql`
    create function qforms_counts_add(p_added responses[], p_subtracted responses[]) returns void
    language sql as $$
      insert into form_response_counts (workspace_id, form_id, shard, n)
      select r.workspace_id, r.form_id, 0, sum(r.delta)
      from (
        select a.workspace_id, a.form_id, 1 as delta from unnest(p_added) as a
        where a.finished and a.merged_into is null
        union all
        select s.workspace_id, s.form_id, -1 as delta from unnest(p_subtracted) as s
        where s.finished and s.merged_into is null
      ) as r
      group by 1, 2
      having sum(r.delta) <> 0
      order by 2
      on conflict (form_id, shard) do update set n = form_response_counts.n + excluded.n
    $$`
  // One batch: a fold that waits on a lock more than 200 ms gives up (its batch stays queued), so a
  // member's change it might deadlock with goes first.
  yield* sql`
    create function qforms_fold(p_limit integer) returns integer language plpgsql as $$
    declare
      taken integer;
      folded responses[];
    begin
      perform set_config('lock_timeout', '200ms', true);
      with claimed as (
        delete from response_fold_queue as q
        using (
          select form_id, response_id from response_fold_queue
          order by form_id, response_id
          limit p_limit
          for update skip locked
        ) as c
        where q.form_id = c.form_id and q.response_id = c.response_id
        returning q.workspace_id, q.response_id
      ), counted as (
        select count(*)::int as n from claimed
      )
      select (select n from counted), coalesce(array_agg(r), '{}')
      into taken, folded
      from claimed as c join responses as r on r.workspace_id = c.workspace_id and r.id = c.response_id;
      perform qforms_tallies_add(folded, '{}');
      perform qforms_counts_add(folded, '{}');
      return taken;
    end
    $$`
  yield* sql`
    create function qforms_fold_inserted() returns trigger language plpgsql as $$
    begin
      insert into response_fold_queue (workspace_id, form_id, response_id)
      select n.workspace_id, n.form_id, n.id from new_rows as n where n.finished
      on conflict do nothing;
      return null;
    end
    $$`
  yield* sql`
    create function qforms_fold_updated() returns trigger language plpgsql as $$
    begin
      delete from response_fold_queue where form_id = old.form_id and response_id = old.id;
      if not found and old.finished then
        perform qforms_tallies_add('{}', array[old]);
        perform qforms_counts_add('{}', array[old]);
      end if;
      if new.finished then
        insert into response_fold_queue (workspace_id, form_id, response_id)
        values (new.workspace_id, new.form_id, new.id)
        on conflict do nothing;
      end if;
      return new;
    end
    $$`
  // A response deleted with its form (a cascade) leaves nothing to subtract: its form's counts go too.
  yield* sql`
    create function qforms_fold_deleted() returns trigger language plpgsql as $$
    declare
      gone responses[];
    begin
      with dequeued as (
        delete from response_fold_queue as q using old_rows as o
        where q.form_id = o.form_id and q.response_id = o.id
        returning q.response_id
      )
      select coalesce(array_agg(o::responses), '{}') into gone
      from old_rows as o
      where o.finished
        and not exists (select 1 from dequeued as d where d.response_id = o.id)
        and exists (select 1 from forms as f where f.id = o.form_id);
      perform qforms_tallies_add('{}', gone);
      perform qforms_counts_add('{}', gone);
      return null;
    end
    $$`
  yield* sql`
    create trigger responses_fold_inserted after insert on responses
    referencing new table as new_rows for each statement execute function qforms_fold_inserted()`
  // Only rows whose counted columns changed, finished before or after: a stage, assignee or tag change, or
  // a partial response's next step, runs nothing.
  yield* sql`
    create trigger responses_fold_updated before update on responses for each row
    when ((old.finished or new.finished)
      and row(old.form_id, old.answers, old.finished, old.submitted_at, old.started_at, old.source, old.merged_into)
        is distinct from row(new.form_id, new.answers, new.finished, new.submitted_at, new.started_at, new.source,
          new.merged_into))
    execute function qforms_fold_updated()`
  yield* sql`
    create trigger responses_fold_deleted after delete on responses
    referencing old table as old_rows for each statement execute function qforms_fold_deleted()`
})
