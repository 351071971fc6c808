/**
 * Erasure of a person end to end (`POST /api/privacy/erasures`, the MCP tool
 * `erase_person`): a real qforms on a real HTTP server with its delivery
 * worker, e-mail through a real SMTP server on loopback and an inbound reply
 * with an attachment, uploads in a real directory; PGlite always, PostgreSQL
 * too when QFORMS_TEST_DATABASE_URL is set. Another workspace's data with the
 * same address is left alone.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { subjectHash } from "../src/privacy/Erasure.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { api, answer, createForm, getPage, hidden } from "@qforms/test-kit/PublicForms"
import { keysByRole, type Role, roles } from "@qforms/test-kit/Seeds"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { replyWithPdf } from "./support/InboundMail.ts"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const appUrl = "http://qforms.test"
const inboundSecret = "inbound-s3cret"
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
const BOUNDARY = "----qformsErasureBoundary"

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
  describe(`erasure on ${target.name}`, () => {
    let server: TestServer
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let filesDirectory: string
    let a: { workspaceId: number; keys: Record<Role, string> }
    let b: { workspaceId: number; keys: Record<Role, string> }

    const query = <A extends object>(text: string, ...params: Array<unknown>) =>
      server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text, params as Array<never>))) as Promise<
        ReadonlyArray<A>
      >

    const erase = (key: string, body: unknown) => api(server, key, "POST", "/privacy/erasures", body)

    /** A published form: Name, Email, CV (file). */
    const supportForm = (key: string) =>
      createForm(server, key, {
        title: "Support",
        fields: [
          { type: "email", label: "Email", required: true },
          { type: "short_text", label: "Name", required: false },
          { type: "file", label: "CV", required: false }
        ]
      })

    const upload = async (form: Form) => {
      const body = multipart("cv.pdf", "application/pdf", PDF)
      const response = await fetch(`${server.url}/f/${form.publicId}/uploads?fieldId=${form.fields[2]!.id}`, {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "content-length": `${body.length}` },
        body
      })
      expect(response.status).toBe(201)
      return ((await response.json()) as { fileId: string }).fileId
    }

    const submit = async (key: string, form: Form, email: string, name: string, fileId?: string) => {
      const [emailField, nameField, cv] = form.fields
      const reply = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: {
          [emailField!.id]: email,
          [nameField!.id]: name,
          ...(fileId === undefined ? {} : { [cv!.id]: { fileId } })
        }
      })
      expect(reply.status, reply.text).toBe(201)
      return reply.body.id as number
    }

    const inbound = async (raw: string) => {
      const response = await fetch(`${server.url}/inbound/email`, {
        method: "POST",
        headers: { "content-type": "message/rfc822", "x-qforms-inbound-secret": inboundSecret },
        body: raw
      })
      expect(response.status).toBe(201)
    }

    const blobPath = async (fileId: string) => {
      const [row] = await query<{ storage_key: string }>("select storage_key from files where id = $1", fileId)
      return join(filesDirectory, row!.storage_key)
    }

    beforeAll(async () => {
      smtp = await smtpSink()
      filesDirectory = mkdtempSync(join(tmpdir(), "qforms-erasure-"))
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
        // A failed webhook is retried an hour later: its delivery stays unsent while the test runs.
        delivery: {
          worker: true,
          schedule: [0, 3_600_000],
          timeoutMs: 1_000,
          pollIntervalMs: 100,
          allowPrivateTargets: true
        }
      })
      a = await server.run(keysByRole("era"))
      b = await server.run(keysByRole("erb"))
    })

    afterAll(async () => {
      await server?.close()
      await smtp?.close()
      if (filesDirectory !== undefined) rmSync(filesDirectory, { recursive: true, force: true })
    })

    it("refuses a body without exactly one of email and contactId (400 naming it), and members and viewers (403)", async () => {
      for (const body of [
        {},
        { email: "ada@example.com", contactId: 1 },
        { email: "nobody" },
        { contactId: 0 },
        { contactId: 2_147_483_648 }
      ]) {
        const reply = await erase(a.keys.owner, body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(typeof reply.body.error).toBe("string")
      }
      expect((await erase(a.keys.owner, {})).body.error).toMatch(/exactly one of email and contactId/)
      expect((await erase(a.keys.owner, { email: "ada@example.com", extra: 1 })).status).toBe(400)
      for (const role of ["member", "viewer"] as const) {
        const reply = await erase(a.keys[role], { email: "ada@example.com" })
        expect(reply.status, role).toBe(403)
        expect(reply.body.error).toMatch(/owner or admin/)
      }
      expect((await erase(a.keys.owner, { contactId: 999_999 })).status).toBe(404)
    })

    it("erases a person everywhere in one workspace, and only there", async () => {
      const form = await supportForm(a.keys.owner)
      const otherForm = await supportForm(b.keys.owner)
      // An unsent webhook delivery about her: a target that refuses connections, retried an hour later.
      const hook = await api(server, a.keys.owner, "POST", "/webhooks/subscribe", {
        formId: form.id,
        targetUrl: "http://127.0.0.1:9/hook",
        event: "response.created"
      })
      expect(hook.status, hook.text).toBe(201)

      const fileId = await upload(form)
      const ada1 = await submit(a.keys.owner, form, "ada@example.com", "Ada Lovelace", fileId)
      const ada2 = await submit(a.keys.owner, form, "ADA@Example.com", "Ada Lovelace")
      const bob = await submit(a.keys.owner, form, "bob@example.com", "Bob Builder")
      const elsewhere = await submit(b.keys.owner, otherForm, "ada@example.com", "Ada Lovelace")
      const otherFileId = await upload(otherForm)
      const elsewhereWithFile = await submit(b.keys.owner, otherForm, "ada@example.com", "Ada L.", otherFileId)

      // A partial response of hers, through the public page.
      const welcome = await getPage(server, `/f/${form.publicId}`)
      let page = await answer(server, form.publicId, welcome.text, [], "start")
      page = await answer(server, form.publicId, page.text, ["ada@example.com"])
      expect(hidden(page.text, "at")).toBe(String(form.fields[1]!.id))
      const [partial] = await query<{ id: number }>(
        "select id from responses where form_id = $1 and not finished",
        form.id
      )
      expect(partial).toBeDefined()

      // A case e-mail to her, and her reply with an attachment.
      const before = smtp.received.length
      const sent = await api(server, a.keys.owner, "POST", `/responses/${ada1}/emails`, {
        subject: "Your request",
        body: "Please send the document."
      })
      expect(sent.status, sent.text).toBe(201)
      const mail = await waitFor(() => smtp.received[before])
      await inbound(replyWithPdf("ada@example.com", mail, "Here it is.", PDF))
      const detail = (await api(server, a.keys.owner, "GET", `/responses/${ada1}`)).body
      const attachmentId = detail.replies[0].files[0].fileId as string

      // Notes: one on Bob's case naming her (flagged), one not naming her, one on her own case (deleted with it).
      const naming = await api(server, a.keys.owner, "POST", `/responses/${bob}/notes`, {
        body: "Bob knows ADA@example.com from the workshop."
      })
      const byName = await api(server, a.keys.owner, "POST", `/responses/${bob}/notes`, {
        body: "Same team as ada lovelace."
      })
      const unrelated = await api(server, a.keys.owner, "POST", `/responses/${bob}/notes`, { body: "Call back." })
      await api(server, a.keys.owner, "POST", `/responses/${ada1}/notes`, { body: "VIP" })
      const [otherNote] = (
        await Promise.all([
          api(server, b.keys.owner, "POST", `/responses/${elsewhere}/notes`, { body: "ada@example.com again" })
        ])
      ).map((reply) => reply.body.id as number)

      // The webhook deliveries of her responses wait for their retry.
      await waitFor(
        async () =>
          (
            await query<{ n: number }>(
              `select count(*)::int as n from deliveries d join events e on e.id = d.event_id
               where e.workspace_id = $1 and d.status = 'retrying'`,
              a.workspaceId
            )
          )[0]!.n === 3
      )
      const unsent = await query<{ id: number }>(
        `select d.id from deliveries d join events e on e.id = d.event_id
         where e.workspace_id = $1 and e.response_id = any($2::int[]) and d.status in ('pending', 'retrying')
         order by d.id`,
        a.workspaceId,
        [ada1, ada2]
      )
      expect(unsent).toHaveLength(2)
      const [contact] = await query<{ id: number }>(
        "select id from contacts where workspace_id = $1 and lower(email) = 'ada@example.com'",
        a.workspaceId
      )
      const uploadBlob = await blobPath(fileId)
      const attachmentBlob = await blobPath(attachmentId)
      const otherBlob = await blobPath(otherFileId)
      expect([existsSync(uploadBlob), existsSync(attachmentBlob), existsSync(otherBlob)]).toEqual([true, true, true])

      const reply = await erase(a.keys.admin, { email: " Ada@Example.COM " })
      expect(reply.status, reply.text).toBe(201)
      const result = reply.body
      expect(result).toMatchObject({
        responses: { count: 3, ids: [ada1, ada2, partial!.id].sort((x, y) => x - y) },
        partialResponses: { count: 1, ids: [partial!.id] },
        files: { count: 2, ids: [fileId, attachmentId].sort() },
        emailsSent: { count: 1, ids: [sent.body.id] },
        emailReplies: { count: 1, ids: [detail.replies[0].id] },
        contacts: { count: 1, ids: [contact!.id] },
        deliveriesCancelled: { count: 2, ids: unsent.map((row) => row.id) },
        notesFlagged: { count: 2, ids: [naming.body.id, byName.body.id] }
      })
      expect(result.erasureId).toBeGreaterThan(0)

      // Gone: her responses, e-mails, replies, contact, files and their bytes, the events about her.
      for (const id of [ada1, ada2, partial!.id]) {
        expect((await api(server, a.keys.owner, "GET", `/responses/${id}`)).status).toBe(404)
      }
      expect((await api(server, a.keys.owner, "GET", `/files/${fileId}`)).status).toBe(404)
      expect((await api(server, a.keys.owner, "GET", `/files/${attachmentId}`)).status).toBe(404)
      expect([existsSync(uploadBlob), existsSync(attachmentBlob)]).toEqual([false, false])
      const held = await query<{ n: number }>(
        `select (select count(*) from response_emails where workspace_id = $1)
              + (select count(*) from response_replies where workspace_id = $1)
              + (select count(*) from contacts where workspace_id = $1 and lower(email) = 'ada@example.com')
              + (select count(*) from responses where workspace_id = $1 and lower(email) = 'ada@example.com')
              + (select count(*) from events where workspace_id = $1 and response_id = any($3::int[])
                   and type <> 'response.deleted')
              + (select count(*) from deliveries where id = any($2::int[])) as n`,
        a.workspaceId,
        unsent.map((row) => row.id),
        [ada1, ada2, partial!.id]
      )
      expect(Number(held[0]!.n)).toBe(0)
      // Her submitted responses' deletion is announced (no personal data in it).
      const deleted = await query<{ response_id: number }>(
        "select response_id from events where workspace_id = $1 and type = 'response.deleted' order by response_id",
        a.workspaceId
      )
      expect(deleted.map((row) => row.response_id)).toEqual([ada1, ada2])

      // Kept: Bob's case with its notes (two flagged, text as written), the counts.
      const notes = await query<{ id: number; body: string; flagged: boolean; by: unknown }>(
        `select id, payload->>'body' as body, review_flagged_at is not null as flagged, review_flagged_by as by
         from activities where response_id = $1 and type = 'note' order by id`,
        bob
      )
      expect(notes.map((note) => [note.id, note.flagged])).toEqual([
        [naming.body.id, true],
        [byName.body.id, true],
        [unrelated.body.id, false]
      ])
      expect(notes[0]!.body).toBe("Bob knows ADA@example.com from the workshop.")
      // The case's timeline shows the flag on those notes only.
      const timeline = (await api(server, a.keys.owner, "GET", `/responses/${bob}`)).body.activities as Array<{
        id: number
        reviewFlaggedAt?: string
      }>
      expect(
        timeline
          .filter((entry) => entry.reviewFlaggedAt !== undefined)
          .map((entry) => entry.id)
          .sort((x, y) => x - y)
      ).toEqual([naming.body.id, byName.body.id])
      expect(timeline.find((entry) => entry.id === naming.body.id)!.reviewFlaggedAt).toBe(result.erasedAt)
      const by = typeof notes[0]!.by === "string" ? JSON.parse(notes[0]!.by as string) : notes[0]!.by
      expect(by).toMatchObject({ type: "member", name: null })
      const list = await api(server, a.keys.owner, "GET", `/forms/${form.id}/responses`)
      expect(list.body.responses.map((r: { id: number }) => r.id)).toEqual([bob])

      // The record of the erasure: counts and a salted hash, not the address.
      const [record] = await query<{ subject_salt: string; subject_hash: string; counts: unknown; row: string }>(
        "select subject_salt, subject_hash, counts, row_to_json(erasures)::text as row from erasures where id = $1",
        result.erasureId
      )
      // (The salt and hash are hex: they may hold the letters "ada" by chance, so the words are looked for.)
      expect(record!.row.toLowerCase()).not.toMatch(/ada@|lovelace/)
      expect(record!.subject_hash).toBe(subjectHash(record!.subject_salt, "ada@example.com"))
      const counts = typeof record!.counts === "string" ? JSON.parse(record!.counts) : record!.counts
      expect(counts).toMatchObject({ responses: 3, files: 2, emailsSent: 1, emailReplies: 1, notesFlagged: 2 })

      // The audit log: who erased how much, in the same transaction; never whom.
      const audit = await api(server, a.keys.owner, "GET", "/audit-log?action=privacy.erasure")
      expect(audit.status).toBe(200)
      expect(audit.body.entries).toHaveLength(1)
      expect(audit.body.entries[0]).toMatchObject({
        action: "privacy.erasure",
        surface: "api",
        target: { type: "erasure", id: String(result.erasureId) },
        details: counts
      })
      expect(JSON.stringify(audit.body).toLowerCase()).not.toMatch(/ada@|lovelace/)

      // The other workspace: her responses, file, contact and note untouched.
      for (const id of [elsewhere, elsewhereWithFile]) {
        expect((await api(server, b.keys.owner, "GET", `/responses/${id}`)).status).toBe(200)
      }
      expect(existsSync(otherBlob)).toBe(true)
      const [kept] = await query<{ n: number; flagged: boolean }>(
        `select (select count(*)::int from contacts where workspace_id = $1) as n,
           (select review_flagged_at is not null from activities where id = $2) as flagged`,
        b.workspaceId,
        otherNote
      )
      expect(kept).toEqual({ n: 1, flagged: false })

      // Again: nothing left to erase, still recorded.
      const again = await erase(a.keys.owner, { email: "ada@example.com" })
      expect(again.status).toBe(201)
      expect(again.body).toMatchObject({ responses: { count: 0, ids: [] }, contacts: { count: 0, ids: [] } })
    })

    it("the MCP tool erase_person: admins only, the same result", async () => {
      const form = await supportForm(a.keys.owner)
      const carol = await submit(a.keys.owner, form, "carol@example.com", "Carol")
      const tool = async (key: string, args: Record<string, unknown>) => {
        const response = await fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${key}`,
            "mcp-protocol-version": "2025-03-26"
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "erase_person", arguments: args }
          })
        })
        expect(response.status).toBe(200)
        return ((await response.json()) as { result: { isError: boolean; content: Array<{ text: string }> } }).result
      }
      for (const role of ["member", "viewer"] as const) {
        const refused = await tool(a.keys[role], { email: "carol@example.com" })
        expect(refused.isError, role).toBe(true)
      }
      expect((await tool(a.keys.admin, {})).content[0]!.text).toMatch(/exactly one of email and contactId/)
      const done = await tool(a.keys.admin, { email: "carol@example.com" })
      expect(done.isError).toBe(false)
      expect(JSON.parse(done.content[0]!.text)).toMatchObject({ responses: { count: 1, ids: [carol] } })
      expect((await api(server, a.keys.owner, "GET", `/responses/${carol}`)).status).toBe(404)
    })

    it("erases by contact id, in the key's workspace only", async () => {
      const [contact] = await query<{ id: number }>(
        "select id from contacts where workspace_id = $1 and lower(email) = 'ada@example.com'",
        b.workspaceId
      )
      // Workspace A's owner and admin cannot reach B's contact.
      for (const role of roles.filter((role) => role === "owner" || role === "admin")) {
        expect((await erase(a.keys[role], { contactId: contact!.id })).status).toBe(404)
      }
      expect((await erase(b.keys.viewer, { contactId: contact!.id })).status).toBe(403)
      const reply = await erase(b.keys.owner, { contactId: contact!.id })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body).toMatchObject({ responses: { count: 2 }, files: { count: 1 }, contacts: { count: 1 } })
      const left = await query<{ n: number }>(
        "select count(*)::int as n from responses where workspace_id = $1",
        b.workspaceId
      )
      expect(left[0]!.n).toBe(0)
    })
  })
}
