/**
 * Uploaded files: the answers to `file` questions. A respondent uploads a file
 * to one question of a published form (`upload`), which checks the question's
 * size limit and `accept` list on the bytes themselves while streaming them to
 * the `BlobStore`; the upload answers a `FileAnswer`, and a submission carrying
 * it attaches the file to its response (see `Responses.submit`). Files never
 * attached are swept after {@link unattachedLifetimeMs}; deleting a response or
 * a form deletes its files' blobs once the deletion has committed.
 *
 * @module
 */
import * as FileSweep from "./FileSweep.ts"
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { type Actors, Conflict, FormNotFound, InvalidInput } from "../kernel/index.ts"
import { type BlobNotFound, BlobStore, BlobStoreError } from "./BlobStore.ts"
import {
  uploadLimitsOf,
  cleanFileName,
  extensionOf,
  FileTooLarge,
  formatMb,
  inspect,
  matchesAccept,
  normalizeType,
  SNIFF_BYTES,
  SNIFFED_EXTENSIONS,
  sniff,
  UnsupportedFileType
} from "./FileContent.ts"
import { overQuota, type StorageQuotaExceeded, UploadQuotas, type Usage } from "./UploadQuotas.ts"
import {
  type AnswerIssue,
  type AnyFieldOptions,
  type Field,
  type FileAnswer,
  type FormStatus,
  QuestionTypes,
  takesUploads
} from "../forms/index.ts"

export { BlobNotFound, BlobStoreError } from "./BlobStore.ts"
export { orphanGraceMs, unattachedLifetimeMs } from "./FileSweep.ts"
export {
  cleanFileName,
  FileTooLarge,
  inspect,
  matchesAccept,
  sniff,
  UnsupportedFileType,
  uploadLimitsOf
} from "./FileContent.ts"
export {
  defaultUploadQuotas,
  StorageQuotaExceeded,
  UploadQuotas,
  type UploadQuotasConfig
} from "./UploadQuotas.ts"

/** No such file in the actor's workspace. Answered as 404. */
export class FileNotFound extends Schema.TaggedError<FileNotFound>()("FileNotFound", {
  message: Schema.String
}) {}

/** A stored file: the answer fields plus where it belongs. */
export interface StoredFile extends FileAnswer {
  readonly workspaceId: number
  readonly formId: number
  readonly fieldId: number
  readonly responseId: number | null
  readonly createdAt: Date
}

/** The question an upload goes to, with its limits. */
export interface UploadTarget {
  readonly workspaceId: number
  readonly formId: number
  readonly field: Field
  /** The largest file accepted, in MB (as the question says it). */
  readonly maxSizeMb: number
  /** The largest file accepted, in bytes. */
  readonly maxBytes: number
  /** The question's `accept` entries (empty: any type). */
  readonly accept: ReadonlyArray<string>
}

/** What {@link Files} `upload` takes: one file part of a multipart request (or any byte stream). */
export interface UploadInput<E> {
  /** The form's public id (`/f/{publicId}`). */
  readonly publicId: string
  /** The `file` question the file answers. */
  readonly fieldId: number
  /** The file name the client gave (path parts are dropped). */
  readonly filename: string
  /** The content type the client declared (used only when the bytes do not tell). */
  readonly contentType: string
  /** The bytes, read once, as they arrive. */
  readonly content: Stream.Stream<Uint8Array, E>
}

/** Every way an upload can be refused (besides the content stream's own errors). */
export type UploadError =
  | FormNotFound
  | Conflict
  | InvalidInput
  | FileTooLarge
  | UnsupportedFileType
  | StorageQuotaExceeded
  | BlobStoreError
  | SqlError.SqlError

export { fileLink } from "../forms/index.ts"

/** A new file id: `file_` and 22 URL-safe characters (128 random bits). */
export const makeFileId = (): string => `file_${randomBytes(16).toString("base64url")}`

/** Whether a string has the shape of a file id (checked before any lookup). */
export const isFileId = (value: string): boolean => /^file_[A-Za-z0-9_-]{22}$/.test(value)

// ---------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------

interface FileRow {
  readonly id: string
  readonly workspace_id: number
  readonly form_id: number
  readonly field_id: number
  readonly response_id: number | null
  readonly name: string
  readonly size: number
  readonly type: string
  readonly storage_key: string
  readonly created_at: Date
}

