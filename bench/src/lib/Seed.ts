/**
 * Seeding responses with SQL (generate_series), not through the API, in the
 * column shapes of packages/core/src/storage/Migrations.ts: `search_text` as
 * Responses.ts builds it (tags line, then name, e-mail and every answer,
 * lower-cased), and the per-form tables `form_response_counts` and
 * `form_tags` kept in step.
 */
import type { Query } from "./Db.ts"
import type { BenchForm } from "./Servers.ts"

const firstNames = [
  "ada",
  "alan",
  "grace",
  "edsger",
  "barbara",
  "donald",
  "margaret",
  "linus",
  "ken",
  "dennis",
  "frances",
  "john",
  "radia",
  "tim",
  "sophie",
  "niklaus",
  "leslie",
  "judea",
  "shafi",
  "yann",
  "hedy",
  "katherine",
  "annie",
  "mary",
  "dorothy",
  "joan",
  "karen",
  "lynn",
  "ruth",
  "jean",
  "adele",
  "evelyn",
  "kathleen",
  "betty",
  "marlyn",
  "fran",
  "ida",
  "klara",
  "erna",
  "rozsa",
  "emmy",
  "sofia",
  "olga",
  "maria",
  "lise",
  "irene",
  "chien",
  "rosalind",
  "barbara",
  "gertrude"
]
const surnames = Array.from(
  { length: 200 },
  (_, i) =>
    ["lovelace", "turing", "hopper", "dijkstra", "liskov", "knuth", "hamilton", "torvalds", "thompson", "ritchie"][
      i % 10
    ]! + (i < 10 ? "" : String(i))
)

/** The topic choices of the benchmark form. */
const topics = ["Sales", "Support", "Billing", "Partnership", "Other"]

export interface SeedOptions {
  readonly form: BenchForm
  /** Rows `from`…`to` (inclusive) of the series; row g is submitted g × 37 s before `newest`. */
  readonly from: number
  readonly to: number
  readonly stageIds: ReadonlyArray<number>
  readonly newest: Date
}

/** Inserts responses `from`…`to` of the series (no counts: see {@link recount}). */
export const insertResponses = async (query: Query, options: SeedOptions) => {
  const { fields } = options.form
  const [{ workspace_id: workspaceId }] = (await query<{ workspace_id: number }>(
    `select workspace_id from forms where id = $1`,
    [options.form.id]
  )) as [{ workspace_id: number }]
  await query(
    `insert into responses (workspace_id, form_id, contact_id, submitted_at, updated_at, name, email, stage_id,
       assignee_id, tags, source, answers, search_text)
     select $1, $2, null, ts, ts, nm, em, st, null, tg, 'import',
       jsonb_build_object($3::text, nm, $4::text, em, $5::text, tp, $6::text, sc, $7::text, msg),
       lower(array_to_string(tg, ' ') || E'\\n' || nm || ' ' || em || ' ' || nm || ' ' || em || ' ' || tp || ' ' ||
         sc || '/5 ' || msg)
     from (
       select g,
         $8::timestamptz - g * interval '37 seconds' as ts,
         initcap(($9::text[])[1 + g % 50] || ' ' || ($10::text[])[1 + (g / 50) % 200]) as nm,
         'user' || g || '@example.com' as em,
         ($11::text[])[1 + g % 5] as tp,
         1 + g % 5 as sc,
         'About my order ' || md5(g::text) || ', please call me back.' as msg,
         case when g % 100 = 0 then array['vip'] when g % 7 = 0 then array['follow-up'] else array[]::text[] end as tg,
         case when g % 4 = 0 or cardinality($12::int[]) = 0 then null
           else ($12::int[])[1 + g % cardinality($12::int[])] end as st
       from generate_series($13::int, $14::int) g
     ) s`,
    [
      workspaceId,
      options.form.id,
      String(fields.name),
      String(fields.email),
      String(fields.topic),
      String(fields.score),
      String(fields.message),
      options.newest,
      firstNames,
      surnames,
      topics,
      [...options.stageIds],
      options.from,
      options.to
    ]
  )
}

/** Rewrites the form's response count and tag counts from its rows. */
export const recount = async (query: Query, formId: number) => {
  await query(`delete from form_response_counts where form_id = $1`, [formId])
  await query(
    `insert into form_response_counts (workspace_id, form_id, shard, n)
     select workspace_id, form_id, 0, count(*) from responses where form_id = $1 group by workspace_id, form_id`,
    [formId]
  )
  await query(`delete from form_tags where form_id = $1`, [formId])
  await query(
    `insert into form_tags (workspace_id, form_id, tag, n)
     select r.workspace_id, r.form_id, t.tag, count(*) from responses r, unnest(r.tags) as t(tag)
     where r.form_id = $1 group by r.workspace_id, r.form_id, t.tag`,
    [formId]
  )
}

/** Seeds `count` responses into the form in chunks, then recounts. */
export const seedResponses = async (
  query: Query,
  form: BenchForm,
  count: number,
  options: {
    readonly stageIds?: ReadonlyArray<number>
    readonly chunk?: number
    readonly log?: (m: string) => void
  } = {}
) => {
  const chunk = options.chunk ?? 100_000
  const newest = new Date()
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1)
    await insertResponses(query, { form, from, to, stageIds: options.stageIds ?? [], newest })
    if (count > chunk) options.log?.(`    seeded ${to.toLocaleString("en-US")} / ${count.toLocaleString("en-US")}`)
  }
  await recount(query, form.id)
}

/** A surname of the seed (for `q` searches): about 1 row in 200 carries it; `dijkstra` is in 1 row in 10. */
export const seededSurname = surnames[113]!
