/**
 * Graceful shutdown: SIGTERM in the middle of a burst of submissions. Every
 * submission acknowledged with 201 is in the database after a restart, the
 * process exits 0, and new connections are refused once it has stopped
 * accepting.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  api,
  firstStartKey,
  probe,
  type ProcessDatabase,
  processTargets,
  publishedForm,
  type ServerProcess,
  spawnServer
} from "./support/Processes.ts"

/** Concurrent submitters. */
const WORKERS = 32
/** No rate limit in the way of the burst. */
const unlimited = { QFORMS_RATE_LIMIT_PER_SECOND: "1000000", QFORMS_RATE_LIMIT_BURST: "1000000" }

for (const target of processTargets) {
  describe(`shutdown on ${target.name}`, () => {
    let db: ProcessDatabase | undefined
    const servers: Array<ServerProcess> = []
    afterAll(async () => {
      for (const server of servers) await server.stop()
      await db?.cleanup()
    })

    it("SIGTERM during a burst of submissions: none acknowledged is lost, exit 0, new connections refused", async () => {
      db = target.make()
      const env = { ...db.env, ...unlimited }
      const server = spawnServer(env)
      servers.push(server)
      const url = await server.listening
      const key = firstStartKey(server)
      const form = await publishedForm(url, key)

      const acknowledged: Array<number> = []
      const outcomes = new Map<string, number>()
      let sigtermSent = false
      let sequence = 0
      const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
      const worker = async () => {
        // Each submission on a connection of its own, until the server is gone.
        for (;;) {
          const n = sequence++
          const result = await probe(`${url}/api/forms/${form.formId}/responses`, {
            method: "POST",
            key,
            body: { values: { [form.nameId]: `Person ${n}`, [form.emailId]: `p${n}@example.com` } },
            timeoutMs: 20_000
          })
          if (result._tag === "answered") {
            count(String(result.status))
            if (result.status === 201) acknowledged.push(JSON.parse(result.body).id)
            else if (!sigtermSent) throw new Error(`submission answered ${result.status}: ${result.body}`)
          } else {
            count(result._tag)
            if (!sigtermSent) throw new Error(`submission ${result._tag} before SIGTERM`)
            if (result._tag === "timeout") throw new Error("a submission hung during shutdown")
            return
          }
        }
      }
      const burst = Promise.all(Array.from({ length: WORKERS }, worker))

      // Let the burst get going, then stop the server in the middle of it.
      while (acknowledged.length < 50) await new Promise((resolve) => setTimeout(resolve, 5))
      const beforeSigterm = acknowledged.length
      sigtermSent = true
      server.child.kill("SIGTERM")
      await server.waitFor(/SIGTERM, finishing requests and stopping/)
      // Stopped accepting: a new connection is refused from here on.
      const late = await probe(`${url}/healthz`, { timeoutMs: 5_000 })
      expect(late).toEqual({ _tag: "refused" })

      await burst
      expect(await server.exited).toBe(0)
      expect(server.stderr()).toBe("")
      expect(acknowledged.length).toBeGreaterThan(beforeSigterm)
      expect(outcomes.get("timeout") ?? 0).toBe(0)

      // After a restart, every acknowledged response is there.
      const restarted = spawnServer(env)
      servers.push(restarted)
      const again = await restarted.listening
      expect(restarted.stdout()).not.toMatch(/qk_live_/)
      const list = await api(again, "GET", `/forms/${form.formId}/responses?flat=1`, { key, timeoutMs: 30_000 })
      expect(list.status).toBe(200)
      const stored = new Set((list.body.responses as Array<{ id: number }>).map((response) => response.id))
      const lost = acknowledged.filter((id) => !stored.has(id))
      expect(lost, `acknowledged but lost (of ${acknowledged.length})`).toEqual([])
      expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length)
      expect(await restarted.stop()).toBe(0)
    }, 180_000)
  })
}
