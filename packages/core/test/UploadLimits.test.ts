/**
 * One upload limiter for every path that stores a respondent's file (the
 * upload route and the no-JavaScript file step of the public page), keyed by
 * the trusted client address, and the storage quotas per form and per
 * workspace: on real servers, on each test database.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { databaseTargets, postgresUrl } from "@qforms/test-kit/Databases"
import { createForm, getPage, hidden, tokenOf } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { waitFor } from "@qforms/test-kit/Conditions"

/** A file of `size` bytes (not an image: any type is accepted by the questions here). */
const bytesOf = (size: number) => Buffer.alloc(size, 0x61)

const seedWorkspace = (server: TestServer, name: string) =>
  server.run(
    Effect.gen(function* () {
      const made = yield* (yield* Workspaces).create({
        name,
        ownerEmail: `owner-${name}@example.com`,
        ownerName: "Owner"
      })
      const key = yield* (yield* ApiKeys).create(made.workspace.id, { accountId: made.ownerAccountId, name: "owner" })
      return { workspaceId: made.workspace.id, key: key.key }
    })
  )

/** A published form with one file question (any type, 1 MB) and a text question after it. */
const fileForm = async (server: TestServer, key: string) => {
  const form = await createForm(server, key, {
    title: "Upload",
    fields: [
      { type: "file", label: "Document", required: true, options: { maxSizeMb: 1 } },
      { type: "short_text", label: "Note" }
    ]
  })
  return { id: form.id, publicId: form.publicId, fileField: form.fields[0]!.id }
}
type FileForm = Awaited<ReturnType<typeof fileForm>>

interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any
}

const reply = async (response: Response): Promise<Reply> => {
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text.startsWith("{") ? JSON.parse(text) : undefined
  }
}

/** The JavaScript path: `POST /f/{publicId}/uploads?fieldId=`. */
const uploadJs = async (server: TestServer, form: FileForm, content: Buffer, headers: Record<string, string> = {}) => {
  const body = new FormData()
  body.set("file", new Blob([content], { type: "text/plain" }), "note.txt")
  return reply(
    await fetch(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.fileField}`, { method: "POST", body, headers })
  )
}

/** The question screen of the form's file question (opened from the welcome screen). */
const fileScreen = async (server: TestServer, form: FileForm, headers: Record<string, string> = {}) => {
  const welcome = await getPage(server, `/f/${form.publicId}`, headers)
  const started = await fetch(`${server.url}/f/${form.publicId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams([
      ["token", tokenOf(welcome.text)],
      ["at", "welcome"],
      ["website", ""],
      ["move", "start"]
    ]).toString()
  })
  const page = await started.text()
  expect(hidden(page, "at")).toBe(String(form.fileField))
  return page
}

/** The no-JavaScript path: the file question's step posted as multipart with the file. */
const uploadStep = async (
  server: TestServer,
  form: FileForm,
  screen: string,
  content: Buffer,
  headers: Record<string, string> = {}
) => {
  const body = new FormData()
  body.set("token", tokenOf(screen))
  body.set("at", hidden(screen, "at"))
  body.set("website", "")
  body.set("a", "")
  body.set("file", new Blob([content], { type: "text/plain" }), "note.txt")
  body.set("move", "next")
  return reply(await fetch(`${server.url}/f/${form.publicId}`, { method: "POST", body, headers }))
}

/** Every file under a directory, recursively, but unfinished writes (the blob store's objects). */
const blobsUnder = (directory: string): Array<string> => {
  const out: Array<string> = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = NodePath.join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else out.push(path)
    }
  }
  walk(directory)
  return out.filter((path) => !path.includes(`${NodePath.sep}.partial${NodePath.sep}`))
}

/** Unfinished writes of the blob store (an upload streaming in). */
const partialsUnder = (directory: string): number => {
  const partials = NodePath.join(directory, ".partial")
  return existsSync(partials) ? readdirSync(partials).length : 0
}

const BOUNDARY = "----qformsQuotaRace"

/**
 * An upload to the route sent in two halves: `started` resolves once the first
 * half (the part's headers and the first bytes) is written, `finish()` sends
 * the rest; the reply is the route's answer.
 */
