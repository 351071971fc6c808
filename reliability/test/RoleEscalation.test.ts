/**
 * Scenario 13, role escalation: a workspace with two members of every role,
 * each with a key, on the real standalone. Every path that acts on a member,
 * a key or a role is discovered from the served OpenAPI document (operations
 * with an `accountId` or `role` in their path or body, or under a members or
 * keys path) and from MCP `tools/list` (write tools taking an `accountId` or a
 * `role`), so paths added later are probed without editing the scenario. For
 * every role as the caller, each is tried on members of an equal or higher
 * role (every other role given, where a role is given) and on the caller
 * itself with every role above its own (an owner changing or removing a co-owner
 * is no escalation: owners are peers). Every attempt must be refused (403;
 * an MCP tool error) and leave the members and keys exactly as they were.
 */
import { afterAll, describe, expect, it } from "vitest"
import { call, type ProcessDatabase, record, type ServerProcess, startFresh, targets } from "./support/Harness.ts"
import { type Json, type Operation, operations, resolver, validValue } from "./support/JsonSchema.ts"
import { mcp } from "./support/Seed.ts"

const roles = ["owner", "admin", "member", "viewer"] as const
type Role = (typeof roles)[number]
const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 }

interface Person {
  readonly name: string
  readonly role: Role
  readonly accountId: number
  readonly email: string
  readonly key: string
  readonly keyId: number
}

/** The properties a JSON Schema (object) takes, refs resolved. */
const propertiesOf = (schema: Json, resolve: (s: Json) => Json): ReadonlyArray<string> => {
  const resolved = schema === undefined ? undefined : resolve(schema)
  if (resolved === undefined || resolved === null) return []
  const own = Object.keys(resolved.properties ?? {})
  const nested = [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])].flatMap((s: Json) =>
    propertiesOf(s, resolve)
  )
  return [...own, ...nested]
}

/** Whether an operation acts on a member, a key or a role (reads are not attempts). */
const isIdentityPath = (op: Operation, resolve: (s: Json) => Json) => {
  if (op.method === "GET") return false
  const body = propertiesOf(op.body, resolve)
  return (
    /members|api-keys|keys|roles/.test(op.path) ||
    op.pathParams.includes("accountId") ||
    body.includes("accountId") ||
    body.includes("role")
  )
}

