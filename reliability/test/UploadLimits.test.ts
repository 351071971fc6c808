/**
 * Scenario 16, upload limits: every path that stores a respondent's file on
 * the real standalone — the upload route (`POST /f/{publicId}/uploads`, the
 * page's script) and the multipart step of the public page (no JavaScript) —
 * is sent more files than the per-address burst (5 here) from one client address
 * behind a trusted proxy (`QFORMS_TRUSTED_PROXY_HOPS=1`). Past the burst each
 * path must refuse with 429 and `Retry-After` (the page: its question again,
 * with the message) and store nothing; the two paths share one bucket; another
 * client address still uploads; a forged `X-Forwarded-For` entry before the
 * proxy's does not give a new bucket. A form over its storage quota
 * (`QFORMS_UPLOAD_QUOTA_FORM_BYTES`) answers 413 on both paths.
 * A new upload path belongs in `uploadPaths` below.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  api,
  baseEnv,
  firstStartKey,
  type ProcessDatabase,
  record,
  type ServerProcess,
  spawnServer,
  targets
} from "./support/Harness.ts"

const target = targets[0]!

/** The upload limit of the scenario (`QFORMS_UPLOADS_PER_MINUTE`): a burst of 5, then one every 12 s (no refill within a check). */
const BURST = 5

/** A published form with one file question; its public id and the question's id. */
const fileForm = async (url: string, key: string) => {
  const created = await api(url, "POST", "/forms", {
    key,
    body: {
      title: "Files",
      fields: [
        { type: "file", label: "Document", required: true },
        { type: "short_text", label: "Note" }
      ]
    }
  })
  if (created.status !== 201) throw new Error(`POST /forms: ${created.status} ${JSON.stringify(created.body)}`)
  await api(url, "PATCH", `/forms/${created.body.id}`, { key, body: { status: "published" } })
  const form = await api(url, "GET", `/forms/${created.body.id}`, { key })
  return {
    id: created.body.id as number,
    publicId: created.body.publicId as string,
    fieldId: form.body.fields[0].id as number
  }
}
type FileForm = Awaited<ReturnType<typeof fileForm>>

const inputOf = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? ""

/** What one upload came to: stored, refused by the limit (429 with Retry-After), or something else. */
interface Outcome {
  readonly status: number
  readonly retryAfter: string | null
  readonly text: string
}

/** One way of storing a file. */
interface UploadPath {
  readonly name: string
  readonly stored: number
  readonly send: (url: string, form: FileForm, headers: Record<string, string>, content: Uint8Array) => Promise<Outcome>
}

const file = (content: Uint8Array) => new Blob([new Uint8Array(content)], { type: "text/plain" })

/** Every path that stores a respondent's file. */
const uploadPaths: ReadonlyArray<UploadPath> = [
  {
    name: "upload route (JavaScript)",
    stored: 201,
    send: async (url, form, headers, content) => {
      const body = new FormData()
      body.set("file", file(content), "note.txt")
      const response = await fetch(`${url}/f/${form.publicId}/uploads?fieldId=${form.fieldId}`, {
        method: "POST",
        body,
        headers
      })
      return { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() }
    }
  },
  {
    name: "multipart step (no JavaScript)",
    stored: 200,
    send: async (url, form, headers, content) => {
      const welcome = await (await fetch(`${url}/f/${form.publicId}`, { headers })).text()
      const started = await (
        await fetch(`${url}/f/${form.publicId}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams([
            ["token", inputOf(welcome, "token")],
            ["at", "welcome"],
            ["website", ""],
            ["move", "start"]
          ]).toString()
        })
      ).text()
      const body = new FormData()
      body.set("token", inputOf(started, "token"))
      body.set("at", inputOf(started, "at"))
      body.set("website", "")
      body.set("a", "")
      body.set("file", file(content), "note.txt")
      body.set("move", "next")
      const response = await fetch(`${url}/f/${form.publicId}`, { method: "POST", body, headers })
      return { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() }
    }
  }
]

describe(`upload limits on ${target.name}`, () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  afterAll(async () => {
    await server?.stop()
    await db?.cleanup()
  })

  it("every upload path is limited per trusted client address, in one bucket, and keeps to the storage quota", async () => {
    db = target.make()
    server = spawnServer({
      ...baseEnv,
      ...db.env,
      QFORMS_TRUSTED_PROXY_HOPS: "1",
      QFORMS_UPLOADS_PER_MINUTE: String(BURST),
      QFORMS_UPLOAD_QUOTA_FORM_BYTES: "100000"
    })
    const url = (await server.waitFor(/qforms listening on (\S+)/, 240_000))[1]!
    const key = firstStartKey(server)
    const small = new Uint8Array(100).fill(0x61)
    const figures: Record<string, number | string | boolean> = {}

    // Each path alone: the burst, then refusals, from one client address.
    for (const [i, path] of uploadPaths.entries()) {
      const form = await fileForm(url, key)
      const from = { "x-forwarded-for": `198.51.100.${10 + i}` }
      const outcomes: Array<Outcome> = []
      for (let n = 0; n < BURST + 3; n++) outcomes.push(await path.send(url, form, from, small))
      const accepted = outcomes.filter((o) => o.status === path.stored).length
      const refused = outcomes.filter((o) => o.status === 429)
      expect(accepted, path.name).toBe(BURST)
      expect(refused, path.name).toHaveLength(3)
      for (const o of refused) {
        expect(Number(o.retryAfter), path.name).toBeGreaterThanOrEqual(1)
        expect(o.text, path.name).toContain("too many uploads")
      }
      // A forged entry before the proxy's gives no new bucket; another client has its own.
      expect(
        (await path.send(url, form, { "x-forwarded-for": `203.0.113.1, 198.51.100.${10 + i}` }, small)).status
      ).toBe(429)
      expect((await path.send(url, form, { "x-forwarded-for": `198.51.100.${110 + i}` }, small)).status).toBe(
        path.stored
      )
      figures[`${path.name}: accepted / refused`] = `${accepted} / ${refused.length}`
    }

    // Both paths from one address: one bucket.
    const shared = await fileForm(url, key)
    const from = { "x-forwarded-for": "198.51.100.50" }
    for (let n = 0; n < BURST; n++) {
      const path = uploadPaths[n % uploadPaths.length]!
      expect((await path.send(url, shared, from, small)).status).toBe(path.stored)
    }
    for (const path of uploadPaths) expect((await path.send(url, shared, from, small)).status, path.name).toBe(429)
    figures["paths sharing one bucket"] = true

    // The per-form quota (100 000 bytes): 60 000 fit, 60 000 more do not, on any path.
    const quota = await fileForm(url, key)
    const big = new Uint8Array(60_000).fill(0x62)
    expect((await uploadPaths[0]!.send(url, quota, { "x-forwarded-for": "198.51.100.60" }, big)).status).toBe(201)
    for (const [i, path] of uploadPaths.entries()) {
      const over = await path.send(url, quota, { "x-forwarded-for": `198.51.100.${61 + i}` }, big)
      expect(over.status, path.name).toBe(413)
      expect(over.text, path.name).toContain("per-form quota")
    }
    figures["quota refusals (413)"] = uploadPaths.length

    record({ scenario: "16 upload limits", target: target.name, figures })
  }, 300_000)
})
