/**
 * Backups of the embedded database: one file holding a consistent snapshot of
 * the PGlite data directory and every uploaded file the snapshot's rows name,
 * taken while the server runs; and its restore into a data directory, verified
 * before it replaces anything.
 *
 * The file is a tar archive (gzip-compressed unless its name ends in `.tar`),
 * readable by any tar:
 *
 * - `backup.json`: format, qforms migration, schema, time, and per table its
 *   row count and digest (see `DatabaseCatalog`);
 * - `database/…`: PostgreSQL's files of the data directory (its own entries
 *   only: not the lock, the admin socket or the files directory);
 * - `files/<key>`: the blobs, read from the blob store (directory or S3);
 * - `files.json`: each blob's size and SHA-256, and the keys the rows name
 *   that the store no longer held.
 *
 * Consistency: PGlite is one connection that every statement of the process
 * waits for (`PgliteClient`). The backup holds it, in a repeatable-read
 * transaction, for the checkpoint, the table digests and the copy of the
 * data directory's files: nothing is written meanwhile (requests wait, about
 * a second per 100 MB of data), so the files are the database at one instant,
 * which PostgreSQL recovers as after a crash at that instant. The blobs are
 * copied after the connection is released: they never change once written,
 * and a blob deleted in between is listed as missing.
 *
 * Restore: the archive is unpacked next to the data directory, opened as a
 * database, and every table's count and digest compared with `backup.json`,
 * every blob's size and SHA-256 with `files.json`. Only then is the data
 * directory replaced (a rename); a directory that holds anything is replaced
 * only when asked, and never while a process has it open.
 *
 * On PostgreSQL, back up with `pg_dump` and a copy of the files directory
 * (docs/operations.md).
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto"
import {
  closeSync,
  createReadStream,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync
} from "node:fs"
import { dirname, join, resolve } from "node:path"
import * as zlib from "node:zlib"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import { BlobStoreModule as BlobStore, TarArchive } from "../files/index.ts"
import {
  blobColumns,
  blobKeys,
  catalog,
  digests,
  digestTable,
  migrationLevel,
  PgliteClient,
  quote,
  sessionSettings
} from "../storage/index.ts"

/** A backup or restore could not be done; the message says why and what to do. */
export class DatabaseBackupError extends Schema.TaggedError<DatabaseBackupError>()("DatabaseBackupError", {
  message: Schema.String
}) {}

/** A table's count and digest when the backup was taken. */
export const TableRecord = Schema.Struct({
  table: Schema.String,
  rows: Schema.Int,
  digest: Schema.String
})

/** `backup.json`: what the backup holds, first in the archive. */
export const BackupManifest = Schema.Struct({
  format: Schema.Literal("qforms-backup"),
  version: Schema.Literal(1),
  createdAt: Schema.String,
  migration: Schema.String,
  schema: Schema.String,
  tables: Schema.Array(TableRecord),
  /** How many blob keys the rows name. */
  files: Schema.Int
})
export type BackupManifest = typeof BackupManifest.Type

/** `files.json`: the blobs in the archive, last in it. */
export const FilesManifest = Schema.Struct({
  files: Schema.Array(Schema.Struct({ key: Schema.String, size: Schema.Int, sha256: Schema.String })),
  /** Keys the rows name that the store did not hold when the backup read it. */
  missing: Schema.Array(Schema.String)
})
export type FilesManifest = typeof FilesManifest.Type

/** What {@link backup} wrote. */
export interface BackupReport {
  readonly file: string
  /** The archive's size on disk. */
  readonly bytes: number
  readonly migration: string
  readonly tables: number
  readonly rows: number
  readonly files: { readonly count: number; readonly bytes: number; readonly missing: ReadonlyArray<string> }
  /** How long the database was held (no statement of the server ran meanwhile). */
  readonly heldMillis: number
}