const heldUpload = (server: TestServer, form: FileForm, content: Buffer) => {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\n`
  )
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  const half = Math.floor(content.length / 2)
  const body = [Buffer.concat([head, content.subarray(0, half)]), Buffer.concat([content.subarray(half), tail])]
  let finish: () => void = () => undefined
  const reply = new Promise<{ status: number; json: { error?: string; fileId?: string } }>((resolve, reject) => {
    const request = httpRequest(
      `${server.url}/f/${form.publicId}/uploads?fieldId=${form.fileField}`,
      {
        method: "POST",
        headers: {
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
          "content-length": body[0]!.length + body[1]!.length
        }
      },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) })
        )
        response.on("error", reject)
      }
    )
    request.on("error", reject)
    request.write(body[0])
    finish = () => request.end(body[1])
  })
  return { reply, finish: () => finish() }
}

const fileRows = (server: TestServer, formId: number) =>
  server.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{
        readonly id: string
        readonly size: number
      }>`select id, size from files where form_id = ${formId}`
    }).pipe(Effect.orDie)
  )

for (const target of databaseTargets) {
  describe(`one upload limiter for every upload path, on ${target.name}`, () => {
    // Burst of 3 uploads per address, no refill within a test.
    const uploadRateLimit = { requestsPerSecond: 0.001, burst: 3 }
    const steps = { stepRateLimit: { requestsPerSecond: 1000, burst: 1000 } }
    let proxied: TestServer
    let direct: TestServer
    let key: string
    let directKey: string

    beforeAll(async () => {
      proxied = await startTestServer(target, { uploadRateLimit, publicPage: { ...steps, trustedProxyHops: 1 } })
      direct = await startTestServer(target, { uploadRateLimit, publicPage: { ...steps, trustedProxyHops: 0 } })
      key = (await seedWorkspace(proxied, "proxied")).key
      directKey = (await seedWorkspace(direct, "direct")).key
    })

    afterAll(async () => {
      await proxied?.close()
      await direct?.close()
    })

    it("limits the no-JavaScript file step: past the burst, the step shows the question again with 429 and nothing is stored", async () => {
      const from = { "x-forwarded-for": "198.51.100.10" }
      const form = await fileForm(proxied, key)
      const screen = await fileScreen(proxied, form, from)
      const statuses: Array<number> = []
      let last: Reply | undefined
      for (let i = 0; i < 5; i++) {
        last = await uploadStep(proxied, form, screen, bytesOf(100), from)
        statuses.push(last.status)
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      expect(last!.headers.get("content-type")).toContain("text/html")
      // The question again, its message beside it.
      expect(hidden(last!.text, "at")).toBe(String(form.fileField))
      expect(last!.text).toMatch(/class="error"[^>]*>[^<]*too many uploads from this address/)
      expect(await fileRows(proxied, form.id)).toHaveLength(3)
    })

    it("the upload route and the file step take from one bucket per address", async () => {
      const from = { "x-forwarded-for": "198.51.100.20" }
      const form = await fileForm(proxied, key)
      const screen = await fileScreen(proxied, form, from)
      expect((await uploadJs(proxied, form, bytesOf(10), from)).status).toBe(201)
      expect((await uploadStep(proxied, form, screen, bytesOf(10), from)).status).toBe(200)
      expect((await uploadJs(proxied, form, bytesOf(10), from)).status).toBe(201)
      const js = await uploadJs(proxied, form, bytesOf(10), from)
      expect(js.status).toBe(429)
      expect(js.json.error).toContain("too many uploads")
      expect(Number(js.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      expect((await uploadStep(proxied, form, screen, bytesOf(10), from)).status).toBe(429)
      expect(await fileRows(proxied, form.id)).toHaveLength(3)
    })

    it("behind one trusted proxy, two clients have a bucket each", async () => {
      const form = await fileForm(proxied, key)
      const first = { "x-forwarded-for": "198.51.100.30" }
      for (let i = 0; i < 3; i++) expect((await uploadJs(proxied, form, bytesOf(10), first)).status).toBe(201)
      expect((await uploadJs(proxied, form, bytesOf(10), first)).status).toBe(429)
      // The proxy appends the client it saw: a client's own forged entries come before it.
      const second = { "x-forwarded-for": "203.0.113.99, 198.51.100.31" }
      expect((await uploadJs(proxied, form, bytesOf(10), second)).status).toBe(201)
      const screen = await fileScreen(proxied, form, second)
      expect((await uploadStep(proxied, form, screen, bytesOf(10), second)).status).toBe(200)
    })

    it("with no trusted proxy, a forged X-Forwarded-For gives no new bucket on either path", async () => {
      const form = await fileForm(direct, directKey)
      for (let i = 0; i < 3; i++) {
        expect((await uploadJs(direct, form, bytesOf(10), { "x-forwarded-for": `192.0.2.${i}` })).status).toBe(201)
      }
      expect((await uploadJs(direct, form, bytesOf(10), { "x-forwarded-for": "192.0.2.200" })).status).toBe(429)
      const forged = { "x-forwarded-for": "192.0.2.201" }
      const screen = await fileScreen(direct, form, forged)
      expect((await uploadStep(direct, form, screen, bytesOf(10), forged)).status).toBe(429)
      expect(await fileRows(direct, form.id)).toHaveLength(3)
    })
  })

  describe(`storage quotas, on ${target.name}`, () => {
    let server: TestServer
    let directory: string
    let a: { workspaceId: number; key: string }
    let b: { workspaceId: number; key: string }

    beforeAll(async () => {
      directory = mkdtempSync(NodePath.join(tmpdir(), "qforms-quota-test-"))
      server = await startTestServer(target, {
        uploadRateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        publicPage: { stepRateLimit: { requestsPerSecond: 100_000, burst: 100_000 } },
        uploads: { maxBytesPerForm: 1000, maxBytesPerWorkspace: 2500 },
        filesDirectory: directory
      })
      a = await seedWorkspace(server, "quota-a")
      b = await seedWorkspace(server, "quota-b")
    })

    afterAll(async () => {
      await server?.close()
      rmSync(directory, { recursive: true, force: true })
    })

    it("a form over its quota: 413 naming the per-form quota, on both paths, with no row and no blob left", async () => {
      const form = await fileForm(server, a.key)
      expect((await uploadJs(server, form, bytesOf(600))).status).toBe(201)
      const blobs = blobsUnder(directory).length
      const refused = await uploadJs(server, form, bytesOf(600))
      expect(refused.status).toBe(413)
      expect(refused.json.error).toContain("per-form quota")
      const screen = await fileScreen(server, form)
      const page = await uploadStep(server, form, screen, bytesOf(600))
      expect(page.status).toBe(413)
      expect(hidden(page.text, "at")).toBe(String(form.fileField))
      expect(page.text).toMatch(/class="error"[^>]*>[^<]*per-form quota/)
      expect((await fileRows(server, form.id)).map((row) => row.size)).toEqual([600])
      expect(blobsUnder(directory)).toHaveLength(blobs)
      // What still fits is taken.
      expect((await uploadJs(server, form, bytesOf(400))).status).toBe(201)
    })

    it("a workspace over its quota: 413 naming the per-workspace quota; another workspace is unaffected", async () => {
      // Workspace a holds 1000 bytes from the test before (its forms count together).
      const second = await fileForm(server, a.key)
      const third = await fileForm(server, a.key)
      expect((await uploadJs(server, second, bytesOf(900))).status).toBe(201)
      const blobs = blobsUnder(directory).length
      const refused = await uploadJs(server, third, bytesOf(700))
      expect(refused.status).toBe(413)
      expect(refused.json.error).toContain("per-workspace quota")
      expect(await fileRows(server, third.id)).toEqual([])
      expect(blobsUnder(directory)).toHaveLength(blobs)
      expect((await uploadJs(server, third, bytesOf(600))).status).toBe(201)
      const other = await fileForm(server, b.key)
      expect((await uploadJs(server, other, bytesOf(1000))).status).toBe(201)
    })

    it("uploads racing for the last bytes: exactly those that fit are stored", async () => {
      const fresh = await seedWorkspace(server, "quota-race")
      const form = await fileForm(server, fresh.key)
      const blobs = blobsUnder(directory).length
      // Six uploads of 600 bytes where 1000 fit: all of them pass the early checks (nothing is
      // stored yet) and stream into the blob store before any is finished, so they meet at the insert.
      const held = Array.from({ length: 6 }, () => heldUpload(server, form, bytesOf(600)))
      await waitFor(() => partialsUnder(directory) === 6, 30_000)
      for (const upload of held) upload.finish()
      const replies = await Promise.all(held.map((upload) => upload.reply))
      const statuses = replies.map((r) => r.status).sort()
      expect(statuses).toEqual([201, 413, 413, 413, 413, 413])
      expect((await fileRows(server, form.id)).map((row) => row.size)).toEqual([600])
      expect(blobsUnder(directory)).toHaveLength(blobs + 1)
      for (const r of replies.filter((r) => r.status === 413)) expect(r.json.error).toContain("per-form quota")
    })

    // PostgreSQL only (PGlite has one connection: its transactions never overlap). The test holds
    // the files table so that no insert can proceed: both uploads check the quota, and wait at
    // their insert — or, with the quota lock, the second waits before its check — then both go on.
    it.runIf(target.name === "postgres")(
      "two uploads whose transactions overlap: the second sees the first before it checks",
      async () => {
        const fresh = await seedWorkspace(server, "quota-overlap")
        const form = await fileForm(server, fresh.key)
        const blobs = blobsUnder(directory).length
        let release: () => void = () => undefined
        const released = new Promise<void>((resolve) => (release = resolve))
        let locked: () => void = () => undefined
        const isLocked = new Promise<void>((resolve) => (locked = resolve))
        const locker = server.run(
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            yield* sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`lock table files in exclusive mode`
                yield* Effect.sync(() => locked())
                yield* Effect.promise(() => released)
              })
            )
          }).pipe(Effect.orDie)
        )
        await isLocked
        const racing = [uploadJs(server, form, bytesOf(600)), uploadJs(server, form, bytesOf(600))]
        // Seen from a connection of its own (the server's pool is busy with the racing uploads).
        const waiting = () =>
          Effect.runPromise(
            Effect.gen(function* () {
              const sql = yield* SqlClient.SqlClient
              const rows = yield* sql<{ readonly n: number }>`
            select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'
              and (query like '%insert into files%' or query like '%for no key update%')`
              return rows[0]!.n
            }).pipe(
              Effect.provide(PgClient.layer({ url: Redacted.make(postgresUrl!), maxConnections: 1 })),
              Effect.orDie
            )
          )
        await waitFor(async () => (await waiting()) >= 2, 30_000)
        release()
        await locker
        const replies = await Promise.all(racing)
        expect(replies.map((r) => r.status).sort()).toEqual([201, 413])
        expect((await fileRows(server, form.id)).map((row) => row.size)).toEqual([600])
        expect(blobsUnder(directory)).toHaveLength(blobs + 1)
      }
    )
  })
}
