/** Handlers of the images group: the workspace's image library. */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { type Image, Images, MAX_IMAGE_BYTES } from "../../files/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { BadRequest, handle, multipartRefusal, PayloadTooLarge } from "../../web/index.ts"

/** The upload route's path: the router's 1 MiB body limit skips it (the image's own limit applies). */
export const imageUploadPath = "/api/images"

/** The headers of an image from the library: its own type, never sniffed, loading and running nothing. */
const imageHeaders = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
  "cache-control": "private, max-age=3600"
}

export const ImagesHandlers = HttpApiBuilder.group(
  Api,
  "images",
  Effect.fnUntraced(function* (handlers) {
    const images = yield* Images
    return handlers
      .handle("list", () => Effect.flatMap(CurrentActor, (actor) => handle(images.list(actor))))
      .handle("upload", ({ payload }) =>
        Effect.gen(function* () {
          const actor = yield* CurrentActor
          let stored: Image | undefined
          let refusal: BadRequest | PayloadTooLarge | undefined
          const consume = Stream.runForEach(payload, (part) => {
            if (part._tag === "Field" || refusal !== undefined) return Effect.void
            if (part.key !== "file" || stored !== undefined) {
              refusal = new BadRequest({ error: 'send exactly one file part, named "file"' })
              return Effect.void
            }
            return Effect.map(images.upload(actor, { filename: part.name, content: part.content }), (image) => {
              stored = image
            })
          }).pipe(
            Effect.catchTag("MultipartError", (error) =>
              Effect.sync(() => {
                const refused = multipartRefusal(error, `an image may be at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB`)
                refusal =
                  refused.status === 413
                    ? new PayloadTooLarge({ error: refused.error })
                    : new BadRequest({ error: refused.error })
              })
            ),
            // Whatever fails after the image was stored takes the image with it.
            Effect.onError(() => (stored === undefined ? Effect.void : Effect.ignore(images.remove(actor, stored.id))))
          )
          yield* handle(consume.pipe(Effect.catchTag("BlobStoreError", (error) => Effect.die(error))))
          if (refusal !== undefined) {
            if (stored !== undefined) yield* Effect.ignore(images.remove(actor, stored.id))
            return yield* refusal
          }
          if (stored === undefined) return yield* new BadRequest({ error: 'no file: send one file part named "file"' })
          return stored
        })
      )
      .handle("download", ({ params }) =>
        Effect.gen(function* () {
          const actor = yield* CurrentActor
          const { content, image } = yield* handle(
            images.download(actor, params.imageId).pipe(Effect.catchTag("BlobStoreError", (error) => Effect.die(error)))
          )
          return HttpServerResponse.stream(content, {
            contentType: image.type,
            contentLength: image.size,
            headers: imageHeaders
          })
        })
      )
      .handle("remove", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(images.remove(actor, params.imageId)))
      )
  })
)
