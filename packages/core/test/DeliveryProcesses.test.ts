/**
 * Delivery across processes: a server killed with SIGKILL in the middle of a
 * burst loses no acknowledged event (at-least-once after restart), and two
 * servers on one PostgreSQL share the work without sending an event twice.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { PgClient } from "@effect/sql-pg"
import { Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { postgresUrl } from "@qforms/test-kit/Databases"

const script = join(import.meta.dirname, "support", "ServeProcess.ts")

interface Served {
  readonly url: string
  readonly key: string | undefined
  readonly child: ChildProcess
}

const serve = (db: string, env: Readonly<Record<string, string>> = {}): Promise<Served> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=source", "--disable-warning=ExperimentalWarning", script], {
      env: { ...process.env, ...env, QFORMS_TEST_DB: db },
      stdio: ["ignore", "pipe", "inherit"]
    })
    const lines = createInterface({ input: child.stdout! })
    lines.once("line", (line) => {
      const { key, url } = JSON.parse(line) as { url: string; key?: string }
      resolve({ url, key, child })
    })
    child.once("exit", (code) => reject(new Error(`server exited with ${code} before listening`)))
  })

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())
  )

/** A receiver recording every post (event id and response id); answers 200 after a short delay. */
const receiver = async () => {
  const posts: Array<{ readonly webhookId: string; readonly responseId: number }> = []
  const server = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (body += chunk))
    request.on("end", () => {
      posts.push({ webhookId: String(request.headers["webhook-id"]), responseId: JSON.parse(body).responseId })
      setTimeout(() => response.end("ok"), 5)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const call = async (url: string, key: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? undefined : JSON.parse(text) }
}

/** A published form subscribed to the receiver; returns what a submission needs. */
const setUp = async (url: string, key: string, targetUrl: string) => {
  const form = (
    await call(url, key, "POST", "/forms", { title: "Burst", fields: [{ type: "short_text", label: "N" }] })
  ).json
  await call(url, key, "PATCH", `/forms/${form.id}`, { status: "published" })
  const fieldId = (await call(url, key, "GET", `/forms/${form.id}`)).json.fields[0].id as number
  expect(
    (await call(url, key, "POST", "/webhooks/subscribe", { formId: form.id, event: "response.created", targetUrl }))
      .status
  ).toBe(201)
  return { formId: form.id as number, fieldId }
}

const waitFor = async (probe: () => boolean, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs
  while (!probe()) {
    if (performance.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return true
}

const dropSchema = (url: string, schema: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`drop schema if exists "${schema}" cascade`)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
  )

const postgresTarget = (url: string) => ({
  name: "postgres",
  db: () => {
    const schema = `qforms_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    return { db: `postgres:${url}|${schema}`, cleanup: () => dropSchema(url, schema) }
  }
})

const targets: Array<{
  readonly name: string
  readonly db: () => { readonly db: string; readonly cleanup: () => Promise<void> }
}> = [
  {
    name: "pglite",
    db: () => {
      const dir = mkdtempSync(join(tmpdir(), "qforms-crash-"))
      return { db: `pglite:${dir}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) }
    }
  },
  ...(postgresUrl === undefined ? [] : [postgresTarget(postgresUrl)])
]

const children: Array<ChildProcess> = []
afterAll(() => {
  for (const child of children) child.kill("SIGKILL")
})

for (const target of targets) {
  describe(`delivery across processes on ${target.name}`, () => {
    it("SIGKILL in the middle of a burst: after a restart, every acknowledged event is delivered", async () => {
      const { cleanup, db } = target.db()
      const hook = await receiver()
      const first = await serve(db)
      children.push(first.child)
      const key = first.key!
      const { fieldId, formId } = await setUp(first.url, key, hook.url)
      const acknowledged: Array<number> = []
      let sent = 0
      const worker = async () => {
        while (sent < 150) {
          sent++
          const reply = await call(first.url, key, "POST", `/forms/${formId}/responses`, {
            values: { [fieldId]: `n${sent}` }
          }).catch(() => undefined)
          if (reply === undefined) return
          if (reply.status === 201) acknowledged.push(reply.json.id)
          if (acknowledged.length === 60) first.child.kill("SIGKILL")
        }
      }
      await Promise.all(Array.from({ length: 10 }, worker))
      await stopped(first.child)
      expect(acknowledged.length).toBeGreaterThanOrEqual(60)

      const second = await serve(db)
      children.push(second.child)
      const delivered = () => new Set(hook.posts.map((p) => p.responseId))
      const complete = await waitFor(() => acknowledged.every((id) => delivered().has(id)), 30_000)
      const stored = (await call(second.url, key, "GET", `/forms/${formId}/responses`)).json.responses as Array<{
        id: number
      }>
      const storedIds = new Set(stored.map((r) => r.id))
      const ids = hook.posts.map((p) => p.webhookId)
      // Figures, for the record: acknowledged, stored, delivered, duplicates (allowed after a crash).
      console.log(
        JSON.stringify({
          target: target.name,
          acknowledged: acknowledged.length,
          stored: stored.length,
          delivered: delivered().size,
          duplicates: ids.length - new Set(ids).size
        })
      )
      expect(acknowledged.every((id) => storedIds.has(id))).toBe(true)
      expect(complete).toBe(true)
      second.child.kill("SIGTERM")
      await stopped(second.child)
      await hook.close()
      await cleanup()
      // Two server processes, a burst, a SIGKILL and a restart: ~25 s alone; over 90 s seen on a loaded 2-core machine.
    }, 240_000)

    if (target.name === "postgres") {
      it("two servers on one PostgreSQL deliver every event exactly once", async () => {
        const { cleanup, db } = target.db()
        const hook = await receiver()
        // Delivery is at least once: a post that times out is posted again, and on a loaded machine a post to
        // this receiver once took longer than the 2 s the other tests use (121 posts for 120 events). What this
        // test holds is that two workers never claim the same delivery, so no post may time out here.
        const slowPosts = { QFORMS_TEST_DELIVERY_TIMEOUT_MS: "60000" }
        const one = await serve(db, slowPosts)
        children.push(one.child)
        const two = await serve(db, slowPosts)
        children.push(two.child)
        const key = one.key!
        const { fieldId, formId } = await setUp(one.url, key, hook.url)
        const acknowledged: Array<number> = []
        await Promise.all(
          Array.from({ length: 120 }, async (_, i) => {
            const reply = await call(i % 2 === 0 ? one.url : two.url, key, "POST", `/forms/${formId}/responses`, {
              values: { [fieldId]: `n${i}` }
            })
            expect(reply.status).toBe(201)
            acknowledged.push(reply.json.id)
          })
        )
        expect(await waitFor(() => new Set(hook.posts.map((p) => p.responseId)).size >= 120, 30_000)).toBe(true)
        await new Promise((resolve) => setTimeout(resolve, 500))
        const ids = hook.posts.map((p) => p.webhookId)
        expect(ids.length).toBe(120)
        expect(new Set(ids).size).toBe(120)
        one.child.kill("SIGTERM")
        two.child.kill("SIGTERM")
        await Promise.all([stopped(one.child), stopped(two.child)])
        await hook.close()
        await cleanup()
      }, 240_000)
    }
  })
}
