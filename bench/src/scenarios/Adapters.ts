/**
 * Scenario 3: the submit and get scenarios through hosts that mount qforms
 * with @qforms/node-http, @qforms/h3 and @qforms/express (under
 * /forms-service, set up like the example hosts), against the standalone.
 */
import * as Db from "../lib/Db.ts"
import {
  alternate,
  type Context,
  fmtLatency,
  fmtMb,
  fmtRate,
  fmtRatio,
  medianRatio,
  type Row,
  type Scenario
} from "../lib/Scenario.ts"
import { type BenchForm, createForm, type QformsKind, type Server, startQforms } from "../lib/Servers.ts"
import { getOptions, submitOptions } from "./Api.ts"

const hosts: ReadonlyArray<QformsKind> = ["node-http", "h3", "express"]

export const adapters: Scenario = {
  name: "adapters",
  title: "3. Adapters: node-http, h3 and express hosts vs the standalone",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    for (const kind of ctx.dbs) {
      const dbs: Array<Db.DbTarget> = []
      const servers: Array<Server> = []
      try {
        const forms = new Map<Server, BenchForm>()
        const kinds = ["standalone", ...hosts] as const
        ctx.log(`[adapters/${kind}] starting ${kinds.join(", ")}`)
        for (const host of kinds) dbs.push(Db.make(kind, `adapters_${host.replace("-", "")}`))
        // Started together (PGlite's first start spends seconds migrating); kept in this order.
        const started = await Promise.allSettled(
          kinds.map((host, index) => startQforms(host, dbs[index]!, { nodeArgs: ctx.qformsNodeArgs }))
        )
        for (const result of started) if (result.status === "fulfilled") servers.push(result.value)
        const failed = started.find((result) => result.status === "rejected")
        if (failed !== undefined) throw (failed as PromiseRejectedResult).reason
        for (const server of servers) forms.set(server, await createForm(server))
        const systems = servers.map((server) => ({ label: server.name, server }))
        for (const [endpoint, options] of [
          ["submit", submitOptions],
          ["get", getOptions]
        ] as const) {
          ctx.log(`[adapters/${kind}] ${endpoint}`)
          const results = await alternate(ctx, systems, (server) => options(forms.get(server)!)(server))
          const standalone = results[0]!
          raw[`${kind}/${endpoint}`] = results
          for (const host of results.slice(1)) {
            const ratio = medianRatio(host, standalone)
            rows.push({
              scenario: `3. ${endpoint} via @qforms/${host.label}`,
              db: kind,
              qforms: fmtRate(host.rps),
              baseline: `${fmtRate(standalone.rps)} (standalone)`,
              ratio: fmtRatio(ratio),
              latency: `${fmtLatency(host.p50, host.p99)} (standalone ${fmtLatency(standalone.p50, standalone.p99)})`,
              peakRss: `${fmtMb(host.peakRss)} (standalone ${fmtMb(standalone.peakRss)})`,
              target: "≥ 0.90×",
              met: ratio >= 0.9
            })
          }
        }
      } finally {
        for (const server of servers) await server.proc.stop()
        for (const db of dbs) await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        "Each host is a bench/src/hosts/Host.ts process with its own database, qforms mounted under /forms-service " +
          "(express: `express.json()` before it, as in examples/express-host; h3: `serve` with crossws, as in examples/h3-host). " +
          "The four servers are measured in turn, round after round; the ratio is the median of host/standalone per round."
      ]
    }
  }
}
