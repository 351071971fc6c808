/**
 * A write that refers to a row another request deletes at the same moment
 * (the form of a new stage, here) fails its foreign key: the answer is 409
 * `{error}`, not 500. PostgreSQL only: the deletion is held open in a
 * transaction of its own while the write waits on it (PGlite has one
 * connection, so the two cannot interleave there).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"

const postgres = databaseTargets.find((target) => target.name === "postgres")

describe.skipIf(postgres === undefined)("a concurrent deletion (postgres)", () => {
  // Built inside the test, not in the describe body: vitest collects a skipped describe's body too, and
  // without QFORMS_TEST_DATABASE_URL there is no PostgreSQL target to ask for options.
  let qforms: Qforms.Qforms | undefined
  let cleanup: (() => Promise<void>) | undefined
  afterAll(async () => {
    await qforms?.dispose()
    await cleanup?.()
  })

  it("answers 409 when the form of a new stage is deleted while the stage is written", async () => {
    const options = postgres!.options()
    cleanup = options.cleanup
    // Room in the pool for the held deletion, the waiting insert, the probe below and the background work.
    const database = { ...options.database, maxConnections: 10 }
    const q = (qforms = await Qforms.make({ database, appUrl: "https://forms.example.com" }))
    const key = await q.run(
      Effect.gen(function* () {
        const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
          name: "C",
          ownerEmail: "c@example.com"
        })
        return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
      })
    )
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await q.handler(
        new Request(`http://qforms.test/api${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      )
      return { status: response.status, json: (await response.json()) as { error?: unknown; id?: number } }
    }
    const form = await api("POST", "/forms", { title: "Going" })
    // The deletion holds the form's row until the stage's insert is seen waiting on that lock; then it commits.
    let deleted!: () => void
    const deletedSignal = new Promise<void>((resolve) => (deleted = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const deletion = q.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`delete from forms where id = ${form.json.id!}`
            yield* Effect.sync(deleted)
            yield* Effect.promise(() => released)
          })
        )
      })
    )
    await deletedSignal
    const stagePromise = api("POST", `/forms/${form.json.id}/stages`, { name: "Late" })
    const waitingOnLock = () =>
      q.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`
          return rows[0]!.waiting > 0
        })
      )
    await expect.poll(waitingOnLock, { timeout: 20_000, interval: 20 }).toBe(true)
    release()
    await deletion
    const stage = await stagePromise
    expect(stage.status).toBe(409)
    expect(stage.json.error).toMatch(/deleted at the same time/)
  })
})
