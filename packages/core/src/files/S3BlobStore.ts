/**
 * A `BlobStore` on S3 or an S3-compatible service (MinIO, Cloudflare R2,
 * Ceph, a local emulator): the store for hosts whose uploaded files should
 * live in object storage rather than a local directory.
 *
 * Published apart from `@qforms/core` as `@qforms/core/s3`, so that only a
 * host that uses it loads `@aws-sdk/client-s3` (an optional peer dependency:
 * install it next to `@qforms/core`).
 *
 * - `put` is a streamed multipart upload: the stream is cut into parts of
 *   `partSize` bytes (5 MiB at least), each sent as it fills, so at most one
 *   part is held in memory; the object appears only when the upload completes.
 *   An object smaller than one part is sent as one `PutObject`. When the stream
 *   or the store fails, or the fiber is interrupted, the upload is aborted:
 *   nothing is left under the key.
 * - `get` streams the object's body (`NoSuchKey` → `BlobNotFound`);
 *   `delete` is `DeleteObject`.
 * - `listKeys` lists the objects under the prefix last written before a time
 *   (`ListObjectsV2`); `removeStalePartials` aborts the multipart uploads
 *   under the prefix started before a time (`ListMultipartUploads`), for
 *   uploads cut short by a killed process. A bucket lifecycle rule
 *   ("abort incomplete multipart uploads after N days") does the same on AWS.
 *
 * @module
 */
import { Readable } from "node:stream"
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand
} from "@aws-sdk/client-s3"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { BlobNotFound, BlobStore, BlobStoreError, isValidKey } from "./BlobStore.ts"

/** The smallest part S3 accepts (but for the last one): 5 MiB. */
export const minimumPartSize = 5 * 1024 * 1024

/** The options of the S3 store. */
export interface S3Options {
  /** The bucket; it must exist. */
  readonly bucket: string
  /** Keys are written as `<prefix>/<key>`; none by default. Letters, digits, `_`, `-`, `/`-separated. */
  readonly prefix?: string | undefined
  /** The service's URL for MinIO, R2 and other S3-compatible services (`https://…`); AWS's own by default. */
  readonly endpoint?: string | undefined
  /** The region; the SDK's default (`AWS_REGION`, the profile) when not given, `us-east-1` without one. */
  readonly region?: string | undefined
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`), which MinIO and most local services need. */
  readonly forcePathStyle?: boolean | undefined
  /**
   * The access key; without it the SDK's default chain (`AWS_ACCESS_KEY_ID` and
   * `AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, web identity, the instance's role …).
   */
  readonly credentials?:
    | {
        readonly accessKeyId: string
        readonly secretAccessKey: string
        readonly sessionToken?: string | undefined
      }
    | undefined
  /** Bytes per uploaded part (default and minimum 5 MiB): also the most a `put` holds in memory. */
  readonly partSize?: number | undefined
}

const PREFIX = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/

/** The parts of an SDK error worth saying: never anything of the request (no headers, no signature, no credentials). */
const partsOf = (cause: unknown) => {
  const error = (typeof cause === "object" && cause !== null ? cause : {}) as {
    name?: unknown
    message?: unknown
    $metadata?: { httpStatusCode?: unknown }
  }
  const status = error.$metadata?.httpStatusCode
  return {
    name: typeof error.name === "string" ? error.name : "Error",
    detail: `${typeof error.message === "string" && error.message !== "" ? error.message : typeof cause === "object" ? "" : String(cause)}${typeof status === "number" ? ` (HTTP ${status})` : ""}`
  }
}

/** What an SDK error says, e.g. `NoSuchBucket: The specified bucket does not exist (HTTP 404)`. */
const describe = (cause: unknown): string => {
  const { name, detail } = partsOf(cause)
  return detail === "" ? name : `${name}: ${detail}`
}

/** The cause kept on a `BlobStoreError`: the SDK error's name, message and status only. */
const cleanCause = (cause: unknown) => {
  const { name, detail } = partsOf(cause)
  const error = new Error(detail)
  error.name = name
  return error
}

