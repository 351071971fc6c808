/**
 * Conditional and compressed answers for what qforms serves unchanged to
 * everyone (the API reference's script, its page, the OpenAPI document): a
 * strong `ETag` (a hash of the bytes), `304 Not Modified` on a matching
 * `If-None-Match`, and a body compressed with Brotli or gzip as the client's
 * `Accept-Encoding` allows. Each compressed form is made once, on the first
 * request that asks for it (off the event loop, in zlib's thread pool), then
 * kept with the bytes.
 */
import { createHash } from "node:crypto"
import * as Zlib from "node:zlib"
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

/** A content coding qforms sends. */
export type Encoding = "br" | "gzip" | "identity"

/** Below this size a body is sent as it is: compressing it saves too little to matter. */
const minimumCompressedBytes = 1024

/** The hash of some bytes, base64url: names a file and makes its strong ETag. */
export const hashOf = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("base64url")

/**
 * The coding to answer with for an `Accept-Encoding` value: Brotli, else
 * gzip, else none. A coding (or `*`) with `q=0` is refused.
 */
export const preferredEncoding = (acceptEncoding: string | undefined): Encoding => {
  const weights = new Map<string, number>()
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name = "", ...parameters] = part.split(";").map((s) => s.trim().toLowerCase())
    if (name === "") continue
    const q = parameters.find((p) => p.startsWith("q="))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get("*") ?? 0) > 0
  return accepts("br") ? "br" : accepts("gzip") ? "gzip" : "identity"
}

/** Whether an `If-None-Match` value names one of the tags (or is `*`); weak tags compare as strong ones (RFC 9110 §13.1.2). */
export const matches = (ifNoneMatch: string | undefined, tags: ReadonlyArray<string>): boolean => {
  if (ifNoneMatch === undefined) return false
  const listed = ifNoneMatch.split(",").map((tag) => tag.trim().replace(/^W\//, ""))
  return listed.includes("*") || listed.some((tag) => tags.includes(tag))
}

const compress = (bytes: Uint8Array, encoding: "br" | "gzip") =>
  Effect.callback<Uint8Array>((resume) => {
    const done = (error: Error | null, result: Buffer) =>
      resume(error === null ? Effect.succeed(result) : Effect.die(error))
    if (encoding === "gzip") Zlib.gzip(bytes, { level: 9 }, done)
    else {
      // Quality 9 of 11: within 10% of the smallest for a few milliseconds per 100 kB (11 takes ten times as long).
      Zlib.brotliCompress(
        bytes,
        {
          params: {
            [Zlib.constants.BROTLI_PARAM_QUALITY]: 9,
            [Zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength
          }
        },
        done
      )
    }
  })

/** One body served with its ETag, in every coding it has been asked for so far. */
export interface Representation {
  /** The body as it is. */
  readonly bytes: Uint8Array
  /** The strong ETag of the body as it is (each coding has its own, see {@link Representation.encoded}). */
  readonly etag: string
  /** The body in a coding with that coding's ETag: compressed on the first call, then the kept bytes. */
  readonly encoded: (encoding: Encoding) => Effect.Effect<{ readonly bytes: Uint8Array; readonly etag: string }>
  /** How many times a body was compressed (once per coding at most): for the tests. */
  readonly compressions: () => number
}

/**
 * A body ready to be served conditionally and compressed. Nothing is
 * compressed until a request asks for a coding.
 */
export const makeRepresentation = (body: Uint8Array | string): Effect.Effect<Representation> =>
  Effect.gen(function* () {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body
    const hash = hashOf(bytes)
    const etag = `"${hash}"`
    let compressions = 0
    const counted = (encoding: "br" | "gzip") =>
      Effect.andThen(
        Effect.sync(() => {
          compressions++
        }),
        compress(bytes, encoding)
      )
    const brotli = yield* Effect.cached(counted("br"))
    const gzip = yield* Effect.cached(counted("gzip"))
    return {
      bytes,
      etag,
      compressions: () => compressions,
      encoded: (encoding) =>
        encoding === "identity" || bytes.byteLength < minimumCompressedBytes
          ? Effect.succeed({ bytes, etag })
          : Effect.map(encoding === "br" ? brotli : gzip, (compressed) => ({
              bytes: compressed,
              etag: `"${hash}-${encoding}"`
            }))
    }
  })

/** Every ETag a representation may have been sent with (any coding names the same content). */
const allTags = (representation: Representation) => [
  representation.etag,
  representation.etag.replace(/"$/, '-br"'),
  representation.etag.replace(/"$/, '-gzip"')
]

/**
 * The answer to a GET of a representation: 304 when the client's
 * `If-None-Match` names it (in any coding), else the body in the coding the
 * client prefers, with `ETag`, `Cache-Control`, `Vary: Accept-Encoding` and
 * `Content-Encoding`.
 */
export const respond = (
  representation: Representation,
  options: {
    readonly contentType: string
    readonly cacheControl: string
    readonly headers?: Readonly<Record<string, string>> | undefined
  }
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const encoding = preferredEncoding(request.headers["accept-encoding"])
    const common = {
      ...options.headers,
      "cache-control": options.cacheControl,
      vary: "Accept-Encoding",
      "x-content-type-options": "nosniff"
    }
    if (matches(request.headers["if-none-match"], allTags(representation))) {
      const etag =
        representation.bytes.byteLength < minimumCompressedBytes || encoding === "identity"
          ? representation.etag
          : representation.etag.replace(/"$/, `-${encoding}"`)
      return HttpServerResponse.empty({ status: 304, headers: { ...common, etag } })
    }
    const encoded = yield* representation.encoded(encoding)
    const sentAs = encoded.bytes === representation.bytes ? "identity" : encoding
    return HttpServerResponse.uint8Array(encoded.bytes, {
      contentType: options.contentType,
      headers: { ...common, etag: encoded.etag, ...(sentAs === "identity" ? {} : { "content-encoding": sentAs }) }
    })
  })
