/**
 * What forms ask of the files context, which comes after them in the context
 * order (`files/` knows forms: an upload answers a question): whether the
 * images a form would show are in the workspace's library, and the uploads
 * of a form being deleted. `files/` provides it (`FormFilesLive` in
 * `files/index.ts`), from its `Files` and `Images` services.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as SqlError from "effect/sql/SqlError"

/**
 * The files port of forms.
 *
 * @example
 * ```ts
 * const files = yield* FormFiles
 * const missing = yield* files.missingImages(workspaceId, ["img_Vv2x0Zr8cQ1b5m3Jq7nT0w"])
 * ```
 */
export class FormFiles extends Context.Service<
  FormFiles,
  {
    /**
     * The ids among `imageIds` that are not in the workspace's image library (inside the caller's
     * transaction, the others share-locked until it ends).
     */
    readonly missingImages: (
      workspaceId: number,
      imageIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
    /** Deletes the records of a form's uploads (inside the form's deletion) and answers their blobs' keys. */
    readonly forgetForm: (
      workspaceId: number,
      formId: number
    ) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
    /** Deletes blobs whose records are gone (after the transaction committed); a failure is logged, never raised. */
    readonly deleteBlobs: (keys: ReadonlyArray<string>) => Effect.Effect<void>
  }
>()("@qforms/core/FormFiles") {}
