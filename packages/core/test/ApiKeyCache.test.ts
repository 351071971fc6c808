/**
 * The API key cache (identity/ApiKeyCache.ts) never answers for a key whose
 * credentials changed: a change made by plain SQL (another process, the CLI, a
 * cascade) or by another instance reaches every process through the
 * triggers' notice, on PGlite and on PostgreSQL; a change made by the process
 * itself is seen by its very next request, without waiting for the notice.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import type * as Qforms from "../src/Qforms.ts"
import { waitFor } from "@qforms/test-kit/Conditions"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { instancesOn } from "@qforms/test-kit/Instances"
import { apiOf } from "@qforms/test-kit/InProcessApi"
import { ownerKey } from "@qforms/test-kit/Seeds"

const settings = (database: Qforms.QformsOptions["database"]): Qforms.QformsOptions => ({
  database,
  delivery: { worker: false },
  rateLimit: { requestsPerSecond: 10_000, burst: 10_000 }
})

for (const target of databaseTargets) {
  describe(`API key cache on ${target.name}`, () => {
    const instances = instancesOn(target, settings)

    const setUp = async () => {
      const { qforms: q, database } = await instances.fresh()
      const ownerKeyText = await q.run(ownerKey({ name: "Keys" }))
      const owner = apiOf(q, ownerKeyText)
      // A second member (an admin) with a key of their own: the key the tests change.
      const added = await owner("POST", "/members", { email: "ada@example.com", name: "Ada", role: "admin" })
      expect(added.status, JSON.stringify(added.json)).toBe(201)
      const accountId = added.json.accountId as number
      const issued = await owner("POST", "/api-keys", { accountId })
      expect(issued.status, JSON.stringify(issued.json)).toBe(201)
      const key = issued.json.key as string
      const keyId = issued.json.apiKey.id as number
      const authenticate = Effect.gen(function* () {
        return yield* (yield* ApiKeys).authenticate(key)
      })
      const actor = () => q.run(authenticate)
      const refusal = () =>
        q.run(
          authenticate.pipe(
            Effect.flip,
            Effect.map((error) => (error._tag === "InvalidApiKey" ? error.message : error._tag)),
            Effect.orElseSucceed(() => "accepted")
          )
        )
      const plainSql = (run: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
        q.run(
          Effect.gen(function* () {
            yield* run(yield* SqlClient.SqlClient)
          }).pipe(Effect.orDie)
        )
      return { q, database, owner, key, keyId, accountId, actor, refusal, plainSql, api: apiOf(q, key) }
    }

    it("a change by plain SQL reaches a key checked before: name, role, revocation", async () => {
      const { api, accountId, actor, refusal, plainSql } = await setUp()
      for (let i = 0; i < 2; i++) expect(await actor()).toMatchObject({ role: "admin", name: "Ada" })
      await plainSql((sql) => sql`update accounts set name = 'Ada L.' where id = ${accountId}`)
      await waitFor(async () => (await actor()).name === "Ada L.", 10_000, "the new name")
      await plainSql((sql) => sql`update members set role = 'viewer' where account_id = ${accountId}`)
      await waitFor(async () => (await actor()).role === "viewer", 10_000, "the new role")
      expect((await api("POST", "/forms", { title: "No", fields: [] })).status).toBe(403)
      await plainSql((sql) => sql`update api_keys set revoked_at = now() where account_id = ${accountId}`)
      await waitFor(async () => (await refusal()) === "this API key has been revoked", 10_000, "the revocation")
      expect((await api("GET", "/forms")).status).toBe(401)
    })

    it("the process's own changes are seen by its next request, at once", async () => {
      const { q, owner, api, keyId, accountId, actor, refusal } = await setUp()
      for (const role of ["member", "viewer", "admin"] as const) {
        expect((await api("GET", "/forms")).status).toBe(200)
        expect((await owner("PATCH", `/members/${accountId}`, { role })).status).toBe(200)
        expect((await actor()).role).toBe(role)
      }
      expect((await api("GET", "/forms")).status).toBe(200)
      expect((await owner("DELETE", `/api-keys/${keyId}`)).status).toBe(200)
      expect(await refusal()).toBe("this API key has been revoked")
      expect((await api("GET", "/forms")).status).toBe(401)

      // A member removed: their other keys stop at once too.
      const second = await owner("POST", "/api-keys", { accountId })
      const secondApi = apiOf(q, second.json.key as string)
      expect((await secondApi("GET", "/forms")).status).toBe(200)
      expect((await owner("DELETE", `/members/${accountId}`)).status).toBe(204)
      expect((await secondApi("GET", "/forms")).status).toBe(401)
    })

    it.skipIf(target.name !== "postgres")(
      "a revocation through another instance on the same database reaches this one",
      async () => {
        const { database, key, keyId, actor, refusal } = await setUp()
        const other = await instances.sharing(database)
        for (let i = 0; i < 2; i++) expect((await actor()).role).toBe("admin")
        // The admin's key revokes itself through the other instance.
        const otherApi = apiOf(other, key)
        expect((await otherApi("GET", "/forms")).status).toBe(200)
        const revoked = await otherApi("DELETE", `/api-keys/${keyId}`)
        expect(revoked.status, JSON.stringify(revoked.json)).toBe(200)
        await waitFor(async () => (await refusal()) === "this API key has been revoked", 10_000, "the revocation")
      }
    )
  })
}
