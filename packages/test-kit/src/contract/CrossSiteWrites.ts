/**
 * The HTTP contract: cross-site writes (CSRF).
 */
import { afterAll, beforeAll, expect } from "vitest"
import { Effect } from "effect"
import { ApiKeys, Sessions, Workspaces } from "@qforms/core"
import type { TestServer } from "../TestServer.ts"
import { group } from "./Contract.ts"
import { request } from "./Requests.ts"
import { expectStatus } from "./Expectations.ts"

export const crossSiteWrites = group("cross-site writes (CSRF)", { transport: true }, (c) => {
  const { transportTest } = c
  let site: TestServer
  let ids: {
    workspaceId: number
    ownerId: number
    ownerKey: string
    session: string
    csrfToken: string
    formId: number
  }
  const origin = () => new URL(site.url).origin

  beforeAll(async () => {
    // The host's sign-in is its own cookie, `host_user=<account id>`: what a bridge typically reads.
    site = await c.start(c.target, {
      app: true,
      resolveActor: ({ headers }) => {
        const id = /(?:^|;\s*)host_user=(\d+)/.exec(headers["cookie"] ?? "")?.[1]
        return id === undefined ? null : { workspaceId: ids.workspaceId, accountId: Number(id) }
      }
    })
    ids = await site
      .run(
        Effect.gen(function* () {
          const { ownerAccountId, workspace } = yield* (yield* Workspaces.Workspaces).create({
            name: "Site",
            ownerEmail: "site-owner@example.com"
          })
          const sessions = yield* Sessions.Sessions
          yield* sessions.setPassword("site-owner@example.com", "a long enough password")
          const signedIn = yield* sessions.signIn({
            email: "site-owner@example.com",
            password: "a long enough password"
          })
          if (signedIn._tag !== "Opened") return yield* Effect.die("the site's owner is a member of one workspace")
          const opened = signedIn.opened
          const session = yield* sessions.resolve(opened.id)
          const key = yield* (yield* ApiKeys.ApiKeys).create(workspace.id, { accountId: ownerAccountId, name: "site" })
          return {
            workspaceId: workspace.id,
            ownerId: ownerAccountId,
            ownerKey: key.key,
            session: opened.id,
            csrfToken: session!.csrfToken
          }
        })
      )
      .then(async (seeded) => {
        const form = await request(site.url, seeded.ownerKey, "POST", "/forms", { body: { title: "Site form" } })
        expectStatus(form, 201)
        return { ...seeded, formId: form.body.id as number }
      })
  })

  afterAll(async () => {
    await site?.close()
  })

  /** The credentials of each way a browser or a client signs in. */
  const kinds = () => ({
    session: { cookie: `qforms_session=${ids.session}`, "x-csrf-token": ids.csrfToken },
    bridge: { cookie: `host_user=${ids.ownerId}` },
    bearer: { authorization: `Bearer ${ids.ownerKey}` }
  })
  const crossSite: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ["Origin of another site", { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["Origin: null", { origin: "null" }]
  ]
  const write = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${site.url}${path}`, {
      method,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  const memberEmails = async () => {
    const reply = await request(site.url, ids.ownerKey, "GET", "/members")
    return (reply.body.members as Array<{ email: string }>).map((m) => m.email)
  }

  /** The ways a browser signs in here: the bridge only where the server takes a `resolveActor` (not the standalone). */
  const browserKinds = async () => {
    const bridged = await fetch(`${site.url}/app/session`, { headers: { cookie: kinds().bridge.cookie } })
    await bridged.text()
    return bridged.status === 200 ? (["session", "bridge"] as const) : (["session"] as const)
  }

  transportTest(
    "a cookie or bridge write from another site is refused with 403 {error} and changes nothing, on the API, /mcp and the application",
    async () => {
      for (const kind of await browserKinds()) {
        const credentials = kinds()[kind]
        for (const [label, headers] of crossSite) {
          const what = `${kind}, ${label}`
          const added = await write(
            "POST",
            "/api/members",
            { ...credentials, ...headers },
            { email: "intruder@example.com", role: "owner" }
          )
          expect.soft(added.status, `${what}: POST /api/members ${await added.clone().text()}`).toBe(403)
          expect.soft(await added.text(), what).toMatch(/"error":"cross-site request refused/)
          const renamed = await write(
            "PATCH",
            `/api/forms/${ids.formId}`,
            { ...credentials, ...headers },
            { title: "Forged" }
          )
          expect.soft(renamed.status, `${what}: PATCH /api/forms`).toBe(403)
          const removed = await write("DELETE", `/api/forms/${ids.formId}`, { ...credentials, ...headers })
          expect.soft(removed.status, `${what}: DELETE /api/forms`).toBe(403)
          const mcp = await write(
            "POST",
            "/mcp",
            { ...credentials, ...headers },
            {
              jsonrpc: "2.0",
              id: 1,
              method: "tools/call",
              params: { name: "update_form", arguments: { formId: ids.formId, title: "Forged" } }
            }
          )
          expect.soft(mcp.status, `${what}: POST /mcp`).toBe(403)
        }
      }
      for (const [label, headers] of crossSite) {
        const password = await write(
          "POST",
          "/app/password",
          { ...kinds().session, ...headers },
          {
            currentPassword: "a long enough password",
            newPassword: "a password the attacker chose"
          }
        )
        expect.soft(password.status, `POST /app/password, ${label}`).toBe(403)
        const signOut = await fetch(`${site.url}/app/sign-out`, {
          method: "POST",
          redirect: "manual",
          headers: { ...kinds().session, ...headers }
        })
        expect.soft(signOut.status, `POST /app/sign-out, ${label}`).toBe(403)
      }
      expect(await memberEmails()).not.toContain("intruder@example.com")
      const form = await request(site.url, ids.ownerKey, "GET", `/forms/${ids.formId}`)
      expect(form.body.title).toBe("Site form")
      // The session survived: still signed in with the old password.
      const session = await fetch(`${site.url}/app/session`, { headers: { cookie: kinds().session.cookie } })
      expect(session.status).toBe(200)
    }
  )

  transportTest("the same writes from this site's own pages work, and bearer keys work from anywhere", async () => {
    const own = [
      ["Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin", origin: origin() }],
      ["Origin of this site", { origin: origin() }],
      ["no browser headers", {}]
    ] as const
    let n = 0
    for (const kind of await browserKinds()) {
      for (const [label, headers] of own) {
        const email = `same-${n++}@example.com`
        const added = await write("POST", "/api/members", { ...kinds()[kind], ...headers }, { email, role: "viewer" })
        expect.soft(added.status, `${kind}, ${label}: ${await added.text()}`).toBe(201)
      }
    }
    for (const [label, headers] of crossSite) {
      const email = `bearer-${n++}@example.com`
      const added = await write("POST", "/api/members", { ...kinds().bearer, ...headers }, { email, role: "viewer" })
      expect.soft(added.status, `bearer, ${label}: ${await added.text()}`).toBe(201)
    }
    expect((await memberEmails()).filter((email) => /^(same|bearer)-/.test(email))).toHaveLength(n)
  })
})
