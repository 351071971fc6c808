/**
 * Scenario 6: search at scale on PostgreSQL. 1M responses seeded with
 * generate_series (indexes dropped during the load and rebuilt from their own
 * definitions), then `q`, `tag`, `stage` and date filters (p95 of sequential
 * requests, first page of 50), and the submit cost at 1M rows against a
 * schema holding 1k rows (two standalones, alternated).
 */
import * as Db from "../lib/Db.ts"
import { median, percentile, timedRequest } from "../lib/Load.ts"
import {
  alternate,
  type Context,
  fmtLatency,
  fmtMb,
  fmtMs,
  fmtRate,
  fmtRatio,
  medianRatio,
  type Row,
  type Scenario
} from "../lib/Scenario.ts"
import { seedResponses, seededSurname } from "../lib/Seed.ts"
import { type BenchForm, createForm, type Server, stagesOf, startQforms } from "../lib/Servers.ts"
import { submitOptions } from "./Api.ts"

const seedWithoutIndexes = async (
  ctx: Context,
  db: Db.DbTarget,
  form: BenchForm,
  count: number,
  stageIds: Array<number>
) =>
  db.withQuery(async (query) => {
    const indexes = await query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes
       where schemaname = $1 and tablename = 'responses' and indexname not like '%_pkey'`,
      [db.schema]
    )
    for (const index of indexes) await query(`drop index "${db.schema}"."${index.name}"`)
    await seedResponses(query, form, count, { stageIds, log: ctx.log })
    await query(`set maintenance_work_mem = '512MB'`)
    for (const index of indexes) {
      const started = performance.now()
      await query(index.def)
      ctx.log(`    rebuilt ${index.name} in ${fmtMs(performance.now() - started)} ms`)
    }
    await query(`analyze responses`)
  })

export const search: Scenario = {
  name: "search",
  title: "6. Search at scale (PostgreSQL): filters over 1M responses, submit at 1M vs 1k rows",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    if (!ctx.dbs.includes("pg")) {
      return { rows, raw, notes: ["Skipped: PostgreSQL only (set DATABASE_URL)."] }
    }
    const count = ctx.smoke ? 10_000 : 1_000_000
    const smallCount = 1_000
    const repeats = ctx.smoke ? 5 : 60
    const big = Db.make("pg", "search_big")
    const small = Db.make("pg", "search_small")
    const servers: Array<Server> = []
    try {
      ctx.log(`[search/pg] starting two standalones (${count} and ${smallCount} rows)`)
      const bigServer = await startQforms("standalone", big, { nodeArgs: ctx.qformsNodeArgs })
      servers.push(bigServer)
      const smallServer = await startQforms("standalone", small, { nodeArgs: ctx.qformsNodeArgs })
      servers.push(smallServer)
      const bigForm = await createForm(bigServer)
      const smallForm = await createForm(smallServer)
      const bigStages = await stagesOf(bigServer, bigForm.id)
      ctx.log(`[search/pg] seeding ${count.toLocaleString("en-US")} responses`)
      const seeded = performance.now()
      await seedWithoutIndexes(ctx, big, bigForm, count, bigStages)
      const seedMs = performance.now() - seeded
      await small.withQuery((query) => seedResponses(query, smallForm, smallCount, { stageIds: [] }))
      ctx.log(`[search/pg] seeded in ${Math.round(seedMs / 1000)} s`)

      const week = (weeksAgo: number) => new Date(Date.now() - weeksAgo * 7 * 86_400_000).toISOString()
      const queries: Array<[string, string]> = [
        [`q (1 row in 200: "${seededSurname}")`, `q=${seededSurname}`],
        [`q (1 row in 10: "dijkstra")`, `q=dijkstra`],
        [`q (one e-mail)`, `q=user${Math.floor(count * 0.77)}%40example`],
        [`q (no match)`, `q=zzzqqqxxx`],
        [`tag (1 row in 100)`, `tag=vip`],
        [`stage`, `stage=${bigStages[1] ?? 1}`],
        [`stage=none`, `stage=none`],
        [`date range (one week, 20 weeks ago)`, `from=${week(21)}&to=${week(20)}`],
        [`q + stage + tag`, `q=${seededSurname}&stage=${bigStages[0] ?? 1}&tag=follow-up`]
      ]
      const search: Record<string, unknown> = {}
      for (const [label, params] of queries) {
        const url = `${bigServer.base}/api/forms/${bigForm.id}/responses?limit=50&${params}`
        const headers = { authorization: `Bearer ${bigServer.key}` }
        for (let i = 0; i < Math.min(5, repeats); i++) await timedRequest(url, { headers })
        const times: Array<number> = []
        for (let i = 0; i < repeats; i++) {
          const result = await timedRequest(url, { headers })
          if (result.status !== 200) throw new Error(`${label}: ${result.status}`)
          times.push(result.ms)
        }
        const p50 = median(times)
        const p95 = percentile(times, 95)
        const p99 = percentile(times, 99)
        ctx.log(`  ${label}: p50 ${fmtMs(p50)} p95 ${fmtMs(p95)} ms`)
        search[label] = { params, times }
        rows.push({
          scenario: `6. search, ${label}, first 50`,
          db: "pg",
          qforms: `p95 ${fmtMs(p95)} ms`,
          baseline: "—",
          ratio: "—",
          latency: fmtLatency(p50, p99),
          peakRss: "—",
          target: "p95 < 50 ms",
          met: p95 < 50
        })
      }
      ctx.log(`[search/pg] submit at ${count} vs ${smallCount} rows`)
      const submit = await alternate(
        ctx,
        [
          { label: "1M", server: bigServer },
          { label: "1k", server: smallServer }
        ],
        (server) => submitOptions(server === bigServer ? bigForm : smallForm)(server)
      )
      const ratio = medianRatio(submit[0]!, submit[1]!)
      rows.push({
        scenario: `6. submit at ${count >= 1e6 ? `${count / 1e6}M` : `${count / 1e3}k`} rows vs ${smallCount / 1e3}k rows`,
        db: "pg",
        qforms: fmtRate(submit[0]!.rps),
        baseline: `${fmtRate(submit[1]!.rps)} (1k rows)`,
        ratio: fmtRatio(ratio),
        latency: `${fmtLatency(submit[0]!.p50, submit[0]!.p99)} (1k: ${fmtLatency(submit[1]!.p50, submit[1]!.p99)})`,
        peakRss: `${fmtMb(submit[0]!.peakRss)} (1k: ${fmtMb(submit[1]!.peakRss)})`,
        target: "≥ 0.90× (within 10%)",
        met: ratio >= 0.9
      })
      raw.pg = { count, seedMs, search, submit }
    } finally {
      for (const server of servers) await server.proc.stop()
      await big.cleanup()
      await small.cleanup()
    }
    return {
      rows,
      raw,
      notes: [
        `${count.toLocaleString("en-US")} responses in one form, seeded with generate_series (indexes rebuilt after the load, then ANALYZE); ` +
          `each filter is asked ${repeats} times in a row (after 5 warm-up requests) with limit=50, the first page a person would see.`
      ]
    }
  }
}
