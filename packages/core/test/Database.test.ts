import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as SqlErrors from "effect/sql/SqlError"
import * as Database from "../src/storage/Database.ts"
import * as PgliteClient from "../src/storage/PgliteClient.ts"
import { databaseTargets, postgresUrl } from "@qforms/test-kit/Databases"

for (const target of databaseTargets) {
  describe(`Database on ${target.name}`, () => {
    it.layer(target.layer())((it) => {
      it.effect("migrates into its own schema", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ readonly schema: string }>`
            select table_schema as schema from information_schema.tables where table_name = 'responses'`
          const current = yield* sql<{ readonly schema: string }>`select current_schema() as schema`
          expect(rows.map((r) => r.schema)).toContain(current[0]!.schema)
          expect(current[0]!.schema).toMatch(/^qforms/)
        })
      )
    })
  })
}

describe("Database on PGlite: shared_buffers", () => {
  const sharedBuffers = (options: Database.PgliteOptions) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly value: string }>`select current_setting('shared_buffers') as value`
      return rows[0]!.value
    }).pipe(Effect.provide(Database.layerPglite(options)))

  it.effect("is 16MB unless set, and takes the configured size", () =>
    Effect.gen(function* () {
      expect(yield* sharedBuffers({})).toBe(PgliteClient.defaultSharedBuffers)
      expect(yield* sharedBuffers({ sharedBuffers: "32MB" })).toBe("32MB")
    })
  )

  it.effect.each(["16", "16 MB", "0MB", "64kB", "9GB", "1TB"])("refuses %j with a DatabaseError naming it", (value) =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(sharedBuffers({ sharedBuffers: value }))
      expect(error._tag).toBe("DatabaseError")
      expect(error.message).toContain(`Invalid sharedBuffers "${value}"`)
    })
  )
})

describe("Database on PGlite: the data directory", () => {
  it.effect("is its owner's only (0700), a new one and an existing one opened by everyone", () =>
    Effect.gen(function* () {
      const parent = mkdtempSync(join(tmpdir(), "qforms-modes-"))
      const fresh = join(parent, "fresh")
      const existing = join(parent, "existing")
      mkdirSync(existing, { mode: 0o777 })
      chmodSync(existing, 0o777)
      for (const dataDir of [fresh, existing]) {
        yield* Effect.scoped(Layer.build(Database.layerPglite({ dataDir })))
        expect(statSync(dataDir).mode & 0o777).toBe(0o700)
      }
      rmSync(parent, { recursive: true, force: true })
    })
  )
})

