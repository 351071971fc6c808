/**
 * An `SqlClient` on embedded PGlite (PostgreSQL compiled to WebAssembly).
 *
 * `@effect/sql-pglite` does not load on effect 4.1, so core carries this small
 * driver: one PGlite instance, shared through a one-permit semaphore, so a
 * transaction holds the connection until it ends and no other statement can
 * run inside it. Statements compile with the PostgreSQL compiler of
 * `@effect/sql-pg`, so the same SQL runs on both databases.
 *
 * PGlite (and the compiler) are loaded when a database is opened, not when
 * this module is imported: a process on PostgreSQL never loads them.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs"
import { join, resolve } from "node:path"
import type { PGlite } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlErrors from "effect/sql/SqlError"
import type * as SqlConnection from "effect/sql/SqlConnection"
import { SqlPriority } from "./SqlPriority.ts"

const { ConnectionError, ConstraintError, SqlError, SqlSyntaxError, UniqueViolation, UnknownError } = SqlErrors
type SqlError = SqlErrors.SqlError

/**
 * Options of the embedded database.
 */
export interface PgliteClientOptions {
  /** A directory for the data files; in memory when absent. */
  readonly dataDir?: string | undefined
  /**
   * PostgreSQL's `shared_buffers` inside PGlite, e.g. `"16MB"` (default
   * {@link defaultSharedBuffers}). PGlite's own default, 128MB, costs ~130 MB
   * of resident memory more for little gain: the data files stay in the OS
   * page cache either way. Raise it for large data sets read over and over.
   */
  readonly sharedBuffers?: string | undefined
}

/** The default `shared_buffers` of the embedded database: 16MB. */
export const defaultSharedBuffers = "16MB"

/**
 * A PostgreSQL memory setting: a whole number with a unit (`kB`, `MB`, `GB`),
 * from 128kB (PostgreSQL's least `shared_buffers`) to 8GB.
 */
export const MemorySize = Schema.String.check(
  Schema.isPattern(/^[1-9][0-9]{0,6}(kB|MB|GB)$/, {
    message: "a memory size is a whole number followed by kB, MB or GB, e.g. 16MB"
  }),
  Schema.makeFilter((text: string) => {
    const kb = Number.parseInt(text, 10) * ({ kB: 1, MB: 1024, GB: 1048576 } as const)[text.slice(-2) as "kB" | "MB" | "GB"]
    return (kb >= 128 && kb <= 8 * 1048576) || `${text} is out of range: shared_buffers takes 128kB to 8GB`
  })
)

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

/**
 * After each statement the fiber yields to the event loop. PGlite answers in
 * this thread without I/O, so its promises settle as microtasks: without the
 * yield a request ran all its statements before Node read the next socket,
 * requests were served in bursts with the event loop blocked for as long as a
 * burst took (~1 s under 50 concurrent submissions), and only the runtime's
 * op-count preemption broke a burst up, pushing the requests it hit to a later
 * burst: p99 at 10-20× p50. With the yield, waiting requests queue on the
 * semaphore (first come, first served) and sockets are read between statements.
 */
const settle = <A>(query: () => Promise<A>) =>
  Effect.tryPromise({ try: query, catch: toSqlError("query") }).pipe(Effect.tap(() => Effect.yieldNow))

const makeConnection = (db: PGlite): SqlConnection.Connection => {
  const run = (sql: string, params: ReadonlyArray<unknown>) =>
    settle(() => db.query<Record<string, unknown>>(sql, params as Array<unknown>))
  const rows = (sql: string, params: ReadonlyArray<unknown>) => Effect.map(run(sql, params), (result) => result.rows)
  const values = (sql: string, params: ReadonlyArray<unknown>) =>
    Effect.map(
      settle(() => db.query<Array<unknown>>(sql, params as Array<unknown>, { rowMode: "array" })),
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
  const requested = options.sharedBuffers ?? defaultSharedBuffers
  const sharedBuffers = yield* Schema.decodeUnknownEffect(MemorySize)(requested).pipe(
    Effect.mapError((error) => new PgliteOpenError({ message: `Invalid sharedBuffers "${requested}": ${error.message}` }))
  )
  const [{ PGlite }, { pg_trgm }, { makeCompiler }] = yield* Effect.tryPromise({
    try: () =>
      Promise.all([
        import("@electric-sql/pglite"),
        import("@electric-sql/pglite/contrib/pg_trgm"),
        import("@effect/sql-pg/PgClient")
      ]),
    catch: (cause) => new PgliteOpenError({ message: `Could not load PGlite: ${String(cause)}` })
  })
  if (options.dataDir) yield* lockDataDir(options.dataDir)
  const db = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        PGlite.create({
          ...(options.dataDir ? { dataDir: options.dataDir } : {}),
          extensions: { pg_trgm },
          // wal_buffers follows (1/32 of shared_buffers) unless set.
          startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`]
        }),
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
