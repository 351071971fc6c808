/**
 * Scenarios 1 and 2: `POST /api/forms/{id}/responses` (five questions, a new
 * respondent each time) and `GET /api/forms/{id}` with key auth, qforms
 * standalone against the hand-written node:http + pg floor (PostgreSQL only;
 * on PGlite the qforms figure stands alone).
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
  type Scenario,
  type SystemRuns
} from "../lib/Scenario.ts"
import { type BenchForm, createForm, type Server, startBaseline, startQforms, submission } from "../lib/Servers.ts"

export const submitOptions = (form: BenchForm) => (server: Server) => ({
  url: `${server.base}/api/forms/${form.id}/responses`,
  method: "POST" as const,
  headers: { authorization: `Bearer ${server.key}` },
  body: (n: number) => submission(form, n)
})

export const getOptions = (form: BenchForm) => (server: Server) => ({
  url: `${server.base}/api/forms/${form.id}`,
  headers: { authorization: `Bearer ${server.key}` }
})

const row = (scenario: string, db: Db.DbKind, q: SystemRuns, b: SystemRuns | undefined, target: number): Row => {
  const ratio = b === undefined ? NaN : medianRatio(q, b)
  return {
    scenario,
    db,
    qforms: fmtRate(q.rps),
    baseline: b === undefined ? "— (PostgreSQL only)" : fmtRate(b.rps),
    ratio: fmtRatio(ratio),
    latency: b === undefined
      ? fmtLatency(q.p50, q.p99)
      : `${fmtLatency(q.p50, q.p99)} (floor ${fmtLatency(b.p50, b.p99)})`,
    peakRss: b === undefined ? fmtMb(q.peakRss) : `${fmtMb(q.peakRss)} (floor ${fmtMb(b.peakRss)})`,
    target: b === undefined ? "≥ 0.95× (PostgreSQL)" : `≥ ${target.toFixed(2)}×`,
    met: b === undefined ? undefined : ratio >= target
  }
}

export const api: Scenario = {
  name: "api",
  title: "1–2. Submit and GET /api/forms/{id}: qforms standalone vs hand-written node:http + pg",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    for (const kind of ctx.dbs) {
      const db = Db.make(kind, "api")
      const servers: Array<Server> = []
      try {
        ctx.log(`[api/${kind}] starting qforms standalone${kind === "pg" ? " and the floor" : ""}`)
        const qforms = await startQforms("standalone", db, { nodeArgs: ctx.qformsNodeArgs })
        servers.push(qforms)
        const form = await createForm(qforms)
        const systems = [{ label: "qforms", server: qforms }]
        if (kind === "pg") {
          const floor = await startBaseline(db, qforms.key)
          servers.push(floor)
          systems.push({ label: "floor", server: floor })
        }
        ctx.log(`[api/${kind}] submit`)
        const submit = await alternate(ctx, systems, submitOptions(form))
        ctx.log(`[api/${kind}] get`)
        const get = await alternate(ctx, systems, getOptions(form))
        rows.push(row("1. submit (POST /api/forms/{id}/responses)", kind, submit[0]!, submit[1], 0.95))
        rows.push(row("2. GET /api/forms/{id}", kind, get[0]!, get[1], 0.95))
        raw[kind] = { submit, get }
      } finally {
        for (const server of servers) await server.proc.stop()
        await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        `${ctx.connections} connections; each submission is a new respondent (a new contact row), answers to five questions; ` +
          `the floor runs the same statements as qforms (key by hash, then one transaction: form for key share, ` +
          `questions, contact upsert, response, sharded count, activity, event + deliveries + NOTIFY) on qforms' own schema, pg pool of 10.`
      ]
    }
  }
}
