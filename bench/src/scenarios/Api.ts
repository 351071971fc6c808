/**
 * Scenarios 1 and 2: `POST /api/forms/{id}/responses` (five questions, a new
 * respondent each time, and 1c the same respondent again and again) and
 * `GET /api/forms/{id}` with key auth, qforms
 * standalone against two hand-written node:http + pg floors, side by side
 * (PostgreSQL only; on PGlite the qforms figure stands alone): the minimal
 * floor (only what the contract needs, on tables of its own: the baseline of
 * the targets) and the same-statements floor (qforms' own SQL on its schema:
 * what the framework costs over the statements, for explanation).
 */
import * as Db from "../lib/Db.ts"
import { alternate, type Context, floorRow, type Row, type Scenario } from "../lib/Scenario.ts"
import { type BenchForm, createForm, type Server, startBaseline, startQforms, submission } from "../lib/Servers.ts"

export const submitOptions =
  (form: BenchForm, sameRespondent = false) =>
  (server: Server) => ({
    url: `${server.base}/api/forms/${form.id}/responses`,
    method: "POST" as const,
    headers: { authorization: `Bearer ${server.key}` },
    body: (n: number) => submission(form, n, sameRespondent)
  })

export const getOptions = (form: BenchForm) => (server: Server) => ({
  url: `${server.base}/api/forms/${form.id}`,
  headers: { authorization: `Bearer ${server.key}` }
})

/** The embedded default's own target (issue #22): a submission's p99 under 250 ms at 50 connections on PGlite. */
const pgliteSubmitP99Ms = 250

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
          const minimal = await startBaseline(db, qforms.key, "minimal")
          servers.push(minimal)
          systems.push({ label: "minimal floor", server: minimal })
          const same = await startBaseline(db, qforms.key, "same-statements")
          servers.push(same)
          systems.push({ label: "same-statements floor", server: same })
        }
        ctx.log(`[api/${kind}] submit`)
        const submit = await alternate(ctx, systems, submitOptions(form))
        // The same person submitting again and again: their contact row is written by every submission.
        ctx.log(`[api/${kind}] submit, the same respondent`)
        const again = kind === "pg" ? await alternate(ctx, systems.slice(0, 2), submitOptions(form, true)) : undefined
        ctx.log(`[api/${kind}] get`)
        const get = await alternate(ctx, systems, getOptions(form))
        const submitRow = floorRow(
          "1. submit (POST /api/forms/{id}/responses) vs the minimal floor",
          kind,
          submit[0]!,
          submit[1],
          1.2
        )
        rows.push(
          kind === "pglite"
            ? {
                ...submitRow,
                target: `p99 < ${pgliteSubmitP99Ms} ms`,
                met: submit[0]!.p99 < pgliteSubmitP99Ms
              }
            : submitRow
        )
        rows.push(floorRow("2. GET /api/forms/{id} vs the minimal floor", kind, get[0]!, get[1], 1.5))
        if (again !== undefined)
          rows.push(
            floorRow("1c. submit, the same respondent each time, vs the minimal floor", kind, again[0]!, again[1], 1.0)
          )
        if (kind === "pg") {
          rows.push(floorRow("1b. submit vs the same-statements floor", kind, submit[0]!, submit[2], undefined))
          rows.push(floorRow("2b. GET vs the same-statements floor", kind, get[0]!, get[2], undefined))
        }
        raw[kind] = { submit, again, get }
      } finally {
        for (const server of servers) await server.proc.stop()
        await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        `${ctx.connections} connections; each submission is a new respondent (a new contact row), answers to five questions; pg pools of 10. ` +
          `The minimal floor (baselines/MinimalServer.ts, the baseline of the targets) does only what the contract needs on tables of its own: ` +
          `key by hash; form and questions in one query; checks; one transaction inserting the response (jsonb answers, search text under a trigram index), ` +
          `the event and its deliveries, bumping the form's counter, NOTIFY. The same-statements floor (baselines/PgServer.ts, rows 1b/2b) runs qforms' ` +
          `own statements on its schema (form for key share, questions, contact upsert, response, activity, event + deliveries + NOTIFY): ` +
          `what the framework costs over its SQL.`
      ]
    }
  }
}
