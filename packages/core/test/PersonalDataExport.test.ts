/**
 * Export of a person's data end to end (`GET /api/privacy/export`): a real
 * qforms on a real HTTP server, e-mail through a real SMTP server on loopback
 * and an inbound reply with an attachment, uploads in a real directory; PGlite
 * always, PostgreSQL too when QFORMS_TEST_DATABASE_URL is set. The ZIP is read
 * back with a small reader of its central directory; another person of the
 * workspace and the same address in another workspace are not in it.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inflateRawSync } from "node:zlib"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { subjectHash } from "../src/privacy/Erasure.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { api, answer, createForm, getPage } from "@qforms/test-kit/PublicForms"
import { keysByRole, type Role } from "@qforms/test-kit/Seeds"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { replyWithPdf } from "./support/InboundMail.ts"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const appUrl = "http://qforms.test"
const inboundSecret = "inbound-s3cret"
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
const REPLY_PDF = Buffer.from("%PDF-1.7\n% the reply's attachment\n%%EOF\n")
const BOUNDARY = "----qformsExportBoundary"

/** The entries of a ZIP archive, by name: read from its central directory (stored or DEFLATE). */
const unzip = (zip: Buffer): Map<string, Buffer> => {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  expect(end).toBeGreaterThan(0)
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  const entries = new Map<string, Buffer>()
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50)
    const method = zip.readUInt16LE(at + 10)
    const compressed = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const extraLength = zip.readUInt16LE(at + 30)
    const commentLength = zip.readUInt16LE(at + 32)
    const offset = zip.readUInt32LE(at + 42)
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8")
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28)
    const data = zip.subarray(start, start + compressed)
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data))
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

const multipart = (name: string, type: string, content: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  ])

type Form = Awaited<ReturnType<typeof createForm>>

