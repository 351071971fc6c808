/**
 * Uploaded files over HTTP, on a real server on each test database: the
 * public upload route (limits checked on the bytes, streaming), attaching at
 * submission, downloading with the API key, flat answers with links, and the
 * blobs going with their response or form. Every case runs on each blob store
 * (a local directory, S3 on a local s3rver) as well as on each database.
 */
import { request as httpRequest } from "node:http"
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Events } from "../src/events/Events.ts"
import { cleanFileName, Files, matchesAccept, sniff } from "../src/files/Files.ts"
import { attachment } from "../src/http/handlers/FilesHandlers.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import * as Qforms from "../src/Qforms.ts"
import { startTestServer, type TestServer, type TestServerOptions } from "@qforms/test-kit/TestServer"
import { startS3Server } from "@qforms/test-kit/S3Server"
import * as S3BlobStore from "../src/files/S3BlobStore.ts"

const PNG = Buffer.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
  ...new Array(40).fill(7)
])
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
const TEXT = Buffer.from("just some text, not an image at all\n")

const seed = Effect.gen(function* () {
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
    const request = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers ?? {} },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const body = Buffer.concat(chunks)
          let json: unknown
          if ((response.headers["content-type"] ?? "").includes("json") && body.length > 0)
            json = JSON.parse(body.toString("utf8"))
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json })
        })
        response.on("error", reject)
      }
    )
    // The server may close the connection while the body is still being sent.
    request.on("error", (error) => ((request as { answered?: boolean }).answered ? undefined : reject(error)))
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
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`
      )
    )
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

/** A blob store the server runs on, and what is in it, read from the storage itself. */
interface StoreTarget {
  readonly name: string
  /** Whether the test can make this store fail in the middle of a write (`breakWrites`). */
  readonly canBreak: boolean
  readonly start: () => Promise<{
    readonly options: Pick<TestServerOptions, "filesDirectory" | "filesStore">
    /** The stored objects (paths or keys, each ending with its file id). */
    readonly blobs: () => ReadonlyArray<string>
    /** The bytes of each unfinished write (a partial file, an unfinished multipart upload). */
    readonly partials: () => ReadonlyArray<number>
    /** Makes the store fail the writes from now on (`false` ends it); not every store can. */
    readonly breakWrites?: (broken: boolean) => void
    readonly close: () => Promise<void>
  }>
}

const storeTargets: ReadonlyArray<StoreTarget> = [
  {
    name: "a local directory",
    canBreak: false,
    start: async () => {
      const directory = mkdtempSync(NodePath.join(tmpdir(), "qforms-files-test-"))
      const partial = `${NodePath.sep}.partial${NodePath.sep}`
      return {
        options: { filesDirectory: directory },
        blobs: () => filesUnder(directory).filter((path) => !path.includes(partial)),
        partials: () =>
          filesUnder(directory)
            .filter((path) => path.includes(partial))
            .map((path) => statSync(path).size),
        close: async () => rmSync(directory, { recursive: true, force: true })
      }
    }
  },
  {
    name: "S3",
    canBreak: true,
    start: async () => {
      const s3 = await startS3Server()
      return {
        options: {
          filesStore: S3BlobStore.layer({
            bucket: s3.bucket,
            prefix: "files",
            endpoint: s3.endpoint,
            region: "us-east-1",
            forcePathStyle: true,
            credentials: s3.credentials
          })
        },
        blobs: s3.objectKeys,
        partials: () => s3.pendingUploads().map((upload) => upload.bytes),
        // Every part after the first one has its connection reset: the store fails in the middle of an upload.
        breakWrites: (broken) => s3.resetPartsAfter(broken ? 1 : undefined),
        close: s3.close
      }
    }
  }
]

const MB = 1024 * 1024

describe("content types", () => {
  const bytes = (...parts: Array<string | ReadonlyArray<number>>) =>
    new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : [...p])))

  it("sniffs images and PDF by their first bytes, nothing else", () => {
    expect(sniff(PNG)).toBe("image/png")
    expect(sniff(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg")
    expect(sniff(bytes("GIF89a"))).toBe("image/gif")
    expect(sniff(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("image/webp")
    expect(sniff(PDF)).toBe("application/pdf")
    expect(sniff(bytes([0, 0, 0, 28], "ftypheic", [0, 0, 0, 0]))).toBe("image/heic")
    expect(sniff(bytes([0, 0, 0, 28], "ftypavif", [0, 0, 0, 0]))).toBe("image/avif")
    expect(sniff(bytes([0, 0, 0, 28], "ftypisom", [0, 0, 0, 0]))).toBeUndefined()
    expect(sniff(TEXT)).toBeUndefined()
    expect(sniff(bytes("PK", [3, 4]))).toBeUndefined()
    expect(sniff(new Uint8Array(0))).toBeUndefined()
  })

  it.each([
    [["image/*"], "image/png", "application/octet-stream", "x.bin", true],
    [["image/png"], "application/pdf", "image/png", "x.png", false],
    [[".png"], "application/pdf", "image/png", "x.png", false],
    [[".jpg"], "image/jpeg", "image/jpeg", "x.jpeg", true],
    [["image/jpg"], "image/jpeg", "image/jpeg", "x.jpg", true],
    [["application/pdf"], "application/pdf", undefined, "x", true],
    [["image/*", ".pdf"], undefined, "image/png", "x.png", false],
    [[".docx"], undefined, undefined, "cv.DOCX", true],
    [[".docx"], "application/pdf", undefined, "cv.docx", false],
    [["text/csv"], undefined, "text/csv", "list.csv", true],
    [["text/*"], undefined, "text/plain", "a.txt", true],
    [["text/*"], "image/png", "text/plain", "a.txt", false],
    [["image/svg+xml"], undefined, "image/svg+xml", "a.svg", true]
  ] as const)("accept %j: sniffed %s, declared %s, name %s → %s", (accept, sniffed, declared, name, expected) => {
    expect(matchesAccept(accept, { sniffed, declared, name })).toBe(expected)
  })

  it("cleans file names and quotes them safely for Content-Disposition", () => {
    expect(cleanFileName("C:\\fakepath\\cv.pdf")).toBe("cv.pdf")
    expect(cleanFileName("../../etc/passwd")).toBe("passwd")
    expect(cleanFileName("a\u0000b\nc.txt")).toBe("abc.txt")
    expect(cleanFileName("..")).toBe("file")
    expect(cleanFileName("")).toBe("file")
    expect(Array.from(cleanFileName(`${"x".repeat(300)}.pdf`)).length).toBe(255)
    expect(attachment("cv.pdf")).toBe("attachment; filename=\"cv.pdf\"; filename*=UTF-8''cv.pdf")
    expect(attachment('a "quoted" (1).pdf')).toBe(
      "attachment; filename=\"a _quoted_ (1).pdf\"; filename*=UTF-8''a%20%22quoted%22%20%281%29.pdf"
    )
    // eslint-disable-next-line no-control-regex
    expect(attachment("Müller 履歴書.pdf")).toMatch(/^[\x20-\x7e]+$/)
  })
})

/** Every database with every blob store. */
const targets = databaseTargets.flatMap((target) => storeTargets.map((storeTarget) => ({ target, storeTarget })))

for (const { target, storeTarget } of targets) {
  describe(`uploaded files on ${target.name}, stored in ${storeTarget.name}`, () => {
    let server: TestServer
    let ids: Effect.Success<typeof seed>
    let store: Awaited<ReturnType<StoreTarget["start"]>>

    beforeAll(async () => {
      store = await storeTarget.start()
      server = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        uploadRateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        ...store.options
      })
      ids = await server.run(seed)
    })

    afterAll(async () => {
      await server?.close()
      await store?.close()
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

    /** A form with a name question and two file questions (CV with these options, Photo without), in this status. */
    const formWithFile = async (
      options: Record<string, unknown> | null = null,
      status: "draft" | "published" | "closed" = "published",
      key = ids.a.key
    ) => {
      const created = await api(
        "POST",
        "/forms",
        {
          title: "Application",
          fields: [
            { type: "short_text", label: "Name", required: true },
            { type: "file", label: "CV", required: true, options },
            { type: "file", label: "Photo", required: false }
          ]
        },
        key
      )
      expect(created.status, created.body.toString()).toBe(201)
      if (status !== "draft") {
        const updated = await api("PATCH", `/forms/${created.json.id}`, { status }, key)
        expect(updated.status).toBe(200)
      }
      const full = await api("GET", `/forms/${created.json.id}`, undefined, key)
      const [name, cv, photo] = full.json.fields as Array<{ id: number }>
      return {
        id: created.json.id as number,
        publicId: created.json.publicId as string,
        name: name!.id,
        cv: cv!.id,
        photo: photo!.id
      }
    }
    type Form = Awaited<ReturnType<typeof formWithFile>>

    const upload = (
      publicId: string,
      fieldId: number | string,
      body: Buffer,
      headers: Record<string, string | number> = multipartHeaders(body)
    ) => send(`${server.url}/f/${publicId}/uploads?fieldId=${fieldId}`, { method: "POST", headers, body })

    const uploadFile = (publicId: string, fieldId: number, file: { name: string; type: string; content: Buffer }) =>
      upload(publicId, fieldId, multipart(file))

    const uploaded = async (
      form: Form,
      fieldId = form.cv,
      file = { name: "cv.pdf", type: "application/pdf", content: PDF }
    ) => {
      const reply = await uploadFile(form.publicId, fieldId, file)
      expect(reply.status, reply.body.toString()).toBe(201)
      return reply.json as { fileId: string; name: string; size: number; type: string }
    }

    const submit = (form: Form, values: Record<string, unknown>, key = ids.a.key) =>
      api("POST", `/forms/${form.id}/responses`, { values: { [form.name]: "Ada", ...values } }, key)

    const download = (fileId: string, key = ids.a.key) =>
      send(`${server.url}/api/files/${fileId}`, { headers: { authorization: `Bearer ${key}` } })

    const fileRows = (fileId: string) =>
      server.run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{
              readonly id: string
              readonly response_id: number | null
            }>`select id, response_id from files where id = ${fileId}`
        )
      )

    describe("upload", () => {
      it("stores an upload and serves the same bytes to the API key, as an attachment", async () => {
        const form = await formWithFile({ accept: ["application/pdf"], maxSizeMb: 1 })
        const reply = await uploadFile(form.publicId, form.cv, {
          name: "cv.pdf",
          type: "application/pdf",
          content: PDF
        })
        expect(reply.status, reply.body.toString()).toBe(201)
        expect(reply.json).toEqual({
          fileId: expect.stringMatching(/^file_[A-Za-z0-9_-]{22}$/),
          name: "cv.pdf",
          size: PDF.length,
          type: "application/pdf"
        })
        const got = await download(reply.json.fileId)
        expect(got.status).toBe(200)
        expect(got.body.equals(PDF)).toBe(true)
        expect(got.headers["content-type"]).toBe("application/pdf")
        expect(got.headers["content-disposition"]).toBe("attachment; filename=\"cv.pdf\"; filename*=UTF-8''cv.pdf")
        expect(got.headers["x-content-type-options"]).toBe("nosniff")
        expect(store.blobs().some((path) => path.endsWith(reply.json.fileId))).toBe(true)
      })

      it("an uploaded script, page or SVG downloads as an inert octet-stream attachment under a sandboxing CSP", async () => {
        const form = await formWithFile({ accept: [] })
        const active = [
          { name: "x.js", type: "text/javascript", content: Buffer.from("window.pwned = true") },
          { name: "x.html", type: "text/html", content: Buffer.from("<script>window.pwned = true</script>") },
          {
            name: "x.svg",
            type: "image/svg+xml",
            content: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>1</script></svg>")
          },
          { name: "x.xhtml", type: "application/xhtml+xml; charset=utf-8", content: Buffer.from("<html/>") }
        ]
        for (const file of active) {
          const stored = await uploaded(form, form.cv, file)
          const got = await download(stored.fileId)
          expect(got.status).toBe(200)
          expect(got.headers["content-type"], file.name).toBe("application/octet-stream")
          expect(got.headers["content-disposition"]).toMatch(/^attachment; filename="x\./)
          expect(got.headers["x-content-type-options"]).toBe("nosniff")
          expect(got.headers["content-security-policy"]).toBe("default-src 'none'; sandbox")
          expect(got.body.equals(file.content)).toBe(true)
        }
        // A passive type keeps its type, still an attachment under the same CSP.
        const png = await uploaded(form, form.photo, { name: "me.png", type: "image/png", content: PNG })
        const got = await download(png.fileId)
        expect(got.headers["content-type"]).toBe("image/png")
        expect(got.headers["content-security-policy"]).toBe("default-src 'none'; sandbox")
      })

      it("a non-ASCII name downloads with an ASCII filename and the exact filename*", async () => {
        const form = await formWithFile()
        const file = await uploaded(form, form.cv, {
          name: "Lebenslauf Müller 履歴書.pdf",
          type: "application/pdf",
          content: PDF
        })
        expect(file.name).toBe("Lebenslauf Müller 履歴書.pdf")
        const got = await download(file.fileId)
        expect(got.status).toBe(200)
        const disposition = String(got.headers["content-disposition"])
        expect(disposition).toMatch(/^attachment; filename="Lebenslauf M_ller _+\.pdf"; filename\*=UTF-8''/)
        expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe("Lebenslauf Müller 履歴書.pdf")
      })

      it("the type is the one the bytes show, whatever the client declared; path parts of the name are dropped", async () => {
        const form = await formWithFile({ accept: ["image/*"] })
        const file = await uploaded(form, form.cv, {
          name: "C:\\fakepath\\me.png",
          type: "application/octet-stream",
          content: PNG
        })
        expect(file).toMatchObject({ name: "me.png", type: "image/png", size: PNG.length })
        const other = await formWithFile({ accept: [".csv", "text/plain"] })
        const csv = await uploaded(other, other.cv, {
          name: "list.csv",
          type: "text/csv",
          content: Buffer.from("a,b\n1,2\n")
        })
        expect(csv.type).toBe("text/csv")
      })

      it("over the question's maxSizeMb (declared up front) → 413, nothing stored", async () => {
        const form = await formWithFile({ maxSizeMb: 1 })
        const before = store.blobs().length
        const body = multipart({
          name: "big.pdf",
          type: "application/pdf",
          content: Buffer.concat([PDF, Buffer.alloc(MB + 10, 1)])
        })
        const reply = await upload(form.publicId, form.cv, body)
        expect(reply.status).toBe(413)
        expect(reply.json.error).toContain('"CV"')
        expect(reply.json.error).toContain("1 MB")
        expect(store.blobs().length).toBe(before)
        expect(store.partials()).toEqual([])
      })

      it("over the default 10 MB, streamed without Content-Length → 413 as soon as it passes, nothing left on disk", async () => {
        const form = await formWithFile()
        const before = store.blobs().length
        const head = Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
        )
        const chunk = Buffer.alloc(256 * 1024, 7)
        // 12 MB in chunks (chunked transfer encoding, no Content-Length); the server stops reading after 10.
        const parts = [head, ...Array.from({ length: 48 }, () => chunk)]
        const reply = await send(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.cv}`, {
          method: "POST",
          headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "transfer-encoding": "chunked" },
          body: parts
        })
        expect(reply.status).toBe(413)
        expect(reply.json.error).toContain("10 MB")
        // The partial write is removed once the refusal is sent.
        await expect.poll(() => store.partials(), { timeout: 5_000 }).toEqual([])
        expect(store.blobs().length).toBe(before)
      })

      it("content not matching accept → 415: a .png name with PDF or text bytes, a .pdf name with PNG bytes", async () => {
        const images = await formWithFile({ accept: ["image/png", ".png"] })
        const before = store.blobs().length
        const pdfAsPng = await uploadFile(images.publicId, images.cv, {
          name: "photo.png",
          type: "image/png",
          content: PDF
        })
        expect(pdfAsPng.status).toBe(415)
        expect(pdfAsPng.json.error).toContain("application/pdf")
        const textAsPng = await uploadFile(images.publicId, images.cv, {
          name: "photo.png",
          type: "image/png",
          content: TEXT
        })
        expect(textAsPng.status).toBe(415)
        expect(textAsPng.json.error).toContain('"CV" accepts image/png, .png')
        const anyImage = await formWithFile({ accept: ["image/*"] })
        const textAsImage = await uploadFile(anyImage.publicId, anyImage.cv, {
          name: "a.jpg",
          type: "image/jpeg",
          content: TEXT
        })
        expect(textAsImage.status).toBe(415)
        const pdfs = await formWithFile({ accept: [".pdf"] })
        const pngAsPdf = await uploadFile(pdfs.publicId, pdfs.cv, {
          name: "cv.pdf",
          type: "application/pdf",
          content: PNG
        })
        expect(pngAsPdf.status).toBe(415)
        expect(pngAsPdf.json.error).toContain("image/png")
        expect(store.blobs().length).toBe(before)
        expect(store.partials()).toEqual([])
      })

      it("says the refusals a respondent meets in the page's language (lang=), English without it", async () => {
        const form = await formWithFile({ maxSizeMb: 1, accept: [".pdf"] })
        const inGerman = (body: Buffer) =>
          send(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.cv}&lang=de`, {
            method: "POST",
            headers: multipartHeaders(body),
            body
          })
        const large = await inGerman(
          multipart({
            name: "big.pdf",
            type: "application/pdf",
            content: Buffer.concat([PDF, Buffer.alloc(MB + 10, 1)])
          })
        )
        expect(large.status).toBe(413)
        expect(large.json.error).toBe("Die Datei ist zu groß. Bis zu 1 MB")
        const wrongType = await inGerman(multipart({ name: "cv.pdf", type: "application/pdf", content: PNG }))
        expect(wrongType.status).toBe(415)
        expect(wrongType.json.error).toBe("Dieser Dateityp wird nicht angenommen. Erlaubt: .pdf.")
        // Not a language: English, as without one.
        const unknown = await send(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.cv}&lang=%3Cx%3E`, {
          method: "POST",
          headers: multipartHeaders(multipart({ name: "cv.pdf", type: "application/pdf", content: PNG })),
          body: multipart({ name: "cv.pdf", type: "application/pdf", content: PNG })
        })
        expect(unknown.status).toBe(415)
        expect(unknown.json.error).toContain('"CV" accepts .pdf')
      })

      it("malformed or missing multipart → 400 {error}", async () => {
        const form = await formWithFile()
        const noFile = multipart(undefined, { note: "hello" })
        expect((await upload(form.publicId, form.cv, noFile)).status).toBe(400)
        const wrongName = multipart({ name: "cv.pdf", type: "application/pdf", content: PDF, field: "document" })
        expect((await upload(form.publicId, form.cv, wrongName)).status).toBe(400)
        const json = Buffer.from(JSON.stringify({ file: "x" }))
        const notMultipart = await upload(form.publicId, form.cv, json, {
          "content-type": "application/json",
          "content-length": json.length
        })
        expect(notMultipart.status).toBe(400)
        expect(notMultipart.json.error).toContain("multipart/form-data")
        const noBoundary = multipart({ name: "cv.pdf", type: "application/pdf", content: PDF })
        const reply = await upload(form.publicId, form.cv, noBoundary, {
          "content-type": "multipart/form-data",
          "content-length": noBoundary.length
        })
        expect(reply.status).toBe(400)
        expect(typeof reply.json.error).toBe("string")
        // Cut off in the middle of the file: no closing boundary.
        const whole = multipart({ name: "cv.pdf", type: "application/pdf", content: PDF })
        const truncated = whole.subarray(0, whole.length - 30)
        const cut = await upload(form.publicId, form.cv, truncated)
        expect(cut.status).toBe(400)
        const empty = await uploadFile(form.publicId, form.cv, {
          name: "empty.pdf",
          type: "application/pdf",
          content: Buffer.alloc(0)
        })
        expect(empty.status).toBe(400)
        expect(empty.json.error).toContain("empty")
        expect(store.partials()).toEqual([])
      })

      it("unknown or draft form → 404, closed → 409, not a file question or a bad fieldId → 400", async () => {
        const draft = await formWithFile(null, "draft")
        const closed = await formWithFile(null, "closed")
        const open = await formWithFile()
        const file = { name: "cv.pdf", type: "application/pdf", content: PDF }
        const unknown = await uploadFile("no-such-form-000000", open.cv, file)
        expect(unknown.status).toBe(404)
        expect(typeof unknown.json.error).toBe("string")
        expect((await uploadFile(draft.publicId, draft.cv, file)).status).toBe(404)
        const closedReply = await uploadFile(closed.publicId, closed.cv, file)
        expect(closedReply.status).toBe(409)
        expect(closedReply.json.error).toContain("no longer accepting")
        const notFile = await uploadFile(open.publicId, open.name, file)
        expect(notFile.status).toBe(400)
        expect(notFile.json.error).toContain("fieldId")
        expect((await uploadFile(open.publicId, closed.cv, file)).status).toBe(400)
        expect((await upload(open.publicId, "abc", multipart(file))).status).toBe(400)
        expect(
          (
            await send(`${server.url}/f/${open.publicId}/uploads`, {
              method: "POST",
              ...{ headers: multipartHeaders(multipart(file)), body: multipart(file) }
            })
          ).status
        ).toBe(400)
        const get = await send(`${server.url}/f/${open.publicId}/uploads?fieldId=${open.cv}`)
        expect(get.status).toBe(405)
      })

      it("a client that goes away mid-upload leaves nothing behind", async () => {
        const form = await formWithFile()
        const before = store.blobs().length
        const head = Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
        )
        const request = httpRequest(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.cv}`, {
          method: "POST",
          headers: {
            "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
            "content-length": head.length + 8 * MB
          }
        })
        request.on("error", () => undefined)
        request.write(head)
        // More than one S3 part (5 MiB), so that each store holds an unfinished write.
        for (let i = 0; i < 6; i++) {
          if (!request.write(Buffer.alloc(MB, 9))) await new Promise((r) => request.once("drain", r))
        }
        await expect.poll(() => store.partials().length, { timeout: 10_000 }).toBe(1)
        request.destroy()
        await expect.poll(() => store.partials(), { timeout: 10_000 }).toEqual([])
        expect(store.blobs().length).toBe(before)
      })

      it("writes the file as it arrives (a large upload is not held in memory)", async () => {
        const form = await formWithFile({ maxSizeMb: 20 })
        const head = Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
        )
        const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
        const chunk = Buffer.alloc(1024 * 1024, 3)
        const total = 16
        let partialSeen = 0
        const request = httpRequest(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.cv}`, {
          method: "POST",
          headers: {
            "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
            "content-length": head.length + total * chunk.length + tail.length
          }
        })
        const answered = new Promise<{ status: number; json: { size: number; fileId: string } }>((resolve, reject) => {
          request.on("response", (response) => {
            const chunks: Array<Buffer> = []
            response.on("data", (c: Buffer) => chunks.push(c))
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) })
            )
          })
          request.on("error", reject)
        })
        request.write(head)
        for (let i = 0; i < total; i++) {
          if (!request.write(chunk)) await new Promise((r) => request.once("drain", r))
          if (i === total / 2) {
            // Half-way: the bytes so far are already in the store (the partial file, the uploaded parts).
            await expect
              .poll(
                () => {
                  partialSeen = store.partials()[0] ?? 0
                  return partialSeen
                },
                { timeout: 10_000 }
              )
              .toBeGreaterThan(4 * 1024 * 1024)
          }
        }
        request.end(tail)
        const reply = await answered
        expect(reply.status).toBe(201)
        expect(reply.json.size).toBe(total * chunk.length)
        expect(partialSeen).toBeLessThan(total * chunk.length)
        const got = await download(reply.json.fileId)
        expect(got.body.length).toBe(total * chunk.length)
      })
    })

    describe.runIf(storeTarget.canBreak)("a store that fails in the middle of an upload", () => {
      it("answers 503 with Retry-After, commits no file row and leaves nothing in the store", async () => {
        const breakWrites = store.breakWrites!
        const form = await formWithFile({ maxSizeMb: 20 })
        const rowsBefore = await server.run(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) => sql<{ readonly n: number }>`select count(*)::int as n from files`
          )
        )
        const blobsBefore = store.blobs().length
        breakWrites(true)
        try {
          const reply = await uploadFile(form.publicId, form.cv, {
            name: "big.bin",
            type: "application/octet-stream",
            content: Buffer.alloc(12 * MB, 4)
          })
          expect(reply.status, reply.body.toString()).toBe(503)
          expect(reply.headers["retry-after"]).toBe("5")
          expect(reply.json).toEqual({
            error: "the file store is not reachable; nothing was stored, try again shortly"
          })
          expect(reply.body.toString()).not.toMatch(/S3RVER|s3rver|127\.0\.0\.1/)
        } finally {
          breakWrites(false)
        }
        expect(
          await server.run(
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) => sql<{ readonly n: number }>`select count(*)::int as n from files`
            )
          )
        ).toEqual(rowsBefore)
        expect(store.blobs().length).toBe(blobsBefore)
        await expect.poll(() => store.partials(), { timeout: 10_000 }).toEqual([])
        // The store works again once the service does.
        const after = await uploaded(form)
        expect((await download(after.fileId)).body).toEqual(PDF)
      })
    })

    describe("submission", () => {
      it("attaches the upload: stored name, size and type win; flat answers, CSV and the event show the name and a link", async () => {
        const form = await formWithFile({ accept: ["application/pdf"] })
        const file = await uploaded(form)
        const reply = await submit(form, {
          [form.cv]: { fileId: file.fileId, name: "forged.exe", size: 1, type: "application/x-msdownload" }
        })
        expect(reply.status, reply.body.toString()).toBe(201)
        expect(reply.json.values[String(form.cv)]).toEqual(file)
        expect((await fileRows(file.fileId))[0]!.response_id).toBe(reply.json.id)
        // Only the id is needed.
        const second = await uploaded(form)
        const onlyId = await submit(form, { [form.cv]: { fileId: second.fileId } })
        expect(onlyId.status, onlyId.body.toString()).toBe(201)
        expect(onlyId.json.values[String(form.cv)]).toEqual(second)

        const link = `${server.url}/api/files/${file.fileId}`
        const list = await api("GET", `/forms/${form.id}/responses?flat=1`)
        const row = (
          list.json.responses as Array<{ id: number; answers: Record<string, string>; summary: string }>
        ).find((r) => r.id === reply.json.id)!
        expect(row.answers["CV"]).toBe(`cv.pdf (${link})`)
        expect(row.summary).toContain(`cv.pdf (${link})`)
        const csv = await api("GET", `/forms/${form.id}/responses.csv`)
        expect(csv.body.toString()).toContain(`cv.pdf (${link})`)
        const events = await server.run(Effect.flatMap(Events, (e) => e.list(ids.a.workspaceId)))
        const event = events.find((e) => e.responseId === reply.json.id && e.type === "response.created")!
        // Stored in the event, the link never takes the request's host (forgeable): it starts at the configured
        // appUrl, and this server has none, so it is relative.
        expect(event.payload).toMatchObject({ answers: { CV: `cv.pdf (/api/files/${file.fileId})` } })
      })

      it("refuses a fileId of another question, form or workspace, an unknown one, or one already attached: 400 naming the question", async () => {
        const form = await formWithFile()
        const otherForm = await formWithFile()
        const otherWorkspace = await formWithFile(null, "published", ids.b.key)
        const photo = await uploaded(form, form.photo, { name: "me.png", type: "image/png", content: PNG })
        const fromOtherForm = await uploaded(otherForm)
        const fromOtherWorkspace = await uploaded(otherWorkspace)
        const cases = [
          photo.fileId,
          fromOtherForm.fileId,
          fromOtherWorkspace.fileId,
          "file_AAAAAAAAAAAAAAAAAAAAAA",
          "nonsense"
        ]
        for (const fileId of cases) {
          const reply = await submit(form, { [form.cv]: { fileId } })
          expect(reply.status, fileId).toBe(400)
          expect(reply.json.error, fileId).toContain('"CV"')
          expect(reply.json.details, fileId).toEqual([expect.objectContaining({ path: `values.${form.cv}` })])
        }
        const file = await uploaded(form)
        expect((await submit(form, { [form.cv]: { fileId: file.fileId } })).status).toBe(201)
        const again = await submit(form, { [form.cv]: { fileId: file.fileId } })
        expect(again.status).toBe(400)
        expect(again.json.error).toContain("already attached")
        // Nothing was attached by the refused submissions.
        expect((await fileRows(photo.fileId))[0]!.response_id).toBeNull()
      })

      it("what the upload accepted, the submission accepts: a .jpeg photo for accept .jpg, a PDF without extension for .pdf", async () => {
        const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...Buffer.from("JFIF"), 0, ...new Array(30).fill(1)])
        const photos = await formWithFile({ accept: [".jpg"] })
        const photo = await uploaded(photos, photos.cv, { name: "photo.jpeg", type: "image/jpeg", content: jpeg })
        expect(photo.type).toBe("image/jpeg")
        const a = await submit(photos, { [photos.cv]: { fileId: photo.fileId } })
        expect(a.status, a.body.toString()).toBe(201)
        const pdfs = await formWithFile({ accept: [".pdf"] })
        const scan = await uploaded(pdfs, pdfs.cv, { name: "scan", type: "application/octet-stream", content: PDF })
        expect(scan.type).toBe("application/pdf")
        const b = await submit(pdfs, { [pdfs.cv]: { fileId: scan.fileId } })
        expect(b.status, b.body.toString()).toBe(201)
      })

      it("a missing required file is refused like any required answer", async () => {
        const form = await formWithFile()
        const reply = await submit(form, {})
        expect(reply.status).toBe(400)
        expect(reply.json.error).toContain('"CV" is required')
      })
    })

    describe("download and deletion", () => {
      it("another workspace's key gets 404; an unknown or malformed id 404; no key 401", async () => {
        const form = await formWithFile()
        const file = await uploaded(form)
        expect((await download(file.fileId, ids.b.key)).status).toBe(404)
        expect((await download("file_AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404)
        expect((await download("..%2F..%2Fetc%2Fpasswd")).status).toBe(404)
        expect((await send(`${server.url}/api/files/${file.fileId}`)).status).toBe(401)
      })

      it("deleting a response deletes its files; deleting a form deletes every file uploaded to it", async () => {
        const form = await formWithFile()
        const file = await uploaded(form)
        const response = await submit(form, { [form.cv]: { fileId: file.fileId } })
        expect(response.status).toBe(201)
        const blob = () => store.blobs().filter((path) => path.endsWith(file.fileId))
        expect(blob()).toHaveLength(1)
        expect((await api("DELETE", `/responses/${response.json.id}`)).status).toBe(204)
        expect(blob()).toEqual([])
        expect(await fileRows(file.fileId)).toEqual([])
        expect((await download(file.fileId)).status).toBe(404)

        const other = await formWithFile()
        const attached = await uploaded(other)
        const loose = await uploaded(other, other.photo, { name: "me.png", type: "image/png", content: PNG })
        expect((await submit(other, { [other.cv]: { fileId: attached.fileId } })).status).toBe(201)
        expect((await api("DELETE", `/forms/${other.id}`)).status).toBe(204)
        for (const id of [attached.fileId, loose.fileId]) {
          expect(
            store.blobs().filter((path) => path.endsWith(id)),
            id
          ).toEqual([])
          expect(await fileRows(id)).toEqual([])
        }
      })

      it("uploads never attached are swept after 24 hours; attached ones stay", async () => {
        const form = await formWithFile()
        const stale = await uploaded(form)
        const fresh = await uploaded(form)
        const kept = await uploaded(form)
        expect((await submit(form, { [form.cv]: { fileId: kept.fileId } })).status).toBe(201)
        await server.run(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) =>
              sql`update files set created_at = created_at - interval '25 hours'
              where id in (${stale.fileId}, ${kept.fileId})`
          )
        )
        const swept = await server.run(Effect.flatMap(Files, (files) => files.sweep))
        expect(swept).toBeGreaterThanOrEqual(1)
        expect(await fileRows(stale.fileId)).toEqual([])
        expect(store.blobs().filter((path) => path.endsWith(stale.fileId))).toEqual([])
        expect(await fileRows(fresh.fileId)).toHaveLength(1)
        expect(await fileRows(kept.fileId)).toHaveLength(1)
      })
    })

    describe("signature questions", () => {
      /** A published form with a name question and a required signature. */
      const formWithSignature = async () => {
        const created = await api("POST", "/forms", {
          title: "Waiver",
          fields: [
            { type: "short_text", label: "Name", required: true },
            { type: "signature", label: "Sign here", required: true }
          ]
        })
        expect(created.status, created.body.toString()).toBe(201)
        expect((await api("PATCH", `/forms/${created.json.id}`, { status: "published" })).status).toBe(200)
        const full = await api("GET", `/forms/${created.json.id}`)
        const [name, signature] = full.json.fields as Array<{ id: number }>
        return {
          id: created.json.id as number,
          publicId: created.json.publicId as string,
          name: name!.id,
          signature: signature!.id
        }
      }

      it("a drawn signature is a PNG uploaded to the question, attached at submission and downloadable", async () => {
        const form = await formWithSignature()
        const drawn = await uploadFile(form.publicId, form.signature, {
          name: "signature.png",
          type: "image/png",
          content: PNG
        })
        expect(drawn.status, drawn.body.toString()).toBe(201)
        expect(drawn.json).toMatchObject({ name: "signature.png", type: "image/png", size: PNG.length })
        const submitted = await api("POST", `/forms/${form.id}/responses`, {
          values: { [form.name]: "Ada", [form.signature]: { fileId: drawn.json.fileId } }
        })
        expect(submitted.status, submitted.body.toString()).toBe(201)
        expect(submitted.json.values[String(form.signature)]).toEqual({
          fileId: drawn.json.fileId,
          name: "signature.png",
          size: PNG.length,
          type: "image/png"
        })
        expect((await fileRows(drawn.json.fileId))[0]?.response_id).toBe(submitted.json.id)
        const got = await download(drawn.json.fileId)
        expect(got.status).toBe(200)
        expect(got.body.equals(PNG)).toBe(true)
        expect(got.headers["content-type"]).toBe("image/png")
        // The same upload cannot sign a second response.
        const again = await api("POST", `/forms/${form.id}/responses`, {
          values: { [form.name]: "Eve", [form.signature]: { fileId: drawn.json.fileId } }
        })
        expect(again.status).toBe(400)
        expect(again.json.error).toContain("already attached to another response")
      })

      it("a drawing must be a PNG of at most 1 MB: other content → 415, larger → 413", async () => {
        const form = await formWithSignature()
        const pdf = await uploadFile(form.publicId, form.signature, {
          name: "s.png",
          type: "image/png",
          content: PDF
        })
        expect(pdf.status).toBe(415)
        expect(pdf.json.error).toBe('"Sign here" accepts image/png; this file\'s content is application/pdf')
        const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])
        const large = await uploadFile(form.publicId, form.signature, {
          name: "s.png",
          type: "image/png",
          content: big
        })
        expect(large.status).toBe(413)
        expect(large.json.error).toBe('"Sign here" takes files of at most 1 MB')
      })

      it("a typed signature needs the name and the consent; it is stored as typed and summarised", async () => {
        const form = await formWithSignature()
        const refused = await api("POST", `/forms/${form.id}/responses`, {
          values: { [form.name]: "Ada", [form.signature]: { typedName: "Ada Lovelace", consent: false } }
        })
        expect(refused.status).toBe(400)
        expect(refused.json.error).toContain(
          '"Sign here": tick the box to agree that your typed name is your signature'
        )
        const missing = await api("POST", `/forms/${form.id}/responses`, { values: { [form.name]: "Ada" } })
        expect(missing.status).toBe(400)
        expect(missing.json.error).toContain('"Sign here" is required')
        const signed = await api("POST", `/forms/${form.id}/responses`, {
          values: { [form.name]: "Ada", [form.signature]: { typedName: " Ada  Lovelace ", consent: true } }
        })
        expect(signed.status, signed.body.toString()).toBe(201)
        expect(signed.json.values[String(form.signature)]).toEqual({ typedName: "Ada Lovelace", consent: true })
        const csv = await api("GET", `/forms/${form.id}/responses.csv`)
        expect(csv.status).toBe(200)
        expect(csv.body.toString()).toContain("Ada Lovelace (typed signature)")
      })

      it("a file question's upload cannot be a signature, nor the other way round", async () => {
        const form = await formWithSignature()
        const other = await formWithFile({ accept: ["image/*"] })
        const photo = await uploaded(other, other.photo, { name: "me.png", type: "image/png", content: PNG })
        const wrong = await api("POST", `/forms/${form.id}/responses`, {
          values: { [form.name]: "Ada", [form.signature]: { fileId: photo.fileId } }
        })
        expect(wrong.status).toBe(400)
        expect(wrong.json.error).toContain("was not uploaded to this question")
        const toName = await uploadFile(form.publicId, form.name, { name: "s.png", type: "image/png", content: PNG })
        expect(toName.status).toBe(400)
        expect(toName.json.error).toContain("is not a file or signature question of this form")
      })
    })
  })
}

