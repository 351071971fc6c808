/**
 * The `qforms` CLI as a user runs it: real processes on a real database, the
 * keys it issues checked over HTTP against the standalone server.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  api,
  cli,
  cliOk,
  npm,
  type ProcessDatabase,
  processTargets,
  type ServerProcess,
  spawnServer
} from "./support/Processes.ts"

const KEY = /^qk_live_[0-9A-Za-z]{49}\n$/

interface Issued {
  readonly workspaceId: number
  readonly ownerAccountId: number
  readonly viewerAccountId: number
  readonly ownerKey: string
  readonly viewerKey: string
}

/** Workspace, viewer member and two keys, all through the CLI. */
const issue = async (env: Readonly<Record<string, string>>): Promise<Issued> => {
  const created = JSON.parse(
    await cliOk(
      ["workspace", "create", "--name", "Acme", "--owner-email", "ada@example.com", "--owner-name", "Ada"],
      env
    )
  )
  expect(created).toEqual({ workspaceId: expect.any(Number), ownerAccountId: expect.any(Number) })
  const workspaceId = String(created.workspaceId)
  const member = JSON.parse(
    await cliOk(
      ["member", "add", "--workspace", workspaceId, "--email", "vic@example.com", "--name", "Vic", "--role", "viewer"],
      env
    )
  )
  expect(member).toEqual({
    accountId: expect.any(Number),
    name: "Vic",
    email: "vic@example.com",
    role: "viewer",
    away: false
  })
  const ownerKey = await cliOk(["key", "create", "--workspace", workspaceId, "--name", "ci"], env)
  expect(ownerKey).toMatch(KEY)
  const viewerKey = await cliOk(
    ["key", "create", "--workspace", workspaceId, "--account", String(member.accountId)],
    env
  )
  expect(viewerKey).toMatch(KEY)
  return {
    workspaceId: created.workspaceId,
    ownerAccountId: created.ownerAccountId,
    viewerAccountId: member.accountId,
    ownerKey: ownerKey.trim(),
    viewerKey: viewerKey.trim()
  }
}

/** The listings of the CLI agree with what was issued. */
const checkListings = async (env: Readonly<Record<string, string>>, issued: Issued) => {
  const workspaces = JSON.parse(await cliOk(["workspace", "list"], env))
  expect(workspaces).toContainEqual({ id: issued.workspaceId, name: "Acme", createdAt: expect.any(String) })
  const members = JSON.parse(await cliOk(["member", "list", "--workspace", String(issued.workspaceId)], env))
  // (Members added later, e.g. through the running server, may follow.)
  expect(members.filter((m: { email: string }) => m.email !== "eve@example.com")).toEqual([
    { accountId: issued.ownerAccountId, name: "Ada", email: "ada@example.com", role: "owner", away: false },
    { accountId: issued.viewerAccountId, name: "Vic", email: "vic@example.com", role: "viewer", away: false }
  ])
  const keys = JSON.parse(await cliOk(["key", "list", "--workspace", String(issued.workspaceId)], env))
  expect(keys.slice(0, 2)).toEqual([
    expect.objectContaining({
      prefix: issued.ownerKey.slice(0, 12),
      name: "ci",
      accountId: issued.ownerAccountId,
      revoked: false
    }),
    expect.objectContaining({
      prefix: issued.viewerKey.slice(0, 12),
      name: null,
      accountId: issued.viewerAccountId,
      revoked: false
    })
  ])
  expect(JSON.stringify(keys)).not.toContain(issued.ownerKey)
  return keys as Array<{ id: number; prefix: string; lastUsedAt: string | null; revoked: boolean }>
}

