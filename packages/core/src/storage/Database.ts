/**
 * The database behind qforms: PostgreSQL (`layerPg`) or embedded PGlite
 * (`layerPglite`), either way migrated and set to the qforms schema. Each
 * driver is loaded only when its layer is built, so a process loads one.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import type * as Migrator from "effect/sql/Migrator"
import type * as SqlError from "effect/sql/SqlError"
import * as Migrations from "./Migrations.ts"
import * as DatabaseLink from "./DatabaseLink.ts"
import * as DiskSpace from "./DiskSpace.ts"
import { Notifications } from "./Notifications.ts"
import * as PgliteClient from "./PgliteClient.ts"

/**
 * A PostgreSQL schema name qforms may use: lower-case letters, digits and
 * underscores, starting with a letter or underscore, at most 63 characters.
 */
export const SchemaName = Schema.String.check(
  Schema.isPattern(/^[a-z_][a-z0-9_]{0,62}$/, {
    message: "a schema name is lower-case letters, digits and underscores (at most 63), not starting with a digit"
  })
)

/** The default schema: `qforms`. */
export const defaultSchema = "qforms"

/** The database could not be opened, reached or migrated. */
export class DatabaseError extends Schema.TaggedError<DatabaseError>()("DatabaseError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

const checkSchema = (schema: string) =>
  Schema.decodeUnknownEffect(SchemaName)(schema).pipe(
    Effect.mapError((error) => new DatabaseError({ message: `Invalid database schema "${schema}": ${error.message}` }))
  )

/**
 * Runs `create` unless `exists` finds what it makes. Two processes starting
 * together may both try (two schemas of one database migrating at once both
 * create `pg_trgm`); the loser's error is dropped when it finds it made.
 */
const createOnce = (exists: Statement.Statement<{ readonly found: boolean }>, create: Statement.Statement<unknown>) =>
  Effect.gen(function* () {
    const found = yield* exists
    if (found[0]?.found) return
    yield* create.pipe(
      Effect.catchTag("SqlError", (error) =>
        Effect.flatMap(exists, (rows) => (rows[0]?.found ? Effect.void : Effect.fail(error)))
      )
    )
  })

/**
 * The text search's trigram index, made again when it is missing. It is the
 * one index that needs an extension (`pg_trgm`, in `public`), and a dump of
 * qforms' schema alone (`pg_dump --schema=qforms`) does not carry the
 * extension: restored into a database without it, `pg_restore` reports the
 * index's error, goes on, and search silently lost its index (issue #52).
 * `prepare` has created the extension by then; this makes the index.
 */
const restoreSearchIndex = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const present = yield* sql<{ readonly found: boolean }>`
    select exists (select 1 from pg_indexes where schemaname = current_schema() and indexname = 'responses_search')
      as found`
  if (present[0]?.found) return
  const [trgm] = yield* sql<{ readonly schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`
  yield* Effect.logWarning(
    "qforms: the text search index responses_search was missing (a restore into a database without pg_trgm?); making it again"
  )
  yield* sql`create index if not exists responses_search on responses
    using gin (search_text ${sql(trgm?.schema ?? "public")}.gin_trgm_ops)`
})

const prepare = (schema: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* createOnce(
      sql<{ readonly found: boolean }>`select exists (select 1 from pg_namespace where nspname = ${schema}) as found`,
      sql`create schema if not exists ${sql(schema)}`
    )
    // Migration 0001 creates it too ("if not exists"); made here first, where a concurrent creation is not an error.
    yield* createOnce(
      sql<{ readonly found: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as found`,
      sql`create extension if not exists pg_trgm with schema public`
    )
    yield* Migrations.run
    yield* restoreSearchIndex
  }).pipe(
    Effect.mapError(
      (error: SqlError.SqlError | Migrator.MigrationError) =>
        new DatabaseError({ message: `Could not migrate the database: ${error.message}`, cause: error })
    )
  )

const searchPath = (schema: string) => `"${schema}", public`

/**
 * Options of {@link layerPg}.
 */
export interface PgOptions {
  /** A `postgres://` connection URL. */
  readonly url: string
  /** The schema that holds qforms' tables (default `qforms`). */
  readonly schema?: string | undefined
  /** Pool size (default 10). */
  readonly maxConnections?: number | undefined
}

