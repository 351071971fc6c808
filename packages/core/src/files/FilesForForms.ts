/**
 * The files context's side of forms' port (`forms/FormFiles.ts`): the image
 * library's check and the uploads of a deleted form, from `Images` and
 * `Files`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { FormFiles } from "../forms/index.ts"
import { Files } from "./Files.ts"
import { Images } from "./Images.ts"

/**
 * Provides forms' `FormFiles` from this context's services.
 *
 * @example
 * ```ts
 * const formsWithFiles = Forms.layer.pipe(Layer.provide(FilesForForms.layer))
 * ```
 */
export const layer = Layer.effect(
  FormFiles,
  Effect.gen(function* () {
    const files = yield* Files
    const images = yield* Images
    return FormFiles.of({
      missingImages: images.missing,
      forgetForm: files.forgetForm,
      deleteBlobs: files.deleteBlobs
    })
  })
)