const isNotFound = (cause: unknown) =>
  typeof cause === "object" &&
  cause !== null &&
  ((cause as { name?: unknown }).name === "NoSuchKey" ||
    (cause as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode === 404)

/** The chunks of one part being filled, and their total. */
interface Filling {
  readonly chunks: Array<Uint8Array>
  bytes: number
}

const concat = (filling: Filling): Uint8Array => {
  if (filling.chunks.length === 1) return filling.chunks[0]!
  const out = new Uint8Array(filling.bytes)
  let offset = 0
  for (const chunk of filling.chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

/**
 * The store on a client the caller made (and closes). {@link layer} is the
 * usual way in; this is for a host that shares one `S3Client`.
 *
 * @example
 * ```ts
 * import { S3Client } from "@aws-sdk/client-s3"
 * import { make } from "@qforms/core/s3"
 *
 * const store = make(new S3Client({ region: "eu-central-1" }), { bucket: "forms", prefix: "uploads" })
 * ```
 */
export const make = (
  client: S3Client,
  options: Omit<S3Options, "endpoint" | "region" | "forcePathStyle" | "credentials">
): BlobStore["Service"] => {
  const bucket = options.bucket
  const prefix = (options.prefix ?? "").replace(/^\/+|\/+$/g, "")
  const partSize = Math.max(minimumPartSize, options.partSize ?? minimumPartSize)
  const where = prefix === "" ? `s3://${bucket}` : `s3://${bucket}/${prefix}`
  const objectKey = (key: string) => (prefix === "" ? key : `${prefix}/${key}`)
  const listPrefix = prefix === "" ? undefined : `${prefix}/`

  const failed = (action: string, what: string) => (cause: unknown) =>
    new BlobStoreError({
      message: `could not ${action} ${what} in ${where}: ${describe(cause)}`,
      cause: cleanCause(cause)
    })

  /** One request, aborted when the fiber is interrupted. */
  const send = <A>(action: string, what: string, request: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({ try: request, catch: failed(action, what) })

  const checkKey = (key: string) =>
    isValidKey(key)
      ? Effect.void
      : Effect.fail(new BlobStoreError({ message: `invalid blob key ${JSON.stringify(key)}` }))

  const abort = (key: string, uploadId: string) =>
    send("abort the upload of", key, (signal) =>
      client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: objectKey(key), UploadId: uploadId }), {
        abortSignal: signal
      })
    )

  const put = <E>(key: string, content: Stream.Stream<Uint8Array, E>) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      const Key = objectKey(key)
      let uploadId: string | undefined
      const parts: Array<{ ETag: string | undefined; PartNumber: number }> = []
      let size = 0
      const filling: Filling = { chunks: [], bytes: 0 }

      const sendPart = Effect.gen(function* () {
        const body = concat(filling)
        filling.chunks.length = 0
        filling.bytes = 0
        if (uploadId === undefined) {
          const created = yield* send("start the upload of", key, (signal) =>
            client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key }), { abortSignal: signal })
          )
          if (created.UploadId === undefined)
            return yield* new BlobStoreError({
              message: `could not start the upload of ${key} in ${where}: no upload id`
            })
          uploadId = created.UploadId
        }
        const id = uploadId
        const PartNumber = parts.length + 1
        const sent = yield* send(`write part ${PartNumber} of`, key, (signal) =>
          client.send(new UploadPartCommand({ Bucket: bucket, Key, UploadId: id, PartNumber, Body: body }), {
            abortSignal: signal
          })
        )
        parts.push({ ETag: sent.ETag, PartNumber })
      })

      const write = Effect.gen(function* () {
        yield* Stream.runForEach(content, (chunk) => {
          size += chunk.length
          filling.chunks.push(chunk)
          filling.bytes += chunk.length
          return filling.bytes >= partSize ? sendPart : Effect.void
        })
        if (uploadId === undefined) {
          // Smaller than one part: one request.
          const body = concat(filling)
          yield* send("write", key, (signal) =>
            client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: body, ContentLength: body.length }), {
              abortSignal: signal
            })
          )
          return
        }
        if (filling.bytes > 0) yield* sendPart
        const id = uploadId
        yield* send("complete the upload of", key, (signal) =>
          client.send(
            new CompleteMultipartUploadCommand({
              Bucket: bucket,
              Key,
              UploadId: id,
              MultipartUpload: { Parts: parts }
            }),
            { abortSignal: signal }
          )
        )
      })

      yield* write.pipe(
        Effect.onExit((exit) =>
          exit._tag === "Success" || uploadId === undefined
            ? Effect.void
            : abort(key, uploadId).pipe(
                Effect.catch((error) =>
                  Effect.logWarning(`${error.message}; removeStalePartials or a lifecycle rule removes it later`)
                )
              )
        )
      )
      return { size }
    })

  const toStream = (body: unknown, key: string): Stream.Stream<Uint8Array, BlobStoreError> => {
    if (body instanceof Readable) return NodeStream.fromReadable({ evaluate: () => body, onError: failed("read", key) })
    const web = body as { transformToWebStream?: () => ReadableStream<Uint8Array> } | undefined
    if (web?.transformToWebStream !== undefined)
      return Stream.fromReadableStream({ evaluate: () => web.transformToWebStream!(), onError: failed("read", key) })
    return Stream.fail(new BlobStoreError({ message: `could not read ${key} in ${where}: the answer had no body` }))
  }

  const get = (key: string) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      const got = yield* Effect.tryPromise({
        try: (signal) =>
          client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }), { abortSignal: signal }),
        catch: (cause) =>
          isNotFound(cause) ? new BlobNotFound({ message: `no blob ${key}` }) : failed("read", key)(cause)
      })
      return toStream(got.Body, key)
    })

  const remove = (key: string) =>
    Effect.andThen(
      checkKey(key),
      send("delete", key, (signal) =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }), { abortSignal: signal })
      )
    ).pipe(Effect.asVoid)

  /** Our key of an object key under the prefix, when it is one of ours. */
  const ownKey = (stored: string | undefined): string | undefined => {
    if (stored === undefined) return undefined
    const key = listPrefix === undefined ? stored : stored.startsWith(listPrefix) ? stored.slice(listPrefix.length) : ""
    return isValidKey(key) ? key : undefined
  }

  const listKeys = (olderThan: Date) =>
    Effect.gen(function* () {
      const keys: Array<string> = []
      let token: string | undefined
      do {
        const page = yield* send("list", "the objects", (signal) =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: listPrefix, ContinuationToken: token }), {
            abortSignal: signal
          })
        )
        for (const object of page.Contents ?? []) {
          const key = ownKey(object.Key)
          if (key !== undefined && object.LastModified !== undefined && object.LastModified < olderThan) keys.push(key)
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined
      } while (token !== undefined)
      return keys
    })

  const removeStalePartials = (olderThan: Date) =>
    Effect.gen(function* () {
      const stale: Array<{ readonly key: string; readonly uploadId: string }> = []
      let keyMarker: string | undefined
      let uploadIdMarker: string | undefined
      let more = true
      while (more) {
        const page = yield* send("list", "the unfinished uploads", (signal) =>
          client.send(
            new ListMultipartUploadsCommand({
              Bucket: bucket,
              Prefix: listPrefix,
              KeyMarker: keyMarker,
              UploadIdMarker: uploadIdMarker
            }),
            { abortSignal: signal }
          )
        )
        for (const upload of page.Uploads ?? []) {
          const key = ownKey(upload.Key)
          if (
            key !== undefined &&
            upload.UploadId !== undefined &&
            upload.Initiated !== undefined &&
            upload.Initiated < olderThan
          )
            stale.push({ key, uploadId: upload.UploadId })
        }
        more = page.IsTruncated === true && (page.NextKeyMarker !== undefined || page.NextUploadIdMarker !== undefined)
        keyMarker = page.NextKeyMarker
        uploadIdMarker = page.NextUploadIdMarker
      }
      yield* Effect.forEach(stale, ({ key, uploadId }) => abort(key, uploadId), { discard: true, concurrency: 8 })
      return stale.length
    })

  return BlobStore.of({ put, get, delete: remove, listKeys, removeStalePartials })
}

