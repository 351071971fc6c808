/**
 * Scenario 9, soak: mixed reads and writes at a fixed rate (open loop: a
 * request is started every 1/rate s whatever the answers) for a minute (CI)
 * or ten. No error, resident memory without a growth trend, and the
 * event→delivery latency of the last third like that of the first.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  counts,
  percentile,
  publishedForm,
  receiver,
  record,
  round,
  rssMiB,
  sleep,
  startFresh,
  subscribeHook,
  targets,
  type ProcessDatabase,
  type Receiver,
  type ServerProcess,
  waitUntil
} from "./support/Harness.ts"

/** Least-squares slope of (x, y) points. */
const slope = (points: ReadonlyArray<readonly [number, number]>) => {
  const n = points.length
  const mx = points.reduce((s, [x]) => s + x, 0) / n
  const my = points.reduce((s, [, y]) => s + y, 0) / n
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0)
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0)
  return den === 0 ? 0 : num / den
}

const median = (values: ReadonlyArray<number>) => percentile(values, 50)

// The targets soak at the same time: each is a server at a fixed, light rate (the two at once use a fraction of two
// cores), and the minute each waits is the suite's longest.
describe.concurrent("soak", () => {
  for (const target of targets) {
    describe(`soak on ${target.name}`, () => {
      let db: ProcessDatabase | undefined
      let server: ServerProcess | undefined
      let hook: Receiver | undefined
      afterAll(async () => {
        await server?.stop()
        await hook?.close()
        await db?.cleanup()
      })

      it(`${counts.soakSeconds} s of mixed load at ${counts.soakRatePerSecond} requests/s: no error, flat memory, steady delivery`, async () => {
        db = target.make()
        hook = await receiver()
        const started = await startFresh(db)
        server = started.server
        const { url, key } = started
        const form = await publishedForm(url, key)
        expect((await subscribeHook(url, key, form.formId, hook.url)).status).toBe(201)
        const stages = (await call(url, "GET", `/api/forms/${form.formId}/stages`, { key })).body.stages as Array<{
          id: number
        }>

        const submittedAt = new Map<number, number>()
        const ids: Array<number> = []
        const errors: Array<string> = []
        const latencyByKind = new Map<string, Array<number>>()
        const memory: Array<readonly [number, number]> = []
        let n = 0
        const one = async () => {
          const i = n++
          const roll = i % 20
          const pick = ids.length === 0 ? undefined : ids[Math.floor(Math.random() * ids.length)]
          const [kind, method, path, body] =
            roll < 8 || pick === undefined
              ? ([
                  "submit",
                  "POST",
                  `/api/forms/${form.formId}/responses`,
                  { values: { [form.nameId]: `Person ${i}`, [form.emailId]: `p${i}@example.com` } }
                ] as const)
              : roll < 14
                ? (["list", "GET", `/api/forms/${form.formId}/responses?limit=50&flat=1`, undefined] as const)
                : roll < 17
                  ? (["get", "GET", `/api/responses/${pick}`, undefined] as const)
                  : roll < 19
                    ? ([
                        "patch",
                        "PATCH",
                        `/api/responses/${pick}`,
                        { tags: [`t${i % 7}`], stageId: stages[i % stages.length]?.id ?? null }
                      ] as const)
                    : (["forms", "GET", "/api/forms", undefined] as const)
          const answer = await call(url, method, path, { key, body, timeoutMs: 30_000 })
          const list = latencyByKind.get(kind) ?? []
          list.push(answer.ms)
          latencyByKind.set(kind, list)
          if (answer.status < 200 || answer.status >= 300)
            errors.push(`${kind} ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`)
          if (kind === "submit" && answer.status === 201) {
            submittedAt.set(answer.body.id, performance.now())
            ids.push(answer.body.id)
          }
        }

        const t0 = performance.now()
        const durationMs = counts.soakSeconds * 1_000
        const interval = 1_000 / counts.soakRatePerSecond
        const inFlight = new Set<Promise<void>>()
        let sent = 0
        let nextSample = 0
        while (performance.now() - t0 < durationMs) {
          const due = t0 + sent * interval
          const wait = due - performance.now()
          if (wait > 0) await sleep(wait)
          const p = one().finally(() => inFlight.delete(p))
          inFlight.add(p)
          sent++
          if (performance.now() - t0 >= nextSample) {
            memory.push([(performance.now() - t0) / 1000, rssMiB(server.pid)])
            nextSample += 2_000
          }
        }
        const sendingSeconds = (performance.now() - t0) / 1000
        await Promise.all(inFlight)
        await waitUntil(
          "every soak response delivered",
          () => (ids.every((id) => hook!.responseIds().has(id)) ? true : undefined),
          60_000
        ).catch(() => undefined)

        // Delivery latency: first post of each response after its acknowledgement.
        const arrivals = new Map<number, number>()
        for (const post of hook.received) {
          const id = JSON.parse(post.body).responseId as number
          if (!arrivals.has(id)) arrivals.set(id, post.at)
        }
        const latency = ids
          .filter((id) => arrivals.has(id))
          .map((id) => [submittedAt.get(id)! - t0, Math.max(0, arrivals.get(id)! - submittedAt.get(id)!)] as const)
        const third = durationMs / 3
        const firstThird = latency.filter(([at]) => at < third).map(([, ms]) => ms)
        const lastThird = latency.filter(([at]) => at >= 2 * third).map(([, ms]) => ms)
        const warm = memory.filter(([s]) => s >= Math.min(10, counts.soakSeconds / 4))
        const early = warm.filter(([s]) => s < counts.soakSeconds / 2).map(([, mib]) => mib)
        const late = warm.filter(([s]) => s >= (2 * counts.soakSeconds) / 3).map(([, mib]) => mib)
        const growthPerMinute = slope(warm) * 60
        const undelivered = ids.filter((id) => !arrivals.has(id)).length
        // For an undelivered response: what its delivery log says (status, attempts, errors).
        const diagnosis: Array<string> = []
        if (undelivered > 0) {
          const missing = new Set(ids.filter((id) => !arrivals.has(id)))
          const subscriptionId = (await call(url, "GET", "/api/webhooks", { key })).body[0]?.id
          let cursor: string | null = null
          for (let page = 0; page < 200 && diagnosis.length < missing.size; page++) {
            const log: {
              status: number
              body: { deliveries: Array<{ responseId: number }>; nextCursor: string | null }
            } = await call(
              url,
              "GET",
              `/api/webhooks/subscribe/${subscriptionId}/deliveries?limit=200${cursor === null ? "" : `&cursor=${cursor}`}`,
              { key }
            )
            // An unreadable page ends the search, saying so (it is not evidence that no delivery exists).
            if (log.status !== 200) {
              diagnosis.push(`delivery log page ${page}: ${log.status} ${JSON.stringify(log.body).slice(0, 200)}`)
              break
            }
            for (const delivery of log.body.deliveries ?? []) {
              if (missing.has(delivery.responseId))
                diagnosis.push(`undelivered response ${delivery.responseId}: ${JSON.stringify(delivery).slice(0, 800)}`)
            }
            cursor = log.body.nextCursor
            if (cursor === null) break
          }
          if (diagnosis.length === 0 && cursor === null)
            diagnosis.push(`undelivered responses ${[...missing].join(", ")} have no delivery in the log`)
          for (const id of [...missing].slice(0, 3)) {
            const detail = await call(url, "GET", `/api/responses/${id}`, { key })
            diagnosis.push(
              `response ${id}: ${detail.status}, submitted ${detail.body?.response?.submittedAt ?? "?"}; last id acknowledged ${ids.at(-1)}`
            )
          }
          const newest = await call(url, "GET", `/api/webhooks/subscribe/${subscriptionId}/deliveries?limit=3`, { key })
          diagnosis.push(`newest deliveries: ${JSON.stringify(newest.body).slice(0, 1_000)}`)
        }

        record({
          scenario: "9 soak",
          target: target.name,
          figures: {
            seconds: counts.soakSeconds,
            "requests (rate/s)": `${sent} (${round(sent / sendingSeconds, 1)})`,
            errors: errors.length,
            "p95 ms submit / list / get / patch": ["submit", "list", "get", "patch"]
              .map((k) => round(percentile(latencyByKind.get(k) ?? [], 95), 0))
              .join(" / "),
            "RSS MiB start / median early / median late / max": `${round(memory[0]?.[1] ?? 0, 0)} / ${round(median(early), 0)} / ${round(median(late), 0)} / ${round(Math.max(...memory.map(([, m]) => m)), 0)}`,
            "RSS trend MiB/min (after warm-up)": round(growthPerMinute, 1),
            "delivery p50/p95 ms, first third": `${round(percentile(firstThird, 50), 0)}/${round(percentile(firstThird, 95), 0)}`,
            "delivery p50/p95 ms, last third": `${round(percentile(lastThird, 50), 0)}/${round(percentile(lastThird, 95), 0)}`,
            undelivered
          },
          notes: [...errors.slice(0, 5), ...diagnosis]
        })
        expect(errors).toEqual([])
        expect(undelivered).toBe(0)
        // No growth trend: the late median within 20% (+ 32 MiB of noise) of the early one.
        expect(median(late)).toBeLessThanOrEqual(median(early) * 1.2 + 32)
        // Delivery as quick at the end as at the start (3×, with a floor for a busy machine).
        expect(percentile(lastThird, 95)).toBeLessThanOrEqual(Math.max(3 * percentile(firstThird, 95), 1_500))
      })
    })
  }
})