/** `@effect/sql-pg`, loaded when a PostgreSQL layer is built. */
const loadPgDriver = Effect.tryPromise({
  try: () => Promise.all([import("@effect/sql-pg/PgClient"), import("@effect/sql-pg/PgConnection")]),
  catch: (cause) => new DatabaseError({ message: `Could not load the PostgreSQL driver: ${String(cause)}`, cause })
})

/**
 * qforms on PostgreSQL: a connection pool whose sessions use the qforms
 * schema, migrated before the layer is ready.
 *
 * @example
 * ```ts
 * import { Database } from "@qforms/core"
 * const Db = Database.layerPg({ url: "postgres://postgres@127.0.0.1:5432/app", schema: "qforms" })
 * ```
 */
export const layerPg = (options: PgOptions): Layer.Layer<SqlClient.SqlClient | Notifications, DatabaseError> => {
  const schema = options.schema ?? defaultSchema
  return Layer.mergeAll(
    Layer.effectDiscard(prepare(schema)),
    Notifications.layerPg(schema),
    DiskSpace.DiskSpace.layer(undefined)
  ).pipe(
    Layer.provideMerge(
      Layer.unwrap(
        Effect.flatMap(loadPgDriver, ([PgClient, PgConnection]) => {
          const address = DatabaseLink.addressOf(options.url)
          if (address === undefined) {
            return Effect.fail(
              new DatabaseError({ message: "Could not read the database URL: expected postgres://user@host:port/db" })
            )
          }
          // The pool dials through the watched link's sockets (see DatabaseLink.ts), so a silent link is cut.
          const sockets = DatabaseLink.makeSockets(address)
          const client = PgClient.layerFrom(
            Effect.andThen(
              checkSchema(schema),
              PgClient.make({
                url: Redacted.make(options.url),
                stream: sockets.stream,
                maxConnections: options.maxConnections ?? 10,
                multiplex: true,
                applicationName: "qforms",
                startupParameters: { search_path: searchPath(schema) }
              }).pipe(
                Effect.mapError(
                  (error) =>
                    new DatabaseError({ message: `Could not connect to PostgreSQL: ${error.message}`, cause: error })
                )
              )
            )
          )
          return Effect.succeed(Layer.merge(client, DatabaseLink.watch(PgConnection, options.url, sockets)))
        })
      )
    )
  )
}

/**
 * Options of {@link layerPglite}.
 */
export interface PgliteOptions {
  /** The data directory; in memory when absent (tests). */
  readonly dataDir?: string | undefined
  /** The schema that holds qforms' tables (default `qforms`). */
  readonly schema?: string | undefined
  /**
   * `shared_buffers` of the embedded PostgreSQL, e.g. `"32MB"` (default
   * `"16MB"`; see {@link PgliteClient.PgliteClientOptions.sharedBuffers}).
   */
  readonly sharedBuffers?: string | undefined
}

/**
 * PGlite runs no autovacuum, so nothing ever gathers planner statistics: on a
 * table never analysed PostgreSQL guesses a handful of rows and, e.g., pages
 * through a 100k-response list with a bitmap scan and sort of every remaining
 * row per page (O(n²)) instead of walking the index. So `analyze` runs in the
 * background once the database is open and then every 10 minutes (sampled:
 * bounded time whatever the table sizes), in place of autovacuum's.
 */
const refreshStatistics = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`analyze`.pipe(Effect.ignore, Effect.repeat(Schedule.spaced("10 minutes")), Effect.forkScoped)
})

/**
 * In-memory databases start from a dump of the first one of this process
 * with the same schema, taken right after its migrations, instead of running
 * every migration again: a test run opens hundreds of them. A database with
 * a `dataDir` is never a template and never starts from one.
 */
const migratedTemplates = new Map<string, Promise<Blob | undefined>>()

/** Keeps the first migrated in-memory database of a schema as the template of later ones. */
const keepTemplate = (schema: string) =>
  Effect.gen(function* () {
    if (migratedTemplates.has(schema)) return
    const sql = yield* SqlClient.SqlClient
    const db = yield* PgliteClient.PgliteDatabase
    // Dirty pages written out first, so a copy opens without replaying the write-ahead log.
    yield* Effect.ignore(sql`checkpoint`)
    if (migratedTemplates.has(schema)) return
    const dump = db.dumpDataDir("none").then(
      (blob): Blob | undefined => blob,
      // A failed dump only costs later opens their speed.
      () => undefined
    )
    migratedTemplates.set(schema, dump)
    yield* Effect.promise(() => dump)
  })

