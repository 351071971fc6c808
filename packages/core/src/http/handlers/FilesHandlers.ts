/** Handlers of the files group. */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Files } from "../../files/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

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

/**
 * The passive types a download keeps: images a browser only decodes and PDF
 * (the types `Files.sniff` recognises from the bytes). Any other stored type
 * was declared by the uploader and could be active under qforms' origin
 * (`text/javascript` would run from a `<script src>` under the app's
 * `script-src 'self'`, `text/html` or `image/svg+xml` would run scripts), so
 * it is served as `application/octet-stream`.
 */
const passiveTypes: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/heic",
  "image/avif",
  "image/bmp",
  "image/tiff",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  "application/pdf"
])

/** The `Content-Type` a stored file is served with: its own if passive, else `application/octet-stream`. */
export const servedType = (storedType: string): string => {
  const type = storedType.split(";")[0]!.trim().toLowerCase()
  return passiveTypes.has(type) ? type : "application/octet-stream"
}

/**
 * The headers of every file download: an attachment, never sniffed, and a
 * CSP that lets the response load nothing and run nothing even if a browser
 * renders it (`sandbox`: an opaque origin, no scripts).
 */
export const downloadHeaders = (name: string): Readonly<Record<string, string>> => ({
  "content-disposition": attachment(name),
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
  "cache-control": "private, no-store"
})

export const FilesHandlers = HttpApiBuilder.group(
  Api,
  "files",
  Effect.fnUntraced(function* (handlers) {
    const files = yield* Files
    return handlers.handle("download", ({ params }) =>
      Effect.gen(function* () {
        const actor = yield* CurrentActor
        const { content, file } = yield* handle(
          files.download(actor, params.fileId).pipe(
            // A record whose bytes cannot be read is the server's failure (500), not the client's.
            Effect.catchTag("BlobStoreError", (error) => Effect.die(error))
          )
        )
        return HttpServerResponse.stream(content, {
          contentType: servedType(file.type),
          contentLength: file.size,
          headers: downloadHeaders(file.name)
        })
      })
    )
  })
)
