/**
 * A workspace's settings over real HTTP, on every test database: the
 * authorization matrix (every role of two workspaces reads its own
 * workspace's settings; only owners and admins replace them; nobody reaches
 * the other workspace's), the theme checked as a form's is, and the public
 * page wearing the workspace's theme where a form has none, changed at once
 * by a change through the API or straight in the database (the trigger's
 * notice drops what the process kept).
 */
import * as Effect from "effect/Effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { keysByRole, type Role, roles } from "@qforms/test-kit/Seeds"
import { api, createForm, getPage } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** The expected rule, written independently of the code under test. */
const mayReplace = (role: Role) => role === "owner" || role === "admin"

let counter = 0

for (const target of databaseTargets) {
  describe(`workspace settings on ${target.name}`, () => {
    let server: TestServer

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimit: { requestsPerSecond: 10_000, burst: 10_000 } })
    })
    afterAll(() => server?.close())

    /** A workspace with a key for a member of every role. */
    const seed = () => server.run(keysByRole(`ws${++counter}`))

    it("every role reads its own workspace's settings; only owners and admins replace them; the other workspace is never reached", async () => {
      const a = await seed()
      const b = await seed()
      const themeOfB = { mode: "dark", radius: 4 }
      expect((await api(server, b.keys.owner, "PUT", "/workspace/settings", { theme: themeOfB })).status).toBe(200)
      for (const role of roles) {
        const theme = { font: "serif", radius: roles.indexOf(role) }
        const before = (await api(server, a.keys.owner, "GET", "/workspace/settings")).body
        const replaced = await api(server, a.keys[role], "PUT", "/workspace/settings", { theme })
        if (mayReplace(role)) {
          expect(replaced.status, `${role}: ${replaced.text}`).toBe(200)
          expect(replaced.body).toEqual({ theme })
        } else {
          expect(replaced.status, `${role}: ${replaced.text}`).toBe(403)
          expect(replaced.body.error).toBe("only an owner or admin can manage the workspace")
        }
        const read = await api(server, a.keys[role], "GET", "/workspace/settings")
        expect(read.status).toBe(200)
        expect(read.body).toEqual(mayReplace(role) ? { theme } : before)
        // Workspace B is untouched, and its keys see only B's settings.
        for (const other of roles) {
          expect((await api(server, b.keys[other], "GET", "/workspace/settings")).body).toEqual({ theme: themeOfB })
        }
      }
      // Replacing with {} takes every default again.
      expect((await api(server, a.keys.admin, "PUT", "/workspace/settings", {})).body).toEqual({})
      expect((await api(server, a.keys.viewer, "GET", "/workspace/settings")).body).toEqual({})
      // And so does a setting given as null (#52: a theme could not be cleared with null).
      expect((await api(server, a.keys.admin, "PUT", "/workspace/settings", { theme: { font: "serif" } })).status).toBe(
        200
      )
      const cleared = await api(server, a.keys.admin, "PUT", "/workspace/settings", {
        theme: null,
        businessHours: null,
        auditRetentionDays: null
      })
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200)
      expect(cleared.body).toEqual({})
      expect((await api(server, a.keys.viewer, "GET", "/workspace/settings")).body).toEqual({})
    })

    it("checks a theme as a form's is, and refuses unknown settings, naming them", async () => {
      const { keys } = await seed()
      const poor = await api(server, keys.owner, "PUT", "/workspace/settings", {
        theme: { background: "#ffffff", text: "#777777" }
      })
      expect(poor.status).toBe(400)
      expect(poor.body.error).toContain(
        "theme: text (#777777 on #ffffff) has a contrast of 4.47:1; WCAG AA needs 4.5:1"
      )
      const unknown = await api(server, keys.owner, "PUT", "/workspace/settings", { colour: "red" })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error).toContain('unknown workspace setting "colour"')
      const notAnObject = await api(server, keys.owner, "PUT", "/workspace/settings", [])
      expect(notAnObject.status).toBe(400)
      expect((await api(server, keys.owner, "GET", "/workspace/settings")).body).toEqual({})
    })

    it("the public page wears the workspace's theme where a form has none, and a change shows at once", async () => {
      const { workspaceId, keys } = await seed()
      const plain = await createForm(server, keys.owner, {
        title: "Plain",
        fields: [{ type: "short_text", label: "Q" }]
      })
      const own = await createForm(server, keys.owner, { title: "Own", fields: [{ type: "short_text", label: "Q" }] })
      const saved = await api(server, keys.owner, "PATCH", `/forms/${own.id}`, {
        settings: { theme: { font: "monospace", radius: 2 } }
      })
      expect(saved.status, saved.text).toBe(200)
      const style = async (publicId: string) => {
        const page = await getPage(server, `/f/${publicId}`)
        expect(page.status).toBe(200)
        return /<style nonce="[^"]+">([\s\S]*?)<\/style>/.exec(page.text)?.[1] ?? ""
      }
      // Read once before any workspace theme: the page's own style (and the settings are now kept in memory).
      expect(await style(plain.publicId)).not.toContain("--radius:12px")
      const put = await api(server, keys.admin, "PUT", "/workspace/settings", {
        theme: { background: "#fdf6e3", text: "#073642", font: "serif", radius: 12, buttons: { start: "Begin" } }
      })
      expect(put.status, put.text).toBe(200)
      const worn = await style(plain.publicId)
      expect(worn).toContain("--bg:#fdf6e3;--fg:#073642;")
      expect(worn).toContain("--radius:12px")
      expect((await getPage(server, `/f/${plain.publicId}`)).text).toContain(">Begin</button>")
      // A form's own theme wins whole.
      const ownStyle = await style(own.publicId)
      expect(ownStyle).toContain("--radius:2px")
      expect(ownStyle).not.toContain("#fdf6e3")
      // A change straight in the database (another process, the CLI): the trigger's notice drops the kept copy.
      await server.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`update workspace_page_settings set settings = ${JSON.stringify({ theme: { radius: 7 } })}::jsonb
            where workspace_id = ${workspaceId}`
        }).pipe(Effect.orDie)
      )
      await expect.poll(() => style(plain.publicId), { interval: 50, timeout: 10_000 }).toContain("--radius:7px")
    })
  })
}