/**
 * qforms on embedded PGlite: no server needed; data in `dataDir` (or in
 * memory), migrated before the layer is ready.
 *
 * @example
 * ```ts
 * import { Database } from "@qforms/core"
 * const Db = Database.layerPglite({ dataDir: "./.qforms-data", sharedBuffers: "32MB" })
 * ```
 */
export const layerPglite = (
  options: PgliteOptions = {}
): Layer.Layer<SqlClient.SqlClient | PgliteClient.PgliteDatabase | Notifications, DatabaseError> => {
  const schema = options.schema ?? defaultSchema
  const inMemory = options.dataDir === undefined
  const setSearchPath = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`set search_path to ${searchPath(schema)}`)
  }).pipe(Effect.mapError((error) => new DatabaseError({ message: error.message, cause: error })))
  const open = Effect.gen(function* () {
    yield* checkSchema(schema)
    const template = inMemory ? migratedTemplates.get(schema) : undefined
    const loadDataDir = template === undefined ? undefined : yield* Effect.promise(() => template)
    return yield* PgliteClient.makeContext({
      dataDir: options.dataDir,
      sharedBuffers: options.sharedBuffers,
      loadDataDir
    }).pipe(Effect.mapError((error) => new DatabaseError({ message: error.message, cause: error })))
  })
  const migrate = Effect.andThen(setSearchPath, prepare(schema)).pipe(
    Effect.andThen(inMemory ? keepTemplate(schema) : Effect.void),
    Effect.andThen(refreshStatistics)
  )
  return Layer.mergeAll(
    Layer.effectDiscard(migrate),
    Notifications.layerPglite(schema),
    DiskSpace.DiskSpace.layer(options.dataDir)
  ).pipe(Layer.provideMerge(Layer.effectContext(open).pipe(Layer.provide(Reactivity.layer))))
}

/** How long a readiness probe waits for the database: a probe that hangs tells an orchestrator nothing. */
const pingWithin = "3 seconds"

/**
 * Succeeds when the database answers within 3 s, on PostgreSQL its watched
 * link is up (see DatabaseLink.ts), and its disk has room for writes (see
 * DiskSpace.ts): for a readiness probe.
 *
 * @example
 * ```ts
 * const ready = yield* Database.ping.pipe(Effect.isSuccess)
 * ```
 */
export const ping: Effect.Effect<void, DatabaseError, SqlClient.SqlClient> = Effect.gen(function* () {
  const link = yield* Effect.serviceOption(DatabaseLink.DatabaseLink)
  const state = Option.isSome(link) ? link.value.state() : undefined
  if (state !== undefined && !state.reachable) {
    return yield* new DatabaseError({ message: `The database does not answer: ${state.reason}` })
  }
  const space = yield* Effect.serviceOption(DiskSpace.DiskSpace)
  const shortage = Option.isSome(space) ? yield* space.value.shortage : undefined
  if (shortage !== undefined) {
    return yield* new DatabaseError({ message: `The database cannot take writes: ${shortage}` })
  }
  const sql = yield* SqlClient.SqlClient
  yield* sql`select 1`.pipe(
    Effect.mapError(
      (error) => new DatabaseError({ message: `The database does not answer: ${error.message}`, cause: error })
    ),
    Effect.timeoutOrElse({
      duration: pingWithin,
      orElse: () => Effect.fail(new DatabaseError({ message: "The database does not answer: no answer within 3 s" }))
    }),
    // Real seconds, whatever clock the caller's context has (a test's TestClock).
    Effect.provideService(Clock.Clock, Clock.Clock.defaultValue())
  )
})

/**
 * SQLSTATEs of a server that is going away or refusing sessions: its
 * connections cut by an administrator or a shutdown (57P01, 57P02), not taking
 * connections yet (57P03), or out of connection slots (53300).
 */
const unavailableStates: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03", "53300"])

/**
 * Whether a failure is the database being out of reach: answered 503, not
 * 500. That is a `SqlError` with a `ConnectionError` reason, any failure to
 * open a session (e.g. "database … is not currently accepting connections"),
 * or a session the server ended (`pg_terminate_backend`, shutdown).
 */
