/**
 * An `SqlClient` on embedded PGlite (PostgreSQL compiled to WebAssembly).
 *
 * `@effect/sql-pglite` does not load on effect 4.1, so core carries this small
 * driver: one PGlite instance, shared through a one-permit semaphore, so a
 * transaction holds the connection until it ends and no other statement can
 * run inside it. Statements compile with the PostgreSQL compiler of
 * `@effect/sql-pg`, so the same SQL runs on both databases.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs"
import { join, resolve } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { makeCompiler } from "@effect/sql-pg/PgClient"
import { Context, Effect, Layer, Schema, Semaphore, Stream } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, SqlError as SqlErrors } from "effect/sql"
import type { SqlConnection } from "effect/sql"
import { SqlPriority } from "./SqlPriority.ts"

const { ConnectionError, ConstraintError, SqlError, SqlSyntaxError, UniqueViolation, UnknownError } = SqlErrors
type SqlError = SqlErrors.SqlError

/**
 * Options of the embedded database.
 */
export interface PgliteClientOptions {
  /** A directory for the data files; in memory when absent. */
  readonly dataDir?: string | undefined
}

/**
 * The PGlite instance behind the client, for the few things SQL cannot do
 * (closing, dumping, in-process notifications).
 */
export class PgliteDatabase extends Context.Service<PgliteDatabase, PGlite>()("@qforms/core/storage/PgliteDatabase") {}

/** The embedded database could not be opened (a bad or locked data directory). */
export class PgliteOpenError extends Schema.TaggedError<PgliteOpenError>()("PgliteOpenError", {
  message: Schema.String
}) {}

const classify = (cause: unknown, operation: string): SqlErrors.SqlErrorReason => {
  const fields = cause as { readonly code?: unknown; readonly constraint?: unknown; readonly message?: unknown }
  const code = typeof fields.code === "string" ? fields.code : undefined
  const message = typeof fields.message === "string" ? fields.message : "PGlite query failed"
  const props = { cause, message, operation }
  if (code === "23505") {
    return new UniqueViolation({
      ...props,
      constraint: typeof fields.constraint === "string" && fields.constraint !== "" ? fields.constraint : "unknown"
    })
  }
  if (code?.startsWith("23")) return new ConstraintError(props)
  if (code?.startsWith("42")) return new SqlSyntaxError(props)
  if (code?.startsWith("08")) return new ConnectionError(props)
  return new UnknownError(props)
}

const toSqlError = (operation: string) => (cause: unknown) => new SqlError({ reason: classify(cause, operation) })

const makeConnection = (db: PGlite): SqlConnection.Connection => {
  const run = (sql: string, params: ReadonlyArray<unknown>) =>
    Effect.tryPromise({
      try: () => db.query<Record<string, unknown>>(sql, params as Array<unknown>),
      catch: toSqlError("query")
    })
  const rows = (sql: string, params: ReadonlyArray<unknown>) => Effect.map(run(sql, params), (result) => result.rows)
  const values = (sql: string, params: ReadonlyArray<unknown>) =>
    Effect.map(
      Effect.tryPromise({
        try: () => db.query<Array<unknown>>(sql, params as Array<unknown>, { rowMode: "array" }),
        catch: toSqlError("query")
      }),
      (result) => result.rows
    )
  const transformed = (
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) => transformRows === undefined ? rows(sql, params) : Effect.map(rows(sql, params), transformRows)
  return {
    execute: transformed,
    executeUnprepared: transformed,
    executeRaw: run,
    executeValues: values,
    executeValuesUnprepared: values,
    // PGlite answers a query whole; the rows are in this process's memory already.
    executeStream: (sql, params, transformRows) =>
      Stream.fromIterableEffect(transformed(sql, params, transformRows))
  }
}

/**
 * The one-permit lock of the connection, with a lane for urgent statements
 * (`SqlPriority`): ordinary fibers pass a one-permit turnstile before they
 * queue for the connection, so at most one ordinary fiber ever queues there;
 * an urgent one queues for the connection directly, behind the statement
 * running now and at most one ordinary one. Only `takeScoped(1)` and
 * `withPermit` take the lanes into account (what `makeSqliteAcquirers`
 * uses); the other methods act on the connection's permit alone.
 */
const priorityLock = (): Semaphore.Semaphore => {
  const connection = Semaphore.makeUnsafe(1)
  const turnstile = Semaphore.makeUnsafe(1)
  return {
    resize: (permits) => connection.resize(permits),
    withPermits: (permits) => connection.withPermits(permits),
    withPermit: (self) =>
      Effect.flatMap(
        Effect.service(SqlPriority),
        (urgent) => urgent ? connection.withPermit(self) : turnstile.withPermit(connection.withPermit(self))
      ),
    withPermitsIfAvailable: (permits) => connection.withPermitsIfAvailable(permits),
    take: (permits) => connection.take(permits),
    // Finalizers run in reverse: the connection is released before the turnstile.
    takeScoped: (permits) =>
      Effect.flatMap(
        Effect.service(SqlPriority),
        (urgent) =>
          urgent
            ? connection.takeScoped(permits)
            : Effect.andThen(turnstile.takeScoped(1), connection.takeScoped(permits))
      ),
    takeIfAvailable: (permits) => connection.takeIfAvailable(permits),
    release: (permits) => connection.release(permits),
    releaseAll: connection.releaseAll
  }
}

