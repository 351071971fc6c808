/**
 * The authorization matrix of the member, key and role endpoints over real
 * HTTP, on every test database: every caller role (owner, admin, member,
 * viewer) × every target (itself, and another member of each role) × every
 * action (issue a key acting as them, revoke their key, change their role to
 * each other role, re-add them with each other role, remove them), in its own
 * workspace and against a second workspace. Refused attempts answer 403 (404
 * across workspaces) and change nothing.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Members } from "../src/identity/Members.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const roles = ["owner", "admin", "member", "viewer"] as const
type Role = (typeof roles)[number]
const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 }

/** The expected rule, written independently of the code under test. */
const mayManage = (caller: Role, target: Role, self: boolean) =>
  (caller === "owner" || caller === "admin") && (self || rank[target] < rank[caller])
const mayGive = (caller: Role, target: Role, self: boolean, role: Role) =>
  mayManage(caller, target, self) && rank[role] <= rank[caller] && (!self || rank[role] <= rank[target])
/** Co-owners are peers: one may change another's role or remove them (#52), never issue a key acting as them. */
const ownerOverOwner = (caller: Role, target: Role) => caller === "owner" && target === "owner"

interface Person {
  readonly accountId: number
  readonly email: string
  readonly role: Role
  readonly key: string
  readonly keyId: number
}

/** A workspace with two members of every role, each with a key. */
interface Seeded {
  readonly workspaceId: number
  readonly people: Record<`${Role}${1 | 2}`, Person>
}

let counter = 0

