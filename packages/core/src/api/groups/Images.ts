/**
 * The API group `Images`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as Multipart from "effect/http/Multipart"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Image, ImageList, MAX_IMAGE_BYTES } from "../../files/index.ts"
import { Conflict, Forbidden, NotFound, UnsupportedMediaType, uploadLimits } from "../../web/index.ts"
import { created } from "../Params.ts"

/** An image's id in a path. */
const ImageParams = {
  imageId: Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "An image id (`img_…`)." })
}

/** The workspace's image library: logos and images on choices (see `files/Images.ts`). */
export class ImagesGroup extends HttpApiGroup.make("images").add(
  HttpApiEndpoint.get("list", "/images", { success: ImageList }).annotate(
    OpenApi.Description,
    "Extension: the workspace's images (a theme's `logo`, a question's `options.images`), newest first."
  ),
  HttpApiEndpoint.post("upload", "/images", {
    payload: Schema.Struct({
      file: Multipart.SingleFileSchema.annotate({ description: "The image (one part named `file`)." })
    }).pipe(HttpApiSchema.asMultipartStream(uploadLimits(MAX_IMAGE_BYTES))),
    success: Image.pipe(created),
    error: [Forbidden, UnsupportedMediaType]
  }).annotate(
    OpenApi.Description,
    "Extension: adds an image to the library (owners, admins and members): a PNG, JPEG, GIF or WebP of at most " +
      "2 MB, recognised from its bytes (SVG is refused: it could run scripts). 413 over 2 MB or over the " +
      "workspace's storage quota, 415 for any other content."
  ),
  HttpApiEndpoint.get("download", "/images/:imageId", {
    params: ImageParams,
    success: HttpApiSchema.StreamUint8Array({ contentType: "image/*" }).annotate({
      description: "The image's bytes, with its type (`X-Content-Type-Options: nosniff`)."
    }),
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: one image of the library."),
  HttpApiEndpoint.delete("remove", "/images/:imageId", {
    params: ImageParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: deletes an image (owners, admins and members); 409 naming the forms (or the workspace's page " +
      "theme) that still show it."
  )
) {}
