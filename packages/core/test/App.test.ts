/**
 * The application's sign-in at HTTP level, on every test database: session
 * cookies (HttpOnly, SameSite=Lax, Secure behind https), session fixation,
 * CSRF on every write, login rate limit and lockout, sign-out, password change,
 * one-time sign-in links, and the member/API key endpoints' roles.
 */
import type { Server } from "node:http"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as SqlClient from "effect/sql/SqlClient"
import * as ShellData from "../src/app/ShellData.ts"
import * as AuditLog from "../src/audit/AuditLog.ts"
import { FieldType, optionKeys } from "../src/forms/Fields.ts"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Members } from "../src/identity/Members.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const password = "a long enough password"

/** The value of the session cookie a response sets, and its attributes. */
const sessionCookieOf = (response: Response) => {
  const header = response.headers.getSetCookie().find((c) => c.startsWith("qforms_session="))
  return header === undefined ? undefined : { value: header.split(";")[0]!.slice("qforms_session=".length), header }
}

for (const target of databaseTargets) {
  describe(`application sign-in on ${target.name}`, () => {
    let server: TestServer
    let limited: TestServer
    let ownerKey = ""
    let viewerKey = ""
    let ownerId = 0
    let ownerWorkspaceId = 0

    const signIn = (email: string, secret: string, headers: Record<string, string> = {}, on = server) =>
      fetch(`${on.url}/app/sign-in`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: on.url, ...headers },
        body: new URLSearchParams({ email, password: secret }).toString()
      })

    const session = async (cookie: string) => {
      const response = await fetch(`${server.url}/app/session`, { headers: { cookie: `qforms_session=${cookie}` } })
      return { status: response.status, body: (await response.json()) as { csrfToken: string; role: string } }
    }

    const seed = (on: TestServer) =>
      on.run(
        Effect.gen(function* () {
          const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
            name: "W",
            ownerEmail: "owner@example.com"
          })
          const members = yield* Members
          yield* members.add(workspace.id, { email: "admin@example.com", role: "admin" })
          const viewer = yield* members.add(workspace.id, { email: "viewer@example.com", role: "viewer" })
          yield* members.add(workspace.id, { email: "locked@example.com", role: "member" })
          const sessions = yield* Sessions
          for (const email of ["owner@example.com", "admin@example.com", "viewer@example.com", "locked@example.com"]) {
            yield* sessions.setPassword(email, password)
          }
          const keys = yield* ApiKeys
          return {
            workspaceId: workspace.id,
            ownerId: ownerAccountId,
            ownerKey: (yield* keys.create(workspace.id, { accountId: ownerAccountId })).key,
            viewerKey: (yield* keys.create(workspace.id, { accountId: viewer.accountId })).key
          }
        })
      )

    beforeAll(async () => {
      server = await startTestServer(target, { app: { signInRateLimit: { requestsPerSecond: 1000, burst: 1000 } } })
      const seeded = await seed(server)
      ownerKey = seeded.ownerKey
      viewerKey = seeded.viewerKey
      ownerId = seeded.ownerId
      ownerWorkspaceId = seeded.workspaceId
      limited = await startTestServer(target, { app: { signInRateLimit: { requestsPerSecond: 0.01, burst: 3 } } })
    })
    afterAll(async () => {
      await server?.close()
      await limited?.close()
    })

    it("signs in with a fresh HttpOnly, SameSite=Lax session cookie (Secure behind https)", async () => {
      const response = await signIn("OWNER@example.com", password)
      expect(response.status).toBe(303)
      expect(response.headers.get("location")).toBe("/app")
      const cookie = sessionCookieOf(response)!
      expect(cookie.header).toMatch(/HttpOnly/)
      expect(cookie.header).toMatch(/SameSite=Lax/)
      expect(cookie.header).not.toMatch(/Secure/)
      expect((await session(cookie.value)).body.role).toBe("owner")
      const behindTls = await signIn("owner@example.com", password, { "x-forwarded-proto": "https" })
      expect(sessionCookieOf(behindTls)!.header).toMatch(/Secure/)
    })

    it("refuses a wrong password with one message for unknown accounts and wrong passwords", async () => {
      const wrong = await signIn("owner@example.com", "not the password")
      const unknown = await signIn("nobody@example.com", "not the password")
      expect(wrong.status).toBe(401)
      expect(unknown.status).toBe(401)
      expect(sessionCookieOf(wrong)).toBeUndefined()
      expect(await wrong.text()).toContain("Wrong e-mail or password.")
      expect(await unknown.text()).toContain("Wrong e-mail or password.")
    })

    it("never keeps a session id the browser brought (session fixation)", async () => {
      const planted = "attacker-chosen-session-id"
      const response = await signIn("owner@example.com", password, { cookie: `qforms_session=${planted}` })
      const issued = sessionCookieOf(response)!.value
      expect(issued).not.toBe(planted)
      expect((await session(planted)).status).toBe(401)
      // A real earlier session in the same browser ends too: the next sign-in is always a new session.
      const again = sessionCookieOf(
        await signIn("owner@example.com", password, { cookie: `qforms_session=${issued}` })
      )!.value
      expect(again).not.toBe(issued)
      expect((await session(issued)).status).toBe(401)
      expect((await session(again)).status).toBe(200)
    })

    it("refuses every write of a session without its CSRF token, and sign-in from another site", async () => {
      const cookie = sessionCookieOf(await signIn("owner@example.com", password))!.value
      const { csrfToken } = (await session(cookie)).body
      const write = (token?: string) =>
        fetch(`${server.url}/api/forms`, {
          method: "POST",
          headers: {
            cookie: `qforms_session=${cookie}`,
            "content-type": "application/json",
            ...(token === undefined ? {} : { "x-csrf-token": token })
          },
          body: JSON.stringify({ title: "CSRF check" })
        })
      const missing = await write()
      expect(missing.status).toBe(403)
      expect(((await missing.json()) as { error: string }).error).toMatch(/CSRF/)
      expect((await write("wrong")).status).toBe(403)
      expect((await write(csrfToken)).status).toBe(201)
      // Reads need no token.
      expect((await fetch(`${server.url}/api/forms`, { headers: { cookie: `qforms_session=${cookie}` } })).status).toBe(
        200
      )
      // DELETE and PATCH too.
      const del = await fetch(`${server.url}/api/forms/1`, {
        method: "DELETE",
        headers: { cookie: `qforms_session=${cookie}` }
      })
      expect(del.status).toBe(403)
      // The password change and sign-out check it as well.
      const change = await fetch(`${server.url}/app/password`, {
        method: "POST",
        headers: { cookie: `qforms_session=${cookie}`, "content-type": "application/json" },
        body: JSON.stringify({ currentPassword: password, newPassword: "another long password" })
      })
      expect(change.status).toBe(403)
      const signOut = await fetch(`${server.url}/app/sign-out`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: `qforms_session=${cookie}`, "content-type": "application/x-www-form-urlencoded" },
        body: "csrf=wrong"
      })
      expect(signOut.status).toBe(403)
      expect((await session(cookie)).status).toBe(200)
      // Login CSRF: a sign-in posted from another site's page is refused.
      const foreign = await signIn("owner@example.com", password, { origin: "https://evil.example" })
      expect(foreign.status).toBe(403)
      expect(sessionCookieOf(foreign)).toBeUndefined()
    })

    it("signs out: the session ends on the server", async () => {
      const cookie = sessionCookieOf(await signIn("owner@example.com", password))!.value
      const { csrfToken } = (await session(cookie)).body
      const response = await fetch(`${server.url}/app/sign-out`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie: `qforms_session=${cookie}`,
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url
        },
        body: `csrf=${encodeURIComponent(csrfToken)}`
      })
      expect(response.status).toBe(303)
      expect(sessionCookieOf(response)!.header).toMatch(/Max-Age=0/)
      expect((await session(cookie)).status).toBe(401)
      expect((await fetch(`${server.url}/api/forms`, { headers: { cookie: `qforms_session=${cookie}` } })).status).toBe(
        401
      )
    })

    it("locks an account after five wrong passwords in a row", async () => {
      for (let i = 0; i < 5; i++) expect((await signIn("locked@example.com", "wrong password")).status).toBe(401)
      const locked = await signIn("locked@example.com", password)
      expect(locked.status).toBe(429)
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800)
      expect(await locked.text()).toMatch(/locked/)
      // Setting a new password (the CLI's path) lifts the lockout.
      await server.run(Effect.flatMap(Effect.service(Sessions), (s) => s.setPassword("locked@example.com", password)))
      expect((await signIn("locked@example.com", password)).status).toBe(303)
    })

    it("answers an e-mail without an account exactly like one with: the same statuses, page and lockout", async () => {
      const tries = async (email: string) => {
        const answers = []
        for (let i = 0; i < 6; i++) {
          const response = await signIn(email, "wrong password")
          answers.push({
            status: response.status,
            retryAfterMinutes: Math.round(Number(response.headers.get("retry-after") ?? "0") / 60),
            page: (await response.text()).replaceAll(email, "EMAIL")
          })
        }
        return answers
      }
      await server.run(
        Effect.flatMap(Effect.service(Members), (m) =>
          m.add(ownerWorkspaceId, { email: "exists@example.com", role: "viewer" })
        )
      )
      await server.run(Effect.flatMap(Effect.service(Sessions), (s) => s.setPassword("exists@example.com", password)))
      const known = await tries("exists@example.com")
      const unknown = await tries("does-not-exist@example.com")
      expect(known.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429])
      expect(unknown).toEqual(known)
    })

    it("locks the current password of a password change like a sign-in, and limits changes per address", async () => {
      await server.run(
        Effect.flatMap(Effect.service(Members), (m) =>
          m.add(ownerWorkspaceId, { email: "changer@example.com", role: "viewer" })
        )
      )
      await server.run(Effect.flatMap(Effect.service(Sessions), (s) => s.setPassword("changer@example.com", password)))
      const cookie = sessionCookieOf(await signIn("changer@example.com", password))!.value
      const { csrfToken } = (await session(cookie)).body
      const change = (currentPassword: string, on = server, withCookie = cookie, token = csrfToken) =>
        fetch(`${on.url}/app/password`, {
          method: "POST",
          headers: {
            cookie: `qforms_session=${withCookie}`,
            "content-type": "application/json",
            "x-csrf-token": token
          },
          body: JSON.stringify({ currentPassword, newPassword: "a brand new password" })
        })
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push((await change("not it")).status)
      expect(statuses).toEqual([400, 400, 400, 400, 429])
      // Locked: not even the right current password changes it now, and sign-in is locked too.
      const locked = await change(password)
      expect(locked.status).toBe(429)
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800)
      expect(await locked.json()).toHaveProperty("error")
      expect((await signIn("changer@example.com", password)).status).toBe(429)
      await server.run(Effect.flatMap(Effect.service(Sessions), (s) => s.setPassword("changer@example.com", password)))
      // Per client address: a server with bursts of 3 answers the fourth change from one address with 429.
      const strict = await startTestServer(target, { app: { signInRateLimit: { requestsPerSecond: 0.01, burst: 3 } } })
      try {
        await strict.run(
          Effect.gen(function* () {
            yield* (yield* Workspaces).create({ name: "L", ownerEmail: "limited@example.com" })
            yield* (yield* Sessions).setPassword("limited@example.com", password)
          })
        )
        const strictCookie = sessionCookieOf(await signIn("limited@example.com", password, {}, strict))!.value
        const strictSession = await fetch(`${strict.url}/app/session`, {
          headers: { cookie: `qforms_session=${strictCookie}` }
        })
        const strictCsrf = ((await strictSession.json()) as { csrfToken: string }).csrfToken
        const perAddress = []
        for (let i = 0; i < 4; i++) perAddress.push((await change("not it", strict, strictCookie, strictCsrf)).status)
        expect(perAddress).toEqual([400, 400, 400, 429])
      } finally {
        await strict.close()
      }
    })

    it("lets a member of several workspaces choose one at sign-in and switch later; adding them changes nothing of their account", async () => {
      const { other } = await server.run(
        Effect.gen(function* () {
          const { workspace } = yield* (yield* Workspaces).create({
            name: "Other",
            ownerEmail: "other-owner@example.com"
          })
          const members = yield* Members
          // No name of its own yet: the case where another workspace's "add member" used to fill one in.
          yield* members.add(ownerWorkspaceId, { email: "two@example.com", role: "member" })
          yield* (yield* Sessions).setPassword("two@example.com", password)
          yield* (yield* ApiKeys).create(workspace.id, { accountId: (yield* members.list(workspace.id))[0]!.accountId })
          return { other: workspace.id }
        })
      )
      // Another workspace's owner adds the same e-mail with a name: the account it does not own is left as it is.
      const otherOwnerKey = await server.run(
        Effect.gen(function* () {
          const owner = (yield* (yield* Members).list(other))[0]!
          return (yield* (yield* ApiKeys).create(other, { accountId: owner.accountId })).key
        })
      )
      const added = await fetch(`${server.url}/api/members`, {
        method: "POST",
        headers: { authorization: `Bearer ${otherOwnerKey}`, "content-type": "application/json" },
        body: JSON.stringify({ email: "TWO@example.com", name: "Someone Else", role: "viewer" })
      })
      expect(added.status).toBe(201)
      expect(await added.json()).toMatchObject({ name: null, email: "two@example.com", role: "viewer" })
      const inW = await server.run(Effect.flatMap(Effect.service(Members), (m) => m.list(ownerWorkspaceId)))
      expect(inW.find((m) => m.email === "two@example.com")?.name).toBeNull()

      // Signing in: the password is checked, then the person chooses; nothing is opened before.
      const signedIn = await signIn("two@example.com", password)
      expect(signedIn.status).toBe(200)
      expect(sessionCookieOf(signedIn)).toBeUndefined()
      const choices = await signedIn.text()
      expect(choices).toContain("Choose a workspace")
      const tokens = [...choices.matchAll(/name="token" value="([^"]+)"[\s\S]*?<button[^>]*>([^<]+)<\/button>/g)].map(
        (m) => ({ token: m[1]!, name: m[2]! })
      )
      expect(tokens.map((t) => t.name).sort()).toEqual(["Other", "W"])
      const choose = (token: string) =>
        fetch(`${server.url}/app/sign-in/workspace`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
          body: new URLSearchParams({ token }).toString()
        })
      const chosen = await choose(tokens.find((t) => t.name === "Other")!.token)
      expect(chosen.status).toBe(303)
      const cookie = sessionCookieOf(chosen)!.value
      const inOther = (await (
        await fetch(`${server.url}/app/session`, { headers: { cookie: `qforms_session=${cookie}` } })
      ).json()) as {
        workspaceId: number
        role: string
        csrfToken: string
        workspaces: Array<{ id: number; name: string }>
      }
      expect(inOther).toMatchObject({ workspaceId: other, role: "viewer" })
      expect(inOther.workspaces.map((w) => w.id).sort()).toEqual([ownerWorkspaceId, other].sort())
      // The other choice of the same sign-in is spent with the one made.
      expect((await choose(tokens.find((t) => t.name === "W")!.token)).status).toBe(400)

      // Switching: a fresh session in the other workspace; the old cookie ends; only one's own workspaces.
      const switchTo = (workspaceId: unknown, withCookie = cookie, csrf = inOther.csrfToken) =>
        fetch(`${server.url}/app/workspace`, {
          method: "POST",
          headers: { cookie: `qforms_session=${withCookie}`, "content-type": "application/json", "x-csrf-token": csrf },
          body: JSON.stringify({ workspaceId })
        })
      expect((await switchTo(ownerWorkspaceId, cookie, "wrong")).status).toBe(403)
      const stranger = await server.run(
        Effect.map(
          Effect.flatMap(Effect.service(Workspaces), (w) =>
            w.create({ name: "Stranger", ownerEmail: "s@example.com" })
          ),
          (r) => r.workspace.id
        )
      )
      const refused = await switchTo(stranger)
      expect(refused.status).toBe(403)
      expect(await refused.json()).toHaveProperty("error")
      const badInput = await switchTo("one")
      expect(badInput.status).toBe(400)
      expect(await badInput.json()).toHaveProperty("error")
      const switched = await switchTo(ownerWorkspaceId)
      expect(switched.status).toBe(200)
      const fresh = sessionCookieOf(switched)!.value
      expect(fresh).not.toBe(cookie)
      expect((await session(cookie)).status).toBe(401)
      expect((await session(fresh)).body).toMatchObject({ role: "member" })
      // The audit log: the password's sign-in where it was chosen, the switch where it went.
      const signIns = await server.run(
        Effect.flatMap(
          Effect.service(SqlClient.SqlClient),
          (sql) => sql<{ readonly workspace_id: number; readonly method: string }>`
            select workspace_id, details ->> 'method' as method from audit_log
            where action = 'auth.sign_in' and actor_label = 'two@example.com' order by id`
        )
      )
      expect(signIns.map((row) => [row.workspace_id, row.method])).toEqual([
        [other, "password"],
        [ownerWorkspaceId, "switch"]
      ])
      const forms = await fetch(`${server.url}/api/members`, { headers: { cookie: `qforms_session=${fresh}` } })
      expect(((await forms.json()) as { members: Array<{ email: string }> }).members.map((m) => m.email)).toContain(
        "owner@example.com"
      )
    })

    it("rate-limits sign-in attempts per client address", async () => {
      const statuses = []
      for (let i = 0; i < 4; i++) statuses.push((await signIn("owner@example.com", "wrong", {}, limited)).status)
      expect(statuses).toEqual([401, 401, 401, 429])
    })

    it("changes the password after checking the current one; other sessions end", async () => {
      await server.run(Effect.flatMap(Effect.service(Sessions), (s) => s.setPassword("admin@example.com", password)))
      const first = sessionCookieOf(await signIn("admin@example.com", password))!.value
      const other = sessionCookieOf(await signIn("admin@example.com", password))!.value
      const { csrfToken } = (await session(first)).body
      const change = (currentPassword: string, newPassword: string) =>
        fetch(`${server.url}/app/password`, {
          method: "POST",
          headers: { cookie: `qforms_session=${first}`, "content-type": "application/json", "x-csrf-token": csrfToken },
          body: JSON.stringify({ currentPassword, newPassword })
        })
      const wrong = await change("not it", "a brand new password")
      expect(wrong.status).toBe(400)
      expect(((await wrong.json()) as { error: string }).error).toBe("the current password is wrong")
      expect((await change(password, "short")).status).toBe(400)
      expect((await change(password, "a brand new password")).status).toBe(204)
      expect((await session(first)).status).toBe(200)
      expect((await session(other)).status).toBe(401)
      expect((await signIn("admin@example.com", password)).status).toBe(401)
      expect((await signIn("admin@example.com", "a brand new password")).status).toBe(303)
      await server.run(Effect.flatMap(Effect.service(Sessions), (s) => s.setPassword("admin@example.com", password)))
    })

    it("ends a removed member's sessions, keys and sign-in links with the membership: re-adding them revives none", async () => {
      const { workspaceId, accountId, key, link } = await server.run(
        Effect.gen(function* () {
          const workspaces = yield* (yield* Workspaces).list
          const workspaceId = workspaces.find((w) => w.name === "W")!.id
          const member = yield* (yield* Members).add(workspaceId, { email: "leaver@example.com", role: "member" })
          yield* (yield* Sessions).setPassword("leaver@example.com", password)
          const { key } = yield* (yield* ApiKeys).create(workspaceId, { accountId: member.accountId })
          const link = yield* (yield* Sessions).createSignInLink(workspaceId, member.accountId)
          return { workspaceId, accountId: member.accountId, key, link }
        })
      )
      const cookie = sessionCookieOf(await signIn("leaver@example.com", password))!.value
      expect((await session(cookie)).status).toBe(200)
      const forms = () => fetch(`${server.url}/api/forms`, { headers: { authorization: `Bearer ${key}` } })
      expect((await forms()).status).toBe(200)
      const removed = await fetch(`${server.url}/api/members/${accountId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${ownerKey}` }
      })
      expect(removed.status).toBe(204)
      expect((await session(cookie)).status).toBe(401)
      expect((await forms()).status).toBe(401)
      await server.run(
        Effect.flatMap(Effect.service(Members), (m) =>
          m.add(workspaceId, { email: "leaver@example.com", role: "member" })
        )
      )
      expect((await session(cookie)).status).toBe(401)
      expect((await forms()).status).toBe(401)
      const redeemed = await fetch(`${server.url}/app/sign-in/link/${link}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: server.url }
      })
      expect(redeemed.status).toBe(400)
      // Signing in again opens a new session, as the re-added member.
      expect((await signIn("leaver@example.com", password)).status).toBe(303)
    })

    it("redeems a one-time sign-in link once", async () => {
      const token = await server.run(
        Effect.gen(function* () {
          const workspaces = yield* (yield* Workspaces).list
          return yield* (yield* Sessions).createSignInLink(workspaces.find((w) => w.name === "W")!.id, ownerId)
        })
      )
      const redeem = () =>
        fetch(`${server.url}/app/sign-in/link/${token}`, {
          method: "POST",
          redirect: "manual",
          headers: { origin: server.url }
        })
      const first = await redeem()
      expect(first.status).toBe(303)
      expect((await session(sessionCookieOf(first)!.value)).body.role).toBe("owner")
      const second = await redeem()
      expect(second.status).toBe(400)
      expect(sessionCookieOf(second)).toBeUndefined()
    })

    it("serves the shell only when signed in, under a strict CSP", async () => {
      const anonymous = await fetch(`${server.url}/app/responses/12`, { redirect: "manual" })
      expect(anonymous.status).toBe(303)
      expect(anonymous.headers.get("location")).toBe("/app/sign-in?next=%2Fapp%2Fresponses%2F12")
      const cookie = sessionCookieOf(await signIn("owner@example.com", password))!.value
      const shell = await fetch(`${server.url}/app/responses/12`, { headers: { cookie: `qforms_session=${cookie}` } })
      expect(shell.status).toBe(200)
      const csp = shell.headers.get("content-security-policy")!
      expect(csp).toMatch(/default-src 'none'/)
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
      expect(csp).not.toMatch(/unsafe/)
      const page = await shell.text()
      expect(page).toContain("/app/assets/main.js")
      // What the scripts know of the server: every question type with its label and the option keys its Schema takes
      // (the builder keeps no copy), whether e-mail is configured; and the session, as the SessionInfo Schema says.
      const data = /<script type="application\/json" id="qforms-shell">([^<]*)<\/script>/.exec(page)?.[1]
      const decoded = Schema.decodeUnknownSync(ShellData.ShellData)(JSON.parse(data!))
      expect(decoded.fieldTypes.map((info) => info.type)).toEqual(FieldType.literals)
      for (const info of decoded.fieldTypes) expect(info.options, info.type).toEqual(optionKeys[info.type])
      expect(decoded.fieldTypes.find((info) => info.type === "rating")?.options).toEqual(["placeholder", "help", "max"])
      // And what the application asks instead of naming a type: the option keys a type requires, whether it takes
      // an answer, how the case page shows one and the control a member changes it with (the page's autofill aside).
      const told = (type: string) => decoded.fieldTypes.find((info) => info.type === type)
      expect(told("matrix")).toMatchObject({ requiredOptions: ["rows", "columns"], answered: true, shown: "byRow" })
      expect(told("matrix")).not.toHaveProperty("edit")
      expect(told("statement")).toMatchObject({ requiredOptions: [], answered: false })
      expect(told("email")?.edit).toEqual({ kind: "line", type: "email" })
      expect(told("number")?.edit).toEqual({ kind: "line", type: "number", numeric: true })
      expect(told("checkboxes")?.edit).toEqual({ kind: "choices" })
      expect(decoded.mail).toBe(false)
      const info = await fetch(`${server.url}/app/session`, { headers: { cookie: `qforms_session=${cookie}` } })
      expect(Schema.decodeUnknownSync(ShellData.SessionInfo)(await info.json())).toMatchObject({
        account: { email: "owner@example.com" },
        role: "owner",
        via: "session"
      })
      for (const asset of [
        "main.js",
        "app.css",
        "shared/Api.js",
        "vendor/preact.mjs",
        "vendor/hooks.mjs",
        "vendor/htm.mjs",
        "vendor/htm-preact.mjs"
      ]) {
        expect((await fetch(`${server.url}/app/assets/${asset}`)).status, asset).toBe(200)
      }
      expect((await fetch(`${server.url}/app/assets/..%2Fpackage.json`)).status).toBe(404)
      expect((await fetch(`${server.url}/app/assets/shared/..%2F..%2Fpackage.json`)).status).toBe(404)
      expect((await fetch(`${server.url}/app/assets/Shared/Api.js`)).status).toBe(404)
    })

    it("manages members and API keys with the API's roles", async () => {
      const call = (key: string, method: string, path: string, body?: unknown) =>
        fetch(`${server.url}/api${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { "content-type": "application/json" })
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      expect((await call(viewerKey, "POST", "/members", { email: "x@example.com", role: "member" })).status).toBe(403)
      expect((await call(viewerKey, "GET", "/api-keys")).status).toBe(403)
      expect((await call(viewerKey, "POST", "/api-keys", { name: "nope" })).status).toBe(403)
      const added = await call(ownerKey, "POST", "/members", { email: "new@example.com", role: "member" })
      expect(added.status).toBe(201)
      const member = (await added.json()) as { accountId: number; role: string }
      const promoted = await call(ownerKey, "PATCH", `/members/${member.accountId}`, { role: "admin" })
      expect(await promoted.json()).toMatchObject({ role: "admin" })
      // The last owner stays.
      const demote = await call(ownerKey, "PATCH", `/members/${ownerId}`, { role: "member" })
      expect(demote.status).toBe(409)
      expect((await call(ownerKey, "DELETE", `/members/${ownerId}`)).status).toBe(409)
      // Re-adding the last owner with another role is a demotion too.
      expect((await call(ownerKey, "POST", "/members", { email: "owner@example.com", role: "viewer" })).status).toBe(
        409
      )
      // A key: issued (shown once), listed without the key, revoked → 401.
      const issued = await call(ownerKey, "POST", "/api-keys", { name: "Zapier" })
      expect(issued.status).toBe(201)
      const { apiKey, key } = (await issued.json()) as { apiKey: { id: number; prefix: string }; key: string }
      expect(key.startsWith(apiKey.prefix)).toBe(true)
      const listed = await (await call(ownerKey, "GET", "/api-keys")).text()
      expect(listed).toContain(apiKey.prefix)
      expect(listed).not.toContain(key)
      expect((await call(key, "GET", "/forms")).status).toBe(200)
      expect((await call(ownerKey, "DELETE", `/api-keys/${apiKey.id}`)).status).toBe(200)
      expect((await call(key, "GET", "/forms")).status).toBe(401)
      // A key for an account id beyond the ids' range, or for no member, is refused with {error} (found by the fuzzer: 500).
      const outOfRange = await call(ownerKey, "POST", "/api-keys", { name: "x", accountId: 2 ** 40 })
      expect(outOfRange.status).toBe(400)
      expect(await outOfRange.json()).toHaveProperty("error")
      expect((await call(ownerKey, "POST", "/api-keys", { name: "x", accountId: 999_999 })).status).toBe(404)
      expect((await call(ownerKey, "DELETE", `/members/${member.accountId}`)).status).toBe(204)
      expect((await call(ownerKey, "DELETE", `/members/${member.accountId}`)).status).toBe(404)
    })
  })
}

