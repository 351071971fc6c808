/**
 * The API group `Public`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import { routerErrors } from "../Params.ts"
import * as Schema from "effect/Schema"
import * as Multipart from "effect/http/Multipart"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { FileAnswer } from "../../forms/index.ts"
import { PublicSubmitInput, PublicSubmitted } from "../../cases/index.ts"
import { Id } from "../../kernel/index.ts"
import { Conflict, Forbidden, NotFound, TooManyRequests, UnsupportedMediaType } from "../../web/index.ts"
import { created, documentsIdempotencyKey } from "../Params.ts"

/** A form's public id: the part of its public URL `/f/{publicId}`. */
const PublicIdParams = {
  publicId: Schema.String.check(Schema.isMaxLength(100)).annotate({
    description: "The form's `publicId` (the part of its public URL `/f/{publicId}`)."
  })
}

/**
 * The public page's JSON routes: no API key (a respondent's browser or any
 * site embedding the form), limited per client address. Served by
 * `pages/PublicPage.ts` and `pages/Uploads.ts`.
 */
export class PublicGroup extends HttpApiGroup.make("public").add(
  HttpApiEndpoint.post("submit", "/f/:publicId/responses", {
    params: PublicIdParams,
    payload: PublicSubmitInput,
    success: PublicSubmitted.pipe(created),
    error: [...routerErrors, Forbidden, NotFound, Conflict, UnsupportedMediaType, TooManyRequests]
  })
    .annotate(
      OpenApi.Description,
      "Submits a response to a published form as its respondent (source `form`), without an API key. " +
        "403 for a form with an access code when `accessCode` is missing or wrong, " +
        "404 for an unknown or draft form, 409 for a closed or full one (and, with `oneResponsePerDevice`, from a " +
        "device whose cookie shows it has sent its response), 429 (with `Retry-After`) when this address sends too many " +
        "(or too many wrong access codes). With an `Idempotency-Key` header, a submission sent again with the same " +
        "key answers the response the first one stored (`id`) instead of storing another; another body is 409."
    )
    .annotate(OpenApi.Transform, documentsIdempotencyKey),
  HttpApiEndpoint.post("upload", "/f/:publicId/uploads", {
    params: PublicIdParams,
    query: {
      fieldId: Id.annotate({
        description: "The id of the `file` question (or `signature`, for its drawing) the file answers."
      }),
      lang: Schema.optionalKey(
        Schema.String.check(Schema.isMaxLength(35)).annotate({
          description:
            "Extension: the language (BCP 47) the respondent reads, for the refusals they may meet (413, 415, 429): " +
            "their `error` is then said in it, as the public page says it (English when the language is unknown)."
        })
      )
    },
    payload: Schema.Struct({
      file: Multipart.SingleFileSchema.annotate({ description: "The file (one part named `file`)." })
    }).pipe(HttpApiSchema.asMultipart()),
    success: FileAnswer.pipe(created),
    error: [...routerErrors, NotFound, Conflict, UnsupportedMediaType, TooManyRequests]
  }).annotate(
    OpenApi.Description,
    "Uploads a respondent's file for a `file` question (or the PNG of a `signature` question's drawing, at most " +
      "1 MB), without an API key; the answer is the value to submit for that question. 413 over the question's " +
      "`maxSizeMb`, 415 for a type it does not accept, 429 (with " +
      "`Retry-After`) when this address uploads too many."
  )
) {}
