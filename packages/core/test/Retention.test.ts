/**
 * Retention per form (`privacy/Retention.ts`, the form setting `retention`): a
 * real qforms on a real HTTP server, uploads in a real directory, e-mails
 * through a real SMTP server on loopback; PGlite always, PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set. Responses are made old by moving their
 * times back in the database; the runs are called as the daily job calls them.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ResponseFold } from "../src/cases/ResponseFold.ts"
import { DAY_MS, Retention } from "../src/privacy/Retention.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { api, createForm } from "@qforms/test-kit/PublicForms"
import { keysByRole, type Role } from "@qforms/test-kit/Seeds"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
const BOUNDARY = "----qformsRetentionBoundary"

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
  describe(`retention on ${target.name}`, () => {
    let server: TestServer
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let filesDirectory: string
    let a: { workspaceId: number; keys: Record<Role, string> }
    let b: { workspaceId: number; keys: Record<Role, string> }

    const query = <A extends object>(text: string, ...params: Array<unknown>) =>
      server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text, params as Array<never>))) as Promise<
        ReadonlyArray<A>
      >
    const run = () => server.run(Effect.flatMap(Retention, (retention) => retention.run))
    const runDue = () => server.run(Effect.flatMap(Retention, (retention) => retention.runDue))

    /** A published form (Email, Name, CV) with a retention. */
    const supportForm = async (key: string, retention: unknown) => {
      const form = await createForm(server, key, {
        title: "Support",
        fields: [
          { type: "email", label: "Email", required: true },
          { type: "short_text", label: "Name", required: false },
          { type: "file", label: "CV", required: false }
        ]
      })
      if (retention !== undefined) {
        const patched = await api(server, key, "PATCH", `/forms/${form.id}`, { settings: { retention } })
        expect(patched.status, patched.text).toBe(200)
      }
      return form
    }

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

    /** Moves a response's times back by `days` (the tallies' triggers follow its day). */
    const age = (responseId: number, days: number) =>
      query(
        `update responses set submitted_at = submitted_at - make_interval(days => $2),
           updated_at = updated_at - make_interval(days => $2) where id = $1`,
        responseId,
        days
      )

    /** A partial response, straight in the table (as the public page stores one), `days` old. */
    const partial = async (form: Form, workspaceId: number, days: number) => {
      const [row] = await query<{ id: number }>(
        `insert into responses (workspace_id, form_id, submitted_at, updated_at, tags, source, answers, search_text,
           finished, email)
         values ($1, $2, now() - make_interval(days => $3), now() - make_interval(days => $3), '{}', 'form',
           $4::jsonb, 'partial@example.com', false, 'partial@example.com')
         returning id`,
        workspaceId,
        form.id,
        days,
        JSON.stringify({ [form.fields[0]!.id]: "partial@example.com" })
      )
      return row!.id
    }

    const blobPath = async (fileId: string) => {
      const [row] = await query<{ storage_key: string }>("select storage_key from files where id = $1", fileId)
      return join(filesDirectory, row!.storage_key)
    }

    /** The form's stored counts, once every response is folded in (ResponseFold.ts), against a recount. */
    const expectConsistentCounts = async (formId: number) => {
      await server.run(Effect.flatMap(ResponseFold, (fold) => fold.foldAll))
      const [counted] = await query<{ n: number }>(
        "select coalesce(sum(n), 0)::int as n from form_response_counts where form_id = $1",
        formId
      )
      const [actual] = await query<{ n: number }>(
        "select count(*)::int as n from responses where form_id = $1 and finished and merged_into is null",
        formId
      )
      expect(counted!.n).toBe(actual!.n)
      const tags = await query<{ tag: string; n: number }>(
        "select tag, sum(n)::int as n from form_tags where form_id = $1 group by tag having sum(n) <> 0 order by tag",
        formId
      )
      const recountedTags = await query<{ tag: string; n: number }>(
        `select t.tag, count(*)::int as n from responses r cross join unnest(r.tags) as t(tag)
         where r.form_id = $1 group by t.tag order by t.tag`,
        formId
      )
      expect(tags).toEqual(recountedTags)
      const tallies = await query<{ field_id: number; key: string; n: number }>(
        `select field_id, key, sum(count)::int as n from answer_tallies where form_id = $1
         group by 1, 2 having sum(count) <> 0 order by 1, 2`,
        formId
      )
      const recounted = await query<{ field_id: number; key: string; n: number }>(
        `select k.field_id, k.key, count(*)::int as n
         from responses r
         cross join lateral qforms_tally_keys(r.form_id, r.answers, r.source, r.started_at, r.submitted_at) as k
         where r.form_id = $1 and r.finished group by 1, 2 order by 1, 2`,
        formId
      )
      expect(tallies).toEqual(recounted)
    }

    const auditOf = (workspaceId: number) =>
      query<{ actor_kind: string; surface: string; target_id: string; details: unknown }>(
        "select actor_kind, surface, target_id, details from audit_log where workspace_id = $1 and action = 'retention.run' order by id",
        workspaceId
      )

    beforeAll(async () => {
      smtp = await smtpSink()
      filesDirectory = mkdtempSync(join(tmpdir(), "qforms-retention-"))
      server = await startTestServer(target, {
        appUrl: "http://qforms.test",
        filesDirectory,
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        uploadRateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        mail: { url: smtp.url, from: "Support <support@example.com>" },
        delivery: { worker: false }
      })
      a = await server.run(keysByRole("reta"))
      b = await server.run(keysByRole("retb"))
    })

    afterAll(async () => {
      await server?.close()
      await smtp?.close()
      if (filesDirectory !== undefined) rmSync(filesDirectory, { recursive: true, force: true })
    })

    it("refuses a retention that is not {days 1..3650, action delete|anonymise} with 400 naming it; null keeps forever", async () => {
      const form = await supportForm(a.keys.owner, undefined)
      const cases: ReadonlyArray<[unknown, RegExp]> = [
        [{ days: 0, action: "delete" }, /retention\.days must be a whole number from 1 to 3650/],
        [{ days: 3651, action: "delete" }, /retention\.days must be a whole number from 1 to 3650/],
        [{ days: 1.5, action: "delete" }, /retention\.days must be a whole number/],
        [{ days: 30, action: "shred" }, /action/],
        [{ days: 30 }, /action/],
        [{ days: 30, action: "delete", extra: true }, /unknown retention key "extra"/],
        ["30 days", /retention/]
      ]
      for (const [retention, message] of cases) {
        const reply = await api(server, a.keys.owner, "PATCH", `/forms/${form.id}`, { settings: { retention } })
        expect(reply.status, JSON.stringify(retention)).toBe(400)
        expect(reply.body.error, JSON.stringify(retention)).toMatch(message)
      }
      const set = await api(server, a.keys.owner, "PATCH", `/forms/${form.id}`, {
        settings: { retention: { days: 3650, action: "anonymise" } }
      })
      expect(set.status, set.text).toBe(200)
      expect((await api(server, a.keys.owner, "GET", `/forms/${form.id}`)).body.settings.retention).toEqual({
        days: 3650,
        action: "anonymise"
      })
      const cleared = await api(server, a.keys.owner, "PATCH", `/forms/${form.id}`, { settings: { retention: null } })
      expect(cleared.status, cleared.text).toBe(200)
      expect((await api(server, a.keys.owner, "GET", `/forms/${form.id}`)).body.settings.retention).toBeNull()
    })

    it("deletes the old responses of a delete form, with their files, announcing them; young ones stay", async () => {
      const form = await supportForm(a.keys.owner, { days: 30, action: "delete" })
      const keep = await supportForm(a.keys.owner, undefined)
      const elsewhere = await supportForm(b.keys.owner, { days: 30, action: "delete" })
      const fileId = await upload(form)
      const old = await submit(a.keys.owner, form, "old@example.com", "Old Person", fileId)
      const tagged = await api(server, a.keys.owner, "PATCH", `/responses/${old}`, { tags: ["vip"] })
      expect(tagged.status, tagged.text).toBe(200)
      const young = await submit(a.keys.owner, form, "young@example.com", "Young Person")
      const oldPartial = await partial(form, a.workspaceId, 31)
      const youngPartial = await partial(form, a.workspaceId, 2)
      const untouched = await submit(a.keys.owner, keep, "old@example.com", "Old Person")
      const otherWorkspace = await submit(b.keys.owner, elsewhere, "old@example.com", "Old Person")
      await age(old, 31)
      await age(untouched, 400)
      await age(otherWorkspace, 10)
      const path = await blobPath(fileId)
      expect(existsSync(path)).toBe(true)

      const report = await run()
      const mine = report.workspaces.find((w) => w.workspaceId === a.workspaceId)
      expect(mine?.forms).toEqual([
        {
          formId: form.id,
          action: "delete",
          olderThanDays: 30,
          deleted: 1,
          anonymised: 0,
          partialResponses: 1,
          files: 1,
          emails: 0
        }
      ])
      expect(report.workspaces.find((w) => w.workspaceId === b.workspaceId)).toBeUndefined()

      const left = await query<{ id: number }>("select id from responses where form_id = $1 order by id", form.id)
      expect(left.map((row) => row.id)).toEqual([young, youngPartial].sort((x, y) => x - y))
      expect(left.map((row) => row.id)).not.toContain(oldPartial)
      expect(await query("select id from responses where id = $1", untouched)).toHaveLength(1)
      expect(await query("select id from responses where id = $1", otherWorkspace)).toHaveLength(1)
      expect(await query("select id from files where id = $1", fileId)).toHaveLength(0)
      expect(existsSync(path)).toBe(false)
      const deleted = await query<{ payload: { responseId: number } }>(
        "select payload from events where workspace_id = $1 and type = 'response.deleted'",
        a.workspaceId
      )
      expect(deleted.map((row) => row.payload.responseId)).toEqual([old])
      await expectConsistentCounts(form.id)

      const audit = await auditOf(a.workspaceId)
      expect(audit).toHaveLength(1)
      expect(audit[0]).toMatchObject({ actor_kind: "system", surface: "system", target_id: String(form.id) })
      expect(audit[0]!.details).toEqual({
        formId: form.id,
        action: "delete",
        olderThanDays: 30,
        deleted: 1,
        anonymised: 0,
        partialResponses: 1,
        files: 1,
        emails: 0
      })
      expect(JSON.stringify(audit)).not.toMatch(/example\.com|Old Person|cv\.pdf/)

      // A second run changes nothing and records nothing.
      expect((await run()).workspaces.find((w) => w.workspaceId === a.workspaceId)).toBeUndefined()
      expect(await auditOf(a.workspaceId)).toHaveLength(1)
    })

    it("anonymises the old cases of an anonymise form: answers, files, e-mails and identity gone, the case kept", async () => {
      const form = await supportForm(a.keys.admin, { days: 10, action: "anonymise" })
      const fileId = await upload(form)
      const old = await submit(a.keys.owner, form, "ana@example.com", "Ana Secret", fileId)
      const young = await submit(a.keys.owner, form, "yan@example.com", "Yan Young")
      const stages = await api(server, a.keys.owner, "GET", `/forms/${form.id}/stages`)
      const stageId = stages.body.stages[1]?.id
      const changed = await api(server, a.keys.owner, "PATCH", `/responses/${old}`, {
        tags: ["followup"],
        ...(stageId === undefined ? {} : { stageId })
      })
      expect(changed.status, changed.text).toBe(200)
      const before = smtp.received.length
      const sent = await api(server, a.keys.owner, "POST", `/responses/${old}/emails`, {
        subject: "Your request",
        body: "Ana, please send the document."
      })
      expect(sent.status, sent.text).toBe(201)
      await age(old, 11)
      const [kept] = await query<{ submitted_at: Date; stage_id: number | null; tags: Array<string> }>(
        "select submitted_at, stage_id, tags from responses where id = $1",
        old
      )
      expect(await query("select id from response_emails where response_id = $1", old)).toHaveLength(1)
      const path = await blobPath(fileId)

      const report = await run()
      expect(report.workspaces.find((w) => w.workspaceId === a.workspaceId)?.forms).toEqual([
        {
          formId: form.id,
          action: "anonymise",
          olderThanDays: 10,
          deleted: 0,
          anonymised: 1,
          partialResponses: 0,
          files: 1,
          emails: 1
        }
      ])
      const [row] = await query<{
        answers: unknown
        name: string | null
        email: string | null
        contact_id: number | null
        search_text: string
        anonymised_at: Date | null
        submitted_at: Date
        stage_id: number | null
        tags: Array<string>
        finished: boolean
      }>(
        `select answers, name, email, contact_id, search_text, anonymised_at, submitted_at, stage_id, tags, finished
         from responses where id = $1`,
        old
      )
      expect(row).toMatchObject({ answers: {}, name: null, email: null, contact_id: null, search_text: "" })
      expect(row!.anonymised_at).not.toBeNull()
      expect(row!.finished).toBe(true)
      expect(row!.submitted_at.getTime()).toBe(kept!.submitted_at.getTime())
      expect(row!.stage_id).toBe(kept!.stage_id)
      expect(row!.tags).toEqual(["followup"])
      expect(await query("select id from files where id = $1", fileId)).toHaveLength(0)
      await waitFor(() => !existsSync(path) || undefined)
      expect(await query("select id from response_emails where response_id = $1", old)).toHaveLength(0)
      expect(await query("select seq from events where response_id = $1", old)).toHaveLength(0)
      const [youngRow] = await query<{ email: string; anonymised_at: Date | null }>(
        "select email, anonymised_at from responses where id = $1",
        young
      )
      expect(youngRow).toEqual({ email: "yan@example.com", anonymised_at: null })

      // The case's timeline: an `anonymised` activity with counts only, no personal data left in it.
      const detail = await api(server, a.keys.owner, "GET", `/responses/${old}`)
      expect(detail.status, detail.text).toBe(200)
      expect(detail.text).not.toMatch(/ana@example\.com|Ana Secret|please send/)
      const activities = await query<{ type: string; payload: unknown }>(
        "select type, payload from activities where response_id = $1 order by id",
        old
      )
      expect(activities.map((row) => row.type)).toContain("anonymised")
      expect(activities.map((row) => row.type)).not.toContain("email_sent")
      expect(JSON.stringify(activities)).not.toMatch(/ana@example\.com|Ana Secret|Your request/)
      expect(activities.find((row) => row.type === "anonymised")?.payload).toEqual({ olderThanDays: 10 })

      const audit = (await auditOf(a.workspaceId)).filter((entry) => entry.target_id === String(form.id))
      expect(audit).toHaveLength(1)
      expect(JSON.stringify(audit)).not.toMatch(/example\.com|Ana Secret/)
      await expectConsistentCounts(form.id)
      // Metrics still count the case.
      const [count] = await query<{ n: number }>(
        "select coalesce(sum(n), 0)::int as n from form_response_counts where form_id = $1",
        form.id
      )
      expect(count!.n).toBe(2)
      expect(smtp.received.length).toBeGreaterThanOrEqual(before)

      // A second run passes the anonymised case by.
      expect((await run()).workspaces.find((w) => w.workspaceId === a.workspaceId)).toBeUndefined()
      expect((await auditOf(a.workspaceId)).filter((entry) => entry.target_id === String(form.id))).toHaveLength(1)
    })

    it("works in batches, and two runs at once never process a response twice", async () => {
      const form = await supportForm(b.keys.owner, { days: 5, action: "delete" })
      const ids: Array<number> = []
      for (let i = 0; i < 12; i++) ids.push(await submit(b.keys.owner, form, `p${i}@example.com`, `Person ${i}`))
      await query(`update responses set submitted_at = submitted_at - interval '6 days' where id = any($1::int[])`, ids)
      const [first, second] = await Promise.all([run(), run()])
      const total = [first, second]
        .flatMap((report) => report.workspaces.filter((w) => w.workspaceId === b.workspaceId))
        .flatMap((w) => w.forms)
        .reduce((sum, counts) => sum + counts.deleted, 0)
      expect(total).toBe(12)
      const events = await query<{ n: number }>(
        "select count(*)::int as n from events where workspace_id = $1 and type = 'response.deleted' and (payload->>'responseId')::int = any($2::int[])",
        b.workspaceId,
        ids
      )
      expect(events[0]!.n).toBe(12)
      expect(await query("select id from responses where form_id = $1", form.id)).toHaveLength(0)
      await expectConsistentCounts(form.id)

      // A backlog of 1200: batches of 500, each with its own audit entry.
      const backlog = await supportForm(b.keys.owner, { days: 5, action: "anonymise" })
      await query(
        `insert into responses (workspace_id, form_id, submitted_at, updated_at, tags, source, answers, search_text,
           finished)
         select $1, $2, now() - interval '9 days', now() - interval '9 days', '{}', 'form', '{}'::jsonb, '', false
         from generate_series(1, 1200)`,
        b.workspaceId,
        backlog.id
      )
      const report = await run()
      expect(
        report.workspaces.find((w) => w.workspaceId === b.workspaceId)?.forms.find((f) => f.formId === backlog.id)
      ).toMatchObject({ partialResponses: 1200, anonymised: 0 })
      const entries = (await auditOf(b.workspaceId)).filter((entry) => entry.target_id === String(backlog.id))
      expect(entries.map((entry) => (entry.details as { partialResponses: number }).partialResponses)).toEqual([
        500, 500, 200
      ])
      expect(await query("select id from responses where form_id = $1", backlog.id)).toHaveLength(0)
    })

    it("the daily job: a workspace runs once a day, claimed by one run at a time", async () => {
      const form = await supportForm(b.keys.owner, { days: 1, action: "delete" })
      const old = await submit(b.keys.owner, form, "daily@example.com", "Daily")
      await age(old, 2)
      await query("delete from retention_runs")
      const [one, two] = await Promise.all([runDue(), runDue()])
      const claimedB = [one, two].filter((report) => report.workspaces.some((w) => w.workspaceId === b.workspaceId))
      expect(claimedB).toHaveLength(1)
      expect(await query("select id from responses where id = $1", old)).toHaveLength(0)
      const [due] = await query<{ next_at: Date; finished_at: Date | null }>(
        "select next_at, finished_at from retention_runs where workspace_id = $1",
        b.workspaceId
      )
      expect(due!.finished_at).not.toBeNull()
      expect(due!.next_at.getTime() - due!.finished_at!.getTime()).toBeGreaterThan(DAY_MS - 60_000)

      // Not due again today: a new old response waits for tomorrow's run.
      const later = await submit(b.keys.owner, form, "later@example.com", "Later")
      await age(later, 2)
      expect((await runDue()).workspaces.some((w) => w.workspaceId === b.workspaceId)).toBe(false)
      expect(await query("select id from responses where id = $1", later)).toHaveLength(1)
      await query(
        "update retention_runs set next_at = now() - interval '1 minute' where workspace_id = $1",
        b.workspaceId
      )
      expect((await runDue()).workspaces.some((w) => w.workspaceId === b.workspaceId)).toBe(true)
      expect(await query("select id from responses where id = $1", later)).toHaveLength(0)
    })
  })
}
