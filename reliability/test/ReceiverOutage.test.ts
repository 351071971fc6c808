/**
 * Scenario 2, receiver outage: the receiver refuses connections, then answers
 * 503, then 200; every event is delivered once it is back. A receiver
 * answering 400 gets exactly one attempt per event until the deliveries
 * that gave up in a row disable it (10, the default of
 * QFORMS_WEBHOOK_DISABLE_AFTER_FAILURES); one answering 410 is disabled at
 * once and gets nothing more.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  freePort,
  publishedForm,
  receiver,
  record,
  round,
  sleep,
  startFresh,
  subscribeHook,
  targets,
  type ProcessDatabase,
  type Receiver,
  type ServerProcess,
  waitUntil
} from "./support/Harness.ts"

const EVENTS = 20
/** Deliveries giving up in a row that disable a subscription (the default). */
const DISABLE_AFTER = 10

describe("receiver outage", () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  const hooks: Array<Receiver> = []
  afterAll(async () => {
    await server?.stop()
    for (const hook of hooks) await hook.close()
    await db?.cleanup()
  })

  it("refused, then 503, then back: all delivered; 400 once until 10 in a row disable it; 410 disables", async () => {
    const target = targets[0]!
    db = target.make()
    const port = await freePort()
    const bad = await receiver({ status: 400 })
    const gone = await receiver({ status: 410 })
    hooks.push(bad, gone)
    const started = await startFresh(db)
    server = started.server
    const { url, key } = started
    const form = await publishedForm(url, key)
    const subscribe = async (targetUrl: string) => {
      const answer = await subscribeHook(url, key, form.formId, targetUrl)
      expect(answer.status).toBe(201)
      return answer.body.id as string
    }
    const downId = await subscribe(`http://127.0.0.1:${port}/hook`)
    const badId = await subscribe(bad.url)
    const goneId = await subscribe(gone.url)
    const submit = async (n: number) => {
      const answer = await call(url, "POST", `/api/forms/${form.formId}/responses`, {
        key,
        body: { values: { [form.nameId]: `Person ${n}`, [form.emailId]: `p${n}@example.com` } }
      })
      expect(answer.status).toBe(201)
      return answer.body.id as number
    }
    const ids: Array<number> = []
    for (let n = 0; n < EVENTS; n++) ids.push(await submit(n))

    // Down (connection refused) for 3 s, then 503 for 3 s, then 200.
    const outageStarted = performance.now()
    await sleep(3_000)
    const back = await receiver({ status: 503, port })
    hooks.push(back)
    await sleep(3_000)
    back.state.status = 200
    const backAt = performance.now()
    const delivered = () =>
      new Set(
        back.received.filter((post) => post.status === 200).map((post) => JSON.parse(post.body).responseId as number)
      )
    await waitUntil(
      "every event delivered after the outage",
      () => (ids.every((id) => delivered().has(id)) ? true : undefined),
      60_000
    )
    const recoveredMs = performance.now() - backAt

    const log = async (id: string) =>
      (await call(url, "GET", `/api/webhooks/subscribe/${id}/deliveries?limit=200`, { key })).body
    const downLog = await log(downId)
    const attempts = downLog.deliveries.map((d: { attempts: Array<unknown> }) => d.attempts.length) as Array<number>
    const refusedAttempts = downLog.deliveries
      .flatMap((d: { attempts: Array<{ statusCode: number | null }> }) => d.attempts)
      .filter((a: { statusCode: number | null }) => a.statusCode === null).length

    // 400: final after one attempt each.
    await waitUntil("the 400 deliveries to settle", async () =>
      (await log(badId)).deliveries.every((d: { status: string }) => d.status === "failed") ? true : undefined
    )
    await sleep(2_500)
    const badPosts = bad.byWebhookId()
    // 410: the subscription is disabled; a later event is not posted.
    const subs = await call(url, "GET", "/api/webhooks", { key })
    const goneSub = subs.body.find((s: { id: string }) => s.id === goneId)
    const badSub = subs.body.find((s: { id: string }) => s.id === badId)
    const goneBefore = gone.received.length
    await submit(EVENTS)
    await sleep(2_500)
    const goneAfter = gone.received.length
    const goneAttempts = (await log(goneId)).deliveries.map(
      (d: { attempts: Array<unknown> }) => d.attempts.length
    ) as Array<number>

    const okDuplicates = [
      ...back.received
        .filter((post) => post.status === 200)
        .reduce((m, post) => {
          const id = String(post.headers["webhook-id"])
          return m.set(id, (m.get(id) ?? 0) + 1)
        }, new Map<string, number>())
        .values()
    ].filter((n) => n > 1).length
    record({
      scenario: "2 receiver outage",
      target: target.name,
      figures: {
        events: EVENTS,
        "outage s (refused + 503)": round((backAt - outageStarted) / 1000, 1),
        "refused attempts": refusedAttempts,
        "503 answers": back.received.filter((post) => post.status === 503).length,
        "delivered after recovery": [...delivered()].filter((id) => ids.includes(id)).length,
        "all delivered within ms of recovery": round(recoveredMs, 0),
        "attempts per event (max)": Math.max(...attempts),
        "duplicates of 200": okDuplicates,
        "400: posts per event": [...new Set(badPosts.values())].join(","),
        "400: events posted before disabling": badPosts.size,
        "410: disabled": goneSub?.disabled === true,
        "410: posts after disabling": goneAfter - goneBefore,
        "410: attempts per delivery (max)": Math.max(...goneAttempts)
      }
    })
    expect(okDuplicates).toBe(0)
    // Deliveries already posted beside the tenth (one worker batch) still go out; the rest never do.
    expect(badPosts.size).toBeGreaterThanOrEqual(DISABLE_AFTER)
    expect(badPosts.size).toBeLessThan(EVENTS)
    expect([...badPosts.values()].every((n) => n === 1)).toBe(true)
    expect(badSub).toMatchObject({ disabled: true, disabledReason: expect.stringMatching(/in a row/) })
    expect(goneSub?.disabled).toBe(true)
    expect(goneAfter - goneBefore).toBe(0)
    expect(Math.max(...goneAttempts)).toBe(1)
  })
})
