/**
 * Reads the post of a step of the public page (what it holds is parsed by
 * `Steps.ts`): url-encoded, or multipart with the file of a no-JavaScript
 * upload streamed into the blob store as it arrives, under the upload limiter
 * shared with the upload route (`UploadLimits.ts`) and the question's own
 * size limit.
 *
 * @module
 */
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Multipart from "effect/http/Multipart"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { Files } from "../files/index.ts"
import { MULTIPART_OVERHEAD_BYTES, RateLimit } from "../web/index.ts"
import { type StepInput, refusal, StepRefused, MAX_FILE_BYTES, collectStep } from "./Steps.ts"
import { UploadLimiter } from "./UploadLimits.ts"
import type { Voice } from "./Voice.ts"

/** The step reader, its fields kept under `maxFieldBytes` (the router's body limit). */
export const make = Effect.fnUntraced(function* (maxFieldBytes: number) {
  const files = yield* Files
  const uploadLimiter = yield* UploadLimiter

  /**
   * Reads a step post: url-encoded (under the router's body limit), or
   * multipart, whose fields together stay under that limit and whose file
   * part (the no-JavaScript upload) streams into the blob store under its
   * question's own limit. The hidden inputs come first in the page, so the
   * question is known when the file arrives.
   */
  const readStep = (publicId: string, voice: Voice) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const type = (request.headers["content-type"] ?? "").toLowerCase()
      const unreadable = () => new StepRefused({ status: 400, message: voice.say("page.unreadable") })
      if (type.startsWith("application/x-www-form-urlencoded")) {
        const params = yield* Effect.mapError(request.urlParamsBody, unreadable)
        const step = collectStep(
          params.params.map(([k, v]) => [k, typeof v === "string" ? v : ""] as const),
          undefined
        )
        return Result.isSuccess(step) ? step.success : yield* new StepRefused({ status: 400, message: step.failure })
      }
      if (!type.startsWith("multipart/form-data")) {
        return yield* new StepRefused({ status: 415, message: voice.say("page.notAForm") })
      }
      const pairs: Array<readonly [string, string]> = []
      let fieldBytes = 0
      let upload: StepInput["upload"]
      const tooLarge = () =>
        new StepRefused({ status: 413, message: voice.say("page.tooLong", { bytes: maxFieldBytes }) })
      yield* Stream.runForEach(
        request.multipartStream,
        (part): Effect.Effect<void, StepRefused | Multipart.MultipartError> => {
          if (Multipart.isField(part)) {
            fieldBytes += part.key.length + part.value.length
            if (fieldBytes > maxFieldBytes) return Effect.fail(tooLarge())
            pairs.push([part.key, part.value])
            return Effect.void
          }
          const file = part as Multipart.File
          const at = pairs.find(([k]) => k === "at")?.[1] ?? ""
          // A second file, or not at a question: nothing to store.
          if (file.key !== "file" || upload !== undefined || !/^[1-9][0-9]{0,9}$/.test(at)) {
            return Stream.runDrain(file.content)
          }
          // A browser sends an empty part when no file was chosen: that is no answer, not an empty file.
          const store = Effect.scoped(
            Effect.gen(function* () {
              const [first, rest] = yield* Stream.peel(file.content, Sink.take<Uint8Array>(1))
              if (first.length === 0) return Option.none()
              // The same bucket as the upload route's: a file is a file, however it is sent.
              const decision = yield* uploadLimiter.take(request)
              if (!decision.allowed) {
                yield* Stream.runDrain(rest)
                upload = Result.fail(
                  refusal(
                    voice.say("page.fileNotStored", {
                      reason: voice.say("page.uploadsLimited", { seconds: decision.retryAfterSeconds })
                    }),
                    429,
                    RateLimit.headers(uploadLimiter.config, decision)
                  )
                )
                return Option.none()
              }
              return Option.some(
                yield* files.upload({
                  publicId,
                  fieldId: Number(at),
                  filename: file.name,
                  contentType: file.contentType,
                  content: Stream.concat(Stream.fromIterable(first), rest)
                })
              )
            })
          )
          return store.pipe(
            Effect.map((answer) => {
              if (Option.isSome(answer)) upload = Result.succeed(answer.value)
            }),
            Effect.catchTags({
              FileTooLarge: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
              StorageQuotaExceeded: (e) =>
                Effect.sync(
                  () => (upload = Result.fail(refusal(voice.say("page.fileNotStored", { reason: e.message }), 413)))
                ),
              UnsupportedFileType: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
              InvalidInput: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
              Conflict: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
              FormNotFound: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
              BlobStoreError: (e) => Effect.die(e),
              SqlError: (e) => Effect.die(e)
            }),
            // A file over its limit stops the parser mid-body: what was read of the fields still counts.
            Effect.catchTag("MultipartError", (e) =>
              e.reason._tag === "FileTooLarge" || e.reason._tag === "BodyTooLarge"
                ? Effect.sync(() => (upload = Result.fail(refusal(voice.say("page.fileTooLarge")))))
                : Effect.fail(e)
            )
          )
        }
      ).pipe(
        Effect.provideService(Multipart.MaxParts, 512),
        Effect.provideService(Multipart.MaxFieldSize, ByteSize.bytes(maxFieldBytes)),
        Effect.provideService(Multipart.MaxFileSize, undefined),
        Effect.provideService(Multipart.FieldMimeTypes, []),
        Effect.provideService(
          HttpIncomingMessage.MaxBodySize,
          ByteSize.bytes(MAX_FILE_BYTES + maxFieldBytes + MULTIPART_OVERHEAD_BYTES)
        ),
        Effect.catchTag("MultipartError", (e) =>
          Effect.fail(
            e.reason._tag === "FileTooLarge" || e.reason._tag === "BodyTooLarge" || e.reason._tag === "FieldTooLarge"
              ? tooLarge()
              : unreadable()
          )
        )
      )
      const step = collectStep(pairs, upload)
      return Result.isSuccess(step) ? step.success : yield* new StepRefused({ status: 400, message: step.failure })
    })
  return { readStep }
})

/** The step reader (see {@link make}). */
export type StepReader = Effect.Success<ReturnType<typeof make>>