describe("isUnreachable and isConcurrentDeletion", () => {
  const failure = (reason: SqlErrors.SqlErrorReason) => new SqlErrors.SqlError({ reason })
  const pg = (code: string, operation = "query") =>
    new SqlErrors.UnknownError({ cause: Object.assign(new Error(code), { code }), message: code, operation })

  it("a session the server ended, one it refused, or a failed connect is the database out of reach (503)", () => {
    expect(Database.isUnreachable(failure(pg("57P01")))).toBe(true)
    expect(Database.isUnreachable(failure(pg("57P03")))).toBe(true)
    expect(Database.isUnreachable(failure(pg("53300")))).toBe(true)
    expect(Database.isUnreachable(failure(pg("55000", "connect")))).toBe(true)
    expect(
      Database.isUnreachable(failure(new SqlErrors.ConnectionError({ cause: new Error("x"), message: "x" })))
    ).toBe(true)
    expect(Database.isUnreachable(failure(pg("55000")))).toBe(false)
    expect(Database.isUnreachable(failure(pg("22P02")))).toBe(false)
    expect(Database.isUnreachable(new Error("57P01"))).toBe(false)
  })

  it("a foreign-key violation is a concurrent deletion (409), other constraint failures are not", () => {
    const constraint = (code: string) =>
      failure(new SqlErrors.ConstraintError({ cause: Object.assign(new Error(code), { code }), message: code }))
    expect(Database.isConcurrentDeletion(constraint("23503"))).toBe(true)
    expect(Database.isConcurrentDeletion(constraint("23502"))).toBe(false)
    expect(Database.isConcurrentDeletion(failure(pg("23503")))).toBe(false)
  })

  it("a deadlock or serialization failure is a collision (run again, else 409); a lock not free at once is told apart", () => {
    const cause = (code: string) => ({ cause: Object.assign(new Error(code), { code }), message: code })
    expect(Database.isCollision(failure(new SqlErrors.DeadlockError(cause("40P01"))))).toBe(true)
    expect(Database.isCollision(failure(new SqlErrors.SerializationError(cause("40001"))))).toBe(true)
    expect(Database.isCollision(failure(new SqlErrors.LockTimeoutError(cause("55P03"))))).toBe(false)
    expect(Database.isCollision(failure(pg("40P01")))).toBe(false)
    expect(Database.isLockNotAvailable(failure(new SqlErrors.LockTimeoutError(cause("55P03"))))).toBe(true)
    expect(Database.isLockNotAvailable(failure(pg("55P03")))).toBe(true)
    expect(Database.isLockNotAvailable(failure(new SqlErrors.LockTimeoutError(cause("57014"))))).toBe(false)
    expect(Database.isLockNotAvailable(new Error("55P03"))).toBe(false)
  })

  it("retryingCollisions runs a transaction again after a collision, and only after one", async () => {
    const collision = failure(new SqlErrors.DeadlockError({ cause: new Error("40P01"), message: "deadlock" }))
    let runs = 0
    const flaky = Effect.suspend(() => (++runs < 3 ? Effect.fail(collision) : Effect.succeed(runs)))
    expect(await Effect.runPromise(Database.retryingCollisions(flaky))).toBe(3)
    let other = 0
    const failing = Effect.suspend(() => {
      other++
      return Effect.fail(failure(pg("23505")))
    })
    await Effect.runPromise(Effect.flip(Database.retryingCollisions(failing)))
    expect(other).toBe(1)
    let always = 0
    const stuck = Effect.suspend(() => {
      always++
      return Effect.fail(collision)
    })
    expect(Database.isCollision(await Effect.runPromise(Effect.flip(Database.retryingCollisions(stuck))))).toBe(true)
    expect(always).toBe(5)
  })
})

describe.skipIf(postgresUrl === undefined)("Database on a PostgreSQL database without pg_trgm", () => {
  /** The test URL with another database. */
  const databaseUrl = (database: string) => {
    const url = new URL(postgresUrl!)
    url.pathname = `/${database}`
    return url.href
  }
  const clientOn = (url: string) => PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })
  // Kept between runs and emptied at the start of each: dropping a database forces a checkpoint, which on a busy
  // server (CI runs the PostgreSQL leg under load) took longer than a test may.
  const name = "qforms_test_without_pg_trgm"
  const schemas = ["s0", "s1", "s2", "s3"]

  it.live("migrates four schemas at once, though each creates pg_trgm: the losers of that race find it made", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // One run at a time on this server: the lock is the reserved session's until the scope closes.
        const session = yield* sql.reserve
        yield* session.executeUnprepared(`select pg_advisory_lock(hashtext('${name}'))`, [], undefined)
        const exists = yield* session.executeUnprepared(
          `select 1 from pg_database where datname = '${name}'`,
          [],
          undefined
        )
        if (exists.length === 0) yield* session.executeUnprepared(`create database "${name}"`, [], undefined)
        const url = databaseUrl(name)
        yield* Effect.gen(function* () {
          const fresh = yield* SqlClient.SqlClient
          for (const schema of schemas) yield* fresh.unsafe(`drop schema if exists "${schema}" cascade`)
          yield* fresh.unsafe("drop extension if exists pg_trgm")
        }).pipe(Effect.provide(clientOn(url)))
        const results = yield* Effect.forEach(
          schemas,
          (schema) =>
            Effect.scoped(Layer.build(Database.layerPg({ url, schema }))).pipe(
              Effect.as("migrated"),
              Effect.catch((error) => Effect.succeed(error.message))
            ),
          { concurrency: "unbounded" }
        )
        expect(results).toEqual(["migrated", "migrated", "migrated", "migrated"])
      })
    ).pipe(Effect.provide(clientOn(postgresUrl!)))
  )
})