describe("the application embedded behind the host's identity bridge", () => {
  let qforms: Qforms.Qforms
  let server: Server
  let url = ""
  let accountId = 0

  beforeAll(async () => {
    qforms = await Qforms.make({
      database: {},
      logLevel: "Error",
      delivery: { worker: false },
      app: { passwordSignIn: false },
      // The host's own sign-in: here a header the host's proxy sets after its login.
      resolveActor: ({ headers }) => (headers["x-host-user"] === "olivia" ? { workspaceId: 1, accountId } : null)
    })
    accountId = await qforms.run(
      Effect.gen(function* () {
        const { ownerAccountId } = yield* (yield* Workspaces).create({
          name: "Host",
          ownerEmail: "olivia@host.example"
        })
        return ownerAccountId
      })
    )
    server = testHttpServer(qforms.nodeHandler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
    await qforms?.dispose()
  })

  it("lets the host's signed-in user straight in, with no qforms password screen", async () => {
    const shell = await fetch(`${url}/app`, { headers: { "x-host-user": "olivia" } })
    expect(shell.status).toBe(200)
    expect(await shell.text()).toContain("/app/assets/main.js")
    const who = await (await fetch(`${url}/app/session`, { headers: { "x-host-user": "olivia" } })).json()
    expect(who).toMatchObject({
      role: "owner",
      via: "host",
      passwordSignIn: false,
      account: { email: "olivia@host.example" }
    })
    const stranger = await fetch(`${url}/app`, { redirect: "manual" })
    expect(stranger.status).toBe(401)
    const page = await stranger.text()
    expect(page).toContain("Sign in through the application")
    expect(page).not.toContain('type="password"')
    const signIn = await fetch(`${url}/app/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
      body: "email=olivia%40host.example&password=whatever12345"
    })
    expect(signIn.status).toBe(404)
    expect((await fetch(`${url}/api/forms`, { headers: { "x-host-user": "olivia" } })).status).toBe(200)
  })

  it("keeps the host's user's choice of language on their account; only this site's page may set it", async () => {
    const choose = (headers: Record<string, string>) =>
      fetch(`${url}/app/account/language`, {
        method: "PUT",
        headers: { "x-host-user": "olivia", "content-type": "application/json", ...headers },
        body: JSON.stringify({ language: "de" })
      })
    expect((await choose({ origin: "https://evil.example" })).status).toBe(403)
    expect((await choose({ "sec-fetch-site": "cross-site" })).status).toBe(403)
    const chosen = await choose({ origin: url })
    expect(chosen.status).toBe(200)
    const who = await (
      await fetch(`${url}/app/session`, { headers: { "x-host-user": "olivia", "accept-language": "ar" } })
    ).json()
    expect(who).toMatchObject({ language: "de", languagePreference: "de", browserLanguage: "ar" })
    const shell = await (await fetch(`${url}/app`, { headers: { "x-host-user": "olivia" } })).text()
    expect(shell).toContain('<html lang="de" dir="ltr">')
  })

  it("records the host's sign-in in the audit log once for the many requests it lets in", async () => {
    // Requests of the tests above, and more now, on the application, the API and the assistant endpoint.
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${url}/app/session`, { headers: { "x-host-user": "olivia" } })).status).toBe(200)
      expect((await fetch(`${url}/api/forms`, { headers: { "x-host-user": "olivia" } })).status).toBe(200)
    }
    const log = await fetch(`${url}/api/audit-log?action=auth.sign_in`, { headers: { "x-host-user": "olivia" } })
    expect(log.status).toBe(200)
    const { entries } = (await log.json()) as {
      entries: Array<{ action: string; surface: string; actor: { kind: string; label: string }; details: unknown }>
    }
    expect(entries).toEqual([
      expect.objectContaining({
        action: "auth.sign_in",
        surface: "app",
        actor: expect.objectContaining({ kind: "member", id: accountId, label: "olivia@host.example" }),
        details: { method: "bridge" }
      })
    ])
    // Another server process on the same database remembers nothing of this one: the log itself says it is recorded.
    await qforms.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* AuditLog.recordBridgedSignIn(sql, { workspaceId: 1, accountId, surface: "api", windowHours: 12 })
      })
    )
    const again = await fetch(`${url}/api/audit-log?action=auth.sign_in`, { headers: { "x-host-user": "olivia" } })
    expect(((await again.json()) as { entries: Array<unknown> }).entries).toHaveLength(1)
  })
})
