/**
 * A team signs in: invitations (by e-mail through a real SMTP server on
 * loopback, or a link the inviter copies), password resets that never tell
 * whether an address has an account, and one-time sign-in links an owner or
 * admin issues for a member. The whole flow by HTTP (`qforms.handler`), the
 * authorization matrix over two workspaces, single use under concurrency,
 * expiry, cross-origin refusal, and the OpenAPI document. On PGlite always,
 * on PostgreSQL too when QFORMS_TEST_DATABASE_URL is set.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Actors from "../src/kernel/Actors.ts"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Invitations } from "../src/identity/Invitations.ts"
import { Members } from "../src/identity/Members.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { smtpSink } from "@qforms/test-kit/SmtpSink"

const appUrl = "http://qforms.test"
const password = "a long enough password"
const generous = { requestsPerSecond: 10_000, burst: 10_000 }

type Roles = "owner" | "admin" | "member" | "viewer"

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith("qforms_session="))
    ?.split(";")[0]
    ?.slice("qforms_session=".length)

const tokenIn = (text: string, path: string) => new RegExp(`${appUrl}/app/${path}/([A-Za-z0-9_-]+)`).exec(text)?.[1]

for (const target of databaseTargets) {
  describe(`invitations, password resets and sign-in links on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let mine = 0
    let other = 0
    const keys: Record<Roles, string> = { owner: "", admin: "", member: "", viewer: "" }
    const ids: Record<Roles, number> = { owner: 0, admin: 0, member: 0, viewer: 0 }
    let otherKey = ""
    let secondAdminId = 0
    let sharedId = 0

    const request = async (
      method: string,
      path: string,
      options: {
        readonly key?: string
        readonly json?: unknown
        readonly form?: Record<string, string>
        readonly cookie?: string
        readonly headers?: Record<string, string>
      } = {}
    ) => {
      const headers: Record<string, string> = { origin: appUrl, host: "qforms.test", ...options.headers }
      if (options.key !== undefined) headers["authorization"] = `Bearer ${options.key}`
      if (options.cookie !== undefined) headers["cookie"] = `qforms_session=${options.cookie}`
      let body: string | undefined
      if (options.json !== undefined) {
        headers["content-type"] = "application/json"
        body = JSON.stringify(options.json)
      } else if (options.form !== undefined) {
        headers["content-type"] = "application/x-www-form-urlencoded"
        body = new URLSearchParams(options.form).toString()
      }
      const response = await qforms.handler(
        new Request(`${appUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
      )
      const text = await response.text()
      const json = (() => {
        try {
          return JSON.parse(text)
        } catch {
          return undefined
        }
      })()
      return { status: response.status, text, json, cookie: cookieOf(response), headers: response.headers }
    }

    const session = (cookie: string) => request("GET", "/app/session", { cookie })
    const signIn = (email: string, secret: string) =>
      request("POST", "/app/sign-in", { form: { email, password: secret } })

    /** An invitation made through the service (its token, which the API shows only without SMTP). */
    const invitationToken = (email: string, role: Roles, workspaceId = mine) =>
      qforms.run(
        Effect.gen(function* () {
          return (yield* (yield* Invitations).create(Actors.system(workspaceId), { email, role })).token
        }).pipe(Effect.orDie)
      )

    const sql = (run: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      qforms.run(Effect.flatMap(Effect.service(SqlClient.SqlClient), run).pipe(Effect.orDie))

    beforeAll(async () => {
      smtp = await smtpSink()
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl,
        rateLimit: generous,
        app: { signInRateLimit: generous },
        mail: { url: smtp.url, from: "qforms <qforms@example.com>" }
      })
      await qforms.run(
        Effect.gen(function* () {
          const workspaces = yield* Workspaces
          const members = yield* Members
          const sessions = yield* Sessions
          const apiKeys = yield* ApiKeys
          const w = yield* workspaces.create({ name: "Team", ownerEmail: "owner@example.com" })
          mine = w.workspace.id
          ids.owner = w.ownerAccountId
          for (const role of ["admin", "member", "viewer"] as const) {
            ids[role] = (yield* members.add(mine, { email: `${role}@example.com`, role })).accountId
          }
          secondAdminId = (yield* members.add(mine, { email: "admin2@example.com", role: "admin" })).accountId
          for (const role of ["owner", "admin", "member", "viewer"] as const) {
            keys[role] = (yield* apiKeys.create(mine, { accountId: ids[role] })).key
            yield* sessions.setPassword(`${role}@example.com`, password)
          }
          const o = yield* workspaces.create({ name: "Elsewhere", ownerEmail: "elsewhere@example.com" })
          other = o.workspace.id
          otherKey = (yield* apiKeys.create(other, { accountId: o.ownerAccountId })).key
          yield* sessions.setPassword("elsewhere@example.com", password)
          // A member of both workspaces, without a password.
          sharedId = (yield* members.add(mine, { email: "shared@example.com", role: "member" })).accountId
          yield* members.add(other, { email: "shared@example.com", role: "viewer" })
        }).pipe(Effect.orDie)
      )
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
      await smtp?.close()
    })

    it("invites by e-mail; the invitee sets a name and password, is a member, and signs in later", async () => {
      const created = await request("POST", "/api/invitations", {
        key: keys.admin,
        json: { email: "new@example.com", role: "member" }
      })
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({ email: "new@example.com", role: "member", emailed: true, status: "pending" })
      expect(created.json.link).toBeUndefined()
      const mail = await waitFor(() => smtp.received.find((m) => m.to.includes("new@example.com")))
      expect(mail.parsed.subject).toContain("Team")
      const token = tokenIn(mail.parsed.text ?? "", "invite")!
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      // Only the hash is stored.
      const stored = (await sql(
        (sql) => sql`select token_hash from invitations where email = 'new@example.com'`
      )) as Array<{ token_hash: string }>
      expect(stored[0]!.token_hash).not.toBe(token)

      const listed = await request("GET", "/api/invitations", { key: keys.owner })
      expect(listed.json.invitations.map((i: { email: string }) => i.email)).toContain("new@example.com")
      expect(JSON.stringify(listed.json)).not.toContain(token)

      const page = await request("GET", `/app/invite/${token}`)
      expect(page.status).toBe(200)
      expect(page.text).toContain("Join Team")
      expect(page.text).toContain('autocomplete="new-password"')

      const short = await request("POST", `/app/invite/${token}`, { form: { name: "Nova", password: "short" } })
      expect(short.status).toBe(400)
      const accepted = await request("POST", `/app/invite/${token}`, { form: { name: "Nova", password } })
      expect(accepted.status).toBe(303)
      const who = await session(accepted.cookie!)
      expect(who.json).toMatchObject({
        workspaceId: mine,
        role: "member",
        account: { email: "new@example.com", name: "Nova" }
      })

      // The audit log: the acceptance and the session it opened, as the new member, in one workspace only.
      const audit = await request("GET", "/api/audit-log?limit=10", { key: keys.owner })
      expect(audit.status).toBe(200)
      const entries = audit.json.entries as Array<{
        action: string
        actor: { kind: string; label: string }
        details: Record<string, unknown>
      }>
      expect(entries.find((e) => e.action === "invitation.accepted")).toMatchObject({
        surface: "app",
        actor: { kind: "member", label: "new@example.com" },
        target: { type: "invitation" },
        details: { email: "new@example.com", role: "member" }
      })
      expect(entries.find((e) => e.action === "auth.sign_in")).toMatchObject({
        actor: { kind: "member", label: "new@example.com" },
        details: { method: "invitation" }
      })
      expect(entries.findIndex((e) => e.action === "auth.sign_in")).toBeLessThan(
        entries.findIndex((e) => e.action === "invitation.accepted")
      )

      const again = await request("POST", `/app/invite/${token}`, { form: { name: "Nova", password } })
      expect(again.status).toBe(410)
      expect((await request("GET", `/app/invite/${token}`)).status).toBe(410)
      expect(
        (await request("GET", "/api/invitations", { key: keys.owner })).json.invitations.map(
          (i: { email: string }) => i.email
        )
      ).not.toContain("new@example.com")
      expect((await signIn("new@example.com", password)).status).toBe(303)
    })

    it("without a working e-mail the inviter gets the link, this once", async () => {
      smtp.reject(550)
      const created = await request("POST", "/api/invitations", {
        key: keys.owner,
        json: { email: "bounce@example.com", role: "viewer" }
      })
      expect(created.status).toBe(201)
      expect(created.json.emailed).toBe(false)
      expect(created.json.emailError).toMatch(/could not be sent/)
      const token = tokenIn(created.json.link, "invite")!
      expect((await request("GET", `/app/invite/${token}`)).status).toBe(200)
      expect(JSON.stringify((await request("GET", "/api/invitations", { key: keys.owner })).json)).not.toContain(token)
    })

    it("an address with an account accepts by signing in to it; a wrong password is refused", async () => {
      const token = await invitationToken("elsewhere@example.com", "member")
      const page = await request("GET", `/app/invite/${token}`)
      expect(page.text).toContain("already has an account")
      const wrong = await request("POST", `/app/invite/${token}`, { form: { password: "not the password" } })
      expect(wrong.status).toBe(401)
      // Setting a new password for an existing account is not a way in.
      const hijack = await request("POST", `/app/invite/${token}`, {
        form: { name: "X", password: "attacker password" }
      })
      expect(hijack.status).toBe(401)
      const accepted = await request("POST", `/app/invite/${token}`, { form: { password } })
      expect(accepted.status).toBe(303)
      expect((await session(accepted.cookie!)).json).toMatchObject({ workspaceId: mine, role: "member" })
      expect((await signIn("elsewhere@example.com", password)).status).toBe(200) // now two workspaces to choose from
    })

    it("an account of another workspace without a password must sign in there first; the token stays usable", async () => {
      const token = await invitationToken("shared2@example.com", "viewer")
      await qforms.run(
        Effect.flatMap(Effect.service(Members), (m) =>
          m.add(other, { email: "shared2@example.com", role: "member" })
        ).pipe(Effect.orDie)
      )
      const refused = await request("POST", `/app/invite/${token}`, { form: { name: "S", password } })
      expect(refused.status).toBe(409)
      expect((await request("GET", `/app/invite/${token}`)).status).toBe(200)
      expect((await signIn("shared2@example.com", password)).status).toBe(401)
    })

    it("two accepts of one invitation at once: exactly one wins", async () => {
      const token = await invitationToken("race@example.com", "member")
      const answers = await Promise.all(
        [1, 2, 3].map((n) => request("POST", `/app/invite/${token}`, { form: { name: `Racer ${n}`, password } }))
      )
      expect(answers.map((a) => a.status).sort()).toEqual([303, 410, 410])
      const rows = (await sql(
        (sql) =>
          sql`select count(*)::int as n from members m join accounts a on a.id = m.account_id where a.email = 'race@example.com'`
      )) as Array<{ n: number }>
      expect(rows[0]!.n).toBe(1)
    })

    it("unknown → 404, expired and revoked → 410, as a page or JSON", async () => {
      expect((await request("GET", `/app/invite/${"x".repeat(43)}`)).status).toBe(404)
      const unknownJson = await request("POST", `/app/invite/${"x".repeat(43)}`, {
        json: { name: "A", password },
        headers: { accept: "application/json" }
      })
      expect(unknownJson.status).toBe(404)
      expect(unknownJson.json.error).toMatch(/not valid/)

      const expiring = await invitationToken("late@example.com", "member")
      await sql(
        (sql) => sql`update invitations set expires_at = now() - interval '1 second' where email = 'late@example.com'`
      )
      expect((await request("GET", `/app/invite/${expiring}`)).status).toBe(410)
      const late = await request("POST", `/app/invite/${expiring}`, { json: { name: "Late", password } })
      expect(late.status).toBe(410)
      expect(late.json.error).toMatch(/expired/)
      const listed = (await request("GET", "/api/invitations", { key: keys.owner })).json.invitations
      expect(listed.find((i: { email: string }) => i.email === "late@example.com").status).toBe("expired")

      const revoked = await invitationToken("revoked@example.com", "member")
      const id = (await request("GET", "/api/invitations", { key: keys.owner })).json.invitations.find(
        (i: { email: string }) => i.email === "revoked@example.com"
      ).id
      expect((await request("DELETE", `/api/invitations/${id}`, { key: keys.admin })).status).toBe(204)
      expect((await request("DELETE", `/api/invitations/${id}`, { key: keys.admin })).status).toBe(404)
      expect((await request("POST", `/app/invite/${revoked}`, { form: { name: "R", password } })).status).toBe(410)
    })

    it("who may invite which role, revoke, and issue sign-in links (two workspaces)", async () => {
      const expected: Record<Roles, Record<Roles, number>> = {
        owner: { owner: 201, admin: 201, member: 201, viewer: 201 },
        admin: { owner: 403, admin: 201, member: 201, viewer: 201 },
        member: { owner: 403, admin: 403, member: 403, viewer: 403 },
        viewer: { owner: 403, admin: 403, member: 403, viewer: 403 }
      }
      for (const caller of ["owner", "admin", "member", "viewer"] as const) {
        for (const role of ["owner", "admin", "member", "viewer"] as const) {
          const answer = await request("POST", "/api/invitations", {
            key: keys[caller],
            json: { email: `m-${caller}-${role}@example.com`, role }
          })
          expect([caller, role, answer.status]).toEqual([caller, role, expected[caller][role]])
          if (answer.status === 403) expect(answer.json.error).toBeTruthy()
        }
        expect((await request("GET", "/api/invitations", { key: keys[caller] })).status).toBe(
          caller === "owner" || caller === "admin" ? 200 : 403
        )
      }
      expect(
        (
          await request("POST", "/api/invitations", {
            key: keys.owner,
            json: { email: "member@example.com", role: "viewer" }
          })
        ).status
      ).toBe(409)
      expect(
        (
          await request("POST", "/api/invitations", {
            key: keys.owner,
            json: { email: "not an address", role: "viewer" }
          })
        ).status
      ).toBe(400)

      const listed = (await request("GET", "/api/invitations", { key: keys.owner })).json.invitations as Array<{
        id: number
        email: string
      }>
      const idOf = (email: string) => listed.find((i) => i.email === email)!.id
      // Another workspace sees none of them and cannot revoke them.
      expect(
        (await request("GET", "/api/invitations", { key: otherKey })).json.invitations.map(
          (i: { email: string }) => i.email
        )
      ).not.toContain("m-owner-owner@example.com")
      expect(
        (await request("DELETE", `/api/invitations/${idOf("m-owner-member@example.com")}`, { key: otherKey })).status
      ).toBe(404)
      expect(
        (await request("DELETE", `/api/invitations/${idOf("m-owner-owner@example.com")}`, { key: keys.admin })).status
      ).toBe(403)
      expect(
        (await request("DELETE", `/api/invitations/${idOf("m-owner-member@example.com")}`, { key: keys.member })).status
      ).toBe(403)
      expect(
        (await request("DELETE", `/api/invitations/${idOf("m-owner-member@example.com")}`, { key: keys.admin })).status
      ).toBe(204)

      const link = (caller: string, accountId: number) =>
        request("POST", `/api/members/${accountId}/sign-in-link`, { key: caller })
      expect((await link(keys.owner, ids.admin)).status).toBe(201)
      expect((await link(keys.admin, ids.member)).status).toBe(201)
      expect((await link(keys.admin, secondAdminId)).status).toBe(403)
      expect((await link(keys.admin, ids.owner)).status).toBe(403)
      expect((await link(keys.member, ids.viewer)).status).toBe(403)
      expect((await link(keys.viewer, ids.viewer)).status).toBe(403)
      expect((await link(otherKey, ids.member)).status).toBe(404)
      const shared = await link(keys.owner, sharedId)
      expect(shared.status).toBe(409)
      expect(shared.json.error).toMatch(/another workspace/)
    })

    it("a member's sign-in link signs them in once, to this workspace, for 15 minutes", async () => {
      const issued = await request("POST", `/api/members/${ids.viewer}/sign-in-link`, { key: keys.admin })
      expect(issued.status).toBe(201)
      expect(issued.json.link).toMatch(new RegExp(`^${appUrl}/app/link/`))
      const minutes = (Date.parse(issued.json.expiresAt) - Date.now()) / 60_000
      expect(minutes).toBeGreaterThan(14)
      expect(minutes).toBeLessThanOrEqual(15)
      const token = tokenIn(issued.json.link, "link")!
      expect((await request("GET", `/app/link/${token}`)).status).toBe(200)
      const used = await request("POST", `/app/link/${token}`)
      expect(used.status).toBe(303)
      expect((await session(used.cookie!)).json).toMatchObject({
        workspaceId: mine,
        role: "viewer",
        account: { email: "viewer@example.com" }
      })
      expect((await request("POST", `/app/link/${token}`)).status).toBe(410)
      const signedIn = (await request("GET", "/api/audit-log?action=auth.sign_in&limit=1", { key: keys.owner })).json
      expect(signedIn.entries[0]).toMatchObject({
        surface: "app",
        actor: { kind: "member", label: "viewer@example.com" },
        details: { method: "link" }
      })

      const late = tokenIn(
        (await request("POST", `/api/members/${ids.viewer}/sign-in-link`, { key: keys.admin })).json.link,
        "link"
      )!
      await sql(
        (sql) =>
          sql`update sign_in_links set expires_at = now() - interval '1 second' where used_at is null and account_id = ${ids.viewer}`
      )
      expect((await request("POST", `/app/link/${late}`)).status).toBe(410)
    })

    it("refuses the new browser writes from another site", async () => {
      const token = await invitationToken("csrf@example.com", "member")
      const evil = { origin: "https://evil.example" }
      expect(
        (await request("POST", `/app/invite/${token}`, { form: { name: "C", password }, headers: evil })).status
      ).toBe(403)
      expect(
        (
          await request("POST", "/app/password-reset", {
            form: { email: "owner@example.com" },
            headers: { "sec-fetch-site": "cross-site" }
          })
        ).status
      ).toBe(403)
      expect(
        (await request("POST", `/app/reset/${"y".repeat(43)}`, { form: { password }, headers: evil })).status
      ).toBe(403)
      expect((await request("POST", `/app/link/${"y".repeat(43)}`, { headers: evil })).status).toBe(403)
      // The token is untouched.
      expect((await request("GET", `/app/invite/${token}`)).status).toBe(200)

      const cookie = (await signIn("owner@example.com", password)).cookie!
      const csrf = (await session(cookie)).json.csrfToken as string
      const foreign = await request("POST", "/api/invitations", {
        cookie,
        json: { email: "csrf2@example.com", role: "member" },
        headers: { ...evil, "x-csrf-token": csrf }
      })
      expect(foreign.status).toBe(403)
      const link = await request("POST", `/api/members/${ids.member}/sign-in-link`, {
        cookie,
        headers: { ...evil, "x-csrf-token": csrf }
      })
      expect(link.status).toBe(403)
      const own = await request("POST", "/api/invitations", {
        cookie,
        json: { email: "csrf2@example.com", role: "member" },
        headers: { "x-csrf-token": csrf }
      })
      expect(own.status).toBe(201)
    })

    it("password reset: the same 202 for any address, a link by e-mail, other sessions end, single use", async () => {
      const before = smtp.received.length
      const unknown = await request("POST", "/app/password-reset", { json: { email: "nobody-here@example.com" } })
      const known = await request("POST", "/app/password-reset", { json: { email: "MEMBER@example.com" } })
      expect(unknown.status).toBe(202)
      expect(known.status).toBe(202)
      expect(unknown.text).toBe(known.text)
      const formUnknown = await request("POST", "/app/password-reset", { form: { email: "nobody-here@example.com" } })
      const formKnown = await request("POST", "/app/password-reset", { form: { email: "member@example.com" } })
      expect([formUnknown.status, formKnown.status]).toEqual([202, 202])
      expect(formUnknown.text.replace(/nonce-[^']+'/g, "").replace(/nonce="[^"]+"/g, "")).toBe(
        formKnown.text.replace(/nonce-[^']+'/g, "").replace(/nonce="[^"]+"/g, "")
      )
      expect((await request("POST", "/app/password-reset", { json: { email: "not an address" } })).status).toBe(400)
      // The owner a first start creates (owner@localhost) can ask for a reset too.
      expect((await request("POST", "/app/password-reset", { json: { email: "owner@localhost" } })).status).toBe(202)
      expect((await request("POST", "/app/password-reset", { json: { email: "owner@intranet" } })).status).toBe(400)

      const mails = await waitFor(() => {
        const to = smtp.received.slice(before).filter((m) => m.to.includes("member@example.com"))
        return to.length >= 2 ? to : undefined
      })
      expect(smtp.received.slice(before).some((m) => m.to.includes("nobody-here@example.com"))).toBe(false)
      // The newer link spends the older one.
      const tokens = mails.map((m) => tokenIn(m.parsed.text ?? "", "reset")!)
      const statuses = await Promise.all(tokens.map((t) => request("GET", `/app/reset/${t}`).then((r) => r.status)))
      expect([...statuses].sort()).toEqual([200, 410])
      const live = tokens[statuses.indexOf(200)]!

      const oldSession = (await signIn("member@example.com", password)).cookie!
      expect((await session(oldSession)).status).toBe(200)
      expect((await request("POST", `/app/reset/${live}`, { form: { password: "short" } })).status).toBe(400)
      const done = await request("POST", `/app/reset/${live}`, { form: { password: "a brand new password" } })
      expect(done.status).toBe(200)
      expect(done.text).toContain("Sign in with the new password")
      expect((await session(oldSession)).status).toBe(401)
      expect((await request("POST", `/app/reset/${live}`, { form: { password: "another new password" } })).status).toBe(
        410
      )
      expect((await signIn("member@example.com", password)).status).toBe(401)
      expect((await signIn("member@example.com", "a brand new password")).status).toBe(303)
      expect((await request("GET", `/app/reset/${"z".repeat(43)}`)).status).toBe(404)
      await qforms.run(
        Effect.flatMap(Effect.service(Sessions), (s) => s.setPassword("member@example.com", password)).pipe(
          Effect.orDie
        )
      )
    })

    it("reset requests at once for one account leave exactly one live link; a replaced link says so (410)", async () => {
      const issued = await qforms.run(
        Effect.gen(function* () {
          const invitations = yield* Invitations
          return yield* Effect.all(
            Array.from({ length: 8 }, () => invitations.requestReset("member@example.com")),
            { concurrency: "unbounded" }
          )
        }).pipe(Effect.orDie)
      )
      const live = (await sql(
        (q) => q`
        select count(*)::int as n from password_resets r join accounts a on a.id = r.account_id
        where lower(a.email) = 'member@example.com' and r.used_at is null`
      )) as ReadonlyArray<{ n: number }>
      expect(live[0]!.n).toBe(1)
      const statuses = await Promise.all(
        issued.map((i) => request("GET", `/app/reset/${i!.token}`).then((r) => r.status))
      )
      expect(statuses.filter((s) => s === 200)).toHaveLength(1)
      expect(statuses.filter((s) => s === 410)).toHaveLength(7)
    })

    it("the sign-in page offers a reset, not the CLI", async () => {
      const page = await request("GET", "/app/sign-in")
      expect(page.text).toContain("/app/forgot-password")
      expect(page.text).not.toContain("set-password")
      expect((await request("GET", "/app/forgot-password")).text).toContain('<label for="email">')
    })

    it("the OpenAPI document has the new endpoints with their Schemas", async () => {
      const document = (await request("GET", "/api/openapi.json")).json
      expect(Object.keys(document.paths["/api/invitations"]).sort()).toEqual(["get", "post"])
      expect(document.paths["/api/invitations/{id}"].delete).toBeDefined()
      expect(document.paths["/api/members/{accountId}/sign-in-link"].post.responses["201"]).toBeDefined()
      expect(JSON.stringify(document.paths["/api/invitations"].post.requestBody)).toContain("role")
    })
  })
}

