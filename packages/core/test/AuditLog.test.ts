/**
 * The workspace audit log over real HTTP, on every test database: each
 * recorded event driven through the API or the application where it comes
 * from and read back through `GET /api/audit-log` (checked against the
 * served OpenAPI document); the authorization matrix (four roles × two
 * workspaces); UPDATE, DELETE and TRUNCATE refused by the database; the
 * retention prune removing only entries past their workspace's retention;
 * the CSV export's formula-safe cells.
 */
import * as Effect from "effect/Effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AuditLog, Members, Sessions } from "@qforms/core"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { OpenApiValidator } from "@qforms/test-kit/OpenApiValidator"
import { keysByRole, type Role, roles } from "@qforms/test-kit/Seeds"
import { api, createForm, type Reply } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** The expected rule, written independently of the code under test. */
const mayRead = (role: Role) => role === "owner" || role === "admin"

const password = "correct horse battery staple"
let counter = 0

interface Entry {
  readonly id: number
  readonly occurredAt: string
  readonly action: string
  readonly actor: { readonly kind: string; readonly id: number | null; readonly label: string | null }
  readonly surface: string
  readonly address: string | null
  readonly target: { readonly type: string; readonly id: string } | null
  readonly details: Record<string, unknown>
}

for (const target of databaseTargets) {
  describe(`audit log on ${target.name}`, () => {
    let server: TestServer
    let validator: OpenApiValidator

    beforeAll(async () => {
      server = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        app: { signInRateLimit: { requestsPerSecond: 10_000, burst: 10_000 } }
      })
      validator = new OpenApiValidator(await (await fetch(`${server.url}/api/openapi.json`)).json())
    })
    afterAll(() => server?.close())

    const seed = () => server.run(keysByRole(`audit${++counter}`))

    /** A call whose answer is checked against the served document. */
    const checked = async (key: string, method: string, path: string, body?: unknown): Promise<Reply> => {
      const answer = await api(server, key, method, path, body)
      expect(
        validator.check({
          method,
          path: `/api${path.split("?")[0]}`,
          status: answer.status,
          contentType: answer.headers.get("content-type") ?? "",
          text: answer.text
        })
      ).toBeUndefined()
      return answer
    }

    /** The log as the owner reads it through the API, newest first. */
    const log = async (key: string, query = ""): Promise<ReadonlyArray<Entry>> => {
      const answer = await checked(key, "GET", `/audit-log${query}`)
      expect(answer.status, answer.text).toBe(200)
      return answer.body.entries
    }

    const latest = async (key: string, action: string) => (await log(key, `?action=${action}`))[0]

    it("records keys, members, roles, invitations, settings and webhooks done through the API, as the key", async () => {
      const { keys } = await seed()
      const owner = keys.owner
      const issued = await checked(owner, "POST", "/api-keys", { name: "ci" })
      expect(issued.status, issued.text).toBe(201)
      const created = await latest(owner, "api_key.created")
      expect(created).toMatchObject({
        action: "api_key.created",
        surface: "api",
        actor: { kind: "api_key" },
        target: { type: "api_key", id: String(issued.body.apiKey.id) },
        details: { name: "ci" }
      })
      expect(created!.address).toMatch(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/)
      expect(JSON.stringify(created)).not.toContain(issued.body.key)

      expect((await checked(owner, "DELETE", `/api-keys/${issued.body.apiKey.id}`)).status).toBe(200)
      expect(await latest(owner, "api_key.revoked")).toMatchObject({
        target: { type: "api_key", id: String(issued.body.apiKey.id) },
        details: { name: "ci" }
      })

      const added = await checked(owner, "POST", "/members", { email: `new${counter}@example.com`, role: "member" })
      expect(added.status, added.text).toBe(201)
      expect(await latest(owner, "member.added")).toMatchObject({
        target: { type: "account", id: String(added.body.accountId) },
        details: { email: `new${counter}@example.com`, role: "member" }
      })
      const changed = await checked(owner, "PATCH", `/members/${added.body.accountId}`, { role: "viewer" })
      expect(changed.status, changed.text).toBe(200)
      expect(await latest(owner, "member.role_changed")).toMatchObject({
        target: { type: "account", id: String(added.body.accountId) },
        details: { from: "member", to: "viewer" }
      })
      expect((await checked(owner, "DELETE", `/members/${added.body.accountId}`)).status).toBe(204)
      expect(await latest(owner, "member.removed")).toMatchObject({ details: { role: "viewer" } })

      const invited = await checked(owner, "POST", "/invitations", {
        email: `inv${counter}@example.com`,
        role: "admin"
      })
      expect(invited.status, invited.text).toBe(201)
      const invitationId = invited.body.id
      expect(await latest(owner, "invitation.created")).toMatchObject({
        target: { type: "invitation", id: String(invitationId) },
        details: { email: `inv${counter}@example.com`, role: "admin" }
      })
      expect((await checked(owner, "DELETE", `/invitations/${invitationId}`)).status).toBe(204)
      expect(await latest(owner, "invitation.revoked")).toMatchObject({
        target: { type: "invitation", id: String(invitationId) }
      })

      expect((await checked(owner, "PUT", "/workspace/settings", { auditRetentionDays: 90 })).status).toBe(200)
      expect(await latest(owner, "workspace.settings_changed")).toMatchObject({
        target: { type: "workspace" },
        details: { keys: ["auditRetentionDays"] }
      })
      const tooShort = await checked(owner, "PUT", "/workspace/settings", { auditRetentionDays: 7 })
      expect(tooShort.status).toBe(400)
      expect(tooShort.body.error).toContain("auditRetentionDays")

      const form = await createForm(server, owner, { title: "Hooks", fields: [{ type: "short_text", label: "Q" }] })
      const hook = await checked(owner, "POST", "/webhooks/subscribe", {
        formId: form.id,
        event: "response.created",
        targetUrl: "https://hooks.example.com/in?token=s3cret"
      })
      expect(hook.status, hook.text).toBe(201)
      const hookCreated = await latest(owner, "webhook.created")
      expect(hookCreated).toMatchObject({
        target: { type: "webhook", id: hook.body.id },
        details: { url: "https://hooks.example.com/in?…", formIds: [form.id] }
      })
      expect(JSON.stringify(hookCreated)).not.toContain("s3cret")
      expect(JSON.stringify(hookCreated)).not.toContain(hook.body.secret)
      expect((await checked(owner, "PATCH", `/webhooks/subscribe/${hook.body.id}`, { disabled: true })).status).toBe(
        200
      )
      expect(await latest(owner, "webhook.changed")).toMatchObject({
        details: { changed: ["disabled"], disabled: true }
      })
      expect((await checked(owner, "DELETE", `/webhooks/subscribe/${hook.body.id}`)).status).toBe(204)
      expect(await latest(owner, "webhook.deleted")).toMatchObject({ target: { type: "webhook", id: hook.body.id } })
    })

    it("records every export of a form's responses (CSV, XLSX, the whole JSON list), not a page of the list", async () => {
      const { keys } = await seed()
      const form = await createForm(server, keys.owner, {
        title: "Export",
        fields: [{ type: "short_text", label: "Q" }]
      })
      for (const [format, path] of [
        ["csv", `/forms/${form.id}/responses.csv?tag=x`],
        ["xlsx", `/forms/${form.id}/responses.xlsx`],
        ["json", `/forms/${form.id}/responses`]
      ] as const) {
        const answer = await api(server, keys.member, "GET", path)
        expect(answer.status, answer.text).toBe(200)
        expect(await latest(keys.owner, "responses.exported")).toMatchObject({
          surface: "api",
          target: { type: "form", id: String(form.id) },
          details: { format, filters: format === "csv" ? ["tag"] : [] }
        })
      }
      const before = (await log(keys.owner, "?action=responses.exported")).length
      expect((await api(server, keys.member, "GET", `/forms/${form.id}/responses?limit=5`)).status).toBe(200)
      expect((await log(keys.owner, "?action=responses.exported")).length).toBe(before)
    })

    it("records application sign-ins, and a wrong password in every workspace of a member, never an unknown address", async () => {
      const a = await seed()
      const b = await seed()
      const email = `both${counter}@example.com`
      const accountId = await server.run(
        Effect.gen(function* () {
          const members = yield* Members.Members
          const added = yield* members.add(a.workspaceId, { email, role: "admin" })
          yield* members.add(b.workspaceId, { email, role: "member" })
          yield* (yield* Sessions.Sessions).setPassword(email, password)
          return added.accountId
        }).pipe(Effect.orDie)
      )
      const signIn = (address: string, secret: string) =>
        fetch(`${server.url}/app/sign-in`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
          body: new URLSearchParams({ email: address, password: secret }).toString()
        })
      const countAll = () =>
        server.run(
          Effect.flatMap(
            Effect.service(SqlClient.SqlClient),
            (sql) =>
              sql<{ readonly n: number }>`select count(*)::int as n from audit_log where action = 'auth.sign_in_failed'`
          ).pipe(
            Effect.map((rows) => rows[0]!.n),
            Effect.orDie
          )
        )
      const failuresBefore = await countAll()
      await signIn(`nobody${counter}@example.com`, "wrong")
      expect(await countAll()).toBe(failuresBefore)

      expect((await signIn(email, "wrong password")).status).toBeGreaterThanOrEqual(400)
      for (const keys of [a.keys, b.keys]) {
        expect(await latest(keys.owner, "auth.sign_in_failed")).toMatchObject({
          surface: "app",
          actor: { kind: "member", id: accountId, label: email },
          target: { type: "account", id: String(accountId) },
          details: { reason: "wrong_password" }
        })
      }
      expect(await countAll()).toBe(failuresBefore + 2)

      // A member of one workspace: the password opens a session there at once.
      const solo = `solo${counter}@example.com`
      const soloId = await server.run(
        Effect.gen(function* () {
          const added = yield* (yield* Members.Members).add(a.workspaceId, { email: solo, role: "member" })
          yield* (yield* Sessions.Sessions).setPassword(solo, password)
          return added.accountId
        }).pipe(Effect.orDie)
      )
      const signedIn = await signIn(solo, password)
      expect(signedIn.status).toBe(303)
      expect(signedIn.headers.getSetCookie().some((c) => c.startsWith("qforms_session="))).toBe(true)
      expect(await latest(a.keys.owner, "auth.sign_in")).toMatchObject({
        surface: "app",
        actor: { kind: "member", id: soloId, label: solo },
        details: { method: "password" }
      })
      // Another workspace's log never shows it.
      expect((await log(b.keys.owner, "?action=auth.sign_in")).some((e) => e.actor.id === soloId)).toBe(false)
    })

    it("owners and admins read their own workspace's log and its CSV; members and viewers get 403; the other workspace is invisible", async () => {
      const a = await seed()
      const b = await seed()
      await checked(b.keys.owner, "POST", "/api-keys", { name: "only-in-b" })
      for (const role of roles) {
        const listed = await checked(a.keys[role], "GET", "/audit-log")
        const csv = await api(server, a.keys[role], "GET", "/audit-log/export.csv")
        if (mayRead(role)) {
          expect(listed.status, `${role}: ${listed.text}`).toBe(200)
          expect(JSON.stringify(listed.body)).not.toContain("only-in-b")
          expect(csv.status).toBe(200)
          expect(csv.headers.get("content-type")).toContain("text/csv")
          expect(csv.text).not.toContain("only-in-b")
        } else {
          expect(listed.status, `${role}: ${listed.text}`).toBe(403)
          expect(listed.body.error).toBe("only an owner or admin can manage the workspace")
          expect(csv.status).toBe(403)
        }
      }
      // Filters and cursor pagination.
      for (let i = 0; i < 3; i++) await checked(a.keys.admin, "POST", "/api-keys", { name: `k${i}` })
      const first = await checked(a.keys.owner, "GET", "/audit-log?action=api_key.created&limit=2")
      expect(first.body.entries).toHaveLength(2)
      expect(first.body.nextCursor).not.toBeNull()
      const second = await checked(
        a.keys.owner,
        "GET",
        `/audit-log?action=api_key.created&limit=2&cursor=${first.body.nextCursor}`
      )
      expect(second.body.entries.length).toBeGreaterThan(0)
      expect(second.body.entries[0].id).toBeLessThan(first.body.entries[1].id)
      const bySurface = await log(a.keys.owner, "?surface=app")
      expect(bySurface.every((e) => e.surface === "app")).toBe(true)
      const byActor = await log(a.keys.owner, `?actor=api_key:${first.body.entries[0].actor.id}`)
      expect(byActor.length).toBeGreaterThan(0)
      expect(byActor.every((e) => e.actor.kind === "api_key" && e.actor.id === first.body.entries[0].actor.id)).toBe(
        true
      )
      const future = await log(a.keys.owner, "?from=2999-01-01T00:00:00Z")
      expect(future).toHaveLength(0)
      for (const bad of [
        "?actor=robot",
        "?actor=member:9999999999",
        "?surface=fax",
        "?cursor=abc",
        "?cursor=99999999999",
        "?from=yesterday",
        "?action=nope"
      ]) {
        const refused = await checked(a.keys.owner, "GET", `/audit-log${bad}`)
        expect(refused.status, bad).toBe(400)
        expect(typeof refused.body.error).toBe("string")
      }
    })

    it("the database refuses UPDATE, DELETE and TRUNCATE of the log; the prune removes only entries past retention", async () => {
      const a = await seed()
      const b = await seed()
      await checked(a.keys.owner, "PUT", "/workspace/settings", { auditRetentionDays: 30 })
      const refused = (statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
        server.run(
          Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => Effect.flip(statement(sql))).pipe(
            // The database's own message, wherever the driver keeps it along the chain of causes.
            Effect.map((error) => {
              const seen: Array<string> = []
              let at: unknown = error
              for (let depth = 0; depth < 6 && typeof at === "object" && at !== null; depth++) {
                const { message, cause } = at as { message?: unknown; cause?: unknown }
                seen.push(String(message ?? ""), JSON.stringify(at, Object.getOwnPropertyNames(at)))
                at = cause
              }
              return seen.join(" ")
            }),
            Effect.orDie
          )
        )
      expect(
        await refused((sql) => sql`update audit_log set action = 'auth.sign_in' where workspace_id = ${a.workspaceId}`)
      ).toContain("append-only")
      expect(await refused((sql) => sql`delete from audit_log where workspace_id = ${a.workspaceId}`)).toContain(
        "append-only"
      )
      expect(await refused((sql) => sql`truncate audit_log`)).toContain("append-only")

      // Old entries: written as they would have been 40 and 400 days ago.
      const day = 24 * 60 * 60 * 1000
      const at = (workspaceId: number, daysAgo: number) =>
        server.run(
          Effect.flatMap(
            Effect.service(SqlClient.SqlClient),
            (sql) =>
              sql`insert into audit_log (workspace_id, occurred_at, actor_kind, surface, action)
              values (${workspaceId}, ${new Date(Date.now() - daysAgo * day)}, 'system', 'system', 'retention.run')`
          ).pipe(Effect.orDie)
        )
      await at(a.workspaceId, 40)
      await at(a.workspaceId, 10)
      await at(b.workspaceId, 40)
      await at(b.workspaceId, 400)
      const pruned = await server.run(Effect.flatMap(Effect.service(AuditLog.AuditLog), (audit) => audit.prune))
      expect(pruned).toBeGreaterThanOrEqual(2)
      const left = (workspaceId: number) =>
        server.run(
          Effect.flatMap(
            Effect.service(SqlClient.SqlClient),
            (sql) =>
              sql<{ readonly days: number }>`
              select round(extract(epoch from (now() - occurred_at)) / 86400)::int as days
              from audit_log where workspace_id = ${workspaceId} and action = 'retention.run' order by days`
          ).pipe(
            Effect.map((rows) => rows.map((row) => row.days)),
            Effect.orDie
          )
        )
      // A: 30 days kept, so the 40-day-old entry went. B: the default 365 days, so only the 400-day-old went.
      expect(await left(a.workspaceId)).toEqual([10])
      expect(await left(b.workspaceId)).toEqual([40])
      // The prune's setting does not outlive its transaction.
      expect(await refused((sql) => sql`delete from audit_log where workspace_id = ${b.workspaceId}`)).toContain(
        "append-only"
      )
    })

    it("the CSV export makes every cell formula-safe and records itself", async () => {
      const { keys } = await seed()
      // A key named like a formula acts: its name is the actor's label of the entry.
      const evil = await checked(keys.owner, "POST", "/api-keys", { name: '=HYPERLINK("http://evil")' })
      expect((await checked(evil.body.key, "POST", "/api-keys", { name: "+1;@SUM(A1)" })).status).toBe(201)
      const csv = await api(server, keys.owner, "GET", "/audit-log/export.csv?action=api_key.created")
      expect(csv.status).toBe(200)
      const lines = csv.text.split("\r\n")
      expect(lines[0]).toBe(
        "ID,Occurred at,Action,Actor kind,Actor ID,Actor,Surface,Address,Target type,Target ID,Details"
      )
      expect(csv.text).toContain(`"'=HYPERLINK(""http://evil"")"`)
      expect(csv.text).not.toMatch(/(^|,)"?=HYPERLINK/m)
      expect(csv.text).not.toMatch(/(^|,)"?\+1/m)
      expect(await latest(keys.owner, "audit.exported")).toMatchObject({ surface: "api" })
    })

    it("record writes in the caller's transaction: a change rolled back leaves no entry", async () => {
      const { workspaceId } = await seed()
      const count = () =>
        server.run(
          Effect.flatMap(
            Effect.service(SqlClient.SqlClient),
            (sql) =>
              sql<{ readonly n: number }>`select count(*)::int as n from audit_log where workspace_id = ${workspaceId}`
          ).pipe(
            Effect.map((rows) => rows[0]!.n),
            Effect.orDie
          )
        )
      const before = await count()
      await server.run(
        Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
          sql
            .withTransaction(
              Effect.andThen(
                AuditLog.record(
                  sql,
                  { workspaceId, kind: "system", accountId: null, role: null, name: null },
                  {
                    action: "retention.run",
                    details: { formId: 1, deleted: 0, olderThanDays: 30 }
                  }
                ),
                Effect.fail("rolled back" as const)
              )
            )
            .pipe(Effect.ignore)
        )
      )
      expect(await count()).toBe(before)
    })
  })
}
