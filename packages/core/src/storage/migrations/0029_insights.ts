/**
 * Migration 0029_insights. What a form's summary (`insights/AnswerSummaries.ts`)
 * reads instead of every response:
 *
 * - `responses.started_at`: when the respondent opened the public page (from
 *   the page's signed answer token), for the median time to complete; null for
 *   submissions that did not come through the page.
 * - `page_counts`: per form and UTC day, how often the public page was viewed
 *   (`view`), started (`start`) and each question answered (its id): counters,
 *   never who (`insights/PageCounts.ts`).
 * - `answer_tallies`: per form, UTC day of submission and question, how many
 *   submitted responses carry each answer key (`qforms_answer_keys`: a choice, a
 *   number, a matrix cell, a ranked place, a month, an hour, "answered"), plus
 *   per day the number of responses, their sources and their completion times
 *   (`question 0`). Kept by statement triggers on `responses`, so every path
 *   that writes a response (a submission, a partial finished, a deletion, a
 *   cascade) changes the tallies in its own transaction. Rows are sharded (8
 *   per key and day, picked at random per statement), so concurrent
 *   submissions rarely wait on each other; a statement writes its keys in one
 *   order, so two never deadlock.
 *
 * The filtered summary computes the same keys from the matching rows with the
 * same function, so both ways agree.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table responses add column started_at timestamp with time zone`
  yield* sql`
    create table page_counts (
      workspace_id integer not null,
      form_id integer not null references forms(id) on delete cascade,
      day date not null,
      step text not null check (char_length(step) <= 20),
      count bigint not null,
      primary key (form_id, day, step)
    )`
  yield* sql`
    create table answer_tallies (
      workspace_id integer not null,
      form_id integer not null references forms(id) on delete cascade,
      day date not null,
      field_id integer not null,
      key text not null,
      shard smallint not null,
      count bigint not null,
      primary key (form_id, day, field_id, key, shard)
    )`
  // The keys of one answer to a question of `type`. Texts are only counted (`a`); names of choices,
  // matrix rows and columns are cut at 200 characters (the index keeps a key under its size limit).
  yield* sql`
    create function qforms_answer_keys(type text, v jsonb) returns setof text
    language sql immutable parallel safe as $$
      select 'a' where case jsonb_typeof(v)
        when 'string' then btrim(v #>> '{}') <> ''
        when 'array' then jsonb_array_length(v) > 0
        when 'object' then v <> '{}'::jsonb
        when 'null' then false
        else true end
      union all
      select 'c:' || left(v #>> '{}', 200) where type = 'select' and jsonb_typeof(v) = 'string'
      union all
      select 'c:' || left(e, 200)
      from jsonb_array_elements_text(case when type = 'checkboxes' and jsonb_typeof(v) = 'array' then v
        else '[]'::jsonb end) as e
      union all
      select 'c:' || (v #>> '{}') where type in ('yes_no', 'legal') and jsonb_typeof(v) = 'boolean'
      union all
      select 'c:' || case when v ? 'fileId' then 'drawn' else 'typed' end
      where type = 'signature' and jsonb_typeof(v) = 'object'
      union all
      select 'n:' || (v #>> '{}')
      where type in ('number', 'rating', 'nps', 'opinion_scale', 'slider') and jsonb_typeof(v) = 'number'
      union all
      select 'm:' || left(r.key, 200) || chr(31) || left(c, 200)
      from jsonb_each(case when type = 'matrix' and jsonb_typeof(v) = 'object' then v else '{}'::jsonb end) as r
      cross join lateral jsonb_array_elements_text(case jsonb_typeof(r.value)
        when 'array' then r.value when 'string' then jsonb_build_array(r.value) else '[]'::jsonb end) as c
      union all
      select 'm:' || left(r.key, 200)
      from jsonb_each(case when type = 'matrix' and jsonb_typeof(v) = 'object' then v else '{}'::jsonb end) as r
      where case jsonb_typeof(r.value) when 'array' then jsonb_array_length(r.value) > 0
        when 'string' then true else false end
      union all
      select 'r:' || left(e.value, 200) || chr(31) || e.n
      from jsonb_array_elements_text(case when type = 'ranking' and jsonb_typeof(v) = 'array' then v
        else '[]'::jsonb end) with ordinality as e(value, n)
      union all
      select 'd:' || left(v #>> '{}', 7)
      where type in ('date', 'datetime') and jsonb_typeof(v) = 'string' and (v #>> '{}') ~ '^[0-9]{4}-[0-9]{2}'
      union all
      select 'h:' || left(v #>> '{}', 2)
      where type = 'time' and jsonb_typeof(v) = 'string' and (v #>> '{}') ~ '^[0-9]{2}:'
    $$`
  // Every key of one response: question 0 holds the count (n), the source (s:) and the seconds from opening
  // the page to submitting it, to two significant figures (t:).
  yield* sql`
    create function qforms_tally_keys(p_form_id integer, p_answers jsonb, p_source text,
      p_started timestamp with time zone, p_submitted timestamp with time zone)
    returns table (field_id integer, key text)
    language sql stable parallel safe as $$
      select 0, 'n'
      union all
      select 0, 's:' || p_source
      union all
      select 0, 't:' || (case when d.s < 100 then d.s
        else round(d.s / power(10, floor(log(d.s)) - 1)) * power(10, floor(log(d.s)) - 1) end)::bigint
      from (select round(extract(epoch from p_submitted - p_started))::numeric as s) as d
      where p_started is not null and d.s >= 0
      union all
      select f.id, k.key
      from fields as f
      cross join lateral qforms_answer_keys(f.type, p_answers -> f.id::text) as k(key)
      where f.form_id = p_form_id and p_answers ? f.id::text
    $$`
  yield* sql`
    create function qforms_tallies_inserted() returns trigger language plpgsql as $$
    declare
      pick smallint := floor(random() * 8);
    begin
      insert into answer_tallies (workspace_id, form_id, day, field_id, key, shard, count)
      select r.workspace_id, r.form_id, (r.submitted_at at time zone 'UTC')::date, k.field_id, k.key, pick, count(*)
      from new_rows as r
      cross join lateral qforms_tally_keys(r.form_id, r.answers, r.source, r.started_at, r.submitted_at) as k
      where r.finished
      group by 1, 2, 3, 4, 5
      order by 2, 3, 4, 5
      on conflict (form_id, day, field_id, key, shard) do update set count = answer_tallies.count + excluded.count;
      return null;
    end
    $$`
  // A response deleted with its form (a cascade) leaves nothing to count: its form's tallies go too.
  yield* sql`
    create function qforms_tallies_deleted() returns trigger language plpgsql as $$
    declare
      pick smallint := floor(random() * 8);
    begin
      insert into answer_tallies (workspace_id, form_id, day, field_id, key, shard, count)
      select r.workspace_id, r.form_id, (r.submitted_at at time zone 'UTC')::date, k.field_id, k.key, pick,
        -count(*)
      from old_rows as r
      cross join lateral qforms_tally_keys(r.form_id, r.answers, r.source, r.started_at, r.submitted_at) as k
      where r.finished and exists (select 1 from forms as f where f.id = r.form_id)
      group by 1, 2, 3, 4, 5
      order by 2, 3, 4, 5
      on conflict (form_id, day, field_id, key, shard) do update set count = answer_tallies.count + excluded.count;
      return null;
    end
    $$`
  // Only rows whose counted columns changed: a stage, assignee or tag change writes nothing.
  yield* sql`
    create function qforms_tallies_updated() returns trigger language plpgsql as $$
    declare
      pick smallint := floor(random() * 8);
    begin
      insert into answer_tallies (workspace_id, form_id, day, field_id, key, shard, count)
      select r.workspace_id, r.form_id, (r.submitted_at at time zone 'UTC')::date, k.field_id, k.key, pick,
        sum(r.delta)
      from (
        select o.workspace_id, o.form_id, o.submitted_at, o.answers, o.source, o.started_at, -1 as delta
        from old_rows as o join new_rows as n on n.id = o.id
        where o.finished and row(o.form_id, o.answers, o.finished, o.submitted_at, o.started_at, o.source)
          is distinct from row(n.form_id, n.answers, n.finished, n.submitted_at, n.started_at, n.source)
        union all
        select n.workspace_id, n.form_id, n.submitted_at, n.answers, n.source, n.started_at, 1 as delta
        from new_rows as n join old_rows as o on o.id = n.id
        where n.finished and row(o.form_id, o.answers, o.finished, o.submitted_at, o.started_at, o.source)
          is distinct from row(n.form_id, n.answers, n.finished, n.submitted_at, n.started_at, n.source)
      ) as r
      cross join lateral qforms_tally_keys(r.form_id, r.answers, r.source, r.started_at, r.submitted_at) as k
      group by 1, 2, 3, 4, 5
      having sum(r.delta) <> 0
      order by 2, 3, 4, 5
      on conflict (form_id, day, field_id, key, shard) do update set count = answer_tallies.count + excluded.count;
      return null;
    end
    $$`
  yield* sql`
    create trigger responses_tallies_inserted after insert on responses
    referencing new table as new_rows for each statement execute function qforms_tallies_inserted()`
  yield* sql`
    create trigger responses_tallies_deleted after delete on responses
    referencing old table as old_rows for each statement execute function qforms_tallies_deleted()`
  yield* sql`
    create trigger responses_tallies_updated after update on responses
    referencing old table as old_rows new table as new_rows
    for each statement execute function qforms_tallies_updated()`
  // The responses already submitted.
  yield* sql`
    insert into answer_tallies (workspace_id, form_id, day, field_id, key, shard, count)
    select r.workspace_id, r.form_id, (r.submitted_at at time zone 'UTC')::date, k.field_id, k.key, 0, count(*)
    from responses as r
    cross join lateral qforms_tally_keys(r.form_id, r.answers, r.source, r.started_at, r.submitted_at) as k
    where r.finished
    group by 1, 2, 3, 4, 5`
})
