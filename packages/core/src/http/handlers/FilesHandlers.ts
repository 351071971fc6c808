/** Handlers of the files group. */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Files } from "../../domain/Files.ts"
import { Api, CurrentActor } from "../Api.ts"
import { handle } from "../ApiErrors.ts"

/**
 * `Content-Disposition: attachment` for a file name: an ASCII `filename`
 * fallback (header values must be ASCII, or Node refuses the whole response)
 * and the exact name in `filename*` (RFC 6266 / RFC 8187).
 *
 * @example
 * ```ts
 * attachment("Lebenslauf Müller.pdf")
 * // "attachment; filename=\"Lebenslauf M_ller.pdf\"; filename*=UTF-8''Lebenslauf%20M%C3%BCller.pdf"
 * ```
 */
export const attachment = (name: string): string => {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_")
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

export const FilesHandlers = HttpApiBuilder.group(Api, "files", Effect.fnUntraced(function*(handlers) {
  const files = yield* Files
  return handlers.handle("download", ({ params }) =>
    Effect.gen(function*() {
      const actor = yield* CurrentActor
      const { content, file } = yield* handle(
        files.download(actor, params.fileId).pipe(
          // A record whose bytes cannot be read is the server's failure (500), not the client's.
          Effect.catchTag("BlobStoreError", (error) => Effect.die(error))
        )
      )
      return HttpServerResponse.stream(content, {
        contentType: file.type,
        contentLength: file.size,
        headers: {
          "content-disposition": attachment(file.name),
          "x-content-type-options": "nosniff",
          "cache-control": "private, no-store"
        }
      })
    }))
}))