/** Data directories this process has open. */
const openHere = new Set<string>()

/** Whether a process exists (signal 0 only asks; EPERM means it exists but is not ours). */
const isAlive = (pid: number): Effect.Effect<boolean> =>
  !Number.isInteger(pid) || pid <= 0
    ? Effect.succeed(false)
    : Effect.try(() => process.kill(pid, 0)).pipe(
      Effect.as(true),
      Effect.catch((error) => Effect.succeed((error.cause as { readonly code?: string } | undefined)?.code === "EPERM"))
    )

/**
 * PGlite is one process's database: a second process opening the same
 * directory would corrupt it. The directory is locked with a file holding the
 * owner's pid; a lock whose process is gone is taken over.
 */
const lockDataDir = (dataDir: string) => {
  const dir = resolve(dataDir)
  const lockPath = join(dir, "qforms.lock")
  const busy = (owner: string) =>
    new PgliteOpenError({
      message: `The embedded database in ${dir} is in use by ${owner}. ` +
        "Only one process can open it: stop the running qforms server first, use its HTTP API, " +
        "or run qforms on PostgreSQL (DATABASE_URL) to share the database between processes."
    })
  const acquire = Effect.gen(function*() {
    if (openHere.has(dir)) return yield* busy("this process")
    yield* Effect.try({
      try: () => mkdirSync(dir, { recursive: true }),
      catch: (cause) => new PgliteOpenError({ message: `Cannot create ${dir}: ${String(cause)}` })
    })
    for (let attempt = 0; attempt < 2; attempt++) {
      const created = yield* Effect.result(Effect.try(() => {
        const fd = openSync(lockPath, "wx")
        writeSync(fd, String(process.pid))
        closeSync(fd)
      }))
      if (created._tag === "Success") {
        openHere.add(dir)
        return
      }
      const owner = Number.parseInt(
        yield* Effect.orElseSucceed(Effect.try(() => readFileSync(lockPath, "utf8")), () => ""),
        10
      )
      if (yield* isAlive(owner)) return yield* busy(`process ${owner}`)
      // A lock left by a process that died: take it over.
      yield* Effect.ignore(Effect.try(() => unlinkSync(lockPath)))
    }
    return yield* busy("another process")
  })
  const release = Effect.sync(() => openHere.delete(dir)).pipe(
    Effect.andThen(Effect.ignore(Effect.try(() => unlinkSync(lockPath))))
  )
  return Effect.acquireRelease(acquire, () => release)
}

/**
 * Opens PGlite (with `pg_trgm`) and builds an `SqlClient` on it; the database
 * closes with the scope.
 */
export const make = Effect.fnUntraced(function*(options: PgliteClientOptions) {
  if (options.dataDir) yield* lockDataDir(options.dataDir)
  const db = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => PGlite.create({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), extensions: { pg_trgm } }),
      catch: (cause) =>
        new PgliteOpenError({
          message: `Could not open the embedded database${options.dataDir ? ` in ${options.dataDir}` : ""}: ${
            cause instanceof Error ? cause.message : String(cause)
          }`
        })
    }),
    (db) => Effect.promise(() => db.close())
  )
  const semaphore = priorityLock()
  const connection = makeConnection(db)
  const acquirers = SqlClient.makeSqliteAcquirers({ connection: Effect.succeed(connection), semaphore })
  const client = yield* SqlClient.make({
    ...acquirers,
    compiler: makeCompiler(),
    driver: "pglite",
    spanAttributes: [["db.system.name", "postgresql"]],
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`
  })
  return { client, db }
})

/**
 * The services of an open PGlite client: `SqlClient` and `PgliteDatabase`.
 */
export const makeContext = (options: PgliteClientOptions) =>
  Effect.map(make(options), ({ client, db }) =>
    Context.make(SqlClient.SqlClient, client).pipe(Context.add(PgliteDatabase, db)))

/**
 * A layer providing `SqlClient` (and the raw `PgliteDatabase`) on embedded PGlite.
 *
 * @example
 * ```ts
 * import { PgliteClient } from "@qforms/core"
 * const Sql = PgliteClient.layer({ dataDir: "./.qforms-data" })
 * ```
 */
export const layer = (
  options: PgliteClientOptions = {}
): Layer.Layer<SqlClient.SqlClient | PgliteDatabase, PgliteOpenError> =>
  Layer.effectContext(makeContext(options)).pipe(Layer.provide(Reactivity.layer))