/** The owner's key reads and writes; the viewer's reads only. */
const checkKeysWork = async (url: string, issued: Issued) => {
  const members = await api(url, "GET", "/members", { key: issued.ownerKey })
  expect(members.status).toBe(200)
  expect(JSON.stringify(members.body)).toContain("vic@example.com")
  expect(
    (await api(url, "POST", "/forms", { key: issued.ownerKey, body: { title: "By the CLI's key", fields: [] } })).status
  ).toBe(201)
  expect((await api(url, "GET", "/forms", { key: issued.viewerKey })).status).toBe(200)
  expect((await api(url, "POST", "/forms", { key: issued.viewerKey, body: { title: "No", fields: [] } })).status).toBe(
    403
  )
}

describe("qforms CLI: bad arguments", () => {
  let db: ProcessDatabase
  beforeAll(() => {
    db = processTargets[0]!.make()
  })
  afterAll(() => db.cleanup())

  it.concurrent.each([
    [["member", "add", "--workspace", "1", "--email", "vic@example.com"], /Missing required flag: --role/],
    [["member", "add", "--workspace", "1", "--email", "vic@example.com", "--role", "boss"], /--role.*"boss"/],
    [
      ["member", "add", "--workspace", "1", "--email", "not-an-email", "--role", "viewer"],
      /--email.*must be an e-mail address/
    ],
    [["member", "list", "--workspace", "abc"], /--workspace.*"abc"/],
    [["key", "create", "--workspace", "0"], /--workspace.*must be a positive integer/],
    [["key", "revoke", "first"], /keyId|"first"/],
    [["workspace", "create", "--name", "  ", "--owner-email", "ada@example.com"], /--name/],
    [["workspace", "frobnicate"], /Unknown subcommand "frobnicate"/],
    [["workspace", "list", "--bogus"], /--bogus/]
  ])("qforms %j: exit 2 with a message on stderr, no database opened", async (args, message) => {
    const dataDir = join(db.dataDir!, "untouched")
    const result = await cli(args, { QFORMS_DATA_DIR: dataDir })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stdout).toBe("")
    expect(existsSync(dataDir)).toBe(false)
  })

  it("a bad setting in the environment: exit 1 with the variable named", async () => {
    const result = await cli(["workspace", "list"], { ...db.env, QFORMS_DB_SCHEMA: "Bad-Schema" })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^qforms: Invalid database schema "Bad-Schema"/)
    expect(result.stdout).toBe("")
  })
})

