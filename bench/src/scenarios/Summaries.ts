/**
 * Scenario 12: a form's summary `GET /api/forms/{id}/summary` at 1M
 * responses (seeded with SQL; 20k in a smoke run): the latency of sequential
 * requests (p50, p95) without filters (from the answer tallies) and with a
 * filter counted over the matching responses (`tag=vip`, 1% of the rows;
 * `stage=<first>`, about a quarter), against the floor: the minimal
 * hand-written way, one aggregate query per question straight on the
 * responses (no tallies, no HTTP), over the same rows, with the same
 * answer: the latest texts and the frequent words included.
 */
import * as Db from "../lib/Db.ts"
import { percentile, timedRequest } from "../lib/Load.ts"
import { type Context, fmtMs, type Row, type Scenario } from "../lib/Scenario.ts"
import { seedResponses } from "../lib/Seed.ts"
import { type BenchForm, createForm, stagesOf, startQforms } from "../lib/Servers.ts"

interface Timings {
  readonly p50: number
  readonly p95: number
  readonly ms: Array<number>
}

const timings = (ms: Array<number>): Timings => ({ p50: percentile(ms, 50), p95: percentile(ms, 95), ms })

/** What a summary of the bench form needs, the plain way: one aggregate per question and the latest texts. */
const floorSummary = async (query: Db.Query, form: BenchForm, where: string, params: ReadonlyArray<unknown>) => {
  const f = form.fields
  await query(
    `select answers ->> '${f.topic}' as choice, count(*) from responses where ${where} and finished group by 1`,
    params
  )
  await query(
    `select count(*), avg((answers ->> '${f.score}')::numeric),
       percentile_cont(array[0.25, 0.5, 0.75, 0.9]) within group (order by (answers ->> '${f.score}')::numeric)
     from responses where ${where} and finished and answers ? '${f.score}'`,
    params
  )
  await query(
    `select (answers ->> '${f.score}') as value, count(*) from responses where ${where} and finished group by 1`,
    params
  )
  for (const field of [f.name, f.email, f.message]) {
    await query(
      `select count(*) filter (where answers ? '${field}') from responses where ${where} and finished`,
      params
    )
    await query(
      `select id, answers -> '${field}' from responses where ${where} and finished and answers ? '${field}'
       order by submitted_at desc, id desc limit 10`,
      params
    )
  }
  // The frequent words of the latest 1,000 answers of each text question (the e-mail address has none).
  for (const field of [f.name, f.message]) {
    await query(
      `select w, count(*) from (
         select answers ->> '${field}' as t from responses where ${where} and finished and answers ? '${field}'
         order by submitted_at desc, id desc limit 1000
       ) as s cross join lateral regexp_split_to_table(lower(s.t), '[^[:alnum:]]+') as w
       where w <> '' group by w order by count(*) desc limit 20`,
      params
    )
  }
}

