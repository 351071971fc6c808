/**
 * Uploaded files over HTTP, on a real server on each test database: the
 * public upload route (limits checked on the bytes, streaming), attaching at
 * submission, downloading with the API key, flat answers with links, and the
 * blobs going with their response or form.
 */
import { request as httpRequest } from "node:http"
import { readdirSync, statSync } from "node:fs"
import * as NodePath from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/domain/ApiKeys.ts"
import { Files } from "../src/domain/Files.ts"
import { Workspaces } from "../src/domain/Workspaces.ts"
import { databaseTargets } from "./support/Databases.ts"
import { startTestServer, type TestServer } from "./support/TestServer.ts"

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...new Array(40).fill(7)])
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
const TEXT = Buffer.from("just some text, not an image at all\n")

const seed = Effect.gen(function*() {
  const workspaces = yield* Workspaces
  const keys = yield* ApiKeys
  const a = yield* workspaces.create({ name: "Files A", ownerEmail: "owner-fa@example.com", ownerName: "Owner A" })
  const b = yield* workspaces.create({ name: "Files B", ownerEmail: "owner-fb@example.com", ownerName: "Owner B" })
  const keyA = yield* keys.create(a.workspace.id, { accountId: a.ownerAccountId, name: "a" })
  const keyB = yield* keys.create(b.workspace.id, { accountId: b.ownerAccountId, name: "b" })
  return { a: { workspaceId: a.workspace.id, key: keyA.key }, b: { workspaceId: b.workspace.id, key: keyB.key } }
})

interface Reply {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any
}

/**
 * A raw HTTP request with node:http, so a server that answers before it has
 * read the whole body (a 413 mid-upload) is seen as it answered, whatever
 * happens to the rest of the upload.
 */
const send = (
  url: string,
  options: {
    readonly method?: string
    readonly headers?: Record<string, string | number>
    readonly body?: Buffer | ReadonlyArray<Buffer> | undefined
    /** Pause between body chunks (ms). */
    readonly pauseMs?: number
  } = {}
): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const body = Buffer.concat(chunks)
        let json: unknown = undefined
        if ((response.headers["content-type"] ?? "").includes("json") && body.length > 0) json = JSON.parse(body.toString("utf8"))
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json })
      })
      response.on("error", reject)
    })
    // The server may close the connection while the body is still being sent.
    request.on("error", (error) => (request as { answered?: boolean }).answered ? undefined : reject(error))
    request.on("response", () => ((request as { answered?: boolean }).answered = true))
    const parts = options.body === undefined ? [] : Buffer.isBuffer(options.body) ? [options.body] : options.body
    const write = async () => {
      for (const part of parts) {
        if (request.destroyed || (request as { answered?: boolean }).answered) break
        const ok = request.write(part)
        if (!ok) await new Promise((r) => request.once("drain", r))
        if (options.pauseMs !== undefined) await new Promise((r) => setTimeout(r, options.pauseMs))
      }
      request.end()
    }
    void write().catch(() => undefined)
  })

const BOUNDARY = "----qformsTestBoundary7MA4YWxkTrZu0gW"

/** A multipart body with one file part (or the given raw parts). */
const multipart = (
  file: { readonly name: string; readonly type: string; readonly content: Buffer; readonly field?: string } | undefined,
  fields: Record<string, string> = {}
): Buffer => {
  const chunks: Array<Buffer> = []
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  if (file !== undefined) {
    chunks.push(Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`
    ))
    chunks.push(file.content)
    chunks.push(Buffer.from("\r\n"))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return Buffer.concat(chunks)
}

const multipartHeaders = (body: Buffer) => ({
  "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
  "content-length": body.length
})

/** Every file under a directory, recursively (the blob store's files). */
const filesUnder = (directory: string): Array<string> => {
  const out: Array<string> = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = NodePath.join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else out.push(path)
    }
  }
  walk(directory)
  return out
}

for (const target of databaseTargets) {
  describe(`uploaded files on ${target.name}`, () => {
    let server: TestServer
    let ids: Effect.Success<typeof seed>

    beforeAll(async () => {
      server = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        uploadRateLimit: { requestsPerSecond: 100_000, burst: 100_000 }
      })
      ids = await server.run(seed)
    }, 120_000)

    afterAll(async () => {
      await server?.close()
    })

    const api = async (method: string, path: string, body?: unknown, key = ids.a.key) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
      return send(`${server.url}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": payload.length })
        },
        body: payload
      })
    }

    /** A form with a name question and a file question with these options, in this status. */
    const formWithFile = async (
      options: Record<string, unknown> | null = null,
      status: "draft" | "published" | "closed" = "published",
      key = ids.a.key
    ) => {
      const created = await api("POST", "/forms", {
        title: "Application",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "file", label: "CV", required: true, options },
          { type: "file", label: "Photo", required: false }
        ]
      }, key)
      expect(created.status, created.body.toString()).toBe(201)
      if (status !== "draft") {
        const updated = await api("PATCH", `/forms/${created.json.id}`, { status }, key)
        expect(updated.status).toBe(200)
      }
      const full = await api("GET", `/forms/${created.json.id}`, undefined, key)
      const [name, cv, photo] = full.json.fields as Array<{ id: number }>
      return { id: created.json.id as number, publicId: created.json.publicId as string, name: name!.id, cv: cv!.id, photo: photo!.id }
    }

    const upload = (publicId: string, fieldId: number | string, body: Buffer, headers = multipartHeaders(body)) =>
      send(`${server.url}/f/${publicId}/uploads?fieldId=${fieldId}`, { method: "POST", headers, body })

    const uploadFile = (publicId: string, fieldId: number, file: { name: string; type: string; content: Buffer }) =>
      upload(publicId, fieldId, multipart(file))

    it("stores an upload and serves the same bytes to the API key, as an attachment", async () => {
      const form = await formWithFile({ accept: ["application/pdf"], maxSizeMb: 1 })
      const reply = await uploadFile(form.publicId, form.cv, { name: "cv.pdf", type: "application/pdf", content: PDF })
      expect(reply.status, reply.body.toString()).toBe(201)
      expect(reply.json).toEqual({ fileId: expect.stringMatching(/^file_[A-Za-z0-9_-]{22}$/), name: "cv.pdf", size: PDF.length, type: "application/pdf" })
      const download = await send(`${server.url}/api/files/${reply.json.fileId}`, { headers: { authorization: `Bearer ${ids.a.key}` } })
      expect(download.status).toBe(200)
      expect(download.body.equals(PDF)).toBe(true)
      expect(download.headers["content-type"]).toBe("application/pdf")
      expect(download.headers["content-disposition"]).toBe("attachment; filename=\"cv.pdf\"; filename*=UTF-8''cv.pdf")
      expect(download.headers["x-content-type-options"]).toBe("nosniff")
    })
  })
}

void statSync
void filesUnder
void Files
void PNG
void TEXT
