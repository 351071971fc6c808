/**
 * Scenario 4, two instances on one PostgreSQL schema under load: every event
 * is delivered exactly once (no crash here), the event stream of one process
 * carries the events committed through the other in commit order, and the
 * per-process rate limit answers 429 with Retry-After past its burst.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  publishedForm,
  receiver,
  record,
  round,
  sleep,
  start,
  startFresh,
  subscribeHook,
  targets,
  type ProcessDatabase,
  type Receiver,
  type ServerProcess,
  waitUntil
} from "./support/Harness.ts"

const postgres = targets.find((target) => target.name === "postgres")
const CLIENTS = 40
const LOAD_MS = 6_000

describe.skipIf(postgres === undefined)("two instances on postgres", () => {
  let db: ProcessDatabase | undefined
  const servers: Array<ServerProcess> = []
  let hook: Receiver | undefined
  afterAll(async () => {
    for (const server of servers) await server.stop()
    await hook?.close()
    await db?.cleanup()
  })

  it("each event delivered once, the stream of one carries the other's events, per-process rate limits", async () => {
    db = postgres!.make()
    hook = await receiver()
    const a = await startFresh(db)
    servers.push(a.server)
    const b = await start(db.env)
    servers.push(b.server)
    const { key } = a
    const form = await publishedForm(a.url, key)
    expect((await subscribeHook(a.url, key, form.formId, hook.url)).status).toBe(201)

    // An event stream on each process, open before the load.
    const stream = async (url: string) => {
      const ids: Array<number> = []
      const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/events?formId=${form.formId}`, [
        "qforms.v1",
        `qforms.bearer.${key}`
      ])
      await new Promise<void>((resolve, reject) => {
        socket.addEventListener("open", () => resolve())
        socket.addEventListener("error", () => reject(new Error("the event stream did not open")))
      })
      socket.addEventListener("message", (event) => {
        const body = JSON.parse(String(event.data))
        if (body.event === "response.created") ids.push(body.responseId)
      })
      return { ids, close: () => socket.close() }
    }
    const streamA = await stream(a.url)
    const streamB = await stream(b.url)
    const streamed = streamA.ids

    const acknowledged = new Map<number, "a" | "b">()
    const failures: Array<string> = []
    let n = 0
    const until = performance.now() + LOAD_MS
    const worker = async (w: number) => {
      while (performance.now() < until) {
        const i = n++
        const via = (i + w) % 2 === 0 ? "a" : "b"
        const answer = await call(via === "a" ? a.url : b.url, "POST", `/api/forms/${form.formId}/responses`, {
          key,
          body: { values: { [form.nameId]: `Person ${i}`, [form.emailId]: `p${i}@example.com` } }
        })
        if (answer.status === 201) acknowledged.set(answer.body.id, via)
        else failures.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`)
      }
    }
    await Promise.all(Array.from({ length: CLIENTS }, (_, w) => worker(w)))
    const ids = [...acknowledged.keys()]
    await waitUntil(
      "every event delivered",
      () => (ids.every((id) => hook!.responseIds().has(id)) ? true : undefined),
      60_000
    )
    await waitUntil(
      "every event streamed",
      () => (ids.every((id) => streamed.includes(id)) ? true : undefined),
      30_000
    ).catch(() => undefined)
    await sleep(2_000)
    streamA.close()
    streamB.close()
    const posts = hook.byWebhookId()
    const duplicates = [...posts.values()].reduce((sum, count) => sum + count - 1, 0)
    // Rate limits: two more processes with a burst of 10 and 1 request/s; 30 requests at each at once.
    const limited = { QFORMS_RATE_LIMIT_PER_SECOND: "1", QFORMS_RATE_LIMIT_BURST: "10" }
    const r1 = await start({ ...db.env, ...limited })
    servers.push(r1.server)
    const r2 = await start({ ...db.env, ...limited })
    servers.push(r2.server)
    const burst = async (url: string) => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          fetch(`${url}/api/forms`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => ({
            status: r.status,
            retryAfter: r.headers.get("retry-after"),
            policy: r.headers.get("ratelimit-policy"),
            body: (await r.json()) as { error?: unknown }
          }))
        )
      )
      return {
        ok: answers.filter((x) => x.status === 200).length,
        limited: answers.filter((x) => x.status === 429),
        other: answers.filter((x) => x.status !== 200 && x.status !== 429).length
      }
    }
    const burst1 = await burst(r1.url)
    const burst2 = await burst(r2.url)

    record({
      scenario: "4 two instances",
      target: "postgres",
      figures: {
        clients: CLIENTS,
        "load s": round(LOAD_MS / 1000, 0),
        "acknowledged via A / B": `${[...acknowledged.values()].filter((v) => v === "a").length} / ${[...acknowledged.values()].filter((v) => v === "b").length}`,
        "failed requests": failures.length,
        posts: hook.received.length,
        "duplicates (by webhook-id)": duplicates,
        "streamed by A (of all)": `${new Set(streamed).size} / ${ids.length}`,
        "streamed by B (of all)": `${new Set(streamB.ids).size} / ${ids.length}`,
        "A and B streams in the same (commit) order": JSON.stringify(streamA.ids) === JSON.stringify(streamB.ids),
        "rate limit, process 1: 200 / 429": `${burst1.ok} / ${burst1.limited.length}`,
        "rate limit, process 2: 200 / 429": `${burst2.ok} / ${burst2.limited.length}`
      },
      notes: [
        ...failures.slice(0, 5),
        ...(streamed.length === new Set(streamed).size
          ? []
          : [
              `stream repeats: ${JSON.stringify(
                streamed
                  .map((id, i) => [i, id])
                  .filter(([i, id]) => streamed.indexOf(id!) !== i)
                  .slice(0, 10)
              )} first at ${JSON.stringify(streamed.slice(0, 5))}`
            ])
      ]
    })
    expect(failures).toEqual([])
    expect(duplicates).toBe(0)
    expect(new Set(streamed).size).toBe(ids.length)
    expect(streamed.length).toBe(ids.length)
    // Both processes hear the NOTIFYs in commit order: the same sequence.
    expect(streamB.ids).toEqual(streamA.ids)
    for (const result of [burst1, burst2]) {
      expect(result.other).toBe(0)
      expect(result.ok).toBeGreaterThanOrEqual(10)
      expect(result.ok).toBeLessThanOrEqual(12)
      expect(result.limited.length).toBe(30 - result.ok)
      for (const answer of result.limited) {
        expect(Number(answer.retryAfter)).toBeGreaterThan(0)
        expect(typeof answer.body.error).toBe("string")
      }
    }
  })
})
