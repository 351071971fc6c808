/**
 * Moving a qforms deployment between databases: every qforms table of one
 * database (embedded PGlite or PostgreSQL) copied into another, with the
 * blobs its file and image records point at, then verified.
 *
 * - Both databases are opened (and so migrated) by this qforms: the target
 *   ends at the source's migration level, and a difference is refused.
 * - A target holding any row is refused unless `replace` is given, which
 *   empties it (`truncate`) in the copy's transaction.
 * - Tables come from the catalog of the migrated schema (the migrations table
 *   excepted), in foreign-key order, in batches of `batchSize` rows by keyset
 *   pagination on the primary key: never a whole table in memory. Each batch
 *   travels as the JSON PostgreSQL makes of its rows and goes back in with
 *   `json_populate_recordset`, so every type converts as PostgreSQL itself
 *   converts it.
 * - The target's user triggers are disabled for the copy (in its one
 *   transaction, so they are on again if anything fails): the tallies and
 *   counts folded from `responses` and the queue of responses not folded yet
 *   (migration 0051) are copied as the source has them instead of being
 *   queued a second time. The role must own the tables, as the role that
 *   migrated them does.
 * - Sequences (identity columns) are set as the source's stand.
 * - Verification: per table the row count and a digest (md5 of the rows' text
 *   per batch in primary-key order, the batches' digests hashed with SHA-256),
 *   computed on both sides in a repeatable-read transaction with the same
 *   `TimeZone`, `DateStyle`, `IntervalStyle` and `extra_float_digits`; per
 *   blob its size and SHA-256 read back from the target.
 *
 * The database must not change while it is copied: stop the server first.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import { BlobStoreModule as BlobStore } from "../files/index.ts"
import {
  batches,
  blobColumns,
  blobKeys,
  catalog,
  Database,
  digests,
  keyList,
  measured,
  migrationLevel,
  quote,
  snapshot,
  type Table
} from "../storage/index.ts"

/** The copy could not be done (a database or store failed, the target is not empty, …). */
export class DatabaseCopyError extends Schema.TaggedError<DatabaseCopyError>()("DatabaseCopyError", {
  message: Schema.String
}) {}

/**
 * One side of a copy: a database (PostgreSQL or embedded) and the directory
 * of its uploaded files.
 */
export interface Endpoint {
  readonly database: Database.PgOptions | Database.PgliteOptions
  /** The local directory of the blob store. */
  readonly filesDirectory: string
}

/** Options of {@link copy}. */
export interface CopyOptions {
  readonly from: Endpoint
  readonly to: Endpoint
  /** Empty a target that holds rows (default: refuse it). */
  readonly replace?: boolean | undefined
  /** Rows per batch (default 500). */
  readonly batchSize?: number | undefined
}

/** A table's count and digest on both sides. */
export interface TableCheck {
  readonly table: string
  readonly sourceRows: number
  readonly targetRows: number
  readonly sourceDigest: string
  readonly targetDigest: string
  readonly matches: boolean
}

/** A blob that differs (or is missing) on the target. */
export interface BlobProblem {
  readonly key: string
  readonly problem: string
}

/** What {@link copy} did and found. */
export interface CopyReport {
  readonly migration: string
  readonly tables: ReadonlyArray<TableCheck>
  readonly blobs: {
    readonly copied: number
    readonly bytes: number
    /** Keys the database names but the source store lacks (nothing to copy; not a mismatch of the copy). */
    readonly missingInSource: ReadonlyArray<string>
    readonly mismatches: ReadonlyArray<BlobProblem>
  }
  /** Every table and blob matches. */
  readonly verified: boolean
}

/** An opened side: its client and store. */
interface Side {
  readonly sql: SqlClient.SqlClient
  readonly store: BlobStore.BlobStore["Service"]
}

const failed = (what: string) => (error: { readonly message: string; readonly cause?: unknown }) => {
  // A SqlError's own message is generic ("Query failed"); the database's words are its cause's.
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : ""
  return new DatabaseCopyError({ message: `${what}: ${error.message}${cause}` })
}

const open = (endpoint: Endpoint) =>
  Effect.gen(function* () {
    const database =
      "url" in endpoint.database
        ? Database.layerPg({ ...endpoint.database, maxConnections: 2 })
        : Database.layerPglite(endpoint.database)
    const context = yield* Layer.build(
      Layer.merge(database, BlobStore.layerLocal({ directory: endpoint.filesDirectory }))
    ).pipe(Effect.mapError(failed("Could not open the database")))
    return { sql: Context.get(context, SqlClient.SqlClient), store: Context.get(context, BlobStore.BlobStore) }
  })

