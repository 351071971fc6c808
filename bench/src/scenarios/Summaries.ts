/**
 * Scenario 12: a form's summary `GET /api/forms/{id}/summary` at 1M
 * responses (seeded with SQL; 20k in a smoke run): the latency of sequential
 * requests (p50, p95) without filters (from the answer tallies) and with a
 * filter counted over the matching responses (`tag=vip`, 1% of the rows;
 * `stage=<first>`, about a quarter), against the floor: the minimal
 * hand-written way, one aggregate query per question straight on the
 * responses (no tallies, no HTTP), over the same rows.
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
        ctx.log(`[summary/${kind}] seeding ${count} responses with SQL (the tallies are kept by the triggers)`)
        const seeded = performance.now()
        await db.withQuery(async (query) => {
          await seedResponses(query, form, count, { stageIds, log: ctx.log })
          // What autovacuum does after a bulk insert; without statistics the planner takes a million rows for 200.
          await query("analyze responses")
        })
        const seedMs = performance.now() - seeded
        const server = await startQforms("standalone", db, { nodeArgs: ctx.qformsNodeArgs })
        const measured: Record<string, Timings> = {}
        try {
          const headers = { authorization: `Bearer ${server.key}` }
          for (const [name, query] of [
            ["tallies", ""],
            ["tag=vip", "?tag=vip"],
            ["stage", `?stage=${stageIds[0]}`]
          ] as const) {
            const url = `${server.base}/api/forms/${form.id}/summary${query}`
            const warm = await timedRequest(url, { headers })
            if (warm.status !== 200) throw new Error(`summary ${name} answered ${warm.status}`)
            const ms: Array<number> = []
            // The stage filter counts a quarter of the rows on each request: fewer requests.
            const n = name === "stage" ? Math.min(requests, 10) : requests
            for (let i = 0; i < n; i++) ms.push((await timedRequest(url, { headers })).ms)
            measured[name] = timings(ms)
            ctx.log(`  qforms ${name}: p50 ${fmtMs(measured[name].p50)} ms, p95 ${fmtMs(measured[name].p95)} ms`)
          }
        } finally {
          await server.proc.stop()
        }
        const floor: Record<string, Timings> = {}
        await db.withQuery(async (query) => {
          for (const [name, where, params] of [
            ["tallies", "workspace_id = $1 and form_id = $2", [form.workspaceId, form.id]],
            ["tag=vip", "workspace_id = $1 and form_id = $2 and tags @> array['vip']", [form.workspaceId, form.id]],
            ["stage", "workspace_id = $1 and form_id = $2 and stage_id = $3", [form.workspaceId, form.id, stageIds[0]]]
          ] as const) {
            await floorSummary(query, form, where, params)
            const ms: Array<number> = []
            const n = name === "tallies" ? Math.min(requests, 10) : name === "stage" ? Math.min(requests, 10) : requests
            for (let i = 0; i < n; i++) {
              const started = performance.now()
              await floorSummary(query, form, where, params)
              ms.push(performance.now() - started)
            }
            floor[name] = timings(ms)
            ctx.log(`  floor ${name}: p50 ${fmtMs(floor[name].p50)} ms, p95 ${fmtMs(floor[name].p95)} ms`)
          }
        })
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
            target: name === "tallies" && count >= 1_000_000 ? "< 500 ms p95 (PostgreSQL)" : "—",
            met: name === "tallies" && count >= 1_000_000 ? q.p95 < 500 : undefined
          })
        }
        raw[kind] = { count, seedMs, qforms: measured, floor }
      } finally {
        await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        `Rows seeded with generate_series (not the API) on the bench form (name, e-mail, a select, a rating, a long ` +
          `text); the triggers of migration 0029 keep the tallies as the rows go in. ${requests} sequential requests ` +
          "per case after one warm-up, from a freshly started standalone; the whole answer (totals, funnel, every " +
          "question, the latest 10 texts and the frequent words of the latest 1,000 per text question). The floor " +
          "runs, on one connection of its own and without HTTP, the queries a hand-written summary of the same form " +
          "needs straight on the responses: choice counts, the rating's count, mean and quartiles and its " +
          "distribution, and per text question its count and latest 10 (no frequent words); ratio = floor p95 / " +
          "qforms p95. 1M rows run on PostgreSQL only (the smoke run also uses PGlite)."
      ]
    }
  }
}