/** A table's count and digest in the backup and in the restored database. */
export interface RestoreCheck {
  readonly table: string
  readonly backupRows: number
  readonly restoredRows: number
  readonly matches: boolean
}

/** What {@link restore} did. */
export interface RestoreReport {
  readonly dataDir: string
  readonly migration: string
  readonly createdAt: string
  readonly tables: ReadonlyArray<RestoreCheck>
  readonly files: { readonly count: number; readonly bytes: number; readonly missing: ReadonlyArray<string> }
  /** An earlier database in the directory was replaced (`replace`). */
  readonly replaced: boolean
}

/** Options of {@link backup}. */
export interface BackupOptions {
  /** The archive to write (refused if it exists). gzip-compressed unless it ends in `.tar`. */
  readonly file: string
  /** The data directory of the open database (whose files are copied). */
  readonly dataDir: string
}

/** Options of {@link restore}. */
export interface RestoreOptions {
  /** The archive {@link backup} wrote. */
  readonly file: string
  /** The data directory to restore into. */
  readonly dataDir: string
  /** Where the blobs go: a directory or a store (default `<dataDir>/files`, restored with the directory). */
  readonly files?:
    | { readonly directory: string }
    | { readonly store: Layer.Layer<BlobStore.BlobStore, BlobStore.BlobStoreError> }
    | undefined
  /** Replace a data directory that holds anything (default: refuse it). */
  readonly replace?: boolean | undefined
}

const failure = (what: string) => (cause: unknown) => {
  const detail =
    typeof cause === "object" && cause !== null && "message" in cause && typeof cause.message === "string"
      ? cause.message
      : String(cause)
  const inner =
    typeof cause === "object" && cause !== null && "cause" in cause && cause.cause instanceof Error
      ? cause.cause.message
      : undefined
  return new DatabaseBackupError({
    message: `${what}: ${detail}${inner !== undefined && inner !== detail ? ` (${inner})` : ""}`
  })
}

const io = <A>(what: string, run: () => A) => Effect.try({ try: run, catch: failure(what) })

/** PostgreSQL's own entries at the top of a data directory. */
const isPostgresEntry = (name: string) =>
  name === "PG_VERSION" ||
  name === "base" ||
  name === "global" ||
  (name.startsWith("pg_") && name !== "pg_internal.init") ||
  /^postgresql(\.auto)?\.conf$/u.test(name)

/** The data directory's PostgreSQL files and directories, parents first (paths relative to it). */
const postgresFiles = (dataDir: string) => {
  const out: Array<{ readonly path: string; readonly directory: boolean; readonly size: number }> = []
  const walk = (relative: string) => {
    for (const name of readdirSync(join(dataDir, relative)).sort()) {
      if (relative === "" && !isPostgresEntry(name)) continue
      const path = relative === "" ? name : `${relative}/${name}`
      const stat = lstatSync(join(dataDir, path))
      if (stat.isDirectory()) {
        out.push({ path, directory: true, size: 0 })
        walk(path)
      } else if (stat.isFile()) out.push({ path, directory: false, size: stat.size })
    }
  }
  walk("")
  return out
}

const PIECE = 1024 * 1024

