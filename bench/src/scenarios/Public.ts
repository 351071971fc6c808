/**
 * The public form page's hot paths, on the qforms standalone:
 * - `POST /f/{publicId}/responses` (`{"values": {...}}`, five questions, a new
 *   respondent each time, no page token) against the minimal floor's route
 *   (baselines/MinimalServer.ts: the form by public id with its questions in
 *   one query, the checks, one transaction); PostgreSQL only for the floor,
 *   on PGlite the qforms figure stands alone.
 * - `GET /f/{publicId}` (the server-rendered welcome screen with a signed
 *   token) against the minimal floor's page (the same query, a small HTML
 *   screen with an HMAC-signed start).
 *
 * The page limits submissions per client address (10 a minute by default)
 * and every load comes from 127.0.0.1, so the standalone is started with
 * `QFORMS_FORM_SUBMISSIONS_PER_MINUTE` far above what a run sends: the figure
 * is the server's, not the limiter's (the limiter's `take` still runs on every
 * submission). Without a token the minimum-time check does not apply.
 */
import * as Db from "../lib/Db.ts"
import type { LoadOptions } from "../lib/Load.ts"
import { alternate, type Context, floorRow, type Row, type Scenario } from "../lib/Scenario.ts"
import { type BenchForm, createForm, type Server, startBaseline, startQforms, submission } from "../lib/Servers.ts"

/** Far above any run's submissions (the limiter refills at this / 60 a second, burst the same). */
export const unlimitedSubmissions = { QFORMS_FORM_SUBMISSIONS_PER_MINUTE: "6000000000" }

export const publicSubmitOptions =
  (form: BenchForm) =>
  (server: Server): LoadOptions => ({
    url: `${server.base}/f/${form.publicId}/responses`,
    method: "POST",
    body: (n: number) => submission(form, n)
  })

export const pageOptions =
  (form: BenchForm) =>
  (server: Server): LoadOptions => ({
    url: `${server.base}/f/${form.publicId}`,
    headers: { accept: "text/html" }
  })

/** Fails the scenario unless one request answers `status` with a body `check` accepts (a refusal must not be measured). */
export const expectAnswer = async (
  what: string,
  url: string,
  init: RequestInit,
  status: number,
  check: (body: string) => boolean
) => {
  const response = await fetch(url, init)
  const body = await response.text()
  if (response.status !== status || !check(body)) {
    throw new Error(
      `${what}: ${init.method ?? "GET"} ${url} answered ${response.status}, expected ${status}: ${body.slice(0, 300)}`
    )
  }
}

export const publicPage: Scenario = {
  name: "public",
  title: "8–9. Public page: POST /f/{publicId}/responses and GET /f/{publicId} vs the minimal floor",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    for (const kind of ctx.dbs) {
      const db = Db.make(kind, "public")
      const servers: Array<Server> = []
      try {
        ctx.log(`[public/${kind}] starting qforms standalone${kind === "pg" ? " and the floor" : ""}`)
        const qforms = await startQforms("standalone", db, { nodeArgs: ctx.qformsNodeArgs, env: unlimitedSubmissions })
        servers.push(qforms)
        const form = await createForm(qforms)
        const systems = [{ label: "qforms", server: qforms }]
        if (kind === "pg") {
          const floor = await startBaseline(db, qforms.key, "minimal")
          servers.push(floor)
          systems.push({ label: "floor", server: floor })
        }
        for (const { server } of systems) {
          const options = publicSubmitOptions(form)(server)
          await expectAnswer(
            `public submit (${server.name})`,
            options.url,
            { method: "POST", headers: { "content-type": "application/json" }, body: submission(form, 0) },
            201,
            (body) => Number.isInteger((JSON.parse(body) as { id?: unknown }).id)
          )
        }
        await expectAnswer(
          `public page`,
          `${qforms.base}/f/${form.publicId}`,
          {},
          200,
          (body) => body.includes("Contact us") && body.includes("token")
        )

        ctx.log(`[public/${kind}] submit`)
        const submit = await alternate(ctx, systems, publicSubmitOptions(form))
        rows.push(floorRow("8. public submit (POST /f/{publicId}/responses)", kind, submit[0]!, submit[1], 1.0))

        ctx.log(`[public/${kind}] page`)
        const get = await alternate(ctx, systems, pageOptions(form))
        rows.push(floorRow("9. public page (GET /f/{publicId})", kind, get[0]!, get[1], 1.5))
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
        `${ctx.connections} connections. Public submit: \`{"values": {...}}\` without a page token (so no minimum-time check), ` +
          `each a new respondent; the standalone runs with QFORMS_FORM_SUBMISSIONS_PER_MINUTE=6000000000 because every ` +
          `request comes from 127.0.0.1 and the default (10 a minute per client address) would answer 429 after ten: ` +
          `the figure measures the server, with the limiter's bookkeeping still on the path. The minimal floor (PostgreSQL, ` +
          `baselines/MinimalServer.ts) selects the form by public id with its questions in one query, checks the answers, ` +
          `runs its one submit transaction and answers 201 {"id"}, like qforms.`,
        `Public page: GET /f/{publicId} renders the welcome screen with a freshly signed answer token (HMAC); the floor ` +
          `renders a small HTML screen from the same query (title, description, a start button with an HMAC-signed time).`
      ]
    }
  }
}
