/**
 * Scenario 17, limits shared by two processes: two standalone servers on one
 * PostgreSQL schema, with `QFORMS_RATE_LIMIT_STORE=database` (and with Redis
 * when QFORMS_TEST_REDIS_URL is set). A client that alternates between the two
 * gets each limit once, not once per process: the API key's budget, the upload
 * limit of its address, the application's sign-in attempts of its address.
 * The sign-in lockout of an account and the storage quota of a form hold
 * across the two as well (those are always in the database): a quota of two
 * files' size is not exceeded by uploads racing on both processes.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  api,
  baseEnv,
  cliOk,
  firstStartKey,
  type ProcessDatabase,
  record,
  type ServerProcess,
  spawnServer,
  targets
} from "./support/Harness.ts"

const postgres = targets.find((target) => target.name === "postgres")
const redisUrl = process.env.QFORMS_TEST_REDIS_URL

/** The key's budget: 30 requests, refilled at one per 100 s (none within the scenario). */
const API_BURST = 30
/** Uploads per address: a burst of 3, refilled at 3 a minute (one per 20 s: none within a check). */
const UPLOAD_BURST = 3
/** One file's size; the form's quota holds two. */
const FILE_BYTES = 1_000
/** The application's sign-in attempts per address (`App.defaultSignInRateLimit`) and the lockout's count (`Sessions.maxFailedSignIns`). */
const SIGN_IN_BURST = 10
const LOCKOUT_AFTER = 5

const stores = [
  { name: "database", value: "database" },
  ...(redisUrl === undefined ? [] : [{ name: "Redis", value: redisUrl }])
]

