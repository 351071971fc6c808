/**
 * The API group `Files`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { NotFound } from "../../web/index.ts"

/** Uploaded files (the answers to `file` questions). */
export class FilesGroup extends HttpApiGroup.make("files").add(
  HttpApiEndpoint.get("download", "/files/:fileId", {
    params: {
      fileId: Schema.String.check(Schema.isMaxLength(100)).annotate({
        description: "A file id (`file_…`) from an answer to a file question."
      })
    },
    // Any media type: images and PDF keep their stored type, anything else is sent as application/octet-stream.
    success: HttpApiSchema.StreamUint8Array({ contentType: "*/*" }).annotate({
      description:
        "The file's bytes as `Content-Disposition: attachment`: `Content-Type` is the stored type for images and PDF, " +
        "`application/octet-stream` for anything else (a declared script, page or SVG never runs under this origin)."
    }),
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: downloads an uploaded file of this workspace (as an attachment, with `X-Content-Type-Options: nosniff` " +
      "and `Content-Security-Policy: default-src 'none'; sandbox`)."
  )
) {}