export const isUnreachable = (error: unknown): boolean => {
  if (typeof error !== "object" || error === null || !("_tag" in error) || error._tag !== "SqlError") return false
  if (!("reason" in error) || typeof error.reason !== "object" || error.reason === null) return false
  const reason = error.reason as { readonly _tag?: unknown; readonly operation?: unknown; readonly cause?: unknown }
  if (reason._tag === "ConnectionError" || reason.operation === "connect") return true
  const cause = reason.cause
  return (
    typeof cause === "object" &&
    cause !== null &&
    "code" in cause &&
    typeof cause.code === "string" &&
    unavailableStates.has(cause.code)
  )
}

/**
 * Whether an unreachable database (see {@link isUnreachable}) went away while
 * a statement was under way, not before the session began: a change being
 * committed then may have been kept, and its answer lost.
 *
 * @example
 * ```ts
 * if (Database.isLostMidway(error)) return json(503, { error: "…whether the change was kept is unknown" })
 * ```
 */
export const isLostMidway = (error: unknown): boolean => {
  if (!isUnreachable(error)) return false
  const reason = (error as { readonly reason: { readonly operation?: unknown } }).reason
  return reason.operation !== "connect"
}

/**
 * Of a `SqlError`: its reason's tag, the driver's SQLSTATE and, for a unique violation, the constraint, if any;
 * undefined for any other failure.
 */
const sqlReason = (
  error: unknown
): { readonly tag: unknown; readonly code: unknown; readonly constraint: unknown } | undefined => {
  if (typeof error !== "object" || error === null || !("_tag" in error) || error._tag !== "SqlError") return undefined
  if (!("reason" in error) || typeof error.reason !== "object" || error.reason === null) return undefined
  const reason = error.reason as { readonly _tag?: unknown; readonly cause?: unknown; readonly constraint?: unknown }
  const cause = reason.cause
  return {
    tag: reason._tag,
    code: typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined,
    constraint: reason.constraint
  }
}

/**
 * Whether a failure is a unique violation of `constraint` (SQLSTATE 23505): a concurrent write took the key
 * first (it committed; this write waited for it).
 *
 * @example
 * ```ts
 * if (Database.isUniqueViolation(error, "submission_keys_pkey")) return yield* replay
 * ```
 */
export const isUniqueViolation = (error: unknown, constraint: string): boolean => {
  const reason = sqlReason(error)
  return reason?.tag === "UniqueViolation" && reason.constraint === constraint
}

/**
 * Whether a failure is a foreign-key violation (SQLSTATE 23503): a row the
 * change refers to (a form, a response, a stage…) was deleted by a concurrent
 * request between the check and the write. Answered 409, not 500.
 *
 * @example
 * ```ts
 * if (Database.isConcurrentDeletion(error)) return json(409, { error: "…was deleted at the same time" })
 * ```
 */
export const isConcurrentDeletion = (error: unknown): boolean => {
  const reason = sqlReason(error)
  return reason?.tag === "ConstraintError" && reason.code === "23503"
}

/**
 * Whether a failure is a collision PostgreSQL broke by aborting this
 * transaction: a deadlock (SQLSTATE 40P01) or a serialization failure
 * (40001). Nothing of it was written; the same change can be tried again.
 * What {@link retryingCollisions} does not absorb is answered 409, not 500.
 *
 * @example
 * ```ts
 * if (Database.isCollision(error)) return json(409, { error: "…collided with another change; try again" })
 * ```
 */
export const isCollision = (error: unknown): boolean => {
  const tag = sqlReason(error)?.tag
  return tag === "DeadlockError" || tag === "SerializationError"
}

/**
 * Whether a failure is a row lock a statement asked for with `nowait` and
 * could not have at once (SQLSTATE 55P03): another transaction holds it.
 *
 * @example
 * ```ts
 * Effect.catchIf(write, Database.isLockNotAvailable, () => sql.withTransaction(waitingWrite))
 * ```
 */
export const isLockNotAvailable = (error: unknown): boolean => sqlReason(error)?.code === "55P03"

/**
 * Runs a transaction again, after a short random pause, when PostgreSQL
 * aborted it to break a deadlock with a concurrent one (up to 4 more times).
 * PostgreSQL's own advice: writes that cascade (a form's deletion reaches its
 * stages, cases and questions) cannot always take their row locks in the
 * same order as the writes they meet. Only for a transaction whose every
 * effect is in the database: it runs again from the start.
 *
 * @example
 * ```ts
 * yield* Database.retryingCollisions(sql.withTransaction(deleteTheForm))
 * ```
 */
export const retryingCollisions = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(transaction, {
    while: isCollision,
    times: 4,
    schedule: Schedule.jittered(Schedule.exponential("10 millis"))
  })
