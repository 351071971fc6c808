/**
 * `POST /f/{publicId}/uploads?fieldId={fieldId}`: a respondent's file upload,
 * public (no API key), one `multipart/form-data` part named `file`, streamed to
 * the blob store as it arrives. The router-wide 1 MiB body limit does not apply
 * here; the question's own limit (`maxSizeMb`, default 10; a signature's
 * drawing, a PNG of at most 1 MB) does, up front from `Content-Length` and
 * again on the bytes as they stream.
 *
 * Answers 201 `{fileId, name, size, type}` — the value to submit as the answer
 * to that question — or `{error}` with 400 (no such file or signature question, no file
 * part, malformed multipart, empty file), 404 (unknown or draft form), 409
 * (closed form), 413 (too large, or a storage quota of the form or workspace
 * is used up), 415 (content not of an accepted type) or 429 (too many uploads
 * from this client address, with `Retry-After`: the bucket of
 * `UploadLimits.UploadLimiter`, shared with the no-JavaScript file steps of
 * the public page). With `&lang=` (the page's script sends its language) the
 * refusals a respondent may meet (413, 415, 429) are said in that language;
 * the others are protocol errors of a client, in English.
 */
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Multipart from "effect/http/Multipart"
import type { FileAnswer } from "../forms/index.ts"
import { Files, type UploadError, type UploadTarget } from "../files/index.ts"
import { canonicalOf, MessageCatalogues, type MessageKey, type MessageValues } from "../languages/index.ts"
import { domainResponse, MULTIPART_OVERHEAD_BYTES, multipartRefusal, RateLimit } from "../web/index.ts"
import { refusalMessage, UploadLimiter } from "./UploadLimits.ts"

export { defaultUploadRateLimit } from "./UploadLimits.ts"

/** The upload route's path pattern (the router-wide body limit skips it). */
export const uploadPath = "/f/:publicId/uploads"

/** Whether a request path is the upload route's. */
export const isUploadPath = (path: string): boolean => /^\/f\/[^/]+\/uploads\/?$/.test(path)

/**
 * The multipart parser's limits for a body carrying one file of at most
 * `maxFileBytes`: the whole body at most that plus 64 KiB of framing and small
 * fields, 16 parts, 16 KiB per text field. Wrap the effect that reads
 * `request.multipartStream` (the router-wide 1 MiB limit would apply otherwise).
 * A route posting files must also be exempt from the router's `Content-Length`
 * check (see `isUploadPath`).
 *
 * @example
 * ```ts
 * const parts = Stream.runForEach(request.multipartStream, onPart).pipe(Uploads.withMultipartLimits(target.maxBytes))
 * ```
 */
export const withMultipartLimits =
  (maxFileBytes: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    effect.pipe(
      Effect.provideService(Multipart.MaxParts, 16),
      Effect.provideService(Multipart.MaxFieldSize, ByteSize.bytes(16 * 1024)),
      Effect.provideService(Multipart.MaxFileSize, undefined),
      Effect.provideService(Multipart.FieldMimeTypes, []),
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxFileBytes + MULTIPART_OVERHEAD_BYTES))
    )

