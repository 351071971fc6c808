/**
 * The storage quotas of uploaded files: what a form's files and a
 * workspace's files may take in all, and the refusal when a file would not
 * fit (the check itself runs in `Files`, under the workspace's lock).
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as Options from "../Options.ts"
import { formatBytes } from "./FileContent.ts"

/**
 * The storage quotas of uploaded files, in bytes: what a form's files, and a
 * workspace's files, may take in all (`Qforms.make({ uploads })`; defaults
 * 1 GiB per form, 10 GiB per workspace). Every stored file counts, from the
 * moment its record is written: answers attached to responses, uploads not
 * yet attached (until they are submitted or swept after
 * {@link unattachedLifetimeMs}), and inbound e-mail attachments. Blobs without
 * a record (an upload still streaming, an object a crash left behind, an
 * unfinished write) do not count; the sweep deletes the leftovers.
 */
export interface UploadQuotasConfig {
  /** The most bytes of files one form may hold (default 1 GiB). */
  readonly maxBytesPerForm: number
  /** The most bytes of files one workspace may hold, all forms together (default 10 GiB). */
  readonly maxBytesPerWorkspace: number
}

/** The default quotas: 1 GiB per form, 10 GiB per workspace. */
export const defaultUploadQuotas: UploadQuotasConfig = Options.defaultUploadQuotas

/** The storage quotas in force (see {@link UploadQuotasConfig}); `Qforms.make` sets them from its `uploads` option. */
export const UploadQuotas = Context.Reference<UploadQuotasConfig>("@qforms/core/Files/UploadQuotas", {
  defaultValue: () => defaultUploadQuotas
})

/** Storing the file would take its form or workspace over its storage quota. Answered as 413. */
export class StorageQuotaExceeded extends Schema.TaggedError<StorageQuotaExceeded>()("StorageQuotaExceeded", {
  message: Schema.String
}) {}

/** What a form and its workspace hold, in bytes. */
export interface Usage {
  readonly form: number
  readonly workspace: number
}

/** Why `bytes` more do not fit, or `undefined` when they do. */
export const overQuota = (quotas: UploadQuotasConfig, used: Usage, bytes: number): StorageQuotaExceeded | undefined =>
  used.form + bytes > quotas.maxBytesPerForm
    ? new StorageQuotaExceeded({
        message: `this form's storage quota is used up: its files may take ${formatBytes(
          quotas.maxBytesPerForm
        )} in all (per-form quota), and this file does not fit`
      })
    : used.workspace + bytes > quotas.maxBytesPerWorkspace
      ? new StorageQuotaExceeded({
          message: `this workspace's storage quota is used up: its files may take ${formatBytes(
            quotas.maxBytesPerWorkspace
          )} in all (per-workspace quota), and this file does not fit`
        })
      : undefined
