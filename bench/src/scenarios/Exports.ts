/**
 * Scenario 11: the XLSX export `GET /api/forms/{id}/responses.xlsx` of 100k
 * responses (seeded with SQL): time to the last byte and the server's RSS
 * growth (the peak of VmRSS while exporting, over the RSS at rest after a
 * first small export on a freshly started server), against the floor: a
 * minimal hand-written writer (sheet XML as strings, one DEFLATE stream, a
 * ZIP with data descriptors) fed directly with the same rows made in memory
 * (`baselines/XlsxFloor.ts`), measured the same way.
 */
import * as Db from "../lib/Db.ts"
import { median, timedRequest } from "../lib/Load.ts"
import { memory, sampleRss, sleep, spawnNode } from "../lib/Proc.ts"
import { type Context, fmtMb, fmtMbDelta, fmtMs, fmtRatio, type Row, type Scenario } from "../lib/Scenario.ts"
import { seedResponses } from "../lib/Seed.ts"
import { type BenchForm, createForm, stagesOf, startQforms } from "../lib/Servers.ts"

interface Measured {
  readonly ms: Array<number>
  readonly bytes: number
  /** VmRSS of the process at rest before anything was exported. */
  readonly idleRss: number
  /** VmRSS at rest after a first export of a few rows (the path warm). */
  readonly warmRss: number
  /** The peak of VmRSS sampled every 20 ms during the large exports. */
  readonly peakRss: number
}

/** The zip's local file header: an XLSX starts with `PK\x03\x04`. */
const isZip = (first: Buffer | undefined) => first !== undefined && first.readUInt32LE(0) === 0x04034b50

const measureQforms = async (ctx: Context, db: Db.DbTarget, form: BenchForm, count: number, repeats: number) => {
  const server = await startQforms("standalone", db, { nodeArgs: ctx.qformsNodeArgs })
  const url = `${server.base}/api/forms/${form.id}/responses.xlsx`
  const headers = { authorization: `Bearer ${server.key}` }
  try {
    await sleep(500)
    const idleRss = memory(server.proc.pid).rss
    // A first export of 1% of the rows (tag `vip`): the path warm.
    const warm = await timedRequest(`${url}?tag=vip`, { headers })
    if (warm.status !== 200) throw new Error(`XLSX warm-up answered ${warm.status}`)
    await sleep(1_000)
    const warmRss = memory(server.proc.pid).rss
    const sampler = sampleRss(server.proc.pid, 20)
    const ms: Array<number> = []
    let bytes = 0
    for (let i = 0; i < repeats; i++) {
      let first: Buffer | undefined
      const result = await timedRequest(url, {
        headers,
        onChunk: (chunk) => {
          first ??= chunk
        }
      })
      if (result.status !== 200 || !isZip(first)) throw new Error(`XLSX of ${count} answered ${result.status}`)
      ms.push(result.ms)
      bytes = result.bytes
      ctx.log(`  qforms: ${count.toLocaleString("en-US")} rows in ${fmtMs(result.ms)} ms, ${fmtMb(result.bytes)}`)
    }
    return { ms, bytes, idleRss, warmRss, peakRss: sampler.stop() } satisfies Measured
  } finally {
    await server.proc.stop()
  }
}

const measureFloor = async (ctx: Context, count: number, repeats: number) => {
  const ms: Array<number> = []
  let bytes = 0
  let worst: { idleRss: number; warmRss: number; peakRss: number } | undefined
  for (let i = 0; i < repeats; i++) {
    const proc = spawnNode({
      name: "xlsx-floor",
      script: "bench/src/baselines/XlsxFloor.ts",
      env: { XLSX_ROWS: String(count) }
    })
    try {
      await proc.waitFor(/^ready$/m)
      await sleep(300)
      const idleRss = memory(proc.pid).rss
      await proc.waitFor(/^warm$/m)
      await sleep(500)
      const warmRss = memory(proc.pid).rss
      const sampler = sampleRss(proc.pid, 20)
      const [, json] = await proc.waitFor(/^done (.*)$/m, 600_000)
      const peakRss = sampler.stop()
      const done = JSON.parse(json!) as { rows: number; bytes: number; ms: number }
      ms.push(done.ms)
      bytes = done.bytes
      // The run with the largest growth: the floor's worst.
      if (worst === undefined || peakRss - warmRss > worst.peakRss - worst.warmRss)
        worst = { idleRss, warmRss, peakRss }
      ctx.log(`  floor: ${count.toLocaleString("en-US")} rows in ${fmtMs(done.ms)} ms, ${fmtMb(done.bytes)}`)
    } finally {
      await proc.stop()
    }
  }
  return { ms, bytes, ...worst! } satisfies Measured
}

