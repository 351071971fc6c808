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
 *   transaction, so they are on again if anything fails): the tallies the
 *   triggers of `responses` maintain (migration 0031) are copied as the
 *   source has them instead of being counted a second time. The role must own
 *   the tables, as the role that migrated them does.
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
import { createHash } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import * as BlobStore from "./files/BlobStore.ts"
import * as Database from "./storage/Database.ts"

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

/** A table as the catalog describes it. */
interface Table {
  readonly name: string
  /** Columns written on insert (generated ones left out), in column order. */
  readonly columns: ReadonlyArray<string>
  readonly primaryKey: ReadonlyArray<string>
  readonly identity: boolean
  readonly references: ReadonlyArray<string>
  readonly hasUserTriggers: boolean
}

const failed = (what: string) => (error: { readonly message: string; readonly cause?: unknown }) => {
  // A SqlError's own message is generic ("Query failed"); the database's words are its cause's.
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : ""
  return new DatabaseCopyError({ message: `${what}: ${error.message}${cause}` })
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

const MIGRATIONS_TABLE = "qforms_migrations"

/** The same text of every value on both sides. */
const sessionSettings = [
  "set local timezone = 'UTC'",
  "set local datestyle = 'ISO, YMD'",
  "set local intervalstyle = 'postgres'",
  "set local extra_float_digits = 1",
  "set local bytea_output = 'hex'"
]

/** Runs `effect` in a repeatable-read transaction with {@link sessionSettings}. */
const snapshot = <A, E, R>(sql: SqlClient.SqlClient, effect: Effect.Effect<A, E, R>) =>
  sql.withTransaction(
    Effect.gen(function* () {
      yield* sql.unsafe("set transaction isolation level repeatable read")
      for (const statement of sessionSettings) yield* sql.unsafe(statement)
      return yield* effect
    })
  )

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

/** The last migration the database ran. */
const migrationLevel = (sql: SqlClient.SqlClient) =>
  sql<{ readonly name: string | null }>`
    select lpad(max(migration_id)::text, 4, '0') || '_' || (
      select name from ${sql(MIGRATIONS_TABLE)} order by migration_id desc limit 1) as name
    from ${sql(MIGRATIONS_TABLE)}`.pipe(Effect.map((rows) => rows[0]?.name ?? "none"))

/** The qforms tables of the current schema, from its catalog, in foreign-key order. */
const catalog = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const columns = yield* sql<{
      readonly table: string
      readonly column: string
      readonly generated: string
      readonly identity: string
    }>`
      select c.relname as table, a.attname as column, a.attgenerated::text as generated, a.attidentity::text as identity
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = current_schema() and c.relkind = 'r' and c.relname <> ${MIGRATIONS_TABLE}
      order by c.relname, a.attnum`
    const keys = yield* sql<{ readonly table: string; readonly column: string }>`
      select c.relname as table, a.attname as column
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      cross join lateral unnest(i.indkey) with ordinality as k(attnum, position)
      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
      where i.indisprimary and n.nspname = current_schema()
      order by c.relname, k.position`
    const references = yield* sql<{ readonly table: string; readonly referenced: string }>`
      select c.relname as table, r.relname as referenced
      from pg_constraint f
      join pg_class c on c.oid = f.conrelid
      join pg_class r on r.oid = f.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where f.contype = 'f' and n.nspname = current_schema()`
    const triggers = yield* sql<{ readonly table: string }>`
      select distinct c.relname as table
      from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
      where not t.tgisinternal and n.nspname = current_schema()`
    const names = [...new Set(columns.map((row) => row.table))]
    const tables = names.map(
      (name): Table => ({
        name,
        columns: columns.filter((row) => row.table === name && row.generated === "").map((row) => row.column),
        primaryKey: keys.filter((row) => row.table === name).map((row) => row.column),
        identity: columns.some((row) => row.table === name && row.identity !== ""),
        references: references
          .filter((row) => row.table === name && row.referenced !== name)
          .map((row) => row.referenced),
        hasUserTriggers: triggers.some((row) => row.table === name)
      })
    )
    const missingKey = tables.find((table) => table.primaryKey.length === 0)
    if (missingKey !== undefined) {
      return yield* new DatabaseCopyError({
        message: `table ${missingKey.name} has no primary key: it cannot be copied`
      })
    }
    // Referenced tables first (depth-first topological order).
    const byName = new Map(tables.map((table) => [table.name, table]))
    const ordered: Array<Table> = []
    const seen = new Set<string>()
    const visit = (table: Table) => {
      if (seen.has(table.name)) return
      seen.add(table.name)
      for (const name of table.references) {
        const referenced = byName.get(name)
        if (referenced !== undefined) visit(referenced)
      }
      ordered.push(table)
    }
    for (const table of tables) visit(table)
    return ordered
  })