describe.skipIf(postgres === undefined)("limits shared by two processes on postgres", () => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  for (const store of stores) {
    it(`with the rate limits in ${store.name}: one budget for both processes`, async () => {
      const db: ProcessDatabase = postgres!.make()
      cleanups.push(() => db.cleanup())
      const env = {
        ...baseEnv,
        ...db.env,
        QFORMS_RATE_LIMIT_STORE: store.value,
        // Each run's buckets apart from earlier runs' (their keys' ids start at 1 again in a fresh schema).
        QFORMS_RATE_LIMIT_REDIS_PREFIX: `qforms-test:${process.pid}:${Date.now()}:`,
        QFORMS_OWNER_EMAIL: "owner@example.com",
        QFORMS_RATE_LIMIT_PER_SECOND: "0.01",
        QFORMS_RATE_LIMIT_BURST: String(API_BURST),
        QFORMS_UPLOADS_PER_MINUTE: String(UPLOAD_BURST),
        QFORMS_UPLOAD_QUOTA_FORM_BYTES: String(2 * FILE_BYTES)
      }
      const servers: Array<ServerProcess> = []
      cleanups.push(async () => {
        for (const server of servers) await server.stop()
      })
      const a = spawnServer(env)
      servers.push(a)
      const urlA = await a.listening
      const key = firstStartKey(a)
      const b = spawnServer(env)
      servers.push(b)
      const urlB = await b.listening
      const both = [urlA, urlB]
      let apiCalls = 0
      const call = async (url: string, method: string, path: string, body?: unknown) => {
        apiCalls += 1
        return api(url, method, path, { key, body })
      }

      // Two forms with a file question (the first for the upload limit, the second for the quota).
      const fileForm = async (title: string) => {
        const created = await call(urlA, "POST", "/forms", {
          title,
          fields: [{ type: "file", label: "Document", required: true }]
        })
        expect(created.status).toBe(201)
        expect((await call(urlB, "PATCH", `/forms/${created.body.id}`, { status: "published" })).status).toBe(200)
        const form = await call(urlA, "GET", `/forms/${created.body.id}`)
        return {
          id: created.body.id as number,
          publicId: created.body.publicId as string,
          fieldId: form.body.fields[0].id as number
        }
      }
      const limited = await fileForm("Limited")
      const quota = await fileForm("Quota")

      const upload = async (url: string, form: { publicId: string; fieldId: number }, bytes: number) => {
        const body = new FormData()
        body.set("file", new Blob([new Uint8Array(bytes).fill(65)], { type: "text/plain" }), "note.txt")
        const response = await fetch(`${url}/f/${form.publicId}/uploads?fieldId=${form.fieldId}`, {
          method: "POST",
          body
        })
        return { status: response.status, retryAfter: response.headers.get("retry-after") }
      }

      // Uploads from one address, alternating between the processes: the burst once in all.
      const uploads = []
      for (let i = 0; i < 2 * UPLOAD_BURST + 2; i++) uploads.push(await upload(both[i % 2]!, limited, 10))
      expect(uploads.map((u) => u.status)).toEqual([
        ...Array.from({ length: UPLOAD_BURST }, () => 201),
        ...Array.from({ length: UPLOAD_BURST + 2 }, () => 429)
      ])
      expect(uploads.every((u) => u.status === 201 || Number(u.retryAfter) >= 1)).toBe(true)

      // The storage quota under uploads racing on both processes: exactly two files fit. Every client here is
      // 127.0.0.1, whose upload limit is spent: this part goes through a second pair of servers whose upload
      // limit is out of the way.
      const quotaEnv = { ...env, QFORMS_UPLOADS_PER_MINUTE: "100000" }
      const c = spawnServer(quotaEnv)
      servers.push(c)
      const d = spawnServer(quotaEnv)
      servers.push(d)
      const quotaUrls = [await c.listening, await d.listening]
      const raced = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(quotaUrls[i % 2]!, quota, FILE_BYTES)))
      expect(raced.filter((r) => r.status === 201)).toHaveLength(2)
      expect(raced.filter((r) => r.status === 413)).toHaveLength(6)

      // The key's budget: whatever the set-up left, spent once across both processes.
      const left = API_BURST - apiCalls
      const answers: Array<number> = []
      for (let i = 0; i < left + 4; i++) answers.push((await api(both[i % 2]!, "GET", "/forms", { key })).status)
      expect(answers).toEqual([...Array.from({ length: left }, () => 200), 429, 429, 429, 429])

      // Sign-in: the lockout after five wrong passwords, and the attempts of an address, across both.
      const { password } = JSON.parse(await cliOk(["account", "set-password", "--email", "owner@example.com"], db.env))
      const signIn = async (url: string, secret: string) => {
        const response = await fetch(`${url}/app/sign-in`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
          body: new URLSearchParams({ email: "owner@example.com", password: secret }).toString()
        })
        return { status: response.status, text: await response.text() }
      }
      const wrong = []
      for (let i = 0; i < LOCKOUT_AFTER; i++) wrong.push(await signIn(both[i % 2]!, "not the password at all"))
      expect(wrong.slice(0, LOCKOUT_AFTER - 1).map((w) => w.status)).toEqual([401, 401, 401, 401])
      // The right password on the other process meets the lockout.
      const locked = await signIn(urlB, password)
      expect(locked.status).toBe(429)
      expect(locked.text).toContain("locked")
      // Attempts so far: 6 of the address's 10, whichever process took them.
      const more = []
      for (let i = LOCKOUT_AFTER + 1; i < SIGN_IN_BURST + 2; i++) more.push(await signIn(both[i % 2]!, password))
      expect(more.slice(0, SIGN_IN_BURST - LOCKOUT_AFTER - 1).every((m) => m.text.includes("locked"))).toBe(true)
      expect(
        more.slice(SIGN_IN_BURST - LOCKOUT_AFTER - 1).map((m) => m.text.includes("Too many sign-in attempts"))
      ).toEqual([true, true])

      record({
        scenario: "Limits shared by two processes",
        target: `postgres, ${store.name} store`,
        figures: {
          "uploads allowed of 8 across both": uploads.filter((u) => u.status === 201).length,
          "files stored of 8 racing against a 2-file quota": raced.filter((r) => r.status === 201).length,
          "API budget across both": answers.filter((s) => s === 200).length + apiCalls,
          "sign-in attempts before 429 across both": SIGN_IN_BURST
        }
      })
    })
  }
})