for (const target of databaseTargets) {
  describe(`authorization of members, keys and roles on ${target.name}`, () => {
    let server: TestServer

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimit: { requestsPerSecond: 10_000, burst: 10_000 } })
    })
    afterAll(() => server?.close())

    const seed = (): Promise<Seeded> => {
      const name = `w${++counter}`
      return server.run(
        Effect.gen(function* () {
          const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
            name,
            ownerEmail: `${name}-owner1@example.com`
          })
          const members = yield* Members
          const keys = yield* ApiKeys
          const people: Record<string, Person> = {}
          for (const role of roles) {
            for (const n of [1, 2] as const) {
              const email = `${name}-${role}${n}@example.com`
              const accountId =
                role === "owner" && n === 1
                  ? ownerAccountId
                  : (yield* members.add(workspace.id, { email, role })).accountId
              const { apiKey, key } = yield* keys.create(workspace.id, { accountId })
              people[`${role}${n}`] = { accountId, email, role, key, keyId: apiKey.id }
            }
          }
          return { workspaceId: workspace.id, people: people as Seeded["people"] }
        }).pipe(Effect.orDie)
      )
    }

    /** Members (with roles) and keys (with revocation) of a workspace, as the database has them. */
    const snapshot = (workspaceId: number) =>
      server.run(
        Effect.gen(function* () {
          const members = yield* (yield* Members).list(workspaceId)
          const keys = yield* (yield* ApiKeys).list(workspaceId)
          return {
            members: members.map((m) => `${m.accountId}:${m.email}:${m.name}:${m.role}`).sort(),
            keys: keys.map((k) => `${k.id}:${k.accountId}:${k.revokedAt !== null}`).sort()
          }
        }).pipe(Effect.orDie)
      )

    const call = async (key: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as { error?: string }) }
    }

    type Action = {
      readonly name: string
      readonly allowed: (caller: Role, target: Role, self: boolean) => boolean
      readonly okStatus: number
      /** The role the action gives, if it gives one. */
      readonly grant?: Role
      readonly run: (
        caller: Person,
        target: Person
      ) => Promise<{ status: number; body: { error?: string } | undefined }>
    }
    const actions: ReadonlyArray<Action> = [
      {
        name: "issue a key acting as",
        allowed: mayManage,
        okStatus: 201,
        run: (caller, t) => call(caller.key, "POST", "/api-keys", { name: "matrix", accountId: t.accountId })
      },
      {
        name: "revoke the key of",
        allowed: mayManage,
        okStatus: 200,
        run: (caller, t) => call(caller.key, "DELETE", `/api-keys/${t.keyId}`)
      },
      {
        name: "remove",
        allowed: (caller, t, self) => mayManage(caller, t, self) || ownerOverOwner(caller, t),
        okStatus: 204,
        run: (caller, t) => call(caller.key, "DELETE", `/members/${t.accountId}`)
      },
      ...roles.flatMap(
        (role): ReadonlyArray<Action> => [
          {
            name: `change to ${role} the role of`,
            grant: role,
            allowed: (caller, t, self) => mayGive(caller, t, self, role) || ownerOverOwner(caller, t),
            okStatus: 200,
            run: (caller, t) => call(caller.key, "PATCH", `/members/${t.accountId}`, { role })
          },
          {
            name: `re-add as ${role}`,
            grant: role,
            allowed: (caller, t, self) => mayGive(caller, t, self, role),
            okStatus: 201,
            run: (caller, t) => call(caller.key, "POST", "/members", { email: t.email, role })
          }
        ]
      )
    ]

    it("allows each action exactly to the roles above the target (or the caller itself, never upwards), and refused attempts change nothing", async () => {
      const outcomes: Array<string> = []
      let refused = 0
      let allowed = 0
      let workspace = await seed()
      for (const callerRole of roles) {
        for (const targetName of ["self", ...roles] as const) {
          for (const action of actions) {
            const callerOf = (w: Seeded) => w.people[`${callerRole}1`]
            const targetOf = (w: Seeded) => (targetName === "self" ? callerOf(w) : w.people[`${targetName}2`])
            const t = targetOf(workspace)
            const self = targetName === "self"
            // Re-adding or re-giving the role someone has changes nothing: not part of the matrix.
            if (action.grant === t.role) continue
            const expected = action.allowed(callerRole, t.role, self)
            const before = await snapshot(workspace.workspaceId)
            const answer = await action.run(callerOf(workspace), t)
            const cell = `${callerRole} may ${expected ? "" : "not "}${action.name} ${self ? "itself" : `an ${targetName}`}`
            outcomes.push(`${cell}: ${answer.status}`)
            if (expected) {
              allowed++
              expect(answer.status, `${cell}: ${JSON.stringify(answer.body)}`).toBe(action.okStatus)
              // The state changed: the next cell starts on a fresh workspace.
              workspace = await seed()
            } else {
              refused++
              expect(answer.status, `${cell}: ${JSON.stringify(answer.body)}`).toBe(403)
              expect(answer.body?.error, cell).toMatch(/owner or admin|below their own|above their own|raise their own/)
              expect(await snapshot(workspace.workspaceId), cell).toEqual(before)
            }
          }
        }
      }
      // Every role was tried on every target with every action (a refused cell is not a vacuous one).
      expect(refused).toBeGreaterThan(100)
      expect(allowed).toBeGreaterThan(20)
    })

    it("keeps every caller out of another workspace's members and keys (404, nothing changes)", async () => {
      const home = await seed()
      const other = await seed()
      const before = await snapshot(other.workspaceId)
      for (const callerRole of roles) {
        const caller = home.people[`${callerRole}1`]
        for (const targetRole of roles) {
          const t = other.people[`${targetRole}2`]
          const attempts = [
            await call(caller.key, "POST", "/api-keys", { accountId: t.accountId }),
            await call(caller.key, "DELETE", `/api-keys/${t.keyId}`),
            await call(caller.key, "PATCH", `/members/${t.accountId}`, { role: "viewer" }),
            await call(caller.key, "DELETE", `/members/${t.accountId}`)
          ]
          for (const attempt of attempts) {
            // Viewers and members are refused before anything is looked up; owners and admins find nothing.
            expect(attempt.status, `${callerRole} on ${targetRole} of another workspace`).toBe(
              rank[callerRole] >= rank.admin ? 404 : 403
            )
            expect(attempt.body).toHaveProperty("error")
          }
        }
      }
      expect(await snapshot(other.workspaceId)).toEqual(before)
    })

    it("reads the caller's role as it is now: an admin demoted while its key lives can no longer act on members", async () => {
      const w = await seed()
      const admin = w.people.admin1
      await server.run(
        Effect.flatMap(Effect.service(Members), (m) => m.add(w.workspaceId, { email: admin.email, role: "member" }))
      )
      expect((await call(admin.key, "DELETE", `/api-keys/${w.people.viewer2.keyId}`)).status).toBe(403)
      expect((await call(admin.key, "POST", "/api-keys", { accountId: w.people.viewer2.accountId })).status).toBe(403)
    })

    it("lets a caller lower its own role but keeps the last owner", async () => {
      const w = await seed()
      expect(
        (await call(w.people.owner2.key, "PATCH", `/members/${w.people.owner2.accountId}`, { role: "admin" })).status
      ).toBe(200)
      const last = await call(w.people.owner1.key, "PATCH", `/members/${w.people.owner1.accountId}`, { role: "admin" })
      expect(last.status).toBe(409)
      expect((await call(w.people.owner1.key, "DELETE", `/members/${w.people.owner1.accountId}`)).status).toBe(409)
    })
  })
}