describe("upload rate limit", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(databaseTargets[0]!, { uploadRateLimit: { requestsPerSecond: 0.01, burst: 2 } })
  })
  afterAll(async () => {
    await server?.close()
  })

  it("answers 429 with Retry-After past the per-address burst", async () => {
    const body = multipart({ name: "cv.pdf", type: "application/pdf", content: PDF })
    const statuses: Array<number> = []
    let last: Reply | undefined
    for (let i = 0; i < 3; i++) {
      last = await send(`${server.url}/f/nothing-here/uploads?fieldId=1`, {
        method: "POST",
        headers: multipartHeaders(body),
        body
      })
      statuses.push(last.status)
    }
    expect(statuses).toEqual([404, 404, 429])
    expect(Number(last!.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    expect(typeof last!.json.error).toBe("string")
  })
})

describe("uploads through the Web handler (fetch-style hosts such as h3)", () => {
  let qforms: Qforms.Qforms
  let key: string
  beforeAll(async () => {
    qforms = await Qforms.make({ database: {}, delivery: { worker: false }, logLevel: "Error" })
    key = (await qforms.run(seed)).a.key
  })
  afterAll(async () => {
    await qforms?.dispose()
  })

  const call = async (
    method: string,
    path: string,
    body?: Uint8Array | string,
    headers: Record<string, string> = {}
  ) => {
    const response = await qforms.handler(
      new Request(`http://forms.test${path}`, {
        method,
        body: body ?? null,
        headers: { "x-forwarded-host": "forms.test", ...headers }
      })
    )
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: text.startsWith("{") ? JSON.parse(text) : undefined
    }
  }

  it("streams the upload, checks size and content, and the answer submits", async () => {
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" }
    const created = await call(
      "POST",
      "/api/forms",
      JSON.stringify({
        title: "Web",
        fields: [{ type: "file", label: "Photo", required: true, options: { accept: ["image/*"], maxSizeMb: 0.5 } }]
      }),
      auth
    )
    expect(created.status).toBe(201)
    expect(
      (await call("PATCH", `/api/forms/${created.json.id}`, JSON.stringify({ status: "published" }), auth)).status
    ).toBe(200)
    const form = await call("GET", `/api/forms/${created.json.id}`, undefined, auth)
    const fieldId = form.json.fields[0].id as number
    // (A body built from bytes: a FormData body's own stream, made in this process, errors when its
    // reader is cancelled — an undici quirk of client-made streams, not of requests from the network.)
    const post = (name: string, type: string, content: Buffer) =>
      call("POST", `/f/${created.json.publicId}/uploads?fieldId=${fieldId}`, multipart({ name, type, content }), {
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`
      })
    const ok = await post("me.png", "image/png", PNG)
    expect(ok.status, ok.text).toBe(201)
    expect(ok.json).toMatchObject({ name: "me.png", size: PNG.length, type: "image/png" })
    expect((await post("me.png", "image/png", PDF)).status).toBe(415)
    expect((await post("big.png", "image/png", Buffer.concat([PNG, Buffer.alloc(MB, 1)]))).status).toBe(413)
    const submitted = await call(
      "POST",
      `/api/forms/${created.json.id}/responses`,
      JSON.stringify({ values: { [fieldId]: { fileId: ok.json.fileId } } }),
      auth
    )
    expect(submitted.status, submitted.text).toBe(201)
    const list = await call("GET", `/api/forms/${created.json.id}/responses?flat=1`, undefined, auth)
    expect(list.json.responses[0].answers.Photo).toBe(`me.png (http://forms.test/api/files/${ok.json.fileId})`)
    const got = await qforms.handler(
      new Request(`http://forms.test/api/files/${ok.json.fileId}`, { headers: { authorization: auth.authorization } })
    )
    expect(got.status).toBe(200)
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true)
  })
})
