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
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync
} from "node:fs"
import { createRequire } from "node:module"
import { join, resolve } from "node:path"
import type { PGlite } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlErrors from "effect/sql/SqlError"
import type * as SqlConnection from "effect/sql/SqlConnection"
import { SqlPriority } from "./SqlPriority.ts"

const { ConnectionError, ConstraintError, SqlError, SqlSyntaxError, UniqueViolation, UnknownError } = SqlErrors

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
  /**
   * In memory only: start from this dump of a data directory (PGlite's
   * `dumpDataDir`) instead of an empty cluster.
   */
  readonly loadDataDir?: Blob | undefined
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
    const kb =
      Number.parseInt(text, 10) * ({ kB: 1, MB: 1024, GB: 1048576 } as const)[text.slice(-2) as "kB" | "MB" | "GB"]
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
  ) => (transformRows === undefined ? rows(sql, params) : Effect.map(rows(sql, params), transformRows))
  return {
    execute: transformed,
    executeUnprepared: transformed,
    executeRaw: run,
    executeValues: values,
    executeValuesUnprepared: values,
    // PGlite answers a query whole; the rows are in this process's memory already.
    executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(transformed(sql, params, transformRows))
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
      Effect.flatMap(Effect.service(SqlPriority), (urgent) =>
        urgent ? connection.withPermit(self) : turnstile.withPermit(connection.withPermit(self))
      ),
    withPermitsIfAvailable: (permits) => connection.withPermitsIfAvailable(permits),
    take: (permits) => connection.take(permits),
    // Finalizers run in reverse: the connection is released before the turnstile.
    takeScoped: (permits) =>
      Effect.flatMap(Effect.service(SqlPriority), (urgent) =>
        urgent
          ? connection.takeScoped(permits)
          : Effect.andThen(turnstile.takeScoped(1), connection.takeScoped(permits))
      ),
    takeIfAvailable: (permits) => connection.takeIfAvailable(permits),
    release: (permits) => connection.release(permits),
    releaseAll: connection.releaseAll
  }
}

/**
 * What the lock uses of `fs-native-extensions` (no types of its own): a lock
 * taken without waiting on an open file, an open file description lock
 * (`F_OFD_SETLK`) on Linux, `flock` elsewhere; false when another holder has
 * it. Its prebuilt addons ship inside the npm package (nothing is built or
 * downloaded at install time).
 */
interface NativeLocking {
  readonly tryLock: (fd: number) => boolean
}

/** Data directories this process has open. */
const openHere = new Set<string>()

/** Why a data directory cannot be used, in words, for the file-system errors a deployment can fix. */
const explainFsError = (dir: string, cause: unknown): string => {
  const code = (cause as { readonly code?: unknown } | undefined)?.code
  switch (code) {
    case "EACCES":
    case "EPERM":
      return (
        `The data directory ${dir} is not writable by this process (${code}): ` +
        "give the user qforms runs as write access to it, or choose another directory (QFORMS_DATA_DIR)."
      )
    case "EROFS":
      return (
        `The data directory ${dir} is on a read-only file system (EROFS): ` +
        "mount it read-write, or choose another directory (QFORMS_DATA_DIR)."
      )
    case "ENOSPC":
    case "EDQUOT":
      return `The data directory ${dir} has no space left (${code}): free space on its disk, or raise its quota.`
    default:
      return `Cannot use the data directory ${dir}: ${cause instanceof Error ? cause.message : String(cause)}`
  }
}

/**
 * PGlite is one process's database: a second process opening the same
 * directory would corrupt it. The directory is locked with an advisory lock
 * on `qforms.lock` (an open file description lock on Linux, `flock` on other
 * systems), which the kernel drops when the process ends however it ends:
 * after `kill -9` or the OOM killer the next start takes the lock at once,
 * even in a container where every start is PID 1 (a pid written in a file
 * cannot tell a dead owner from a new process that got the same pid). Two
 * processes starting at the same moment cannot both win: the kernel grants
 * the lock to one. The file also holds the owner's pid, for the message of the
 * process refused. Held until the scope closes (answers the lock file's descriptor).
 */
