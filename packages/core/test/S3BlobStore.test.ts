/**
 * The S3 BlobStore on a real local S3 service (s3rver, see support/S3Server.ts):
 * the shared BlobStore contract with and without a key prefix, what the layer
 * says when the bucket cannot be reached, and a store that fails in the middle
 * of a multipart upload (the upload is aborted, nothing is left).
 */
import { CreateMultipartUploadCommand, S3Client, UploadPartCommand } from "@aws-sdk/client-s3"
import { Effect, Layer, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as BlobStore from "../src/files/BlobStore.ts"
import * as S3BlobStore from "../src/files/S3BlobStore.ts"
import { blobStoreSuite } from "./BlobStoreSuite.ts"
import { startS3Server, type S3TestServer } from "@qforms/test-kit/S3Server"

const s3: S3TestServer = await startS3Server()
afterAll(() => s3.close())

const options = (prefix?: string): S3BlobStore.S3Options => ({
  bucket: s3.bucket,
  prefix,
  endpoint: s3.endpoint,
  region: "us-east-1",
  forcePathStyle: true,
  credentials: s3.credentials
})

/** An upload started and one part sent, never completed: what a killed process leaves. */
const abandonUpload = async (key: string) => {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { ...s3.credentials },
    requestChecksumCalculation: "WHEN_REQUIRED"
  })
  try {
    const created = await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }))
    await client.send(
      new UploadPartCommand({
        Bucket: s3.bucket,
        Key: key,
        UploadId: created.UploadId,
        PartNumber: 1,
        Body: new Uint8Array(1024)
      })
    )
  } finally {
    client.destroy()
  }
}

for (const prefix of [undefined, "tenant-a/files"]) {
  blobStoreSuite({
    name: `S3 (s3rver${prefix === undefined ? "" : `, prefix ${prefix}`})`,
    layer: S3BlobStore.layer(options(prefix)),
    partials: () => s3.pendingUploads().map((upload) => upload.bytes),
    abandonWrite: (key) => abandonUpload(prefix === undefined ? key : `${prefix}/${key}`)
  })
}

describe("S3 BlobStore", () => {
  const run = <A, E>(effect: Effect.Effect<A, E, BlobStore.BlobStore>, prefix = "apart") =>
    Effect.runPromise(Effect.provide(effect, S3BlobStore.layer(options(prefix))))

  it("writes under the prefix, and lists and removes only what is under it", async () => {
    await run(Effect.flatMap(BlobStore.BlobStore, (store) => store.put("7/file_p", Stream.make(new Uint8Array([1])))))
    expect(s3.objectKeys()).toContain("apart/7/file_p")
    await run(
      Effect.flatMap(BlobStore.BlobStore, (store) => store.put("7/file_q", Stream.make(new Uint8Array([2])))),
      "other"
    )
    const listed = await run(
      Effect.flatMap(BlobStore.BlobStore, (store) => store.listKeys!(new Date(Date.now() + 60_000)))
    )
    expect(listed).toContain("7/file_p")
    expect(listed).not.toContain("7/file_q")
    expect(listed.some((key) => key.startsWith("other"))).toBe(false)
  })

  it("a bucket that does not exist, a bad prefix or an unreachable service stop the layer with a clear message", async () => {
    const failure = (layer: Layer.Layer<BlobStore.BlobStore, BlobStore.BlobStoreError>) =>
      Effect.runPromise(Effect.flip(Effect.scoped(Layer.build(layer))))
    const noBucket = await failure(S3BlobStore.layer({ ...options(), bucket: "no-such-bucket" }))
    expect(noBucket.message).toMatch(/^the S3 bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ is not reachable: /)
    const badPrefix = await failure(S3BlobStore.layer(options("../up")))
    expect(badPrefix.message).toMatch(/^invalid S3 prefix "..\/up"/)
    const wrongKey = await failure(
      S3BlobStore.layer({ ...options(), credentials: { accessKeyId: "WRONG", secretAccessKey: "very-secret-value" } })
    )
    expect(wrongKey.message).toMatch(/is not reachable/)
    expect(JSON.stringify(wrongKey)).not.toContain("very-secret-value")
    const closed = await failure(S3BlobStore.layer({ ...options(), endpoint: "http://127.0.0.1:9" }))
    expect(closed.message).toMatch(/^the S3 bucket qforms-test at http:\/\/127\.0\.0\.1:9 is not reachable: /)
  })

  describe("a store that fails in the middle of a multipart upload", () => {
    beforeAll(() => s3.resetPartsAfter(1))
    afterAll(() => s3.resetPartsAfter(undefined))

    it("fails the put with a BlobStoreError naming the part, aborts the upload and leaves no object", async () => {
      const chunk = new Uint8Array(1024 * 1024).fill(5)
      const error = await run(
        Effect.flip(
          Effect.flatMap(BlobStore.BlobStore, (store) =>
            store.put("8/file_reset", Stream.make(...new Array(12).fill(chunk)))
          )
        )
      )
      expect(error._tag).toBe("BlobStoreError")
      expect(error.message).toMatch(/^could not write part 2 of 8\/file_reset in s3:\/\/qforms-test\/apart: /)
      expect(s3.pendingUploads()).toEqual([])
      expect(s3.objectKeys()).not.toContain("apart/8/file_reset")
    })
  })
})
