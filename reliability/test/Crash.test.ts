/**
 * Scenario 1, crash during load: 100 concurrent submitting clients, `kill -9`
 * at a random moment, restart on the same database, N rounds. Every response
 * acknowledged with 201 is stored with its values and is posted to the
 * receiver at least once.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  counts,
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
  type ServerProcess,
  waitUntil
} from "./support/Harness.ts"

for (const target of targets) {
  describe(`crash during load on ${target.name}`, () => {
    let db: ProcessDatabase | undefined
    const servers: Array<ServerProcess> = []
    let hook: Awaited<ReturnType<typeof receiver>> | undefined
    afterAll(async () => {
      for (const server of servers) await server.stop()
      await hook?.close()
      await db?.cleanup()
    })

    it(`kill -9 under ${counts.crashClients} submitting clients, ${counts.crashRounds} rounds: nothing acknowledged is lost or undelivered`, async () => {
      db = target.make()
      hook = await receiver()
      const first = await startFresh(db)
      servers.push(first.server)
      const { key } = first
      const form = await publishedForm(first.url, key)
      const subscribed = await subscribeHook(first.url, key, form.formId, hook.url)
      expect(subscribed.status).toBe(201)

      /** Acknowledged response id → the name it was submitted with. */
      const acknowledged = new Map<number, string>()
      const otherAnswers = new Map<string, number>()
      let sequence = 0
      let current = first
      const restartMs: Array<number> = []
      for (let roundNo = 1; roundNo <= counts.crashRounds; roundNo++) {
        if (roundNo > 1) {
          const began = performance.now()
          current = { ...(await start(db.env)), key }
          restartMs.push(performance.now() - began)
          servers.push(current.server)
        }
        const url = current.url
        let killed = false
        let roundAcks = 0
        const worker = async () => {
          while (!killed) {
            const n = sequence++
            const name = `Person ${n}`
            const result = await call(url, "POST", `/api/forms/${form.formId}/responses`, {
              key,
              body: { values: { [form.nameId]: name, [form.emailId]: `p${n}@example.com` } },
              timeoutMs: 30_000
            })
            if (result.status === 201) {
              acknowledged.set(result.body.id, name)
              roundAcks++
            } else if (!killed) {
              otherAnswers.set(String(result.status), (otherAnswers.get(String(result.status)) ?? 0) + 1)
            }
          }
        }
        const clients = Promise.all(Array.from({ length: counts.crashClients }, worker))
        // A random moment once the load is flowing.
        await waitUntil("the first acknowledgements", () => (roundAcks >= 20 ? true : undefined), 60_000)
        await sleep(200 + Math.random() * 1_500)
        killed = true
        current.server.child.kill("SIGKILL")
        await current.server.exited
        await clients
      }
      // Answers other than 201 before the kill are errors (after it, the connection just fails).
      expect(Object.fromEntries(otherAnswers)).toEqual({})

      const final = { ...(await start(db.env)), key }
      servers.push(final.server)
      const deliverStarted = performance.now()
      const undelivered = () => [...acknowledged.keys()].filter((id) => !hook!.responseIds().has(id))
      await waitUntil(
        "every acknowledged response delivered",
        () => (undelivered().length === 0 ? true : undefined),
        120_000
      ).catch(() => undefined)
      const deliverMs = performance.now() - deliverStarted

      const list = await call(final.url, "GET", `/api/forms/${form.formId}/responses`, { key, timeoutMs: 60_000 })
      expect(list.status).toBe(200)
      const stored = new Map<number, Record<string, unknown>>(
        (list.body.responses as Array<{ id: number; values: Record<string, unknown> }>).map((row) => [
          row.id,
          row.values
        ])
      )
      const found = [...acknowledged].filter(([id, name]) => stored.get(id)?.[String(form.nameId)] === name).length
      const posts = hook.byWebhookId()
      const duplicates = [...posts.values()].reduce((sum, n) => sum + n - 1, 0)
      const delivered = [...acknowledged.keys()].filter((id) => hook!.responseIds().has(id)).length

      record({
        scenario: "1 crash during load",
        target: target.name,
        figures: {
          rounds: counts.crashRounds,
          clients: counts.crashClients,
          acknowledged: acknowledged.size,
          found,
          delivered,
          "stored, not acknowledged": stored.size - acknowledged.size,
          posts: hook.received.length,
          "duplicates (by webhook-id)": duplicates,
          "restart ms (median)": round(restartMs.sort((a, b) => a - b)[Math.floor(restartMs.length / 2)] ?? 0, 0),
          "all delivered after final restart, ms": round(deliverMs, 0)
        }
      })
      expect(acknowledged.size).toBeGreaterThan(0)
      expect(found).toBe(acknowledged.size)
      expect(undelivered()).toEqual([])
      // Every post is of a stored response (a post of a rolled-back response would be a phantom).
      expect([...hook.responseIds()].filter((id) => !stored.has(id))).toEqual([])
    })
  })
}
