/**
 * Where the bytes of uploaded files live: a small key → bytes store with
 * streamed reads and writes. qforms ships a local-directory store
 * (`layerLocal`); any other store (S3 and S3-compatible services, a host's own
 * storage) plugs in by providing a `BlobStore` layer with the same three
 * operations.
 *
 * Keys are `<workspace id>/<file id>`: only letters, digits, `_`, `-` and
 * `/`-separated segments, never `.` or `..`.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import * as NodePath from "node:path"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"

/** The store failed (disk full, permission, network to the object store …). */
export class BlobStoreError extends Schema.TaggedError<BlobStoreError>()("BlobStoreError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/** No object under this key. */
export class BlobNotFound extends Schema.TaggedError<BlobNotFound>()("BlobNotFound", {
  message: Schema.String
}) {}

/**
 * A blob store. Implementations must keep two promises:
 *
 * - `put` makes the object visible only once the whole stream was written: a
 *   failed or interrupted `put` leaves nothing under the key (write to a
 *   temporary name and rename, or use a multipart upload that is completed only
 *   at the end);
 * - `put` reads the stream as it goes, never holding the whole object in memory.
 *
 * An S3 implementation maps `put` to a multipart upload (`CreateMultipartUpload`,
 * `UploadPart` per ≥ 5 MiB of the stream, `CompleteMultipartUpload`; `Abort…`
 * when the stream fails), `get` to `GetObject` with its body as the stream
 * (`NoSuchKey` → `BlobNotFound`), and `delete` to `DeleteObject`.
 *
 * @example
 * ```ts
 * import * as Layer from "effect/Layer"
 * import { BlobStore, Qforms } from "@qforms/core"
 *
 * // A host's own store, e.g. on S3:
 * const S3Store = Layer.succeed(BlobStore.BlobStore)({
 *   put: (key, content) => myS3.multipartUpload(bucket, key, content), // → Effect<{ size }>
 *   get: (key) => myS3.getObjectStream(bucket, key),                   // → Effect<Stream<Uint8Array>>
 *   delete: (key) => myS3.deleteObject(bucket, key)
 * })
 * const qforms = await Qforms.make({ files: { store: S3Store } })
 * ```
 */
export class BlobStore extends Context.Service<
  BlobStore,
  {
    /** Writes `content` under `key` (replacing any object there); answers the number of bytes written. */
    readonly put: <E>(
      key: string,
      content: Stream.Stream<Uint8Array, E>
    ) => Effect.Effect<{ readonly size: number }, E | BlobStoreError>
    /** The object's bytes as a stream; fails with `BlobNotFound` before streaming when there is no such object. */
    readonly get: (
      key: string
    ) => Effect.Effect<Stream.Stream<Uint8Array, BlobStoreError>, BlobNotFound | BlobStoreError>
    /** Deletes the object; deleting a missing object succeeds. */
    readonly delete: (key: string) => Effect.Effect<void, BlobStoreError>
    /**
     * Optional, for the maintenance sweep: the keys of the objects last written
     * before `olderThan`. With it, objects whose file record never committed (a
     * crash between `put` and the insert) or whose deletion was cut short are
     * found and deleted. A store without it keeps such objects (an S3 bucket's
     * lifecycle rules can expire them).
     */
    readonly listKeys?: ((olderThan: Date) => Effect.Effect<ReadonlyArray<string>, BlobStoreError>) | undefined
    /**
     * Optional, for the maintenance sweep: removes the remains of writes that
     * started before `olderThan` and never completed (a process killed in the
     * middle of a `put`); answers how many.
     */
    readonly removeStalePartials?: ((olderThan: Date) => Effect.Effect<number, BlobStoreError>) | undefined
  }
>()("@qforms/core/BlobStore") {}

const KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/

/** Whether a key is one a store accepts. @example `isValidKey("12/file_abc") // true` */
export const isValidKey = (key: string): boolean => key.length <= 300 && KEY.test(key)

const checkKey = (key: string) =>
  isValidKey(key)
    ? Effect.void
    : Effect.fail(new BlobStoreError({ message: `invalid blob key ${JSON.stringify(key)}` }))

/**
 * Respondents' files are readable by the server's user only: directories the store creates are 0700 and its
 * files 0600, whatever the process's umask (other users of the machine read none of them; issue #52, item 6).
 */
const ownerOnlyDirectory = 0o700
const ownerOnlyFile = 0o600

/** Where partial writes go, inside the store's directory (same file system, so the final rename is atomic). */
const PARTIAL_DIR = ".partial"

/**
 * A store in a local directory: each object a file `<directory>/<key>`,
 * written to `<directory>/.partial/` first, flushed to disk (`fsync`), renamed
 * into place when complete, and its directory flushed: once `put` succeeds the
 * object survives a crash or power loss.
 * The directory is created when missing.
 *
 * @example
 * ```ts
 * const Store = BlobStore.layerLocal({ directory: "./.qforms-data/files" })
 * ```
 */
export const layerLocal = (options: { readonly directory: string }): Layer.Layer<BlobStore> =>
  Layer.effect(BlobStore)(Effect.map(FileSystem.FileSystem, (fs) => makeLocal(fs, options.directory))).pipe(
    Layer.provide(NodeFileSystem.layer)
  )

/**
 * A local store in a fresh temporary directory, removed with the layer: for an
 * in-memory database (tests, demos), whose files should not outlive it.
 */
export const layerTemporary: Layer.Layer<BlobStore, BlobStoreError> = Layer.effect(BlobStore)(
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const directory = yield* fs
      .makeTempDirectoryScoped({ prefix: "qforms-files-" })
      .pipe(
        Effect.mapError(
          (cause) => new BlobStoreError({ message: `could not create a temporary directory: ${cause.message}`, cause })
        )
      )
    return makeLocal(fs, directory)
  })
).pipe(Layer.provide(NodeFileSystem.layer))