/** Writes the archive's bytes to `fd`, gzip-compressed a megabyte at a time (in the thread pool) when asked. */
const makeWriter = (fd: number, compress: boolean) => {
  let pending: Array<Uint8Array> = []
  let pendingBytes = 0
  let written = 0
  const gzip = (raw: Buffer) =>
    Effect.callback<Buffer, DatabaseBackupError>((resume) => {
      zlib.gzip(raw, (error, out) =>
        resume(error === null ? Effect.succeed(out) : Effect.fail(failure("Could not compress the backup")(error)))
      )
    })
  const flush = Effect.gen(function* () {
    if (pendingBytes === 0) return
    const raw = Buffer.concat(pending)
    pending = []
    pendingBytes = 0
    // Each piece is a gzip member of its own: a file of members is one gzip stream to every reader.
    const out = compress ? yield* gzip(raw) : raw
    yield* io("Could not write the backup", () => {
      let at = 0
      while (at < out.length) at += writeSync(fd, out, at, out.length - at)
    })
    written += out.length
  })
  const write = (bytes: Uint8Array) =>
    Effect.suspend(() => {
      pending.push(bytes)
      pendingBytes += bytes.length
      return pendingBytes >= PIECE ? flush : Effect.void
    })
  /** A file's bytes into the archive, as one entry. */
  const writeFile = (name: string, path: string, size: number) =>
    Effect.gen(function* () {
      yield* write(TarArchive.header(name, size))
      const file = yield* io(`Could not read ${path}`, () => openSync(path, "r"))
      yield* Effect.gen(function* () {
        let left = size
        while (left > 0) {
          const buffer = Buffer.allocUnsafe(Math.min(PIECE, left))
          const read = yield* io(`Could not read ${path}`, () => readSync(file, buffer, 0, buffer.length, null))
          if (read === 0) return yield* new DatabaseBackupError({ message: `${path} shrank while it was copied` })
          yield* write(buffer.subarray(0, read))
          left -= read
        }
      }).pipe(Effect.ensuring(Effect.sync(() => closeSync(file))))
      yield* write(TarArchive.padding(size))
    })
  const writeJson = (name: string, value: unknown) => {
    const bytes = new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`)
    return Effect.andThen(
      write(TarArchive.header(name, bytes.length)),
      Effect.andThen(write(bytes), write(TarArchive.padding(bytes.length)))
    )
  }
  return { write, writeFile, writeJson, flush, written: () => written }
}

/**
 * Writes a backup of the embedded database that `sql` is open on (its data
 * directory `dataDir`) and of the blobs its rows name, while the server goes
 * on. The archive appears under its name only when complete (written as
 * `<file>.partial` first).
 *
 * @example
 * ```ts
 * import { DatabaseBackup } from "@qforms/core"
 * const report = yield* DatabaseBackup.backup({ file: "/backups/qforms.tar.gz", dataDir: "./.qforms-data" })
 * console.log(`${report.rows} rows and ${report.files.count} files in ${report.bytes} bytes`)
 * ```
 */
export const backup = (
  options: BackupOptions
): Effect.Effect<BackupReport, DatabaseBackupError, SqlClient.SqlClient | BlobStore.BlobStore> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const store = yield* BlobStore.BlobStore
    const dataDir = resolve(options.dataDir)
    const file = resolve(options.file)
    if (file === dataDir || file.startsWith(`${dataDir}/`)) {
      return yield* new DatabaseBackupError({ message: "Write the backup outside the data directory" })
    }
    if (existsSync(file)) return yield* new DatabaseBackupError({ message: `${file} exists: choose a new file name` })
    if (!existsSync(join(dataDir, "PG_VERSION"))) {
      return yield* new DatabaseBackupError({ message: `${dataDir} is not the data directory of an embedded database` })
    }
    const partial = `${file}.partial`
    const fd = yield* io(`Could not create ${partial}`, () => openSync(partial, "wx", 0o600))
    const writer = makeWriter(fd, !file.endsWith(".tar"))
    const written = Effect.gen(function* () {
      // 1. The database, held: nothing else runs on the one connection until the files are copied.
      const heldFrom = yield* Clock.currentTimeMillis
      const { keys, manifest } = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* sql.unsafe("set transaction isolation level repeatable read")
            for (const statement of sessionSettings) yield* sql.unsafe(statement)
            yield* sql.unsafe("checkpoint")
            const migration = yield* migrationLevel(sql)
            const schema = (yield* sql<{ readonly name: string }>`select current_schema() as name`)[0]?.name ?? ""
            const tables = yield* catalog(sql)
            const records = yield* Effect.forEach(tables, (table) =>
              Effect.map(digestTable(sql, table, 500), (d) => ({ table: table.name, rows: d.rows, digest: d.digest }))
            )
            const keys = new Set<string>()
            for (const { table } of yield* blobColumns(sql)) {
              yield* blobKeys(sql, table, 1000, (key) => Effect.sync(() => void keys.add(key)))
            }
            const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
            const manifest: BackupManifest = {
              format: "qforms-backup",
              version: 1,
              createdAt,
              migration,
              schema,
              tables: records,
              files: keys.size
            }
            yield* writer.writeJson("backup.json", manifest)
            const entries = yield* io(`Could not list ${dataDir}`, () => postgresFiles(dataDir))
            for (const entry of entries) {
              if (entry.directory) {
                yield* writer.write(TarArchive.header(`database/${entry.path}/`, 0))
              } else {
                yield* writer.writeFile(`database/${entry.path}`, join(dataDir, entry.path), entry.size)
              }
            }
            yield* writer.flush
            return { keys: [...keys].sort(), manifest }
          })
        )
        .pipe(
          Effect.mapError((error) =>
            error instanceof DatabaseBackupError ? error : failure("Could not read the database")(error)
          )
        )
      const heldMillis = (yield* Clock.currentTimeMillis) - heldFrom

      // 2. The blobs, each spooled to a temporary file first: a tar header needs the size before the bytes.
      const spool = `${file}.blob`
      const files: Array<{ readonly key: string; readonly size: number; readonly sha256: string }> = []
      const missing: Array<string> = []
      for (const key of keys) {
        const found = yield* Effect.result(store.get(key))
        if (found._tag === "Failure") {
          if (found.failure._tag === "BlobNotFound") {
            missing.push(key)
            continue
          }
          return yield* failure(`Could not read the file ${key}`)(found.failure)
        }
        const out = yield* io(`Could not create ${spool}`, () => openSync(spool, "w", 0o600))
        const hash = createHash("sha256")
        let size = 0
        yield* Stream.runForEach(found.success, (chunk) =>
          io(`Could not write ${spool}`, () => {
            hash.update(chunk)
            size += chunk.length
            let at = 0
            while (at < chunk.length) at += writeSync(out, chunk, at, chunk.length - at)
          })
        ).pipe(
          Effect.mapError((error) =>
            error instanceof DatabaseBackupError ? error : failure(`Could not read the file ${key}`)(error)
          ),
          Effect.ensuring(Effect.sync(() => closeSync(out)))
        )
        yield* writer.writeFile(`files/${key}`, spool, size)
        files.push({ key, size, sha256: hash.digest("hex") })
      }
      yield* Effect.sync(() => existsSync(spool) && unlinkSync(spool))
      const filesManifest: FilesManifest = { files, missing }
      yield* writer.writeJson("files.json", filesManifest)
      yield* writer.write(TarArchive.end)
      yield* writer.flush
      yield* io("Could not write the backup", () => fsyncSync(fd))
      return { manifest, files, missing, heldMillis }
    })
    const exit = yield* Effect.exit(written)
    yield* Effect.sync(() => closeSync(fd))
    if (Exit.isFailure(exit)) {
      yield* Effect.sync(() => {
        for (const leftover of [partial, `${file}.blob`]) if (existsSync(leftover)) unlinkSync(leftover)
      })
      return yield* Effect.failCause(exit.cause)
    }
    yield* io(`Could not rename ${partial}`, () => renameSync(partial, file))
    const { manifest, files, missing, heldMillis } = exit.value
    return {
      file,
      bytes: writer.written(),
      migration: manifest.migration,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
      files: { count: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0), missing },
      heldMillis
    }
  })

const decodeManifest = Schema.decodeUnknownEffect(Schema.fromJsonString(BackupManifest))
const decodeFiles = Schema.decodeUnknownEffect(Schema.fromJsonString(FilesManifest))

/** The archive's bytes: gunzipped when they start with gzip's magic number. */
const archiveBytes = (file: string) =>
  Effect.gen(function* () {
    const head = Buffer.alloc(2)
    const fd = yield* io(`Could not open ${file}`, () => openSync(file, "r"))
    yield* io(`Could not read ${file}`, () => readSync(fd, head, 0, 2, 0))
    closeSync(fd)
    const gzipped = head[0] === 0x1f && head[1] === 0x8b
    return NodeStream.fromReadable<Uint8Array, DatabaseBackupError>({
      evaluate: () => (gzipped ? createReadStream(file).pipe(zlib.createGunzip()) : createReadStream(file)),
      onError: failure(`${file} cannot be restored: it is damaged or cut short`)
    })
  })

/** Removes a directory tree, quietly. */
const remove = (path: string) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))

/**
 * Restores a backup written by {@link backup} into `dataDir`: unpacked beside
 * it, verified table by table and blob by blob, then moved into place. Refuses
 * a directory that holds anything unless `replace`, and a directory a process
 * has open (a running server) in any case.
 *
 * @example
 * ```ts
 * import { DatabaseBackup } from "@qforms/core"
 * const report = yield* DatabaseBackup.restore({ file: "/backups/qforms.tar.gz", dataDir: "./.qforms-data" })
 * ```
 */
export const restore = (options: RestoreOptions): Effect.Effect<RestoreReport, DatabaseBackupError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const dataDir = resolve(options.dataDir)
      const file = resolve(options.file)
      if (!existsSync(file)) return yield* new DatabaseBackupError({ message: `${file} does not exist` })
      const holdsData = existsSync(dataDir) && readdirSync(dataDir).length > 0
      if (holdsData && options.replace !== true) {
        return yield* new DatabaseBackupError({
          message: `${dataDir} is not empty: pass --replace to replace the database in it`
        })
      }
      // Held until the end: no server may start on the directory while it is replaced.
      if (holdsData) {
        yield* PgliteClient.lockDataDir(dataDir).pipe(
          Effect.mapError((error) => new DatabaseBackupError({ message: error.message }))
        )
      }
      const staging = `${dataDir}.restoring-${randomBytes(4).toString("hex")}`
      const blobs = join(staging, ".blobs")
      yield* io(`Could not create ${staging}`, () => mkdirSync(blobs, { recursive: true }))
      yield* Effect.addFinalizer(() => remove(staging))

      // 1. Unpack: the database's files in place, each blob in a numbered file of `.blobs`.
      const json = new Map<string, string>()
      const unpacked = new Map<string, { readonly path: string; readonly size: number; readonly sha256: string }>()
      type Open =
        | { readonly kind: "json"; readonly name: string; readonly parts: Array<Uint8Array> }
        | { readonly kind: "file"; readonly fd: number }
        | {
            readonly kind: "blob"
            readonly key: string
            readonly fd: number
            readonly path: string
            readonly hash: ReturnType<typeof createHash>
            size: number
          }
      let current: Open | undefined
      let first = true
      const refuse = (message: string) =>
        Effect.fail(new DatabaseBackupError({ message: `${file} cannot be restored: ${message}` }))
      const writeAll = (fd: number, bytes: Uint8Array) =>
        io(`Could not write into ${staging}`, () => {
          let at = 0
          while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at)
        })
      const begin = (entry: TarArchive.Entry) =>
        Effect.gen(function* () {
          if (first && entry.name !== "backup.json") return yield* refuse("it is not a qforms backup")
          first = false
          if (entry.name === "backup.json" || entry.name === "files.json") {
            if (entry.size > 64 * 1024 * 1024) return yield* refuse(`its ${entry.name} is over 64 MiB`)
            current = { kind: "json", name: entry.name, parts: [] }
          } else if (entry.name.startsWith("database/")) {
            const path = join(staging, entry.name.slice("database/".length))
            if (entry.type === "directory")
              return yield* io(`Could not create ${path}`, () => mkdirSync(path, { recursive: true }))
            const fd = yield* io(`Could not create ${path}`, () => {
              mkdirSync(dirname(path), { recursive: true })
              return openSync(path, "w", 0o600)
            })
            current = { kind: "file", fd }
          } else if (entry.name.startsWith("files/") && entry.type === "file") {
            const key = entry.name.slice("files/".length)
            if (!BlobStore.isValidKey(key))
              return yield* refuse(`it holds a file with an invalid key: ${JSON.stringify(key)}`)
            const path = join(blobs, String(unpacked.size))
            const fd = yield* io(`Could not create ${path}`, () => openSync(path, "w", 0o600))
            current = { kind: "blob", key, fd, path, hash: createHash("sha256"), size: 0 }
          } else return yield* refuse(`it holds an unexpected entry ${JSON.stringify(entry.name)}`)
        })
      const data = (bytes: Uint8Array) =>
        Effect.suspend(() => {
          const open = current
          if (open === undefined) return Effect.void
          if (open.kind === "json") return Effect.sync(() => void open.parts.push(Uint8Array.from(bytes)))
          if (open.kind === "blob") {
            open.hash.update(bytes)
            open.size += bytes.length
          }
          return writeAll(open.fd, bytes)
        })
      const finishEntry = Effect.suspend(() => {
        const open = current
        current = undefined
        if (open === undefined) return Effect.void
        if (open.kind === "json")
          return Effect.sync(() => void json.set(open.name, Buffer.concat(open.parts).toString("utf8")))
        return Effect.sync(() => {
          closeSync(open.fd)
          if (open.kind === "blob") {
            unpacked.set(open.key, { path: open.path, size: open.size, sha256: open.hash.digest("hex") })
          }
        })
      })
      const reader = TarArchive.makeReader()
      yield* Stream.runForEach(yield* archiveBytes(file), (chunk) =>
        Effect.gen(function* () {
          const events = reader.push(chunk)
          if (events instanceof TarArchive.TarArchiveError) return yield* refuse(events.message)
          for (const event of events) {
            if (event._tag === "Entry") yield* begin(event.entry)
            else if (event._tag === "Data") yield* data(event.bytes)
            else yield* finishEntry
          }
        })
      ).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            if (current !== undefined && current.kind !== "json") closeSync(current.fd)
          })
        )
      )
      const cutShort = reader.finish()
      if (cutShort !== undefined) return yield* refuse(cutShort.message)
      const manifest = yield* decodeManifest(json.get("backup.json") ?? "").pipe(
        Effect.mapError(failure(`${file} cannot be restored: its backup.json is not valid`))
      )
      const filesManifest = yield* decodeFiles(json.get("files.json") ?? "").pipe(
        Effect.mapError(failure(`${file} cannot be restored: its files.json is missing or not valid`))
      )

      // 2. The blobs as files.json lists them.
      for (const expected of filesManifest.files) {
        const got = unpacked.get(expected.key)
        if (got === undefined || got.size !== expected.size || got.sha256 !== expected.sha256) {
          return yield* new DatabaseBackupError({
            message: `${file} cannot be restored: the file ${expected.key} in it is damaged or missing`
          })
        }
      }

      // 3. The database opens and holds what the backup recorded.
      const checks = yield* Effect.scoped(
        Effect.gen(function* () {
          const sql = Context.get(yield* Layer.build(PgliteClient.layer({ dataDir: staging })), SqlClient.SqlClient)
          yield* sql.unsafe(`set search_path to ${quote(manifest.schema)}`)
          const level = yield* migrationLevel(sql)
          if (level !== manifest.migration) {
            return yield* new DatabaseBackupError({
              message: `the restored database is at migration ${level}, the backup says ${manifest.migration}`
            })
          }
          const tables = yield* catalog(sql)
          const found = yield* digests(sql, tables, 500)
          const names = new Set([...manifest.tables.map((t) => t.table), ...tables.map((t) => t.name)])
          return [...names].sort().map((table): RestoreCheck => {
            const recorded = manifest.tables.find((t) => t.table === table)
            const restored = found.get(table)
            return {
              table,
              backupRows: recorded?.rows ?? -1,
              restoredRows: restored?.rows ?? -1,
              matches: recorded !== undefined && restored !== undefined && recorded.digest === restored.digest
            }
          })
        })
      ).pipe(
        Effect.mapError((error) =>
          error instanceof DatabaseBackupError ? error : failure(`${file} cannot be restored`)(error)
        )
      )
      const bad = checks.filter((check) => !check.matches)
      if (bad.length > 0) {
        return yield* new DatabaseBackupError({
          message: `${file} cannot be restored: the restored tables differ from the backup (${bad.map((c) => c.table).join(", ")})`
        })
      }

      // 4. The blobs into their store: by default the data directory's own `files`, moved with it.
      const files = options.files ?? { directory: join(staging, "files") }
      const storeLayer = "store" in files ? files.store : BlobStore.layerLocal({ directory: files.directory })
      const store = Context.get(
        yield* Layer.build(storeLayer).pipe(Effect.mapError(failure("Could not open the file store"))),
        BlobStore.BlobStore
      )
      for (const [key, blob] of unpacked) {
        yield* store
          .put(
            key,
            NodeStream.fromReadable<Uint8Array, DatabaseBackupError>({
              evaluate: () => createReadStream(blob.path),
              onError: failure(`Could not read ${blob.path}`)
            })
          )
          .pipe(Effect.mapError(failure(`Could not store the file ${key}`)))
      }
      yield* remove(blobs)

      // 5. Into place. The old directory (locked, so no server has it) is moved aside, then removed.
      const aside = `${dataDir}.replaced-${randomBytes(4).toString("hex")}`
      if (existsSync(dataDir)) yield* io(`Could not move ${dataDir} aside`, () => renameSync(dataDir, aside))
      yield* io(`Could not move the restored database to ${dataDir}`, () => renameSync(staging, dataDir)).pipe(
        Effect.tapError(() =>
          Effect.sync(() => {
            if (existsSync(aside)) renameSync(aside, dataDir)
          })
        )
      )
      yield* remove(aside)
      return {
        dataDir,
        migration: manifest.migration,
        createdAt: manifest.createdAt,
        tables: checks,
        files: {
          count: filesManifest.files.length,
          bytes: filesManifest.files.reduce((sum, f) => sum + f.size, 0),
          missing: filesManifest.missing
        },
        replaced: holdsData
      }
    })
  )

/**
 * A report as lines for a terminal.
 *
 * @example
 * ```ts
 * console.log(DatabaseBackup.formatBackup(report))
 * ```
 */
export const formatBackup = (report: BackupReport): string =>
  [
    `backup ${report.file} (${report.bytes} bytes), migration ${report.migration}`,
    `database: ${report.tables} tables, ${report.rows} rows (held ${report.heldMillis} ms)`,
    `files: ${report.files.count} (${report.files.bytes} bytes)`,
    ...report.files.missing.map((key) => `file ${key}: deleted before it could be copied (not in the backup)`)
  ].join("\n")

/**
 * A restore's report as lines for a terminal.
 *
 * @example
 * ```ts
 * console.log(DatabaseBackup.formatRestore(report))
 * ```
 */
export const formatRestore = (report: RestoreReport): string =>
  [
    `restored the backup of ${report.createdAt} (migration ${report.migration}) into ${report.dataDir}${report.replaced ? ", replacing the database there" : ""}`,
    `database: ${report.tables.length} tables, ${report.tables.reduce((sum, t) => sum + t.restoredRows, 0)} rows, every count and digest as backed up`,
    `files: ${report.files.count} (${report.files.bytes} bytes), sizes and sha256 as backed up`,
    ...report.files.missing.map((key) => `file ${key}: was missing when the backup was taken`)
  ].join("\n")
