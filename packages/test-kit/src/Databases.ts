/**
 * The databases every storage test runs on: PGlite, and PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set (QFORMS_TEST_DATABASES picks among them).
 * Each PostgreSQL run gets a schema of its own, dropped afterwards, so suites
 * do not see each other's rows.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Redacted } from "effect"
import { Database } from "@qforms/core"

export interface DatabaseTarget {
  readonly name: "pglite" | "postgres"
  readonly layer: () => Layer.Layer<SqlClient.SqlClient, Database.DatabaseError>
  /** The same database as `Qforms.make` options, and how to clean it up afterwards. */
  readonly options: () => {
    readonly database: Database.PgOptions | Database.PgliteOptions
    readonly cleanup: () => Promise<void>
  }
}

export const postgresUrl = process.env.QFORMS_TEST_DATABASE_URL

const uniqueSchema = () => `qforms_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`

const dropSchema = (url: string, schema: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`drop schema if exists "${schema}" cascade`)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.orDie)

const postgresTarget = (url: string): DatabaseTarget => ({
  name: "postgres",
  options: () => {
    const schema = uniqueSchema()
    return { database: { url, schema, maxConnections: 4 }, cleanup: () => Effect.runPromise(dropSchema(url, schema)) }
  },
  layer: () => {
    const schema = uniqueSchema()
    return Layer.merge(
      Database.layerPg({ url, schema, maxConnections: 4 }),
      Layer.effectDiscard(Effect.addFinalizer(() => dropSchema(url, schema)))
    )
  }
})

const pgliteTarget: DatabaseTarget = {
  name: "pglite",
  layer: () => Database.layerPglite(),
  options: () => ({ database: {}, cleanup: () => Promise.resolve() })
}

/**
 * `QFORMS_TEST_DATABASES`: the targets of this run by name (`pglite`, `postgres`, comma-separated). Unset: PGlite,
 * and PostgreSQL when its URL is set. `npm run test:pg` names `postgres` alone, for a run that follows one on the
 * embedded database (CI's PostgreSQL leg), so nothing runs twice on PGlite.
 */
const chosen = (process.env.QFORMS_TEST_DATABASES ?? "")
  .split(",")
  .map((name) => name.trim())
  .filter((name) => name !== "")

const unknown = chosen.filter((name) => name !== "pglite" && name !== "postgres")
if (unknown.length > 0)
  throw new Error(`QFORMS_TEST_DATABASES names ${unknown.join(", ")}: the test databases are pglite and postgres`)
if (chosen.includes("postgres") && !postgresUrl)
  throw new Error("QFORMS_TEST_DATABASES names postgres, but QFORMS_TEST_DATABASE_URL is not set")

const wanted = (name: DatabaseTarget["name"]) => chosen.length === 0 || chosen.includes(name)

/** The databases of this run: the first is the one a test that needs only one database uses. */
export const databaseTargets: ReadonlyArray<DatabaseTarget> = [
  ...(wanted("pglite") ? [pgliteTarget] : []),
  ...(postgresUrl && wanted("postgres") ? [postgresTarget(postgresUrl)] : [])
]
