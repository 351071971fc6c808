/**
 * Start-up: from the moment the process is spawned, every request is either
 * refused (nothing listens yet) or answered — none hangs, because the
 * database is opened and migrated before the server listens.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  freePort,
  type Probe,
  probe,
  type ProcessDatabase,
  processTargets,
  type ServerProcess,
  spawnServer
} from "./support/Processes.ts"

/** A request that hangs this long counts as a hang. */
const HANG_MS = 10_000

for (const target of processTargets) {
  describe(`start-up on ${target.name}`, () => {
    const databases: Array<ProcessDatabase> = []
    const servers: Array<ServerProcess> = []
    afterAll(async () => {
      for (const server of servers) await server.stop()
      for (const db of databases) await db.cleanup()
    })

    it("requests during start-up are refused or answered, never left hanging; /readyz 200 once listening", async () => {
      const db = target.make()
      databases.push(db)
      const port = await freePort()
      const base = `http://127.0.0.1:${port}`
      const server = spawnServer({ ...db.env, PORT: String(port) })
      servers.push(server)

      // Four loops from the spawn on: health, readiness, a keyed API call and the OpenAPI document.
      const paths = ["/healthz", "/readyz", "/api/forms", "/api/openapi.json"]
      const seen: Array<{ readonly path: string; readonly at: number; readonly result: Probe }> = []
      let listening = false
      const started = Date.now()
      const loop = async (path: string) => {
        // Until the server is up, then a few more rounds while it settles.
        for (let after = 0; after < 5 && Date.now() - started < 90_000; ) {
          const result = await probe(`${base}${path}`, { timeoutMs: HANG_MS, key: "qk_live_not_a_key" })
          seen.push({ path, at: Date.now() - started, result })
          if (listening) after++
          if (result._tag === "refused") await new Promise((resolve) => setTimeout(resolve, 10))
        }
      }
      const loops = Promise.all(paths.map(loop))
      await server.listening.finally(() => (listening = true))
      await loops

      const hung = seen.filter((s) => s.result._tag === "timeout")
      expect(hung, "requests that hung").toEqual([])
      const other = seen.filter((s) => s.result._tag === "failed")
      expect(other, "requests that failed otherwise than refused").toEqual([])
      expect(seen.filter((s) => s.result._tag === "refused").length, "refused before listening").toBeGreaterThan(0)

      const answered = seen.filter((s) => s.result._tag === "answered")
      // Once a request was answered, the server never refused again.
      const firstAnswer = Math.min(...answered.map((s) => seen.indexOf(s)))
      const byPath = (path: string) => seen.filter((s, index) => s.path === path && index > firstAnswer)
      for (const path of paths) {
        expect(
          byPath(path).every((s) => s.result._tag === "answered"),
          `${path} after the first answer`
        ).toBe(true)
      }
      const statuses = (path: string) =>
        answered.filter((s) => s.path === path).map((s) => (s.result as { status: number }).status)
      expect(new Set(statuses("/healthz"))).toEqual(new Set([200]))
      expect(new Set(statuses("/readyz"))).toEqual(new Set([200]))
      expect(new Set(statuses("/api/forms"))).toEqual(new Set([401]))
      expect(new Set(statuses("/api/openapi.json"))).toEqual(new Set([200]))

      expect(await server.stop()).toBe(0)
    }, 120_000)
  })
}
