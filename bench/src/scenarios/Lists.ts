/**
 * Scenario 5: the whole `flat=1` list of 10k and 100k responses (seeded with
 * SQL): time to the last byte and the server's peak RSS (VmHWM), each size on
 * a freshly started server so the peaks are comparable.
 */
import * as Db from "../lib/Db.ts"
import { median, timedRequest } from "../lib/Load.ts"
import { memory, sampleRss } from "../lib/Proc.ts"
import { type Context, fmtMb, fmtMbDelta, fmtMs, type Row, type Scenario } from "../lib/Scenario.ts"
import { seedResponses } from "../lib/Seed.ts"
import { type BenchForm, createForm, type Server, stagesOf, startQforms } from "../lib/Servers.ts"

interface Measured {
  readonly count: number
  readonly ms: Array<number>
  readonly bytes: number
  readonly rows: number
  readonly idleRss: number
  /** The peak of VmRSS sampled every 20 ms while the lists were read. */
  readonly peakRss: number
  /** VmHWM before and after the requests (the start-up peak may be above both). */
  readonly hwmBefore: number
  readonly hwm: number
}

/** Counts `"submittedAt"` keys across chunk boundaries: the rows in the list. */
const rowCounter = () => {
  let tail = ""
  let rows = 0
  return {
    onChunk: (chunk: Buffer) => {
      const text = tail + chunk.toString("latin1")
      rows += text.split(`"submittedAt"`).length - 1
      tail = text.slice(-15)
      // a key cut at the boundary is counted once: drop a complete key from the tail
      if (tail.includes(`"submittedAt"`)) tail = ""
    },
    rows: () => rows
  }
}

const measure = async (ctx: Context, db: Db.DbTarget, form: BenchForm, count: number, repeats: number) => {
  const server: Server = await startQforms("standalone", db, { nodeArgs: ctx.qformsNodeArgs })
  try {
    await new Promise((resolve) => setTimeout(resolve, 500))
    const { rss: idleRss, hwm: hwmBefore } = memory(server.proc.pid)
    const sampler = sampleRss(server.proc.pid, 20)
    const ms: Array<number> = []
    let bytes = 0
    let rows = 0
    for (let i = 0; i < repeats; i++) {
      const counter = rowCounter()
      const result = await timedRequest(`${server.base}/api/forms/${form.id}/responses?flat=1`, {
        headers: { authorization: `Bearer ${server.key}` },
        onChunk: counter.onChunk
      })
      if (result.status !== 200) throw new Error(`list of ${count} answered ${result.status}`)
      ms.push(result.ms)
      bytes = result.bytes
      rows = counter.rows()
      ctx.log(
        `  ${count.toLocaleString("en-US")} rows: ${fmtMs(result.ms)} ms, ${fmtMb(result.bytes)} body, ${rows} rows`
      )
    }
    const peakRss = sampler.stop()
    const hwm = memory(server.proc.pid).hwm
    return { count, ms, bytes, rows, idleRss, peakRss, hwmBefore, hwm } satisfies Measured
  } finally {
    await server.proc.stop()
  }
}

export const lists: Scenario = {
  name: "lists",
  title: "5. Large lists: the whole flat=1 list of 10k and 100k responses",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    const [small, large] = ctx.smoke ? [1_000, 10_000] : [10_000, 100_000]
    const repeats = ctx.smoke ? 1 : 3
    for (const kind of ctx.dbs) {
      const db = Db.make(kind, "lists")
      try {
        ctx.log(`[lists/${kind}] setting up two forms`)
        const setup = await startQforms("standalone", db)
        const formSmall = await createForm(setup, `${small} responses`)
        const formLarge = await createForm(setup, `${large} responses`)
        const stagesSmall = await stagesOf(setup, formSmall.id)
        const stagesLarge = await stagesOf(setup, formLarge.id)
        // PGlite: one process at a time holds the data directory.
        await setup.proc.stop()
        ctx.log(`[lists/${kind}] seeding ${small} + ${large} responses with SQL`)
        const seeded = performance.now()
        await db.withQuery(async (query) => {
          await seedResponses(query, formSmall, small, { stageIds: stagesSmall })
          await seedResponses(query, formLarge, large, { stageIds: stagesLarge, log: ctx.log })
          // Statistics, as autovacuum would gather them soon after (as scenarios 6, 11 and 12 do): without them the
          // planner misjudges the list's keyset pages on freshly loaded rows.
          await query("analyze responses")
        })
        const seedMs = performance.now() - seeded
        const a = await measure(ctx, db, formSmall, small, repeats)
        const b = await measure(ctx, db, formLarge, large, repeats)
        const growth = b.peakRss - a.peakRss
        const label = (n: number) => `${n >= 1000 ? `${n / 1000}k` : n}`
        for (const m of [a, b]) {
          rows.push({
            scenario: `5. list flat=1, ${label(m.count)} responses`,
            db: kind,
            qforms: `${fmtMs(median(m.ms))} ms (${fmtMb(m.bytes)}, ${m.rows.toLocaleString("en-US")} rows)`,
            baseline: "—",
            ratio: "—",
            latency: `${fmtMs(median(m.ms))} ms to the last byte`,
            peakRss: `${fmtMb(m.peakRss)} (idle ${fmtMb(m.idleRss)}; VmHWM ${fmtMb(m.hwm)})`,
            target: "—",
            met: m.rows === m.count ? undefined : false
          })
        }
        rows.push({
          scenario: `5. peak RSS growth ${label(small)} → ${label(large)}`,
          db: kind,
          qforms: fmtMbDelta(growth),
          baseline: "—",
          ratio: "—",
          latency: "—",
          peakRss: `${fmtMb(a.peakRss)} → ${fmtMb(b.peakRss)}`,
          target: "< 50 MB",
          met: growth < 50 * 1048576
        })
        raw[kind] = { small: a, large: b, growth, seedMs }
      } finally {
        await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        "Rows seeded with generate_series (not the API), then ANALYZE; each size is listed on a freshly started standalone " +
          `(${repeats} request(s), median time); peak RSS is the highest VmRSS sampled every 20 ms while the lists were read ` +
          "(VmHWM also shown: on PGlite it is set at start-up, above anything a list adds)."
      ]
    }
  }
}