/** The sequences of the current schema with their stand. */
const sequences = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const names = yield* sql<{ readonly name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'S' and n.nspname = current_schema() order by 1`
    return yield* Effect.forEach(names, ({ name }) =>
      sql
        .unsafe<{ readonly last: string; readonly called: boolean }>(
          `select last_value::text as last, is_called as called from ${quote(name)}`
        )
        .pipe(Effect.map((rows) => ({ name, last: rows[0]?.last ?? "1", called: rows[0]?.called ?? false })))
    )
  })

const readBlob = (store: BlobStore.BlobStore["Service"], key: string) =>
  Effect.gen(function* () {
    const stream = yield* store.get(key)
    const reading = measured(stream)
    yield* Stream.runDrain(reading.stream)
    return reading.result()
  })

/** Copies one blob and reads it back from the target: a problem, or its size. */
const copyBlob = (source: Side, target: Side, key: string) =>
  Effect.gen(function* () {
    const found = yield* Effect.result(source.store.get(key))
    if (found._tag === "Failure") {
      if (found.failure._tag === "BlobNotFound") return { _tag: "Missing" as const }
      return yield* found.failure
    }
    const reading = measured(found.success)
    yield* target.store.put(key, reading.stream)
    const written = reading.result()
    const back = yield* readBlob(target.store, key)
    return back.size === written.size && back.sha256 === written.sha256
      ? { _tag: "Copied" as const, size: written.size }
      : {
          _tag: "Mismatch" as const,
          problem: `source ${written.size} bytes sha256 ${written.sha256}, target ${back.size} bytes sha256 ${back.sha256}`
        }
  }).pipe(Effect.mapError(failed(`Could not copy the file ${key}`)))

/** The rows of every table copied, in one transaction of the target. */
const copyRows = (source: Side, target: Side, tables: ReadonlyArray<Table>, replace: boolean, batchSize: number) =>
  target.sql.withTransaction(
    Effect.gen(function* () {
      const filled: Array<string> = []
      for (const table of tables) {
        const rows = yield* target.sql.unsafe<{ readonly found: boolean }>(
          `select exists (select 1 from ${quote(table.name)}) as found`
        )
        if (rows[0]?.found) filled.push(table.name)
      }
      if (filled.length > 0 && !replace) {
        return yield* new DatabaseCopyError({
          message: `The target database is not empty (rows in ${filled.join(", ")}): pass --replace to empty it first`
        })
      }
      // Before emptying: the audit log's trigger refuses a truncate, and the fold's would queue the copied rows.
      const triggered = tables.filter((table) => table.hasUserTriggers)
      for (const table of triggered) yield* target.sql.unsafe(`alter table ${quote(table.name)} disable trigger user`)
      if (filled.length > 0) {
        yield* target.sql.unsafe(`truncate table ${tables.map((table) => quote(table.name)).join(", ")}`)
      }
      yield* snapshot(
        source.sql,
        Effect.forEach(
          tables,
          (table) => {
            const columns = table.columns.map(quote).join(", ")
            const insert = `insert into ${quote(table.name)} (${columns})${table.identity ? " overriding system value" : ""}
              select ${columns} from json_populate_recordset(null::${quote(table.name)}, $1::json)`
            return batches<{ readonly rows: string; readonly n: number; readonly last: string | null }, unknown, never>(
              source.sql,
              table,
              `json_agg(b order by ${keyList(table, "b")})::text as rows`,
              batchSize,
              (batch) => target.sql.unsafe(insert, [batch.rows]).pipe(Effect.asVoid)
            )
          },
          { discard: true }
        )
      )
      for (const table of triggered) yield* target.sql.unsafe(`alter table ${quote(table.name)} enable trigger user`)
      for (const sequence of yield* sequences(source.sql)) {
        yield* target.sql.unsafe(`select setval($1::regclass, $2::bigint, $3::boolean)`, [
          quote(sequence.name),
          sequence.last,
          sequence.called
        ])
      }
    })
  )

/**
 * Copies a qforms database and its files to another (embedded PGlite ↔
 * PostgreSQL), then verifies every table and blob. Fails with a
 * {@link DatabaseCopyError} when the copy cannot be done (a non-empty target
 * without `replace` included); a copy whose verification finds a difference
 * succeeds with `verified: false` and the differences in the report.
 *
 * @example
 * ```ts
 * import { DatabaseCopy } from "@qforms/core"
 * const report = yield* DatabaseCopy.copy({
 *   from: { database: { dataDir: "./.qforms-data" }, filesDirectory: "./.qforms-data/files" },
 *   to: { database: { url: "postgres://qforms@db/qforms" }, filesDirectory: "/srv/qforms-files" }
 * })
 * if (!report.verified) console.error(DatabaseCopy.formatReport(report))
 * ```
 */
export const copy = (options: CopyOptions): Effect.Effect<CopyReport, DatabaseCopyError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const batchSize = options.batchSize ?? 500
      const source = yield* open(options.from)
      const target = yield* open(options.to)
      const level = yield* migrationLevel(source.sql).pipe(Effect.mapError(failed("Could not read the source")))
      const targetLevel = yield* migrationLevel(target.sql).pipe(Effect.mapError(failed("Could not read the target")))
      if (level !== targetLevel) {
        return yield* new DatabaseCopyError({
          message: `The source is at migration ${level}, the target at ${targetLevel}: run the same qforms version on both`
        })
      }
      const tables = yield* catalog(source.sql).pipe(Effect.mapError(failed("Could not read the source's catalog")))
      const targetTables = yield* catalog(target.sql).pipe(
        Effect.mapError(failed("Could not read the target's catalog"))
      )
      const describe = (list: ReadonlyArray<Table>) =>
        JSON.stringify(list.map((table) => [table.name, table.columns]).sort())
      if (describe(tables) !== describe(targetTables)) {
        return yield* new DatabaseCopyError({ message: "The source's and the target's tables differ: cannot copy" })
      }
      yield* copyRows(source, target, tables, options.replace ?? false, batchSize).pipe(
        Effect.mapError((error) =>
          error instanceof DatabaseCopyError
            ? error
            : failed("Could not copy the rows")(error as { readonly message: string; readonly cause?: unknown })
        )
      )

      // Files: every blob a row names.
      let copied = 0
      let bytes = 0
      const missingInSource: Array<string> = []
      const mismatches: Array<BlobProblem> = []
      const holders = yield* blobColumns(source.sql).pipe(Effect.mapError(failed("Could not read the source")))
      for (const { table } of holders) {
        yield* blobKeys(source.sql, table, batchSize, (key) =>
          Effect.map(copyBlob(source, target, key), (outcome) => {
            if (outcome._tag === "Missing") missingInSource.push(key)
            else if (outcome._tag === "Mismatch") mismatches.push({ key, problem: outcome.problem })
            else {
              copied += 1
              bytes += outcome.size
            }
          })
        ).pipe(Effect.mapError(failed("Could not list the files")))
      }

      const sourceDigests = yield* digests(source.sql, tables, batchSize).pipe(
        Effect.mapError(failed("Could not verify the source"))
      )
      const targetDigests = yield* digests(target.sql, tables, batchSize).pipe(
        Effect.mapError(failed("Could not verify the target"))
      )
      const checks = tables.map((table): TableCheck => {
        const s = sourceDigests.get(table.name) ?? { rows: -1, digest: "" }
        const t = targetDigests.get(table.name) ?? { rows: -1, digest: "" }
        return {
          table: table.name,
          sourceRows: s.rows,
          targetRows: t.rows,
          sourceDigest: s.digest,
          targetDigest: t.digest,
          matches: s.rows === t.rows && s.digest === t.digest
        }
      })
      return {
        migration: level,
        tables: checks,
        blobs: { copied, bytes, missingInSource, mismatches },
        verified: checks.every((check) => check.matches) && mismatches.length === 0
      }
    })
  )

/**
 * The report as a table for a terminal: one line per table (rows and digest
 * on both sides, `ok` or `MISMATCH`), then the files.
 *
 * @example
 * ```ts
 * console.log(DatabaseCopy.formatReport(report))
 * ```
 */
export const formatReport = (report: CopyReport): string => {
  const width = Math.max(5, ...report.tables.map((check) => check.table.length))
  const lines = [
    `migration ${report.migration}`,
    `${"table".padEnd(width)}  ${"source rows".padStart(11)}  ${"target rows".padStart(11)}  digest            check`,
    ...report.tables.map(
      (check) =>
        `${check.table.padEnd(width)}  ${String(check.sourceRows).padStart(11)}  ${String(check.targetRows).padStart(11)}  ${check.sourceDigest.slice(0, 16).padEnd(16)}  ${check.matches ? "ok" : `MISMATCH (target ${check.targetDigest.slice(0, 16)})`}`
    ),
    `files: ${report.blobs.copied} copied (${report.blobs.bytes} bytes), size and sha256 checked`,
    ...report.blobs.missingInSource.map((key) => `file ${key}: missing in the source's files directory (not copied)`),
    ...report.blobs.mismatches.map((problem) => `file ${problem.key}: MISMATCH ${problem.problem}`),
    report.verified ? "verified: every table and file matches" : "NOT VERIFIED: see the mismatches above"
  ]
  return lines.join("\n")
}