for (const target of processTargets) {
  describe(`qforms CLI on ${target.name}`, () => {
    let db: ProcessDatabase
    let server: ServerProcess | undefined
    beforeAll(() => {
      db = target.make()
    })
    afterAll(async () => {
      await server?.stop()
      await db.cleanup()
    })

    it("unknown workspace, member or key: exit 1 with the message on stderr", async () => {
      for (const [args, message] of [
        [["member", "list", "--workspace", "999"], "qforms: workspace 999 not found\n"],
        [["key", "create", "--workspace", "999"], "qforms: workspace 999 not found\n"],
        [["key", "revoke", "999"], "qforms: API key 999 not found\n"]
      ] as const) {
        const result = await cli(args, db.env)
        expect(result).toEqual({ code: 1, stdout: "", stderr: message })
      }
      // Three processes, each opening the database: ~15 s alone, close to a minute on a loaded 2-core machine.
    }, 180_000)

    if (target.name === "pglite") {
      it("account set-password: the account signs in to the application with it; unknown e-mail exit 1", async () => {
        await cliOk(["workspace", "create", "--name", "Pw", "--owner-email", "pat@example.com"], db.env)
        const generated = JSON.parse(await cliOk(["account", "set-password", "--email", "pat@example.com"], db.env))
        expect(generated).toEqual({
          email: "pat@example.com",
          password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/),
          sessionsEnded: true
        })
        const chosen = JSON.parse(
          await cliOk(
            ["account", "set-password", "--email", "PAT@example.com", "--password", "chosen password 1"],
            db.env
          )
        )
        expect(chosen).toEqual({ email: "PAT@example.com", sessionsEnded: true })
        const short = await cli(
          ["account", "set-password", "--email", "pat@example.com", "--password", "short"],
          db.env
        )
        expect(short.code).toBe(2)
        expect(short.stderr).toMatch(/at least 10 characters/)
        const unknown = await cli(["account", "set-password", "--email", "nobody@example.com"], db.env)
        expect(unknown).toMatchObject({ code: 1, stdout: "" })
        expect(unknown.stderr).toMatch(/no account with the e-mail nobody@example.com/)
        server = spawnServer(db.env)
        const url = await server.listening
        const signIn = (password: string) =>
          fetch(`${url}/app/sign-in`, {
            method: "POST",
            redirect: "manual",
            headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
            body: new URLSearchParams({ email: "pat@example.com", password }).toString()
          })
        expect((await signIn(generated.password)).status).toBe(401)
        const ok = await signIn("chosen password 1")
        expect(ok.status).toBe(303)
        expect(ok.headers.get("set-cookie")).toMatch(/^qforms_session=/)
        expect(await server.stop()).toBe(0)
        server = undefined
      }, 120_000)

      it("issues a workspace, member and keys that work over HTTP; works through the running server; revokes", async () => {
        const issued = await issue(db.env)
        await checkListings(db.env, issued)

        // `npm run -s qforms -- key create …` from the root prints the key alone.
        const viaNpm = await npm(
          ["run", "-s", "qforms", "--", "key", "create", "--workspace", String(issued.workspaceId)],
          db.env
        )
        expect(viaNpm.code).toBe(0)
        expect(viaNpm.stdout).toMatch(KEY)

        server = spawnServer(db.env)
        const url = await server.listening
        await checkKeysWork(url, issued)
        expect((await api(url, "GET", "/forms", { key: viaNpm.stdout.trim() })).status).toBe(200)

        // While the server holds the data directory, the CLI's commands run inside it (its admin socket, 0600).
        const lock = readFileSync(join(db.dataDir!, "qforms.lock"), "utf8")
        expect(lock).toBe(String(server.pid))
        expect(statSync(join(db.dataDir!, "admin.sock")).mode & 0o777).toBe(0o600)
        const added = await cli(
          ["member", "add", "--workspace", String(issued.workspaceId), "--email", "eve@example.com", "--role", "admin"],
          db.env
        )
        expect(added.stderr).toBe("")
        expect(added.code).toBe(0)
        expect(JSON.parse(added.stdout)).toMatchObject({ email: "eve@example.com", role: "admin" })
        const listed = await api(url, "GET", "/members", { key: issued.ownerKey })
        expect(JSON.stringify(listed.body)).toContain("eve@example.com")
        const password = JSON.parse(await cliOk(["account", "set-password", "--email", "eve@example.com"], db.env))
          .password as string
        expect(password.length).toBeGreaterThanOrEqual(10)
        const live = (
          await cliOk(["key", "create", "--workspace", String(issued.workspaceId), "--name", "live"], db.env)
        ).trim()
        expect((await api(url, "GET", "/forms", { key: live })).status).toBe(200)
        // Failures and usage errors keep their exit codes and messages.
        const unknown = await cli(["account", "set-password", "--email", "nobody@example.com"], db.env)
        expect(unknown.code).toBe(1)
        expect(unknown.stderr).toMatch(/^qforms: no account with the e-mail nobody@example.com/)
        expect((await cli(["member", "add", "--workspace", "x"], db.env)).code).toBe(2)
        expect(readFileSync(join(db.dataDir!, "qforms.lock"), "utf8")).toBe(String(server.pid))
        await checkKeysWork(url, issued)

        expect(await server.stop()).toBe(0)
        expect(existsSync(join(db.dataDir!, "qforms.lock"))).toBe(false)
        expect(existsSync(join(db.dataDir!, "admin.sock"))).toBe(false)

        // Revoke the owner's key with the server stopped, then check both keys over HTTP.
        const keys = await checkListings(db.env, issued)
        expect(keys[0]!.lastUsedAt).not.toBeNull()
        const revoked = JSON.parse(await cliOk(["key", "revoke", String(keys[0]!.id)], db.env))
        expect(revoked).toMatchObject({ id: keys[0]!.id, revoked: true, revokedAt: expect.any(String) })
        const members = JSON.parse(await cliOk(["member", "list", "--workspace", String(issued.workspaceId)], db.env))
        expect(members.map((m: { email: string }) => m.email)).toContain("eve@example.com")

        server = spawnServer(db.env)
        const again = await server.listening
        const denied = await api(again, "GET", "/forms", { key: issued.ownerKey })
        expect(denied.status).toBe(401)
        expect(denied.body).toEqual({ error: expect.stringMatching(/revoked/) })
        expect((await api(again, "GET", "/forms", { key: issued.viewerKey })).status).toBe(200)
        // The form made over HTTP before the stop is still there.
        const forms = await api(again, "GET", "/forms", { key: issued.viewerKey })
        expect(JSON.stringify(forms.body)).toContain("By the CLI's key")

        // The audit log holds every change the CLI made, on its own and through the server: surface and actor `cli`.
        const audit = await api(again, "GET", "/audit-log?surface=cli&limit=200", { key: live })
        expect(audit.status, JSON.stringify(audit.body)).toBe(200)
        const entries = audit.body.entries as Array<{
          action: string
          actor: { kind: string }
          surface: string
          address: string | null
          target: { type: string; id: string } | null
          details: Record<string, unknown>
        }>
        const actions = entries.map((entry) => entry.action).reverse()
        expect(actions).toEqual([
          "member.added",
          "api_key.created",
          "api_key.created",
          "api_key.created",
          "member.added",
          "api_key.created",
          "api_key.revoked"
        ])
        for (const entry of entries)
          expect(entry).toMatchObject({ actor: { kind: "cli" }, surface: "cli", address: null })
        expect(entries.find((entry) => entry.action === "api_key.revoked")!.target).toEqual({
          type: "api_key",
          id: String(keys[0]!.id)
        })
        expect(JSON.stringify(entries.filter((entry) => entry.action === "member.added"))).toMatch(
          /vic@example.com[\s\S]*eve@example.com|eve@example.com[\s\S]*vic@example.com/
        )
        // Nobody's secret is in it.
        expect(JSON.stringify(entries)).not.toContain(live)
        expect(JSON.stringify(entries)).not.toContain(issued.ownerKey)
        expect(await server.stop()).toBe(0)
        server = undefined
      }, 420_000)
    } else {
      it("issues keys that work over HTTP, also while the server runs; a key revoked meanwhile gets 401", async () => {
        const issued = await issue(db.env)
        server = spawnServer(db.env)
        const url = await server.listening
        await checkKeysWork(url, issued)

        // With the server running: list, issue, revoke.
        const keys = await checkListings(db.env, issued)
        const late = (
          await cliOk(["key", "create", "--workspace", String(issued.workspaceId), "--name", "late"], db.env)
        ).trim()
        expect((await api(url, "GET", "/forms", { key: late })).status).toBe(200)
        const added = JSON.parse(
          await cliOk(
            [
              "member",
              "add",
              "--workspace",
              String(issued.workspaceId),
              "--email",
              "eve@example.com",
              "--role",
              "admin"
            ],
            db.env
          )
        )
        const members = await api(url, "GET", "/members", { key: late })
        expect(members.body.members).toContainEqual(added)

        const revoked = JSON.parse(await cliOk(["key", "revoke", String(keys[0]!.id)], db.env))
        expect(revoked).toMatchObject({ id: keys[0]!.id, revoked: true })
        const denied = await api(url, "GET", "/forms", { key: issued.ownerKey })
        expect(denied.status).toBe(401)
        expect(denied.body).toEqual({ error: expect.stringMatching(/revoked/) })
        expect((await api(url, "GET", "/forms", { key: issued.viewerKey })).status).toBe(200)
        expect(await server.stop()).toBe(0)
        server = undefined
      }, 180_000)
    }
  })
}