export const xlsxExport: Scenario = {
  name: "xlsx",
  title: "11. XLSX export of 100k responses: time and RSS growth, against a hand-written writer fed from memory",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    const count = ctx.smoke ? 5_000 : 100_000
    const repeats = ctx.smoke ? 1 : 3
    const label = `${count / 1000}k`
    const floor = await measureFloor(ctx, count, repeats)
    for (const kind of ctx.dbs) {
      const db = Db.make(kind, "xlsx")
      try {
        ctx.log(`[xlsx/${kind}] setting up a form`)
        const setup = await startQforms("standalone", db)
        const form = await createForm(setup, `${count} responses`)
        const stageIds = await stagesOf(setup, form.id)
        // PGlite: one process at a time holds the data directory.
        await setup.proc.stop()
        ctx.log(`[xlsx/${kind}] seeding ${count} responses with SQL`)
        await db.withQuery(async (query) => {
          await seedResponses(query, form, count, { stageIds, log: ctx.log })
          // Statistics, as autovacuum would gather them soon after: without them the planner takes each keyset
          // page (`order by submitted_at desc, id desc limit 500` after a cursor) for one row and answers it with a
          // bitmap scan and a sort of every row after the cursor (PostgreSQL: ~60 ms a page, 200 pages).
          await query("analyze responses")
        })
        const qforms = await measureQforms(ctx, db, form, count, repeats)
        const growth = qforms.peakRss - qforms.warmRss
        const floorGrowth = floor.peakRss - floor.warmRss
        rows.push({
          scenario: `11. XLSX export, ${label} responses`,
          db: kind,
          qforms: `${fmtMs(median(qforms.ms))} ms (${fmtMb(qforms.bytes)})`,
          baseline: `${fmtMs(median(floor.ms))} ms (hand-written from memory, ${fmtMb(floor.bytes)})`,
          ratio: fmtRatio(median(floor.ms) / median(qforms.ms)),
          latency: `${fmtMs(median(qforms.ms))} ms to the last byte`,
          peakRss: `${fmtMb(qforms.peakRss)} (idle ${fmtMb(qforms.idleRss)}, after a first export ${fmtMb(qforms.warmRss)})`,
          target: "—",
          met: undefined
        })
        rows.push({
          scenario: `11. XLSX export RSS growth, ${label} responses`,
          db: kind,
          qforms: fmtMbDelta(growth),
          baseline: `${fmtMbDelta(floorGrowth)} (hand-written from memory)`,
          ratio: "—",
          latency: "—",
          peakRss: `${fmtMb(qforms.warmRss)} → ${fmtMb(qforms.peakRss)} (floor ${fmtMb(floor.warmRss)} → ${fmtMb(floor.peakRss)})`,
          target: "< 50 MB",
          met: growth < 50 * 1048576
        })
        raw[kind] = { count, qforms, floor, growth, floorGrowth }
      } finally {
        await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        "Rows seeded with generate_series (not the API) on the bench form (5 questions: 13 columns); the export is read " +
          `by the harness as fast as it comes (${repeats} request(s), median time) from a freshly started standalone. ` +
          "RSS growth: the highest VmRSS sampled every 20 ms during the exports over the RSS at rest after a first " +
          "export of 1% of the rows (`tag=vip`: exceljs loaded, about +20–40 MB once per process; the idle RSS before " +
          "it is shown too). The floor writes the same columns and cell types with exceljs's " +
          "streaming writer from rows made in memory into a writable that drops the bytes, in its own process, measured " +
          "the same way; ratio = floor time / qforms time.",
        "What grows is garbage, not kept data: with `--memory` (PostgreSQL, 2026-11-26) the V8 old space rose from " +
          "45 MB to 121 MB during the first 100k export and fell back to 45 MB at the next mark-compact, while " +
          "`external` stayed at 12–15 MB (the zip's buffers bounded by the writer's waits); exceljs makes objects per " +
          "cell (row, cell, style, address) that outlive young-generation collections, and the process does not hand " +
          "the freed pages back at once, so VmRSS keeps the peak."
      ]
    }
  }
}