const json = (status: number, body: object, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(body, headers === undefined ? { status } : { status, headers })

/** Says a message of the public page in the respondent's language (English without one). */
type Say = (key: MessageKey, values?: MessageValues) => string

/** Too large, as the respondent reads it: in their language when they gave one, else the question's limit in English. */
const tooLargeMessage = (target: UploadTarget, say: Say | undefined) =>
  say === undefined
    ? `${JSON.stringify(target.field.label)} takes files of at most ${target.maxBytes / (1024 * 1024)} MB`
    : `${say("page.fileTooLarge")} ${say("question.fileHint", { size: target.maxBytes / (1024 * 1024) })}`

const refusedBody = (error: Multipart.MultipartError, target: UploadTarget, say: Say | undefined) => {
  const refused = multipartRefusal(error, tooLargeMessage(target, say))
  return json(refused.status, { error: refused.error }, refused.status === 413 ? { connection: "close" } : undefined)
}

/** Answered when the body is not one. */
class NoFilePart {
  readonly _tag = "NoFilePart"
}

/**
 * The upload route. Its rate limit is the {@link UploadLimiter} provided,
 * shared with the public page's multipart steps.
 *
 * @example
 * ```ts
 * const Routes = Layer.mergeAll(PublicPage.layer(), Uploads.layer()).pipe(Layer.provide(UploadLimiter.layer()))
 * ```
 */
export const layer = () =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const files = yield* Files
      const limiter = yield* UploadLimiter
      const messages = yield* MessageCatalogues
      yield* router.add(
        "POST",
        uploadPath,
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const params = yield* HttpRouter.params
          const publicId = params.publicId ?? ""
          const query = new URLSearchParams(request.url.split("?")[1] ?? "")
          const language = canonicalOf((query.get("lang") ?? "").slice(0, 35))
          const say: Say | undefined =
            language === undefined ? undefined : (key, values) => messages.say(language, key, values)
          const decision = yield* limiter.take(request)
          if (!decision.allowed) {
            return json(
              429,
              {
                error:
                  say === undefined
                    ? refusalMessage(decision)
                    : say("page.uploadsLimited", { seconds: decision.retryAfterSeconds })
              },
              {
                ...RateLimit.headers(limiter.config, decision),
                connection: "close"
              }
            )
          }
          const fieldIdText = query.get("fieldId") ?? ""
          if (!/^[1-9][0-9]{0,9}$/.test(fieldIdText) || Number(fieldIdText) > 2_147_483_647) {
            return json(400, { error: "fieldId: give the id of the file or signature question (?fieldId=12)" })
          }
          const fieldId = Number(fieldIdText)
          const located = yield* Effect.result(files.target(publicId, fieldId))
          if (Result.isFailure(located)) {
            const error = located.failure
            if (error._tag === "SqlError") return yield* Effect.die(error)
            return domainResponse(error, { connection: "close" })
          }
          const target = located.success
          const length = Number(request.headers["content-length"] ?? "0")
          if (Number.isFinite(length) && length > target.maxBytes + MULTIPART_OVERHEAD_BYTES) {
            return json(413, { error: tooLargeMessage(target, say) }, { connection: "close" })
          }
          if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data")) {
            return json(400, { error: 'send multipart/form-data with one file part named "file"' })
          }

          let stored: FileAnswer | undefined
          const consume = Stream.runForEach(
            request.multipartStream,
            (part): Effect.Effect<void, NoFilePart | UploadError | Multipart.MultipartError> => {
              if (part._tag === "Field") return Effect.void
              if (part.key !== "file" || stored !== undefined) return Effect.fail(new NoFilePart())
              return Effect.map(
                files.upload({
                  publicId,
                  fieldId,
                  filename: part.name,
                  contentType: part.contentType,
                  content: part.content
                }),
                (answer) => {
                  stored = answer
                }
              )
            }
          ).pipe(
            withMultipartLimits(target.maxBytes),
            // Whatever fails after the file was stored takes the file with it.
            Effect.onError(() =>
              stored === undefined ? Effect.void : Effect.ignore(files.discard(target.workspaceId, stored.fileId))
            )
          )
          const outcome = yield* Effect.result(consume)
          if (Result.isFailure(outcome)) {
            const error = outcome.failure
            switch (error._tag) {
              case "SqlError":
              case "BlobStoreError":
                return yield* Effect.die(error)
              case "MultipartError":
                return refusedBody(error, target, say)
              case "NoFilePart":
                return json(400, { error: 'send exactly one file part, named "file"' })
              case "FileTooLarge":
                if (say === undefined) return domainResponse(error, { connection: "close" })
                return json(413, { error: tooLargeMessage(target, say) }, { connection: "close" })
              case "UnsupportedFileType":
                if (say === undefined) return domainResponse(error, { connection: "close" })
                return json(415, { error: say("page.fileTypeRefused", { types: target.accept.join(", ") }) })
              default:
                return domainResponse(error, error._tag === "InvalidInput" ? undefined : { connection: "close" })
            }
          }
          if (stored === undefined) return json(400, { error: 'no file: send one file part named "file"' })
          return json(201, stored)
        })
      )
    })
  )