describe("the token routes are limited per client address", () => {
  it("answers 429 with Retry-After once the address has used its budget", async () => {
    const target = databaseTargets[0]!
    const { database, cleanup } = target.options()
    const qforms = await Qforms.make({
      database,
      appUrl,
      app: { signInRateLimit: { requestsPerSecond: 0.01, burst: 2 } }
    })
    try {
      const ask = (path: string, body: Record<string, string>) =>
        qforms.handler(
          new Request(`${appUrl}${path}`, {
            method: "POST",
            headers: { origin: appUrl, host: "qforms.test", "content-type": "application/json" },
            body: JSON.stringify(body)
          })
        )
      const resets = [] as Array<number>
      for (let i = 0; i < 3; i++) resets.push((await ask("/app/password-reset", { email: "a@example.com" })).status)
      expect(resets).toEqual([202, 202, 429])
      const accepts = [] as Array<Response>
      for (let i = 0; i < 3; i++) accepts.push(await ask(`/app/invite/${"q".repeat(43)}`, { name: "A", password }))
      expect(accepts.map((a) => a.status)).toEqual([404, 404, 429])
      expect(accepts[2]!.headers.get("retry-after")).toMatch(/^\d+$/)
    } finally {
      await qforms.dispose()
      await cleanup()
    }
  })
})