const makeLocal = (fs: FileSystem.FileSystem, root: string): BlobStore["Service"] => {
  const directory = NodePath.resolve(root)
  const pathOf = (key: string) => NodePath.join(directory, ...key.split("/"))
  const failed = (action: string, key: string) => (cause: { readonly message: string }) =>
    new BlobStoreError({ message: `could not ${action} ${key} in ${directory}: ${cause.message}`, cause })

  /** fsync of a file or a directory (opened read-only, which Linux and macOS allow for both). */
  const syncPath = (path: string) => Effect.scoped(Effect.flatMap(fs.open(path, { flag: "r" }), (file) => file.sync))

  const put = <E>(key: string, content: Stream.Stream<Uint8Array, E>) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      const target = pathOf(key)
      const suffix = yield* Effect.sync(() => randomBytes(6).toString("hex"))
      const partial = NodePath.join(directory, PARTIAL_DIR, `${key.replaceAll("/", "_")}.${suffix}`)
      yield* Effect.all([
        fs.makeDirectory(NodePath.dirname(partial), { recursive: true, mode: ownerOnlyDirectory }),
        fs.makeDirectory(NodePath.dirname(target), { recursive: true, mode: ownerOnlyDirectory })
      ]).pipe(Effect.mapError(failed("create the directory for", key)))
      let size = 0
      const counted = Stream.map(content, (chunk) => {
        size += chunk.length
        return chunk
      })
      // Exclusive create: a partial name is never reused.
      yield* Stream.run(
        counted,
        Sink.mapError(fs.sink(partial, { flag: "wx", mode: ownerOnlyFile }), failed("write", key))
      ).pipe(
        Effect.onExit((exit) =>
          exit._tag === "Success" ? Effect.void : Effect.ignore(fs.remove(partial, { force: true }))
        )
      )
      // Durable before the caller commits the row that points at it: the
      // bytes reach the disk before the rename, the new name after it.
      yield* syncPath(partial).pipe(
        Effect.mapError(failed("flush", key)),
        Effect.onError(() => Effect.ignore(fs.remove(partial, { force: true })))
      )
      yield* fs.rename(partial, target).pipe(
        Effect.mapError(failed("move into place", key)),
        Effect.onError(() => Effect.ignore(fs.remove(partial, { force: true })))
      )
      yield* syncPath(NodePath.dirname(target)).pipe(Effect.mapError(failed("flush the directory of", key)))
      return { size }
    })

  const get = (key: string) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      const path = pathOf(key)
      const exists = yield* fs.exists(path).pipe(Effect.mapError(failed("read", key)))
      if (!exists) return yield* new BlobNotFound({ message: `no blob ${key}` })
      return Stream.mapError(fs.stream(path), failed("read", key))
    })

  const remove = (key: string) =>
    Effect.andThen(checkKey(key), fs.remove(pathOf(key), { force: true }).pipe(Effect.mapError(failed("delete", key))))

  const writtenBefore = (path: string, olderThan: Date) =>
    fs.stat(path).pipe(
      Effect.map((info) => info.type === "File" && info.mtime._tag === "Some" && info.mtime.value < olderThan),
      // Gone since it was listed (deleted or renamed into place meanwhile).
      Effect.catch(() => Effect.succeed(false))
    )

  const listKeys = (olderThan: Date) =>
    Effect.gen(function* () {
      const exists = yield* fs.exists(directory).pipe(Effect.mapError(failed("list", "the store")))
      if (!exists) return []
      const paths = yield* fs
        .readDirectory(directory, { recursive: true })
        .pipe(Effect.mapError(failed("list", "the store")))
      const keys = paths
        .map((path) => path.split(NodePath.sep).join("/"))
        .filter((key) => !key.startsWith(`${PARTIAL_DIR}/`) && isValidKey(key))
      return yield* Effect.filter(keys, (key) => writtenBefore(pathOf(key), olderThan), { concurrency: 8 })
    })

  const removeStalePartials = (olderThan: Date) =>
    Effect.gen(function* () {
      const partialDir = NodePath.join(directory, PARTIAL_DIR)
      const exists = yield* fs.exists(partialDir).pipe(Effect.mapError(failed("list", PARTIAL_DIR)))
      if (!exists) return 0
      const names = yield* fs.readDirectory(partialDir).pipe(Effect.mapError(failed("list", PARTIAL_DIR)))
      const stale = yield* Effect.filter(names, (name) => writtenBefore(NodePath.join(partialDir, name), olderThan), {
        concurrency: 8
      })
      yield* Effect.forEach(
        stale,
        (name) =>
          fs.remove(NodePath.join(partialDir, name), { force: true }).pipe(Effect.mapError(failed("delete", name))),
        {
          discard: true,
          concurrency: 8
        }
      )
      return stale.length
    })

  return BlobStore.of({ put, get, delete: remove, listKeys, removeStalePartials })
}
