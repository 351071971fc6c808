/**
 * What the routes that take a file as `multipart/form-data` share: the room
 * a body may take besides the file, the parser's limits, and how a body the
 * parser refused is answered. The public page's upload route
 * (`pages/Uploads.ts`) and the image library's (`POST /api/images`) read it.
 *
 * @module
 */
import type * as Multipart from "effect/http/Multipart"

/** Room for the multipart framing and small fields besides the file itself: 64 KiB. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

/**
 * The multipart parser's limits for a body carrying one file of at most
 * `maxFileBytes`: 16 parts, 16 KiB per text field, the whole body at most
 * the file and {@link MULTIPART_OVERHEAD_BYTES}.
 *
 * @example
 * ```ts
 * HttpApiSchema.asMultipartStream(uploadLimits(2 * 1024 * 1024))
 * ```
 */
export const uploadLimits = (maxFileBytes: number) =>
  ({
    maxParts: 16,
    maxFieldSize: 16 * 1024,
    maxTotalSize: maxFileBytes + MULTIPART_OVERHEAD_BYTES,
    fieldMimeTypes: []
  }) as const

/**
 * How an upload whose body the parser refused is answered: 413 with
 * `tooLarge` for a file or body over its limit, 413 for too many parts or a
 * field too large, 400 for a body that is not multipart or was cut short.
 *
 * @example
 * ```ts
 * multipartRefusal(error, "an image may be at most 2 MB") // { status: 413, error: "an image may be at most 2 MB" }
 * ```
 */
export const multipartRefusal = (
  error: Multipart.MultipartError,
  tooLarge: string
): { readonly status: 400 | 413; readonly error: string } => {
  switch (error.reason._tag) {
    case "FileTooLarge":
    case "BodyTooLarge":
      return { status: 413, error: tooLarge }
    case "TooManyParts":
    case "FieldTooLarge":
      return { status: 413, error: 'send one file part named "file" (and at most a few small fields)' }
    case "Parse":
      return { status: 400, error: "the body is not valid multipart/form-data" }
    case "InternalError":
      return { status: 400, error: "the upload could not be read (the connection was cut?)" }
  }
}