const toStored = (row: FileRow): StoredFile => ({
  fileId: row.id,
  name: row.name,
  size: row.size,
  type: row.type,
  workspaceId: row.workspace_id,
  formId: row.form_id,
  fieldId: row.field_id,
  responseId: row.response_id,
  createdAt: row.created_at
})

const fileColumns = `id, workspace_id, form_id, field_id, response_id, name, size, type, storage_key, created_at`

/** The outcome of checking a submission's file answers (see {@link Files} `resolveAnswers`). */
export interface ResolvedFiles {
  /** The submitted values with each valid file answer replaced by the stored record. */
  readonly values: unknown
  /** The files to attach to the new response. */
  readonly fileIds: ReadonlyArray<string>
  /** One issue per file answer that is not an upload of this question. */
  readonly issues: ReadonlyArray<AnswerIssue>
}

/** A file already put in the blob store under `key`, to be recorded as an attachment. */
export interface StoredAttachment {
  readonly id: string
  readonly key: string
  readonly name: string
  readonly size: number
  readonly type: string
}

/**
 * Uploaded files.
 *
 * @example
 * ```ts
 * import * as Effect from "effect/Effect"
 * import * as Stream from "effect/Stream"
 * import { Files } from "./Files.ts" // internal to core: hosts reach uploads through the routes
 *
 * // Store one uploaded part (e.g. from a no-JS form post) and get the answer to submit:
 * const answer = yield* (yield* Files.Files).upload({
 *   publicId: "k3J9…",
 *   fieldId: 12,
 *   filename: part.name,
 *   contentType: part.contentType,
 *   content: part.content
 * })
 * // → { fileId: "file_…", name: "cv.pdf", size: 48213, type: "application/pdf" }
 * ```
 */
