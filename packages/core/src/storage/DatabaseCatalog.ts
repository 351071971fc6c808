/**
 * What qforms reads of a database's catalog to move or back it up as a whole:
 * its tables (columns, primary key, foreign-key order, user triggers), its
 * migration level, the blob keys its rows name, and per table a row count and
 * digest that the same rows give on PGlite and PostgreSQL alike. Shared by
 * `DatabaseCopy` (copy, then verify) and `DatabaseBackup` (record at backup,
 * verify at restore).
 *
 * @module
 */
import { createHash } from "node:crypto"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as SqlClient from "effect/sql/SqlClient"

/** The catalog cannot be used as a whole (a table without a primary key). */
export class DatabaseCatalogError extends Schema.TaggedError<DatabaseCatalogError>()("DatabaseCatalogError", {
  message: Schema.String
}) {}

/** A table as the catalog describes it. */
export interface Table {
  readonly name: string
  /** Columns written on insert (generated ones left out), in column order. */
  readonly columns: ReadonlyArray<string>
  readonly primaryKey: ReadonlyArray<string>
  readonly identity: boolean
  readonly references: ReadonlyArray<string>
  readonly hasUserTriggers: boolean
}

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

export const MIGRATIONS_TABLE = "qforms_migrations"

/** The same text of every value on both sides of a comparison. */
export const sessionSettings = [
  "set local timezone = 'UTC'",
  "set local datestyle = 'ISO, YMD'",
  "set local intervalstyle = 'postgres'",
  "set local extra_float_digits = 1",
  "set local bytea_output = 'hex'"
]

/** Runs `effect` in a repeatable-read transaction with {@link sessionSettings}. */
export const snapshot = <A, E, R>(sql: SqlClient.SqlClient, effect: Effect.Effect<A, E, R>) =>
  sql.withTransaction(
    Effect.gen(function* () {
      yield* sql.unsafe("set transaction isolation level repeatable read")
      for (const statement of sessionSettings) yield* sql.unsafe(statement)
      return yield* effect
    })
  )

/** The last migration the database ran. */
export const migrationLevel = (sql: SqlClient.SqlClient) =>
  sql<{ readonly name: string | null }>`
    select lpad(max(migration_id)::text, 4, '0') || '_' || (
      select name from ${sql(MIGRATIONS_TABLE)} order by migration_id desc limit 1) as name
    from ${sql(MIGRATIONS_TABLE)}`.pipe(Effect.map((rows) => rows[0]?.name ?? "none"))

/** The qforms tables of the current schema, from its catalog, in foreign-key order. */
export const catalog = (sql: SqlClient.SqlClient) =>
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
      return yield* new DatabaseCatalogError({
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

/** The primary key's columns, quoted (prefixed by `alias`), for `order by` and row comparisons. */
export const keyList = (table: Table, alias?: string) =>
  table.primaryKey.map((column) => (alias === undefined ? quote(column) : `${alias}.${quote(column)}`)).join(", ")

/**
 * One batch of a table after `cursor` (the JSON of the previous batch's last
 * row): `select` is what to answer of the batch `b`, besides its last row.
 */
export const batchQuery = (table: Table, select: string, hasCursor: boolean, batchSize: number) => {
  const name = quote(table.name)
  const keys = keyList(table)
  const after = hasCursor
    ? `where (${keys}) > (select ${keyList(table, "c")} from json_populate_record(null::${name}, $1::json) as c)`
    : ""
  return `with b as (select * from ${name} ${after} order by ${keys} limit ${batchSize})
    select ${select}, count(*)::int as n, (json_agg(b order by ${keyList(table, "b")}) -> -1)::text as last from b`
}

/** Walks a table in batches, handing each batch's answer to `each`. */
export const batches = <A extends { readonly n: number; readonly last: string | null }, E, R>(
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
export const digestTable = (sql: SqlClient.SqlClient, table: Table, batchSize: number) =>
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
export const digests = (sql: SqlClient.SqlClient, tables: ReadonlyArray<Table>, batchSize: number) =>
  snapshot(
    sql,
    Effect.forEach(tables, (table) => Effect.map(digestTable(sql, table, batchSize), (d) => [table.name, d] as const))
  ).pipe(Effect.map((entries) => new Map(entries)))

/** The blob keys the database names: every `storage_key` column of the schema. */
export const blobColumns = (sql: SqlClient.SqlClient) =>
  sql<{ readonly table: string }>`
    select c.relname as table from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and a.attname = 'storage_key' and not a.attisdropped
    order by 1`

/** Walks the distinct blob keys of a table in pages. */
export const blobKeys = <E, R>(
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
export const measured = <E>(stream: Stream.Stream<Uint8Array, E>) => {
  const hash = createHash("sha256")
  let size = 0
  const counted = Stream.map(stream, (chunk) => {
    size += chunk.length
    hash.update(chunk)
    return chunk
  })
  return { stream: counted, result: () => ({ size, sha256: hash.digest("hex") }) }
}