/**
 * The S3 store as a layer, for `Qforms.make({ files: { store } })`: makes the
 * client, checks that the bucket is reachable (a wrong bucket, endpoint or key
 * stops the start with a message naming it), and closes the client with the layer.
 *
 * @example
 * ```ts
 * import { Qforms } from "@qforms/core"
 * import * as S3BlobStore from "@qforms/core/s3"
 *
 * const qforms = await Qforms.make({
 *   files: {
 *     store: S3BlobStore.layer({
 *       bucket: "forms",
 *       prefix: "uploads",
 *       endpoint: "http://127.0.0.1:9000", // MinIO; leave out for AWS
 *       forcePathStyle: true
 *       // credentials: from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile or the instance's role
 *     })
 *   }
 * })
 * ```
 */
export const layer = (options: S3Options): Layer.Layer<BlobStore, BlobStoreError> =>
  Layer.effect(BlobStore)(
    Effect.gen(function* () {
      const prefix = (options.prefix ?? "").replace(/^\/+|\/+$/g, "")
      if (prefix !== "" && !PREFIX.test(prefix))
        return yield* new BlobStoreError({
          message: `invalid S3 prefix ${JSON.stringify(options.prefix)}: letters, digits, "_" and "-" in "/"-separated parts`
        })
      if (options.bucket === "") return yield* new BlobStoreError({ message: "the S3 bucket is empty" })
      const client = yield* Effect.acquireRelease(
        Effect.try({
          try: () =>
            new S3Client({
              region: options.region ?? process.env["AWS_REGION"] ?? process.env["AWS_DEFAULT_REGION"] ?? "us-east-1",
              ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
              ...(options.forcePathStyle === undefined ? {} : { forcePathStyle: options.forcePathStyle }),
              ...(options.credentials === undefined
                ? {}
                : {
                    credentials: {
                      accessKeyId: options.credentials.accessKeyId,
                      secretAccessKey: options.credentials.secretAccessKey,
                      ...(options.credentials.sessionToken === undefined
                        ? {}
                        : { sessionToken: options.credentials.sessionToken })
                    }
                  }),
              // S3-compatible services (MinIO, R2, Ceph) do not all take the newer default checksums.
              requestChecksumCalculation: "WHEN_REQUIRED",
              responseChecksumValidation: "WHEN_REQUIRED"
            }),
          catch: (cause) =>
            new BlobStoreError({
              message: `could not set up the S3 client: ${describe(cause)}`,
              cause: cleanCause(cause)
            })
        }),
        (client) => Effect.sync(() => client.destroy())
      )
      yield* Effect.tryPromise({
        try: (signal) => client.send(new HeadBucketCommand({ Bucket: options.bucket }), { abortSignal: signal }),
        catch: (cause) =>
          new BlobStoreError({
            message: `the S3 bucket ${options.bucket}${options.endpoint === undefined ? "" : ` at ${options.endpoint}`} is not reachable: ${describe(cause)}`,
            cause: cleanCause(cause)
          })
      })
      return make(client, { ...options, prefix })
    })
  )