for (const target of databaseTargets) {
  describe(`personal data export on ${target.name}`, () => {
    let server: TestServer
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let filesDirectory: string
    let a: { workspaceId: number; keys: Record<Role, string> }
    let b: { workspaceId: number; keys: Record<Role, string> }

    const query = <A extends object>(text: string, ...params: Array<unknown>) =>
      server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text, params as Array<never>))) as Promise<
        ReadonlyArray<A>
      >

    const download = async (key: string, search: string) => {
      const response = await fetch(`${server.url}/api/privacy/export?${search}`, {
        headers: { authorization: `Bearer ${key}` }
      })
      const bytes = Buffer.from(await response.arrayBuffer())
      return { response, bytes, json: () => JSON.parse(bytes.toString("utf8")) }
    }

    /** A published form: Email, Name, a file question. */
    const formWithFile = (key: string, title: string) =>
      createForm(server, key, {
        title,
        fields: [
          { type: "email", label: "Email", required: true },
          { type: "short_text", label: "Name", required: false },
          { type: "file", label: "Document", required: false }
        ]
      })

    const upload = async (form: Form, name: string, content: Buffer) => {
      const body = multipart(name, "application/pdf", content)
      const response = await fetch(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.fields[2]!.id}`, {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "content-length": `${body.length}` },
        body
      })
      expect(response.status).toBe(201)
      return ((await response.json()) as { fileId: string }).fileId
    }

    const submit = async (key: string, form: Form, email: string, name: string, fileId?: string) => {
      const [emailField, nameField, file] = form.fields
      const reply = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: {
          [emailField!.id]: email,
          [nameField!.id]: name,
          ...(fileId === undefined ? {} : { [file!.id]: { fileId } })
        }
      })
      expect(reply.status, reply.text).toBe(201)
      return reply.body.id as number
    }

    beforeAll(async () => {
      smtp = await smtpSink()
      filesDirectory = mkdtempSync(join(tmpdir(), "qforms-export-"))
      server = await startTestServer(target, {
        appUrl,
        filesDirectory,
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        uploadRateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        publicPage: {
          minSubmitSeconds: 0,
          submissionRateLimit: { requestsPerSecond: 100, burst: 1000 },
          stepRateLimit: { requestsPerSecond: 100, burst: 1000 }
        },
        mail: {
          url: smtp.url,
          from: "Support <support@example.com>",
          inboundAddress: "reply+{token}@in.example.com",
          inboundSecret
        },
        delivery: { worker: true, pollIntervalMs: 100 }
      })
      a = await server.run(keysByRole("exa"))
      b = await server.run(keysByRole("exb"))
    })

    afterAll(async () => {
      await server?.close()
      await smtp?.close()
      if (filesDirectory !== undefined) rmSync(filesDirectory, { recursive: true, force: true })
    })

    it("refuses a query without exactly one valid email or contactId (400 naming it), members and viewers (403), an unknown contact (404)", async () => {
      for (const [search, message] of [
        ["", /exactly one of email and contactId/],
        ["email=ada@example.com&contactId=1", /exactly one of email and contactId/],
        ["email=nobody", /email must be an e-mail address/],
        ["contactId=0", /contactId must be a positive integer/],
        ["contactId=2147483648", /at most 2147483647/],
        ["contactId=abc", /contactId/]
      ] as const) {
        const reply = await download(a.keys.owner, search)
        expect(reply.response.status, search).toBe(400)
        expect(reply.json().error, search).toMatch(message)
      }
      for (const role of ["member", "viewer"] as const) {
        const reply = await download(a.keys[role], "email=ada@example.com")
        expect(reply.response.status, role).toBe(403)
        expect(reply.json().error).toMatch(/owner or admin/)
      }
      // person.json's shape is published with the API (from the PersonData Schema).
      const openapi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
        components: { schemas: Record<string, { properties: Record<string, unknown> }> }
        paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>
      }
      expect(Object.keys(openapi.components.schemas.PersonData.properties).sort()).toEqual(
        [
          "contacts",
          "email",
          "emailReplies",
          "emailsSent",
          "exportedAt",
          "files",
          "notesElsewhere",
          "responses",
          "workspaceId"
        ].sort()
      )
      expect(openapi.paths["/api/privacy/export"].get.responses["200"].content).toHaveProperty("application/zip")
      const missing = await download(a.keys.owner, "contactId=999999")
      expect(missing.response.status).toBe(404)
      expect(missing.json().error).toBe("contact 999999 not found")
    })

    it("exports everything held about a person in one workspace, and only there, as a ZIP; audited without the address", async () => {
      const support = await formWithFile(a.keys.owner, "Support")
      const survey = await formWithFile(a.keys.owner, "Survey")
      const otherForm = await formWithFile(b.keys.owner, "Elsewhere")

      const fileId = await upload(support, "cv.pdf", PDF)
      const ada1 = await submit(a.keys.owner, support, "ada@example.com", "Ada Lovelace", fileId)
      const ada2 = await submit(a.keys.owner, survey, "ADA@Example.com", "Ada L.")
      const bob = await submit(a.keys.owner, support, "bob@example.com", "Bob Builder")
      const elsewhere = await submit(b.keys.owner, otherForm, "ada@example.com", "Ada Lovelace")

      // A partial response of hers, through the public page.
      const welcome = await getPage(server, `/f/${survey.publicId}`)
      const started = await answer(server, survey.publicId, welcome.text, [], "start")
      await answer(server, survey.publicId, started.text, ["ada@example.com"])
      const [partial] = await query<{ id: number }>(
        "select id from responses where form_id = $1 and not finished",
        survey.id
      )
      expect(partial).toBeDefined()

      // A note on her case, one on Bob's naming her, one on Bob's not naming her.
      const note = await api(server, a.keys.owner, "POST", `/responses/${ada1}/notes`, { body: "Called her back." })
      expect(note.status, note.text).toBe(201)
      const naming = await api(server, a.keys.owner, "POST", `/responses/${bob}/notes`, {
        body: "Bob knows ada@example.com."
      })
      await api(server, a.keys.owner, "POST", `/responses/${bob}/notes`, { body: "Bob's private matter." })
      await api(server, a.keys.owner, "PATCH", `/responses/${ada1}`, { tags: ["vip"] })

      // A case e-mail to her, and her reply with an attachment.
      const before = smtp.received.length
      const sent = await api(server, a.keys.owner, "POST", `/responses/${ada1}/emails`, {
        subject: "Your request",
        body: "Please send the document."
      })
      expect(sent.status, sent.text).toBe(201)
      const mail = await waitFor(() => smtp.received[before])
      const inbound = await fetch(`${server.url}/inbound/email`, {
        method: "POST",
        headers: { "content-type": "message/rfc822", "x-qforms-inbound-secret": inboundSecret },
        body: replyWithPdf("ada@example.com", mail, "Here it is.", REPLY_PDF)
      })
      expect(inbound.status).toBe(201)
      const detail = (await api(server, a.keys.owner, "GET", `/responses/${ada1}`)).body
      const attachmentId = detail.replies[0].files[0].fileId as string

      const auditBefore = (await api(server, a.keys.owner, "GET", "/audit-log?action=privacy.export")).body.entries
        .length as number
      const reply = await download(a.keys.admin, "email=%20Ada@Example.COM%20")
      expect(reply.response.status, reply.bytes.toString()).toBe(200)
      expect(reply.response.headers.get("content-type")).toBe("application/zip")
      expect(reply.response.headers.get("content-disposition")).toMatch(
        /^attachment; filename="person-export-\d{4}-\d{2}-\d{2}\.zip"$/
      )
      const entries = unzip(reply.bytes)
      const person = JSON.parse(entries.get("person.json")!.toString("utf8"))
      expect(person.workspaceId).toBe(a.workspaceId)
      expect(person.email).toBe("Ada@Example.COM")
      expect(person.contacts.map((c: { email: string }) => c.email.toLowerCase())).toEqual(["ada@example.com"])
      expect(person.responses.map((r: { id: number }) => r.id)).toEqual([ada1, ada2, partial!.id])
      expect(person.responses.map((r: { id: number }) => r.id)).not.toContain(bob)
      expect(person.responses.map((r: { id: number }) => r.id)).not.toContain(elsewhere)
      const [first, second, unfinished] = person.responses
      expect(first).toMatchObject({
        formId: support.id,
        formTitle: "Support",
        status: "submitted",
        name: "Ada Lovelace",
        tags: ["vip"],
        notes: [{ id: note.body.id, body: "Called her back." }]
      })
      expect(first.submittedAt).toMatch(/^\d{4}-/)
      expect(first.answers.map((x: { question: string }) => x.question)).toEqual(["Email", "Name", "Document"])
      expect(first.answers[1].value).toBe("Ada Lovelace")
      expect(first.fileIds.sort()).toEqual([fileId, attachmentId].sort())
      expect(second).toMatchObject({ formId: survey.id, formTitle: "Survey", status: "submitted", notes: [] })
      expect(unfinished).toMatchObject({ formId: survey.id, status: "partial", submittedAt: null })
      expect(unfinished.answers).toContainEqual(
        expect.objectContaining({ question: "Email", value: "ada@example.com" })
      )
      expect(person.emailsSent).toEqual([
        expect.objectContaining({ id: sent.body.id, responseId: ada1, subject: "Your request" })
      ])
      expect(person.emailReplies).toEqual([
        expect.objectContaining({
          responseId: ada1,
          text: expect.stringContaining("Here it is."),
          fileIds: [attachmentId]
        })
      ])
      expect(person.notesElsewhere).toEqual([expect.objectContaining({ id: naming.body.id, responseId: bob })])
      expect(JSON.stringify(person)).not.toContain("Bob's private matter")

      // Each file: listed with its path in the ZIP and its download path, its bytes there.
      expect(person.files.map((f: { id: string }) => f.id).sort()).toEqual([fileId, attachmentId].sort())
      const uploaded = person.files.find((f: { id: string }) => f.id === fileId)
      expect(uploaded).toMatchObject({
        responseId: ada1,
        question: "Document",
        name: "cv.pdf",
        size: PDF.length,
        path: `files/${ada1}/cv.pdf`,
        downloadPath: `/api/files/${fileId}`
      })
      const attachment = person.files.find((f: { id: string }) => f.id === attachmentId)
      expect(attachment.question).toBeNull()
      expect(entries.get(uploaded.path)).toEqual(PDF)
      expect(entries.get(attachment.path)).toEqual(REPLY_PDF)
      expect([...entries.keys()].sort()).toEqual(["person.json", uploaded.path, attachment.path].sort())

      // The same person by contact id: the same responses.
      const byContact = await download(a.keys.owner, `contactId=${person.contacts[0].id}`)
      expect(byContact.response.status).toBe(200)
      const samePerson = JSON.parse(unzip(byContact.bytes).get("person.json")!.toString("utf8"))
      expect(samePerson.responses.map((r: { id: number }) => r.id)).toEqual([ada1, ada2, partial!.id])

      // Another workspace's key: nothing of hers from here (only its own response with that address).
      const fromB = await download(b.keys.owner, "email=ada@example.com")
      expect(fromB.response.status).toBe(200)
      const bPerson = JSON.parse(unzip(fromB.bytes).get("person.json")!.toString("utf8"))
      expect(bPerson.responses.map((r: { id: number }) => r.id)).toEqual([elsewhere])
      expect(bPerson.files).toEqual([])
      expect(bPerson.emailsSent).toEqual([])
      expect((await download(b.keys.owner, `contactId=${person.contacts[0].id}`)).response.status).toBe(404)

      // An address with nothing: a ZIP with empty lists (as the erasure answers zero counts).
      const nobody = await download(a.keys.owner, "email=nobody@example.com")
      expect(nobody.response.status).toBe(200)
      expect(JSON.parse(unzip(nobody.bytes).get("person.json")!.toString("utf8"))).toMatchObject({
        contacts: [],
        responses: [],
        files: [],
        emailsSent: [],
        emailReplies: []
      })

      // The audit log: who exported how much, never whom (a salted hash of the address).
      const audit = await api(server, a.keys.owner, "GET", "/audit-log?action=privacy.export")
      expect(audit.status).toBe(200)
      const entriesNow = audit.body.entries
      expect(entriesNow.length).toBe(auditBefore + 3)
      const exported = entriesNow[entriesNow.length - auditBefore - 1]
      expect(exported).toMatchObject({
        action: "privacy.export",
        surface: "api",
        details: { format: "zip", responses: 3, partialResponses: 1, files: 2, emailsSent: 1, emailReplies: 1 }
      })
      expect(exported.details.subjectHash).toBe(subjectHash(exported.details.subjectSalt, "ada@example.com"))
      expect(JSON.stringify(entriesNow)).not.toMatch(/ada@example\.com|lovelace/i)
      const [row] = await query<{ details: unknown }>(
        "select details::text as details from audit_log where workspace_id = $1 and action = 'privacy.export' order by id limit 1",
        a.workspaceId
      )
      expect(String(row!.details)).not.toMatch(/ada@|lovelace/i)

      // The export holds what an erasure of the same person removes: the same responses, files, e-mails, contact.
      const erased = await api(server, a.keys.owner, "POST", "/privacy/erasures", { email: "ada@example.com" })
      expect(erased.status, erased.text).toBe(201)
      const ids = (list: ReadonlyArray<{ id: number | string }>) => list.map((item) => item.id)
      expect(erased.body.responses.ids).toEqual(ids(person.responses))
      expect(erased.body.files.ids).toEqual([...ids(person.files)].sort())
      expect(erased.body.emailsSent.ids).toEqual(ids(person.emailsSent))
      expect(erased.body.emailReplies.ids).toEqual(ids(person.emailReplies))
      expect(erased.body.contacts.ids).toEqual(ids(person.contacts))
      expect(erased.body.notesFlagged.ids).toEqual(ids(person.notesElsewhere))
    })
  })
}