export const summaries: Scenario = {
  name: "summary",
  title: "12. A form's summary at 1M responses: latency from the tallies and filtered, against per-question aggregates",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    const count = ctx.smoke ? 20_000 : 1_000_000
    const requests = ctx.smoke ? 10 : 50
    const label = count >= 1_000_000 ? `${count / 1_000_000}M` : `${count / 1000}k`
    // PGlite holds a million rows slowly (one process, wasm): the 1M figure is PostgreSQL's, as the issue asks.
    for (const kind of ctx.dbs.filter((k) => ctx.smoke || k === "pg")) {
      const db = Db.make(kind, "summary")
      try {
        ctx.log(`[summary/${kind}] setting up a form`)
        const setup = await startQforms("standalone", db)
        const form = await createForm(setup, `${count} responses`)
        const stageIds = await stagesOf(setup, form.id)
        await setup.proc.stop()
        ctx.log(`[summary/${kind}] seeding ${count} responses with SQL (their trigger queues them for the fold)`)
        const seeded = performance.now()
        let foldMs = 0
        await db.withQuery(async (query) => {
          await seedResponses(query, form, count, { stageIds, log: ctx.log })
          // The fold adds queued responses to the tallies in the background; a million inserted at once would be
          // counted on the spot by every summary until it caught up. Folded here, in its own batches, the summary
          // is measured as it is once the fold keeps up (and the fold's rate is measured on its own).
          const folding = performance.now()
          for (;;) {
            const [row] = await query<{ n: number }>("select qforms_fold(20000) as n")
            if (Number(row?.n ?? 0) === 0) break
          }
          foldMs = performance.now() - folding
          ctx.log(`[summary/${kind}]   folded ${count} responses in ${Math.round(foldMs)} ms`)
          // What autovacuum does after a bulk insert; without statistics the planner takes a million rows for 200.
          await query("analyze responses")
        })
        const seedMs = performance.now() - seeded - foldMs
        const cases = [
          { name: "tallies", query: "", where: "workspace_id = $1 and form_id = $2", params: [] },
          {
            name: "tag=vip",
            query: "?tag=vip",
            where: "workspace_id = $1 and form_id = $2 and tags @> array['vip']",
            params: []
          },
          {
            name: "stage",
            query: `?stage=${stageIds[0]}`,
            where: "workspace_id = $1 and form_id = $2 and stage_id = $3",
            params: [stageIds[0]]
          }
        ] as const
        // The stage filter counts a quarter of the rows on each request: fewer requests. The floor reads every
        // matching row once per question (all million of them without a filter): fewer floor rounds.
        const roundsOf = (name: string) => (name === "stage" ? Math.min(requests, 10) : requests)
        const floorRoundsOf = (name: string) => (name === "tag=vip" ? requests : Math.min(requests, 10))
        const measured: Record<string, Timings> = {}
        const floor: Record<string, Timings> = {}
        const floorOnce = async (query: Db.Query, c: (typeof cases)[number]) => {
          const started = performance.now()
          await floorSummary(query, form, c.where, [form.workspaceId, form.id, ...c.params])
          return performance.now() - started
        }
        const server = await startQforms("standalone", db, { nodeArgs: ctx.qformsNodeArgs })
        try {
          const headers = { authorization: `Bearer ${server.key}` }
          const qformsOnce = async (c: (typeof cases)[number]) => {
            const answer = await timedRequest(`${server.base}/api/forms/${form.id}/summary${c.query}`, { headers })
            if (answer.status !== 200) throw new Error(`summary ${c.name} answered ${answer.status}`)
            return answer.ms
          }
          // On PostgreSQL the floor runs beside the server, one floor summary after each request, so both see
          // the same load (another process on the machine slows both, not one). PGlite's directory takes one
          // process at a time: its floor runs after the server has stopped.
          const rounds = async (floorQuery: Db.Query | undefined) => {
            for (const c of cases) {
              await qformsOnce(c)
              if (floorQuery !== undefined) await floorOnce(floorQuery, c)
              const ms: Array<number> = []
              const floorMs: Array<number> = []
              for (let i = 0; i < roundsOf(c.name); i++) {
                ms.push(await qformsOnce(c))
                if (floorQuery !== undefined && i < floorRoundsOf(c.name)) floorMs.push(await floorOnce(floorQuery, c))
              }
              measured[c.name] = timings(ms)
              if (floorQuery !== undefined) floor[c.name] = timings(floorMs)
              ctx.log(
                `  qforms ${c.name}: p50 ${fmtMs(measured[c.name]!.p50)} ms, p95 ${fmtMs(measured[c.name]!.p95)} ms`
              )
            }
          }
          if (kind === "pg") await db.withQuery(rounds)
          else await rounds(undefined)
        } finally {
          await server.proc.stop()
        }
        if (kind !== "pg") {
          await db.withQuery(async (query) => {
            for (const c of cases) {
              await floorOnce(query, c)
              const ms: Array<number> = []
              for (let i = 0; i < floorRoundsOf(c.name); i++) ms.push(await floorOnce(query, c))
              floor[c.name] = timings(ms)
            }
          })
        }
        for (const c of cases) {
          ctx.log(`  floor ${c.name}: p50 ${fmtMs(floor[c.name]!.p50)} ms, p95 ${fmtMs(floor[c.name]!.p95)} ms`)
        }
        const describe: Record<string, string> = {
          tallies: "no filter (tallies)",
          "tag=vip": "tag=vip (1%, counted)",
          stage: "one stage (~25%, counted)"
        }
        for (const name of ["tallies", "tag=vip", "stage"]) {
          const q = measured[name]!
          const b = floor[name]!
          rows.push({
            scenario: `12. summary of ${label} responses, ${describe[name]}`,
            db: kind,
            qforms: `p95 ${fmtMs(q.p95)} ms`,
            baseline: `p95 ${fmtMs(b.p95)} ms (per-question aggregates)`,
            ratio: `${(Math.floor((b.p95 / q.p95) * 100) / 100).toFixed(2)}×`,
            latency: `${fmtMs(q.p50)} / ${fmtMs(q.p95)} ms p50/p95 (floor ${fmtMs(b.p50)} / ${fmtMs(b.p95)})`,
            peakRss: "—",
            target: count < 1_000_000 ? "—" : name === "tallies" ? "< 500 ms p95 (PostgreSQL)" : "≥ 1× the floor",
            met: count < 1_000_000 ? undefined : name === "tallies" ? q.p95 < 500 : b.p95 >= q.p95
          })
        }
        raw[kind] = { count, seedMs, foldMs, qforms: measured, floor }
      } finally {
        await db.cleanup()
      }
    }
    const folds = Object.entries(raw).map(([kind, figures]) => {
      const { count, foldMs } = figures as { readonly count: number; readonly foldMs: number }
      return `${kind === "pg" ? "PostgreSQL" : "PGlite"}: ${count.toLocaleString("en")} responses in ${(foldMs / 1000).toFixed(1)} s (${Math.round(count / (foldMs / 1000)).toLocaleString("en")} a second)`
    })
    return {
      rows,
      raw,
      notes: [
        `The fold of the seeded responses, one statement per batch of 20,000 on an otherwise idle server: ${folds.join("; ")}.`,
        `Rows seeded with generate_series (not the API) on the bench form (name, e-mail, a select, a rating, a long ` +
          `text); their trigger queues them, and the fold (migration 0051, batches of 20,000 here) adds them to the tallies before the summaries are measured. ${requests} sequential ` +
          "requests per case (10 with the stage filter) after one warm-up, from a freshly started standalone; on " +
          "PostgreSQL each request is followed by one floor summary (10 rounds without a filter and with the stage " +
          "filter), so that load from elsewhere falls on both; the whole answer (totals, funnel, every " +
          "question, the latest 10 texts and the frequent words of the latest 1,000 per text question). The floor " +
          "runs, on one connection of its own and without HTTP, the queries a hand-written summary of the same form " +
          "needs straight on the responses: choice counts, the rating's count, mean and quartiles and its " +
          "distribution, per text question its count and latest 10, and the 20 most frequent words of the latest 1,000 " +
          "answers of the name and the message, each the plain way (newest first, then split); ratio = floor p95 / " +
          "qforms p95. 1M rows run on PostgreSQL only (the smoke run also uses PGlite)."
      ]
    }
  }
}
