/**
 * Scenario 12, container restart: the standalone on the embedded database runs
 * as PID 1 of a fresh PID namespace (as in a container), is killed with
 * `kill -9` under a submission load and started again as PID 1 of a new
 * namespace, round after round on the same data directory. It must start
 * every time and lose nothing acknowledged; a second live process on the same
 * directory is refused.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { namespacedPid, pidNamespace } from "../../examples/standalone/test/support/Processes.ts"
import {
  baseEnv,
  call,
  counts,
  firstStartKey,
  type ProcessDatabase,
  processTargets,
  publishedForm,
  record,
  round,
  type ServerProcess,
  sleep,
  spawnServer,
  waitUntil
} from "./support/Harness.ts"

const CLIENTS = 20

const target = processTargets.find((candidate) => candidate.name === "pglite")!

describe("container restart on PGlite", () => {
  let db: ProcessDatabase | undefined
  const servers: Array<ServerProcess> = []
  afterAll(async () => {
    for (const server of servers) await server.stop()
    await db?.cleanup()
  })

  /** Starts the server as PID 1 of a new PID namespace; answers it, its URL and how long it took to listen. */
  const startContained = async () => {
    const began = performance.now()
    const server = spawnServer({ ...baseEnv, ...db!.env }, pidNamespace)
    servers.push(server)
    // Generous: several PGlite starts share a loaded two-core machine.
    const url = (await server.waitFor(/qforms listening on (\S+)/, 240_000))[1]!
    return { server, url, ms: performance.now() - began }
  }

  it(`kill -9 of PID 1 under ${CLIENTS} submitting clients, ${counts.crashRounds} rounds: every start succeeds, nothing acknowledged is lost; a second live process is refused`, async () => {
    db = target.make()
    const lockFile = join(db.dataDir!, "qforms.lock")
    const first = await startContained()
    const key = firstStartKey(first.server)
    const form = await publishedForm(first.url, key)

    /** Acknowledged response id → the name it was submitted with. */
    const acknowledged = new Map<number, string>()
    const otherAnswers = new Map<string, number>()
    const restartMs: Array<number> = []
    let sequence = 0
    let current = first
    let refusals = 0
    for (let roundNo = 1; roundNo <= counts.crashRounds; roundNo++) {
      if (roundNo > 1) {
        current = await startContained()
        restartMs.push(current.ms)
      }
      // PID 1 inside, as in a container; the file left by the last round's PID 1 did not stop it.
      expect(readFileSync(lockFile, "utf8")).toBe("1")
      if (roundNo === 1) {
        const second = spawnServer({ ...baseEnv, ...db.env }, pidNamespace)
        servers.push(second)
        expect(await second.exited).not.toBe(0)
        expect(second.stderr()).toMatch(/The embedded database in .* is in use by process 1\./)
        refusals++
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
      const clients = Promise.all(Array.from({ length: CLIENTS }, worker))
      await waitUntil("the first acknowledgements", () => (roundAcks >= 20 ? true : undefined), 60_000)
      await sleep(200 + Math.random() * 1_000)
      killed = true
      process.kill(namespacedPid(current.server), "SIGKILL")
      await current.server.exited
      await clients
    }
    expect(Object.fromEntries(otherAnswers)).toEqual({})

    const final = await startContained()
    restartMs.push(final.ms)
    const list = await call(final.url, "GET", `/api/forms/${form.formId}/responses?limit=1000`, {
      key,
      timeoutMs: 60_000
    })
    expect(list.status).toBe(200)
    const stored = new Map<number, Record<string, unknown>>()
    let page = list
    for (;;) {
      for (const row of page.body.responses as Array<{ id: number; values: Record<string, unknown> }>)
        stored.set(row.id, row.values)
      const cursor = page.body.nextCursor as string | null | undefined
      if (!cursor) break
      page = await call(
        final.url,
        "GET",
        `/api/forms/${form.formId}/responses?limit=1000&cursor=${encodeURIComponent(cursor)}`,
        { key, timeoutMs: 60_000 }
      )
      expect(page.status).toBe(200)
    }
    const found = [...acknowledged].filter(([id, name]) => stored.get(id)?.[String(form.nameId)] === name).length
    process.kill(namespacedPid(final.server), "SIGTERM")
    const finalExit = await final.server.exited

    const sorted = [...restartMs].sort((a, b) => a - b)
    record({
      scenario: "12 container restart",
      target: target.name,
      figures: {
        rounds: counts.crashRounds,
        clients: CLIENTS,
        "starts as PID 1": counts.crashRounds + 1,
        acknowledged: acknowledged.size,
        found,
        "restart ms (median)": round(sorted[Math.floor(sorted.length / 2)] ?? 0, 0),
        "restart ms (max)": round(sorted.at(-1) ?? 0, 0),
        "second live process refused": `${refusals}/1`
      }
    })
    expect(acknowledged.size).toBeGreaterThan(0)
    expect(found).toBe(acknowledged.size)
    expect(finalExit).toBe(0)
  })
})