for (const target of targets) {
  describe(`role escalation on ${target.name}`, () => {
    let db: ProcessDatabase | undefined
    let server: ServerProcess | undefined
    afterAll(async () => {
      await server?.stop()
      await db?.cleanup()
    })

    it("no role can mint or revoke keys of, or change the role of, an equal or higher role (co-owners each other aside), nor raise itself", async () => {
      db = target.make()
      const started = await startFresh(db)
      server = started.server
      const { url } = started
      const ownerKey = started.key

      // The people, added and given a key by the first start's owner (whose address, owner@localhost, the API
      // would refuse as an e-mail: it only takes the snapshots). An owner gets its key while an admin, then is made
      // owner (a key acts with its member's current role).
      const people: Record<string, Person> = {}
      for (const role of roles) {
        for (const n of [1, 2]) {
          const name = `${role}${n}`
          const email = `${name}@escalation.example.com`
          const added = await call(url, "POST", "/api/members", {
            key: ownerKey,
            body: { email, name, role: role === "owner" ? "admin" : role }
          })
          expect(added.status, name).toBe(201)
          const issued = await call(url, "POST", "/api/api-keys", {
            key: ownerKey,
            body: { name, accountId: added.body.accountId }
          })
          expect(issued.status, name).toBe(201)
          if (role === "owner") {
            expect(
              (
                await call(url, "PATCH", `/api/members/${added.body.accountId}`, {
                  key: ownerKey,
                  body: { role: "owner" }
                })
              ).status
            ).toBe(200)
          }
          people[name] = {
            name,
            role,
            accountId: added.body.accountId,
            email,
            key: issued.body.key,
            keyId: issued.body.apiKey.id
          }
        }
      }

      /** Members with roles and keys with their revocation, as the API shows them to owner1. */
      const snapshot = async () => {
        const members = await call(url, "GET", "/api/members", { key: ownerKey })
        const keys = await call(url, "GET", "/api/api-keys", { key: ownerKey })
        return JSON.stringify({
          members: (members.body.members as Array<Json>)
            .map((m) => `${m.accountId}:${m.email}:${m.name}:${m.role}`)
            .sort(),
          keys: (keys.body.apiKeys as Array<Json>)
            .map((k) => `${k.id}:${k.accountId}:${k.name}:${k.revokedAt !== null}`)
            .sort()
        })
      }
      const initial = await snapshot()

      // The paths, discovered.
      const doc = (await call(url, "GET", "/api/openapi.json")).body
      const resolve = resolver(doc)
      const ops = operations(doc).filter((op) => isIdentityPath(op, resolve))
      const tools = (
        (await mcp(url, ownerKey, "tools/list")).body.result.tools as Array<{
          name: string
          inputSchema: Json
          annotations?: { readOnlyHint?: boolean }
        }>
      ).filter((tool) => {
        const props = propertiesOf(tool.inputSchema, (s) => s)
        return (
          tool.annotations?.readOnlyHint !== true &&
          (props.includes("accountId") || props.includes("role") || /member|key|role/.test(tool.name))
        )
      })
      const unreachable: Array<string> = []

      let attempts = 0
      let refused = 0
      const changed: Array<string> = []
      const notRefused: Array<string> = []
      /** One attempt: the answer must be a refusal and nothing may change. */
      const attempt = async (what: string, run: () => Promise<boolean>) => {
        const before = await snapshot()
        const wasRefused = await run()
        attempts++
        if (wasRefused) refused++
        else notRefused.push(what)
        if ((await snapshot()) !== before) changed.push(what)
      }

      for (const callerRole of roles) {
        const caller = people[`${callerRole}1`]!
        // Equal or higher: the other member of the same role, and the first of each higher role.
        const others = [
          people[`${callerRole}2`]!,
          ...roles.filter((r) => rank[r] > rank[callerRole]).map((r) => people[`${r}1`]!)
        ]
        const cases: Array<{ readonly target: Person; readonly give: ReadonlyArray<Role | undefined> }> = [
          ...others.map((t) => ({ target: t, give: [undefined, ...roles.filter((r) => r !== t.role)] })),
          // Itself, only to a higher role (a key for itself or a lower role of its own is no escalation).
          { target: caller, give: roles.filter((r) => rank[r] > rank[callerRole]) }
        ]
        for (const { target: t, give } of cases) {
          for (const op of ops) {
            // Co-owners are peers (#52): one may change another's role or remove them (never the last owner);
            // core's Authorization.test.ts holds that cell of the matrix. Keys acting as a co-owner stay refused here.
            const peers = callerRole === "owner" && t !== caller && t.role === "owner"
            if (peers && /\/members\/\{accountId\}$/.test(op.path) && /^(patch|delete)$/i.test(op.method)) continue
            const takesRole = propertiesOf(op.body, resolve).includes("role")
            for (const role of give) {
              // An operation that gives a role is tried with each role; one that does not, once (on others only).
              if (takesRole !== (role !== undefined)) continue
              let path = op.path
              let reachable = true
              for (const param of op.pathParams) {
                const value =
                  param === "accountId" ? t.accountId : param === "id" && /key/.test(op.path) ? t.keyId : undefined
                if (value === undefined) reachable = false
                else path = path.replace(`{${param}}`, String(value))
              }
              if (!reachable) {
                if (!unreachable.includes(`${op.method} ${op.path}`)) unreachable.push(`${op.method} ${op.path}`)
                continue
              }
              const hints = {
                accountId: t.accountId,
                email: t.email,
                name: "Escalated",
                ...(role === undefined ? {} : { role })
              }
              const body = op.body === undefined ? undefined : validValue(op.body, resolve, hints)
              await attempt(
                `${caller.name}: ${op.method} ${path} ${JSON.stringify(body ?? null)} on ${t.name}`,
                async () => {
                  const answer = await call(url, op.method, path, { key: caller.key, body })
                  return answer.status === 403 && typeof answer.body?.error === "string"
                }
              )
            }
          }
          for (const tool of tools) {
            const takesRole = propertiesOf(tool.inputSchema, (s) => s).includes("role")
            for (const role of give) {
              if (takesRole !== (role !== undefined)) continue
              const hints = {
                accountId: t.accountId,
                email: t.email,
                id: t.keyId,
                name: "Escalated",
                ...(role === undefined ? {} : { role })
              }
              const args = validValue(tool.inputSchema, (s) => s, hints)
              await attempt(`${caller.name}: mcp ${tool.name} ${JSON.stringify(args)} on ${t.name}`, async () => {
                const answer = await mcp(url, caller.key, "tools/call", { name: tool.name, arguments: args })
                return (
                  answer.status === 403 || answer.body?.error !== undefined || answer.body?.result?.isError === true
                )
              })
            }
          }
        }
      }

      const intact = (await snapshot()) === initial
      record({
        scenario: "13 role escalation",
        target: target.name,
        figures: {
          "member/key/role operations (OpenAPI)": ops.length,
          "member/key/role MCP tools": tools.length,
          attempts,
          refused,
          changed: changed.length,
          "members and keys intact": intact
        },
        notes: [
          `operations: ${ops.map((op) => `${op.method} ${op.path}`).join(", ")}`,
          ...(tools.length === 0
            ? ["MCP: no tool acts on members, keys or roles in this version (any added one is probed)"]
            : []),
          ...unreachable.map((op) => `not probed (a path parameter the scenario cannot fill): ${op}`),
          ...notRefused.slice(0, 20).map((what) => `not refused: ${what}`),
          ...changed.slice(0, 20).map((what) => `changed: ${what}`)
        ]
      })
      expect(ops.length).toBeGreaterThanOrEqual(4)
      expect(unreachable).toEqual([])
      expect(notRefused).toEqual([])
      expect(changed).toEqual([])
      expect(attempts).toBeGreaterThan(100)
      expect(refused).toBe(attempts)
      expect(intact).toBe(true)
    }, 600_000)
  })
}