export const lockDataDir = (dataDir: string): Effect.Effect<number, PgliteOpenError, Scope.Scope> => {
  const dir = resolve(dataDir)
  const lockPath = join(dir, "qforms.lock")
  const busy = (owner: string) =>
    new PgliteOpenError({
      message:
        `The embedded database in ${dir} is in use by ${owner}. ` +
        "Only one process can open it: stop the running qforms server first, use its HTTP API, " +
        "or run qforms on PostgreSQL (DATABASE_URL) to share the database between processes."
    })
  const fsStep = <A>(step: () => A) =>
    Effect.try({ try: step, catch: (cause) => new PgliteOpenError({ message: explainFsError(dir, cause) }) })
  const acquire = Effect.gen(function* () {
    if (openHere.has(dir)) return yield* busy("this process")
    const native = yield* Effect.try({
      try: () => createRequire(import.meta.url)("fs-native-extensions") as NativeLocking,
      catch: (cause) =>
        new PgliteOpenError({
          message: `Could not load the file-locking addon (fs-native-extensions): ${String(cause)}`
        })
    })
    // The database's files (WAL included) are the server user's only: PGlite writes them 0666 less the umask,
    // so the directory itself is closed to everyone else, a new one and one an older version created alike.
    yield* fsStep(() => mkdirSync(dir, { recursive: true, mode: 0o700 }))
    yield* Effect.try(() => chmodSync(dir, 0o700)).pipe(
      Effect.catch((cause) =>
        Effect.logWarning(
          `qforms: could not make ${dir} readable by its owner only (chmod 700): ${String(cause.cause)}`
        )
      )
    )
    // A holder unlinks the file before it closes its descriptor, so a lock may
    // be taken on a file that no longer has the name: then try again on the new one.
    for (let attempt = 0; attempt < 5; attempt++) {
      const fd = yield* fsStep(() => openSync(lockPath, constants.O_RDWR | constants.O_CREAT, 0o600))
      const close = Effect.sync(() => closeSync(fd))
      const locked = yield* fsStep(() => native.tryLock(fd)).pipe(Effect.tapError(() => close))
      if (!locked) {
        // The holder writes its pid just after it takes the lock: a process
        // refused in between reads an empty file, so it looks again for a moment.
        const owner = yield* Effect.try(() => Number.parseInt(readFileSync(lockPath, "utf8"), 10)).pipe(
          Effect.filterOrFail((pid) => Number.isInteger(pid) && pid > 0),
          Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 25 }),
          Effect.map((pid) => `process ${pid}`),
          Effect.orElseSucceed(() => "another process")
        )
        yield* close
        return yield* busy(owner)
      }
      const current = yield* Effect.result(Effect.try(() => statSync(lockPath).ino))
      if (current._tag === "Failure" || current.success !== fstatSync(fd).ino) {
        yield* close
        continue
      }
      // The pid is only information (a refused process names it); writing it
      // also fails early, with a clear message, on a full disk.
      yield* fsStep(() => {
        ftruncateSync(fd, 0)
        writeSync(fd, String(process.pid), 0)
        fsyncSync(fd)
      }).pipe(Effect.tapError(() => Effect.andThen(Effect.ignore(Effect.try(() => unlinkSync(lockPath))), close)))
      openHere.add(dir)
      return fd
    }
    return yield* busy("another process")
  })
  // Unlink first, close (unlock) after: a process that opened the old file
  // meanwhile sees it is no longer the lock file and opens the new one.
  const release = (fd: number) =>
    Effect.sync(() => openHere.delete(dir)).pipe(
      Effect.andThen(Effect.ignore(Effect.try(() => unlinkSync(lockPath)))),
      Effect.andThen(Effect.ignore(Effect.try(() => closeSync(fd))))
    )
  return Effect.acquireRelease(acquire, release)
}

/**
 * A freshly initialised cluster, gzip-compressed (~4.5 MB), that the in-memory
 * databases of this process start from: `initdb` runs once per process
 * instead of once per database (an open takes ~0.4 s instead of ~1.3 s on two
 * cores; a test run opens hundreds). Taken before anything is written.
 */
let inMemoryTemplate: Promise<Blob | undefined> | undefined

const createInMemory = (create: (loadDataDir?: Blob) => Effect.Effect<PGlite, PgliteOpenError>) =>
  Effect.suspend(() => {
    const template = inMemoryTemplate
    if (template !== undefined)
      return Effect.flatMap(
        Effect.promise(() => template),
        (blob) => create(blob)
      )
    return Effect.tap(create(), (db) =>
      Effect.promise(() => {
        // A failed dump only costs later opens their speed.
        inMemoryTemplate = db.dumpDataDir("gzip").then(
          (blob): Blob | undefined => blob,
          () => undefined
        )
        return inMemoryTemplate
      })
    )
  })

/**
 * Opens PGlite (with `pg_trgm`) and builds an `SqlClient` on it; the database
 * closes with the scope.
 */
export const make = Effect.fnUntraced(function* (options: PgliteClientOptions) {
  const requested = options.sharedBuffers ?? defaultSharedBuffers
  const sharedBuffers = yield* Schema.decodeUnknownEffect(MemorySize)(requested).pipe(
    Effect.mapError(
      (error) => new PgliteOpenError({ message: `Invalid sharedBuffers "${requested}": ${error.message}` })
    )
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
  const create = (loadDataDir?: Blob) =>
    Effect.tryPromise({
      try: () =>
        PGlite.create({
          ...(options.dataDir ? { dataDir: options.dataDir } : {}),
          ...(loadDataDir ? { loadDataDir } : {}),
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
    })
  const db = yield* Effect.acquireRelease(
    options.dataDir ? create() : options.loadDataDir ? create(options.loadDataDir) : createInMemory(create),
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
    Context.make(SqlClient.SqlClient, client).pipe(Context.add(PgliteDatabase, db))
  )

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