const keyList = (table: Table, alias?: string) =>
  table.primaryKey.map((column) => (alias === undefined ? quote(column) : `${alias}.${quote(column)}`)).join(", ")

/**
 * One batch of a table after `cursor` (the JSON of the previous batch's last
 * row): `select` is what to answer of the batch `b`, besides its last row.
 */
const batchQuery = (table: Table, select: string, hasCursor: boolean, batchSize: number) => {
  const name = quote(table.name)
  const keys = keyList(table)
  const after = hasCursor
    ? `where (${keys}) > (select ${keyList(table, "c")} from json_populate_record(null::${name}, $1::json) as c)`
    : ""
  return `with b as (select * from ${name} ${after} order by ${keys} limit ${batchSize})
    select ${select}, count(*)::int as n, (json_agg(b order by ${keyList(table, "b")}) -> -1)::text as last from b`
}

/** Walks a table in batches, handing each batch's answer to `each`. */
const batches = <A extends { readonly n: number; readonly last: string | null }, E, R>(
  sql: SqlClient.SqlClient,
  table: Table,
  select: string,
  batchSize: number,
  each: (batch: A) => Effect.Effect<void, E, R>
) =>
  Effect.gen(function* () {
    let cursor: string | null = null
    while (true) {
      const query = batchQuery(table, select, cursor !== null, batchSize)
      const rows: ReadonlyArray<A> = yield* cursor === null ? sql.unsafe<A>(query) : sql.unsafe<A>(query, [cursor])
      const batch = rows[0]
      if (batch === undefined || batch.n === 0) return
      yield* each(batch)
      if (batch.n < batchSize) return
      cursor = batch.last
    }
  })

/** A table's row count and digest. */
const digestTable = (sql: SqlClient.SqlClient, table: Table, batchSize: number) =>
  Effect.gen(function* () {
    const hash = createHash("sha256")
    let rows = 0
    yield* batches<{ readonly digest: string; readonly n: number; readonly last: string | null }, never, never>(
      sql,
      table,
      `md5(string_agg(b::text, E'\\n' order by ${keyList(table, "b")})) as digest`,
      batchSize,
      (batch) =>
        Effect.sync(() => {
          rows += batch.n
          hash.update(`${batch.digest}\n`)
        })
    )
    return { rows, digest: rows === 0 ? "empty" : hash.digest("hex") }
  })

/** Every table's count and digest, in one snapshot. */
const digests = (sql: SqlClient.SqlClient, tables: ReadonlyArray<Table>, batchSize: number) =>
  snapshot(
    sql,
    Effect.forEach(tables, (table) => Effect.map(digestTable(sql, table, batchSize), (d) => [table.name, d] as const))
  ).pipe(Effect.map((entries) => new Map(entries)))

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

/** The blob keys the database names: every `storage_key` column of the schema. */
const blobColumns = (sql: SqlClient.SqlClient) =>
  sql<{ readonly table: string }>`
    select c.relname as table from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and a.attname = 'storage_key' and not a.attisdropped
    order by 1`

/** Walks the distinct blob keys of a table in pages. */
const blobKeys = <E, R>(
  sql: SqlClient.SqlClient,
  table: string,
  batchSize: number,
  each: (key: string) => Effect.Effect<void, E, R>
) =>
  Effect.gen(function* () {
    let after = ""
    while (true) {
      const rows = yield* sql.unsafe<{ readonly key: string }>(
        `select distinct storage_key as key from ${quote(table)} where storage_key > $1 order by 1 limit ${batchSize}`,
        [after]
      )
      for (const row of rows) yield* each(row.key)
      if (rows.length < batchSize) return
      after = rows[rows.length - 1]!.key
    }
  })

/** Size and SHA-256 of a stream, passing it on. */
const measured = <E>(stream: Stream.Stream<Uint8Array, E>) => {
  const hash = createHash("sha256")
  let size = 0
  const counted = Stream.map(stream, (chunk) => {
    size += chunk.length
    hash.update(chunk)
    return chunk
  })
  return { stream: counted, result: () => ({ size, sha256: hash.digest("hex") }) }
}

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
      // Before emptying: the audit log's trigger refuses a truncate, and the tallies' would count.
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