export class Files extends Context.Service<
  Files,
  {
    /**
     * The `file` question an upload goes to, with its limits: a published
     * form's (`FormNotFound` for an unknown or draft form, `Conflict` for a closed
     * one, `InvalidInput` when `fieldId` is not a file question of the form).
     */
    readonly target: (
      publicId: string,
      fieldId: number
    ) => Effect.Effect<UploadTarget, FormNotFound | Conflict | InvalidInput | SqlError.SqlError>
    /**
     * Streams one file to the blob store and records it. Refuses, without
     * leaving anything behind, a file over the question's `maxSizeMb` (default
     * 10; `FileTooLarge`, as soon as the limit is passed), one whose content is
     * not of a type in `accept` (`UnsupportedFileType`), and an empty one.
     * `type` in the answer is the type recognised from the bytes when known.
     */
    readonly upload: <E>(input: UploadInput<E>) => Effect.Effect<FileAnswer, UploadError | E>
    /** A file's record, in the actor's workspace. */
    readonly get: (actor: Actors.Actor, fileId: string) => Effect.Effect<StoredFile, FileNotFound | SqlError.SqlError>
    /** A file's record and its bytes, in the actor's workspace (the stream is opened before this succeeds). */
    readonly download: (
      actor: Actors.Actor,
      fileId: string
    ) => Effect.Effect<
      { readonly file: StoredFile; readonly content: Stream.Stream<Uint8Array, BlobStoreError> },
      FileNotFound | BlobStoreError | SqlError.SqlError
    >
    /**
     * For a submission, inside its transaction: checks each answer to a `file`
     * question names a file uploaded to that question of this form and not yet
     * attached (locking those rows), and replaces it by the stored record.
     */
    readonly resolveAnswers: (
      workspaceId: number,
      formId: number,
      fields: ReadonlyArray<Field>,
      values: unknown
    ) => Effect.Effect<ResolvedFiles, SqlError.SqlError>
    /** Attaches resolved files to a response, inside the submission's transaction. */
    readonly attach: (
      workspaceId: number,
      responseId: number,
      fileIds: ReadonlyArray<string>,
      at: Date
    ) => Effect.Effect<void, SqlError.SqlError>
    /**
     * Records files already stored in the blob store as attachments of a
     * response (an inbound e-mail reply's): attached at once, with no question
     * (`field_id` 0). Runs inside the caller's transaction, after
     * {@link claimQuota} for their bytes.
     */
    readonly recordAttachments: (
      workspaceId: number,
      formId: number,
      responseId: number,
      files: ReadonlyArray<StoredAttachment>,
      at: Date
    ) => Effect.Effect<void, SqlError.SqlError>
    /** Deletes the records of a response's files (inside the deleting transaction); answers their blob keys. */
    readonly forgetResponse: (
      workspaceId: number,
      responseId: number
    ) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
    /**
     * Deletes the records of these files of the workspace (inside the deleting transaction, e.g. an erasure's);
     * answers their ids and blob keys.
     */
    readonly forgetFiles: (
      workspaceId: number,
      fileIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<{ readonly id: string; readonly storage_key: string }>, SqlError.SqlError>
    /**
     * Deletes the records of the files uploaded as answers of these responses
     * and of `alsoFileIds` (their e-mail replies' attachments), inside the
     * deleting transaction; answers their ids and blob keys.
     */
    readonly forgetResponsesFiles: (
      workspaceId: number,
      responseIds: ReadonlyArray<number>,
      alsoFileIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<{ readonly id: string; readonly storage_key: string }>, SqlError.SqlError>
    /** Deletes the records of a form's files (inside the deleting transaction); answers their blob keys. */
    readonly forgetForm: (
      workspaceId: number,
      formId: number
    ) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
    /** Deletes blobs whose records are gone (after the transaction committed); a failure is logged, never raised. */
    readonly deleteBlobs: (keys: ReadonlyArray<string>) => Effect.Effect<void>
    /**
     * Inside a transaction that is about to record `bytes` of new files of a
     * form (or, with `formId` null, of the workspace's image library): takes
     * the workspace's quota lock (held until the transaction ends) and fails
     * with `StorageQuotaExceeded` when the form's or the workspace's files
     * would then take more than {@link UploadQuotas} allows.
     */
    readonly claimQuota: (
      workspaceId: number,
      formId: number | null,
      bytes: number
    ) => Effect.Effect<void, StorageQuotaExceeded | SqlError.SqlError>
    /** Deletes an upload that was never attached (e.g. the request that carried it failed afterwards). */
    readonly discard: (workspaceId: number, fileId: string) => Effect.Effect<void, SqlError.SqlError>
    /**
     * Deletes uploads not attached to any response within
     * {@link unattachedLifetimeMs} (every workspace: a maintenance sweep), and,
     * where the blob store can list them, objects with no file record and
     * unfinished writes older than {@link orphanGraceMs} (left by a crash);
     * answers how many were deleted.
     */
    readonly sweep: Effect.Effect<number, SqlError.SqlError>
  }
>()("@qforms/core/Files") {
  static readonly layer = Layer.effect(
    Files,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const blobs = yield* BlobStore

      const deleteBlobs = (keys: ReadonlyArray<string>) =>
        Effect.forEach(
          keys,
          (key) =>
            blobs
              .delete(key)
              .pipe(
                Effect.catch((error) =>
                  Effect.logWarning("qforms: could not delete an uploaded file's blob", error).pipe(
                    Effect.annotateLogs({ key })
                  )
                )
              ),
          { discard: true, concurrency: 4 }
        )

      const target = Effect.fn("Files.target")(function* (publicId: string, fieldId: number) {
        const rows = yield* sql<{
          readonly form_id: number
          readonly workspace_id: number
          readonly status: FormStatus
          readonly field_id: number | null
          readonly type: string | null
          readonly label: string | null
          readonly required: boolean | null
          readonly position: number | null
          readonly options: AnyFieldOptions | null
        }>`
          select f.id as form_id, f.workspace_id, f.status, q.id as field_id, q.type, q.label, q.required,
            q.position, q.options
          from forms f left join fields q on q.form_id = f.id and q.workspace_id = f.workspace_id and q.id = ${fieldId}
          where f.public_id = ${publicId}`
        const row = rows[0]
        if (row === undefined || row.status === "draft") {
          return yield* new FormNotFound({ message: `form ${publicId} not found` })
        }
        if (row.status !== "published") {
          return yield* new Conflict({ message: "this form is no longer accepting responses" })
        }
        const type = row.type !== null && QuestionTypes.isTypeName(row.type) ? row.type : undefined
        // A question its type says takes an upload (a file, a signature's drawing), with that type's limits.
        const limits = type === undefined ? undefined : uploadLimitsOf({ type, options: row.options })
        if (row.field_id === null || type === undefined || limits === undefined) {
          return yield* new InvalidInput({
            message: `fieldId: ${fieldId} is not a file or signature question of this form`,
            details: [{ path: "fieldId", message: `${fieldId} is not a file or signature question of this form` }]
          })
        }
        const field: Field = {
          id: row.field_id,
          type,
          label: row.label ?? "",
          required: row.required ?? false,
          position: row.position ?? 0,
          options: row.options
        }
        return {
          workspaceId: row.workspace_id,
          formId: row.form_id,
          field,
          maxSizeMb: limits.maxSizeMb,
          maxBytes: Math.floor(limits.maxSizeMb * 1024 * 1024),
          accept: limits.accept
        }
      })

      // A workspace's images (Images.ts) count towards its quota, not any form's.
      const usage = (workspaceId: number, formId: number | null) =>
        Effect.map(
          // int8 sums: a bigint on PostgreSQL, a number on PGlite (DriverTypes.test.ts); Number() reads both.
          sql<{ readonly form: number | bigint; readonly workspace: number | bigint }>`
            select coalesce(sum(size) filter (where form_id = ${formId ?? 0}), 0) as form,
              coalesce(sum(size), 0)
                + (select coalesce(sum(size), 0) from images where workspace_id = ${workspaceId}) as workspace
            from files where workspace_id = ${workspaceId}`,
          (rows): Usage => ({ form: Number(rows[0]?.form ?? 0), workspace: Number(rows[0]?.workspace ?? 0) })
        )

      // The quota check holds under concurrency through a row lock: every
      // transaction that records files first locks its workspace's row
      // (`for no key update`: it queues such transactions one behind the
      // other, yet does not block the `for key share` locks that inserts
      // referencing the workspace take), then sums what is recorded — under
      // read committed that statement sees every file committed before the
      // lock was granted — and inserts in the same transaction. Two uploads
      // racing for the last bytes are therefore checked one after the other.
      // A counter table would save the sum but must follow every deletion
      // path (responses, forms, sweeps, cascades); the sum over the index
      // of migration 0018 cannot drift.
      const claimQuota = Effect.fn("Files.claimQuota")(function* (
        workspaceId: number,
        formId: number | null,
        bytes: number
      ) {
        const quotas = yield* UploadQuotas
        yield* sql`select id from workspaces where id = ${workspaceId} for no key update`
        const over = overQuota(quotas, yield* usage(workspaceId, formId), bytes)
        if (over !== undefined) return yield* over
      })

      const upload = <E>(input: UploadInput<E>): Effect.Effect<FileAnswer, UploadError | E> =>
        Effect.gen(function* () {
          const to = yield* target(input.publicId, input.fieldId)
          // Refused at once when the quota is already used up, and while streaming as soon as
          // the file passes the room left; the check that counts is claimQuota's, at the insert.
          const quotas = yield* UploadQuotas
          const used = yield* usage(to.workspaceId, to.formId)
          const full = overQuota(quotas, used, 1)
          if (full !== undefined) return yield* full
          const q = JSON.stringify(to.field.label)
          const { maxSizeMb } = to
          const name = cleanFileName(input.filename)
          const declared = normalizeType(input.contentType)
          const fileId = yield* Effect.sync(makeFileId)
          const key = `${to.workspaceId}/${fileId}`

          // What the bytes are is decided from their first SNIFF_BYTES (or
          // fewer, at the end); the size is checked on every chunk, so an
          // oversized upload stops as soon as it passes the limit.
          const inspected = inspect(input.content, {
            maxBytes: to.maxBytes,
            tooLarge: () => new FileTooLarge({ message: `${q} takes files of at most ${formatMb(maxSizeMb)} MB` }),
            over: (size) => overQuota(quotas, used, size),
            keep: SNIFF_BYTES,
            judge: (head) => {
              const sniffed = sniff(head)
              return to.accept.length > 0 && !matchesAccept(to.accept, { sniffed, declared, name })
                ? new UnsupportedFileType({
                    message: `${q} accepts ${to.accept.join(", ")}; ${
                      sniffed === undefined
                        ? "this file's content is none of these"
                        : `this file's content is ${sniffed}`
                    }`
                  })
                : undefined
            },
            empty: () => new InvalidInput({ message: `${q}: the file is empty` })
          })
          yield* blobs.put(key, inspected.stream)
          const size = inspected.size()
          const type =
            sniff(inspected.head()) ?? declared ?? SNIFFED_EXTENSIONS[extensionOf(name)] ?? "application/octet-stream"
          const now = new Date(yield* Clock.currentTimeMillis)
          yield* sql
            .withTransaction(
              Effect.andThen(
                claimQuota(to.workspaceId, to.formId, size),
                sql`
              insert into files (id, workspace_id, form_id, field_id, name, size, type, storage_key, created_at)
              select ${fileId}, ${to.workspaceId}, ${to.formId}, ${to.field.id}, ${name}, ${size}, ${type}, ${key}, ${now}
              where exists (select 1 from forms where id = ${to.formId} and workspace_id = ${to.workspaceId})
              returning id`
              )
            )
            .pipe(
              Effect.onError(() => deleteBlobs([key])),
              // The form was deleted while the file streamed in.
              Effect.flatMap((rows) =>
                rows.length === 1
                  ? Effect.void
                  : Effect.andThen(
                      deleteBlobs([key]),
                      Effect.fail(new FormNotFound({ message: `form ${input.publicId} not found` }))
                    )
              )
            )
          return { fileId, name, size, type }
        }).pipe(Effect.withSpan("Files.upload"))

      const findRow = (workspaceId: number, fileId: string) =>
        isFileId(fileId)
          ? Effect.map(
              sql<FileRow>`select ${sql.literal(fileColumns)} from files where workspace_id = ${workspaceId} and id = ${fileId}`,
              (rows) => rows[0]
            )
          : Effect.succeed(undefined)

      const get = Effect.fn("Files.get")(function* (actor: Actors.Actor, fileId: string) {
        const row = yield* findRow(actor.workspaceId, fileId)
        if (row === undefined) return yield* new FileNotFound({ message: `file ${fileId} not found` })
        return toStored(row)
      })

      const download = Effect.fn("Files.download")(function* (actor: Actors.Actor, fileId: string) {
        const row = yield* findRow(actor.workspaceId, fileId)
        if (row === undefined) return yield* new FileNotFound({ message: `file ${fileId} not found` })
        const content = yield* blobs
          .get(row.storage_key)
          .pipe(
            Effect.catchTag("BlobNotFound", (missing: BlobNotFound) =>
              Effect.fail(
                new BlobStoreError({ message: `the bytes of file ${fileId} are missing: ${missing.message}` })
              )
            )
          )
        return { file: toStored(row), content }
      })

      const resolveAnswers = Effect.fn("Files.resolveAnswers")(function* (
        workspaceId: number,
        formId: number,
        fields: ReadonlyArray<Field>,
        values: unknown
      ) {
        if (!Predicate.isObject(values)) return { values, fileIds: [], issues: [] }
        const wanted = fields.flatMap((field) => {
          const key = String(field.id)
          const value = takesUploads(field) && Object.hasOwn(values, key) ? values[key] : undefined
          return Predicate.isObject(value) && Predicate.isString(value.fileId) ? [{ field, fileId: value.fileId }] : []
        })
        if (wanted.length === 0) return { values, fileIds: [], issues: [] }
        const ids = wanted.map((w) => w.fileId).filter(isFileId)
        const rows =
          ids.length === 0
            ? []
            : yield* sql<FileRow>`
          select ${sql.literal(fileColumns)} from files
          where workspace_id = ${workspaceId} and ${sql.in("id", ids)}
          for update`
        const byId = new Map(rows.map((row) => [row.id, row]))
        const resolved: Record<string, unknown> = { ...values }
        const issues: Array<AnswerIssue> = []
        const fileIds: Array<string> = []
        for (const { field, fileId } of wanted) {
          const row = byId.get(fileId)
          const q = JSON.stringify(field.label)
          const issue = (message: string) =>
            issues.push({ path: `values.${field.id}`, fieldId: field.id, message: `${q}: ${message}` })
          if (row === undefined || row.form_id !== formId || row.field_id !== field.id) {
            issue(`file ${JSON.stringify(fileId)} was not uploaded to this question`)
          } else if (row.response_id !== null || fileIds.includes(fileId)) {
            issue(`file ${JSON.stringify(fileId)} is already attached to another response`)
          } else {
            fileIds.push(fileId)
            resolved[String(field.id)] = { fileId: row.id, name: row.name, size: row.size, type: row.type }
          }
        }
        return { values: resolved, fileIds, issues }
      })

      const attach = Effect.fn("Files.attach")(function* (
        workspaceId: number,
        responseId: number,
        fileIds: ReadonlyArray<string>,
        at: Date
      ) {
        if (fileIds.length === 0) return
        yield* sql`
          update files set response_id = ${responseId}, attached_at = ${at}
          where workspace_id = ${workspaceId} and ${sql.in("id", fileIds)} and response_id is null`
      })

      const recordAttachments = Effect.fn("Files.recordAttachments")(function* (
        workspaceId: number,
        formId: number,
        responseId: number,
        stored: ReadonlyArray<StoredAttachment>,
        at: Date
      ) {
        for (const file of stored) {
          // field_id 0: an attachment of a reply, not the answer to a question.
          yield* sql`
            insert into files (id, workspace_id, form_id, field_id, response_id, name, size, type, storage_key,
              created_at, attached_at)
            values (${file.id}, ${workspaceId}, ${formId}, 0, ${responseId}, ${file.name}, ${file.size},
              ${file.type}, ${file.key}, ${at}, ${at})`
        }
      })

      const keysOf = (rows: ReadonlyArray<{ readonly storage_key: string }>) => rows.map((row) => row.storage_key)

      const forgetResponse = Effect.fn("Files.forgetResponse")(function* (workspaceId: number, responseId: number) {
        return keysOf(
          yield* sql<{ readonly storage_key: string }>`
          delete from files where workspace_id = ${workspaceId} and response_id = ${responseId} returning storage_key`
        )
      })

      const forgetFiles = Effect.fn("Files.forgetFiles")(function* (
        workspaceId: number,
        fileIds: ReadonlyArray<string>
      ) {
        if (fileIds.length === 0) return []
        return yield* sql<{ readonly id: string; readonly storage_key: string }>`
          delete from files where workspace_id = ${workspaceId} and id = any(${fileIds}::text[])
          returning id, storage_key`
      })

      const forgetResponsesFiles = Effect.fn("Files.forgetResponsesFiles")(function* (
        workspaceId: number,
        responseIds: ReadonlyArray<number>,
        alsoFileIds: ReadonlyArray<string>
      ) {
        const uploads = yield* sql<{ readonly id: string }>`
          select id from files where workspace_id = ${workspaceId} and response_id = any(${responseIds}::int[])`
        return yield* forgetFiles(workspaceId, [...new Set([...uploads.map((row) => row.id), ...alsoFileIds])])
      })

      const forgetForm = Effect.fn("Files.forgetForm")(function* (workspaceId: number, formId: number) {
        return keysOf(
          yield* sql<{ readonly storage_key: string }>`
          delete from files where workspace_id = ${workspaceId} and form_id = ${formId} returning storage_key`
        )
      })

      const discard = Effect.fn("Files.discard")(function* (workspaceId: number, fileId: string) {
        const keys = keysOf(
          yield* sql<{ readonly storage_key: string }>`
          delete from files where workspace_id = ${workspaceId} and id = ${fileId} and response_id is null
          returning storage_key`
        )
        yield* deleteBlobs(keys)
      })

      const sweep = FileSweep.make(sql, blobs, deleteBlobs)

      return Files.of({
        target,
        upload,
        get,
        download,
        resolveAnswers,
        attach,
        recordAttachments,
        forgetResponse,
        forgetFiles,
        forgetResponsesFiles,
        forgetForm,
        deleteBlobs,
        claimQuota,
        discard,
        sweep
      })
    })
  )
}

/**
 * Sweeps unattached uploads now and every hour while the layer lives (see
 * {@link Files} `sweep`). `Qforms.make` runs it; include it when you build your
 * own server from the layers.
 */
export const layerSweeper: Layer.Layer<never, never, Files> = Layer.effectDiscard(
  Effect.gen(function* () {
    const files = yield* Files
    const once = files.sweep.pipe(
      Effect.tap((n) =>
        n > 0
          ? Effect.logInfo(`qforms: deleted ${n} uploaded files never attached to a response or left by a crash`)
          : Effect.void
      ),
      Effect.catchCause((cause) => Effect.logWarning("qforms: sweeping unattached uploads failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(once, Effect.sleep("1 hour"))))
  })
)
