/**
 * Scenario 7: footprint. Standalone cold start (spawn to the first 200 of
 * /readyz) on a fresh database (migrations and first-start workspace
 * included) and on an existing one; idle RSS after start.
 */
import * as Db from "../lib/Db.ts"
import { median } from "../lib/Load.ts"
import { memory, sleep } from "../lib/Proc.ts"
import { type Context, fmtMb, fmtMs, type Row, type Scenario } from "../lib/Scenario.ts"
import { createForm, startQforms } from "../lib/Servers.ts"

export const footprint: Scenario = {
  name: "footprint",
  title: "7. Footprint: standalone cold start to /readyz and idle RSS",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    const starts = ctx.smoke ? 1 : 5
    for (const kind of ctx.dbs) {
      const db = Db.make(kind, "footprint")
      try {
        ctx.log(`[footprint/${kind}] fresh start`)
        const first = await startQforms("standalone", db)
        const fresh = first.startMs
        await createForm(first)
        await first.proc.stop()
        const existing: Array<number> = []
        const idle: Array<number> = []
        for (let i = 0; i < starts; i++) {
          const server = await startQforms("standalone", db)
          existing.push(server.startMs)
          await sleep(ctx.smoke ? 500 : 3000)
          idle.push(memory(server.proc.pid).rss)
          await server.proc.stop()
        }
        ctx.log(
          `  fresh ${fmtMs(fresh)} ms; existing ${existing.map(fmtMs).join(", ")} ms; idle ${idle.map(fmtMb).join(", ")}`
        )
        const existingMs = median(existing)
        const idleRss = median(idle)
        rows.push({
          scenario: "7. cold start to /readyz, fresh database",
          db: kind,
          qforms: `${fmtMs(fresh)} ms`,
          baseline: "—",
          ratio: "—",
          latency: "—",
          peakRss: "—",
          target: "—",
          met: undefined
        })
        rows.push({
          scenario: `7. cold start to /readyz, existing database (median of ${starts})`,
          db: kind,
          qforms: `${fmtMs(existingMs)} ms`,
          baseline: "—",
          ratio: "—",
          latency: `min ${fmtMs(Math.min(...existing))} / max ${fmtMs(Math.max(...existing))} ms`,
          peakRss: "—",
          target: kind === "pglite" ? "< 1000 ms" : "—",
          met: kind === "pglite" ? existingMs < 1000 : undefined
        })
        rows.push({
          scenario: "7. idle RSS after start",
          db: kind,
          qforms: fmtMb(idleRss),
          baseline: "—",
          ratio: "—",
          latency: "—",
          peakRss: fmtMb(idleRss),
          target: "< 150 MB",
          met: idleRss < 150 * 1048576
        })
        raw[kind] = { fresh, existing, idle }
      } finally {
        await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        "Cold start: from spawning `node --conditions=source examples/standalone/src/main.ts` (TypeScript sources, type-stripped) " +
          "to the first 200 of /readyz. Idle RSS: VmRSS a few seconds after start, delivery worker on."
      ]
    }
  }
}
