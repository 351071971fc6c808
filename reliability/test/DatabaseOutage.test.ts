/**
 * Scenario 3, database outage (PostgreSQL, on a database of its own): under a
 * submission load the database stops taking connections and the server's are
 * cut. Requests fail fast with 503 `{error}`, the server recovers without a
 * restart, and no response is without its event (or the reverse).
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  freshDatabase,
  percentile,
  postgresUrl,
  publishedForm,
  query,
  receiver,
  record,
  responseIntegrity,
  round,
  sleep,
  startFresh,
  subscribeHook,
  type Receiver,
  type ServerProcess,
  waitUntil
} from "./support/Harness.ts"

const CLIENTS = 20
const OUTAGE_MS = 5_000

describe.skipIf(postgresUrl === undefined)("database outage on postgres", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined
  let server: ServerProcess | undefined
  let hook: Receiver | undefined
  afterAll(async () => {
    await server?.stop()
    await hook?.close()
    await database?.drop()
  })

  it("503 while the database is away, recovery without restart, no partial writes", async () => {
    database = await freshDatabase(postgresUrl!)
    hook = await receiver()
    const started = await startFresh({
      name: "postgres",
      env: { DATABASE_URL: database.url, QFORMS_DB_SCHEMA: "qforms" },
      cleanup: async () => {}
    })
    server = started.server
    const { url, key } = started
    const form = await publishedForm(url, key)
    expect((await subscribeHook(url, key, form.formId, hook.url)).status).toBe(201)

    interface Outcome {
      readonly at: number
      readonly status: number
      readonly ms: number
      readonly body: unknown
    }
    const outcomes: Array<Outcome> = []
    const acknowledged: Array<number> = []
    let running = true
    let n = 0
    const t0 = performance.now()
    const worker = async () => {
      while (running) {
        const i = n++
        const answer = await call(url, "POST", `/api/forms/${form.formId}/responses`, {
          key,
          body: { values: { [form.nameId]: `Person ${i}`, [form.emailId]: `p${i}@example.com` } },
          timeoutMs: 30_000
        })
        outcomes.push({ at: performance.now() - t0, status: answer.status, ms: answer.ms, body: answer.body })
        if (answer.status === 201) acknowledged.push(answer.body.id)
        else await sleep(50)
      }
    }
    const load = Promise.all(Array.from({ length: CLIENTS }, worker))
    await sleep(2_000)

    // The outage: no new connections, and the open ones cut (again and again, for the whole outage).
    const outageStart = performance.now() - t0
    await query(postgresUrl!, `alter database "${database.name}" allow_connections false`)
    const cut = () =>
      query(
        postgresUrl!,
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [database!.name]
      )
    while (performance.now() - t0 < outageStart + OUTAGE_MS) {
      await cut()
      await sleep(250)
    }
    await query(postgresUrl!, `alter database "${database.name}" allow_connections true`)
    const outageEnd = performance.now() - t0
    await sleep(6_000)
    running = false
    await load

    // Requests made well inside the outage (started after its first second, ended before its end).
    const inside = outcomes.filter((o) => o.at - o.ms > outageStart + 1_000 && o.at < outageEnd)
    const statuses = outcomes.reduce((m, o) => m.set(o.status, (m.get(o.status) ?? 0) + 1), new Map<number, number>())
    const unexpected = outcomes.filter((o) => o.status !== 201 && o.status !== 503)
    const badBodies = outcomes.filter(
      (o) => o.status === 503 && typeof (o.body as { error?: unknown })?.error !== "string"
    )
    const firstOkAfter = outcomes
      .filter((o) => o.at > outageEnd && o.status === 201)
      .map((o) => o.at - outageEnd)
      .sort((a, b) => a - b)[0]
    const lastSecond = outcomes.filter((o) => o.at > outageEnd + 4_000)

    // Every acknowledged response stored, each response with its event and the reverse, each event delivered.
    const db = database.url
    const { responses, orphanResponses, orphanEvents, stored } = await responseIntegrity(db)
    const lost = acknowledged.filter((id) => !stored.has(id))
    await waitUntil(
      "every stored response delivered",
      () => ([...stored].every((id) => hook!.responseIds().has(id)) ? true : undefined),
      60_000
    ).catch(() => undefined)
    const undelivered = [...stored].filter((id) => !hook!.responseIds().has(id)).length

    record({
      scenario: "3 database outage",
      target: "postgres",
      figures: {
        clients: CLIENTS,
        "outage ms": round(outageEnd - outageStart, 0),
        requests: outcomes.length,
        statuses: [...statuses]
          .sort(([a], [b]) => a - b)
          .map(([s, c]) => `${s}×${c}`)
          .join(", "),
        "answers inside the outage": inside.length,
        "503 inside, p50/p99/max ms":
          inside.length === 0
            ? "-"
            : `${round(
                percentile(
                  inside.map((o) => o.ms),
                  50
                ),
                0
              )}/${round(
                percentile(
                  inside.map((o) => o.ms),
                  99
                ),
                0
              )}/${round(Math.max(...inside.map((o) => o.ms)), 0)}`,
        "first 201 after the outage, ms": firstOkAfter === undefined ? "never" : round(firstOkAfter, 0),
        acknowledged: acknowledged.length,
        "acknowledged, not stored": lost.length,
        "responses without event": orphanResponses,
        "events without response": orphanEvents,
        stored: responses,
        "stored, not delivered": undelivered
      },
      notes: unexpected.slice(0, 5).map((o) => `unexpected ${o.status}: ${JSON.stringify(o.body).slice(0, 200)}`)
    })
    if (unexpected.length > 0) process.stderr.write(`--- server stderr ---\n${server.stderr().slice(0, 6_000)}\n`)
    expect(unexpected.map((o) => `${o.status} ${JSON.stringify(o.body).slice(0, 200)}`)).toEqual([])
    expect(badBodies).toEqual([])
    expect(inside.length).toBeGreaterThan(0)
    expect(inside.every((o) => o.status === 503)).toBe(true)
    expect(Math.max(...inside.map((o) => o.ms))).toBeLessThan(5_000)
    expect(firstOkAfter).toBeDefined()
    expect(lastSecond.length).toBeGreaterThan(0)
    expect(lastSecond.every((o) => o.status === 201)).toBe(true)
    expect(lost).toEqual([])
    expect(orphanResponses).toBe(0)
    expect(orphanEvents).toBe(0)
    expect(undelivered).toBe(0)
  })
})
