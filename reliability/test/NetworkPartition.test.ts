/**
 * Scenario 17, network partition (PostgreSQL, through a proxy that stops every
 * byte without closing anything): the link to the database goes silent under
 * a submission load. Unlike an outage, nothing tells the server: no refused
 * connection, no reset, just no answer. Requests and `/readyz` must still fail
 * fast with 503 `{error}` (not hang for the partition's length), and the
 * server recovers without a restart once the link heals, with no response
 * without its event (or the reverse) and nothing acknowledged lost.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  freshDatabase,
  full,
  percentile,
  postgresUrl,
  publishedForm,
  query,
  record,
  responseIntegrity,
  round,
  sleep,
  startFresh,
  type ServerProcess
} from "./support/Harness.ts"
import { type PartitionProxy, partitionProxy } from "@qforms/test-kit/PartitionProxy"

const CLIENTS = 10
const PARTITION_MS = full ? 70_000 : 15_000
/** The longest a request or a readiness probe may wait for its 503 once the link is gone. */
const FAIL_FAST_MS = 5_000

describe.skipIf(postgresUrl === undefined)("network partition to postgres", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined
  let proxy: PartitionProxy | undefined
  let server: ServerProcess | undefined
  afterAll(async () => {
    await server?.stop()
    await proxy?.close()
    await database?.drop()
  })

  it("503 within seconds while the link is silent, recovery without restart, no partial writes", async () => {
    database = await freshDatabase(postgresUrl!)
    const direct = new URL(database.url)
    proxy = await partitionProxy(direct.hostname, Number(direct.port || 5432))
    const through = new URL(database.url)
    through.hostname = "127.0.0.1"
    through.port = String(proxy.port)
    const started = await startFresh({
      name: "postgres",
      env: { DATABASE_URL: through.toString(), QFORMS_DB_SCHEMA: "qforms" },
      cleanup: async () => {}
    })
    server = started.server
    const { url, key } = started
    const form = await publishedForm(url, key)

    interface Outcome {
      readonly at: number
      readonly status: number
      readonly ms: number
      readonly body: unknown
    }
    const outcomes: Array<Outcome & { readonly i: number }> = []
    const probes: Array<Outcome> = []
    const acknowledged: Array<number> = []
    let running = true
    let n = 0
    // Each submission with its own Idempotency-Key, so one answered 503 can be sent again without a duplicate.
    const submit = (i: number) =>
      call(url, "POST", `/api/forms/${form.formId}/responses`, {
        key,
        headers: { "idempotency-key": `partition-${i}` },
        body: { values: { [form.nameId]: `Person ${i}`, [form.emailId]: `p${i}@example.com` } },
        timeoutMs: PARTITION_MS + 30_000
      })
    const t0 = performance.now()
    const worker = async () => {
      while (running) {
        const i = n++
        const answer = await submit(i)
        outcomes.push({ i, at: performance.now() - t0, status: answer.status, ms: answer.ms, body: answer.body })
        if (answer.status === 201) acknowledged.push(answer.body.id)
        else await sleep(100)
      }
    }
    const prober = async () => {
      while (running) {
        const answer = await call(url, "GET", "/readyz", { timeoutMs: PARTITION_MS + 30_000 })
        probes.push({ at: performance.now() - t0, status: answer.status, ms: answer.ms, body: answer.body })
        await sleep(250)
      }
    }
    const load = Promise.all([...Array.from({ length: CLIENTS }, worker), prober()])
    await sleep(2_000)

    const partitionStart = performance.now() - t0
    proxy.partition()
    await sleep(PARTITION_MS)
    const partitionEnd = performance.now() - t0
    proxy.heal()
    await sleep(8_000)
    running = false
    await load
    // Every submission answered 503 sent again with its key: each is then stored once, whether or not the first
    // copy had committed before its answer was lost.
    const storedBefore = (await query<{ id: number }>(database.url, "select id from qforms.responses")).map((r) => r.id)
    const unanswered = outcomes.filter((o) => o.status !== 201)
    const retried = await Promise.all(unanswered.map((o) => submit(o.i)))

    // Requests in flight when the link went silent, or made while it was: every one answered 503, fast.
    const during = outcomes.filter((o) => o.at > partitionStart && o.at - o.ms < partitionEnd - FAIL_FAST_MS)
    const probesDuring = probes.filter((o) => o.at - o.ms > partitionStart + FAIL_FAST_MS && o.at < partitionEnd)
    const statuses = outcomes.reduce((m, o) => m.set(o.status, (m.get(o.status) ?? 0) + 1), new Map<number, number>())
    const unexpected = outcomes.filter((o) => o.status !== 201 && o.status !== 503)
    const badBodies = outcomes.filter(
      (o) => o.status === 503 && typeof (o.body as { error?: unknown })?.error !== "string"
    )
    const firstOkAfter = outcomes
      .filter((o) => o.at > partitionEnd && o.status === 201)
      .map((o) => o.at - partitionEnd)
      .sort((a, b) => a - b)[0]
    const firstReadyAfter = probes
      .filter((o) => o.at > partitionEnd && o.status === 200)
      .map((o) => o.at - partitionEnd)
      .sort((a, b) => a - b)[0]
    const lastSeconds = outcomes.filter((o) => o.at > partitionEnd + 5_000)

    const db = database.url
    const { responses, orphanResponses, orphanEvents, stored } = await responseIntegrity(db)
    const lost = acknowledged.filter((id) => !stored.has(id))
    const [{ names, rows }] = await query<{ names: string; rows: string }>(
      db,
      "select count(distinct name) as names, count(*) as rows from qforms.responses"
    )
    const ms = (list: ReadonlyArray<Outcome>) =>
      list.length === 0
        ? "-"
        : `${round(
            percentile(
              list.map((o) => o.ms),
              50
            ),
            0
          )}/${round(Math.max(...list.map((o) => o.ms)), 0)}`

    record({
      scenario: "17 network partition",
      target: "postgres",
      figures: {
        clients: CLIENTS,
        "partition ms": round(partitionEnd - partitionStart, 0),
        requests: outcomes.length,
        statuses: [...statuses]
          .sort(([a], [b]) => a - b)
          .map(([s, c]) => `${s}×${c}`)
          .join(", "),
        "answered during the partition": during.length,
        "their p50/max ms": ms(during),
        "/readyz during, p50/max ms": ms(probesDuring),
        "first 201 after healing, ms": firstOkAfter === undefined ? "never" : round(firstOkAfter, 0),
        "first ready after healing, ms": firstReadyAfter === undefined ? "never" : round(firstReadyAfter, 0),
        acknowledged: acknowledged.length,
        "acknowledged, not stored": lost.length,
        // Committed, but the answer was lost with the link: the client saw 503 (see Idempotency-Key).
        "stored, answered 503": storedBefore.filter((id) => !acknowledged.includes(id)).length,
        "503s sent again with their key, 201": `${retried.filter((r) => r.status === 201).length} of ${retried.length}`,
        "submissions / stored after the retries": `${n} / ${Number(rows)}`,
        "responses without event": orphanResponses,
        "events without response": orphanEvents,
        stored: responses
      },
      notes: unexpected.slice(0, 5).map((o) => `unexpected ${o.status}: ${JSON.stringify(o.body).slice(0, 200)}`)
    })
    if (unexpected.length > 0) process.stderr.write(`--- server stderr ---\n${server.stderr().slice(0, 6_000)}\n`)
    expect(unexpected.map((o) => `${o.status} ${JSON.stringify(o.body).slice(0, 200)}`)).toEqual([])
    expect(badBodies).toEqual([])
    expect(during.length).toBeGreaterThan(CLIENTS)
    expect(during.filter((o) => o.status !== 503 && o.at > partitionStart + FAIL_FAST_MS)).toEqual([])
    expect(Math.max(...during.map((o) => o.ms))).toBeLessThan(FAIL_FAST_MS)
    expect(probesDuring.length).toBeGreaterThan(0)
    expect(probesDuring.every((o) => o.status === 503)).toBe(true)
    expect(Math.max(...probesDuring.map((o) => o.ms))).toBeLessThan(FAIL_FAST_MS)
    expect(firstOkAfter).toBeDefined()
    expect(firstReadyAfter).toBeDefined()
    expect(lastSeconds.length).toBeGreaterThan(0)
    expect(lastSeconds.every((o) => o.status === 201)).toBe(true)
    expect(lost).toEqual([])
    expect(retried.filter((r) => r.status !== 201)).toEqual([])
    expect(Number(rows)).toBe(n)
    expect(Number(names)).toBe(n)
    expect(orphanResponses).toBe(0)
    expect(orphanEvents).toBe(0)
  })
})
