/**
 * What a crash leaves in the blob store (the local directory, S3) is swept: an object whose file
 * record never committed (killed between the write and the insert) and an
 * unfinished write in `.partial/` are deleted once older than the grace
 * period, while every object with a record, and anything younger than the
 * grace period (an upload in flight), is kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CreateMultipartUploadCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Files, orphanGraceMs } from "../src/files/Files.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { apiOf, workspace } from "@qforms/test-kit/InProcessApi"
import { startS3Server } from "@qforms/test-kit/S3Server"
import * as S3BlobStore from "../src/files/S3BlobStore.ts"

/** A published form with a file question and one upload to it, recorded ("recorded bytes"). */
const recordedUpload = async (qforms: Qforms.Qforms, key: string) => {
  const api = apiOf(qforms, key)
  const form = await api("POST", "/forms", { title: "Uploads", fields: [{ type: "file", label: "CV" }] })
  expect(form.status).toBe(201)
  expect((await api("PATCH", `/forms/${form.json.id}`, { status: "published" })).status).toBe(200)
  return qforms.run(
    Effect.gen(function* () {
      return yield* (yield* Files).upload({
        publicId: form.json.publicId,
        fieldId: form.json.fields[0].id,
        filename: "cv.txt",
        contentType: "text/plain",
        content: Stream.make(new TextEncoder().encode("recorded bytes"))
      })
    })
  )
}

for (const target of databaseTargets) {
  describe(`the file sweep after a crash on ${target.name}`, () => {
    const directory = mkdtempSync(join(tmpdir(), "qforms-sweep-"))
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>

    beforeAll(async () => {
      const options = target.options()
      cleanup = options.cleanup
      qforms = await Qforms.make({
        database: options.database,
        appUrl: "https://forms.example.com",
        files: { directory }
      })
    })
    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
      rmSync(directory, { recursive: true, force: true })
    })

    it("deletes old orphaned objects and unfinished writes, and keeps recorded and recent ones", async () => {
      const key = (await workspace(qforms, `sweep-${target.name}`)).owner
      const answer = await recordedUpload(qforms, key)
      const workspaceDir = join(
        directory,
        readdirSync(directory).find((name) => existsSync(join(directory, name, answer.fileId)))!
      )
      const recorded = join(workspaceDir, answer.fileId)
      expect(existsSync(recorded)).toBe(true)

      const old = new Date(Date.now() - orphanGraceMs - 10 * 60 * 1000)
      const place = (path: string, aged: boolean) => {
        mkdirSync(join(path, ".."), { recursive: true })
        if (!existsSync(path)) writeFileSync(path, "bytes")
        if (aged) utimesSync(path, old, old)
      }
      const orphanOld = join(workspaceDir, "file_orphanold")
      const orphanNew = join(workspaceDir, "file_orphannew")
      const orphanOtherWorkspace = join(directory, "999999", "file_elsewhere")
      const partialOld = join(directory, ".partial", "7_file_x.abcdef")
      const partialNew = join(directory, ".partial", "7_file_y.123456")
      place(recorded, true)
      place(orphanOld, true)
      place(orphanNew, false)
      place(orphanOtherWorkspace, true)
      place(partialOld, true)
      place(partialNew, false)

      const swept = await qforms.run(Effect.flatMap(Files, (files) => files.sweep))
      expect(swept).toBe(3)
      expect(existsSync(recorded)).toBe(true)
      expect(existsSync(orphanNew)).toBe(true)
      expect(existsSync(partialNew)).toBe(true)
      expect(existsSync(orphanOld)).toBe(false)
      expect(existsSync(orphanOtherWorkspace)).toBe(false)
      expect(existsSync(partialOld)).toBe(false)
      // The recorded file still downloads.
      const download = await qforms.handler(
        new Request(`http://qforms.test/api/files/${answer.fileId}`, {
          headers: { authorization: `Bearer ${key}` }
        })
      )
      expect([download.status, await download.text()]).toEqual([200, "recorded bytes"])
    })
  })
}

for (const target of databaseTargets) {
  describe(`the file sweep after a crash on ${target.name}, files in S3`, () => {
    let s3: Awaited<ReturnType<typeof startS3Server>>
    let client: S3Client
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    const prefix = "sweep"

    beforeAll(async () => {
      s3 = await startS3Server()
      const connection = {
        endpoint: s3.endpoint,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { ...s3.credentials }
      }
      client = new S3Client({ ...connection, requestChecksumCalculation: "WHEN_REQUIRED" })
      const options = target.options()
      cleanup = options.cleanup
      qforms = await Qforms.make({
        database: options.database,
        appUrl: "https://forms.example.com",
        files: { store: S3BlobStore.layer({ bucket: s3.bucket, prefix, ...connection }) }
      })
    })
    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
      client?.destroy()
      await s3?.close()
    })

    it("deletes old orphaned objects and aborts old unfinished uploads under the prefix, and keeps recorded, recent and foreign ones", async () => {
      const key = (await workspace(qforms, `sweep-s3-${target.name}`)).owner
      const answer = await recordedUpload(qforms, key)
      const recorded = s3.objectKeys().find((name) => name.endsWith(`/${answer.fileId}`))!
      expect(recorded).toMatch(/^sweep\/\d+\//)
      const workspacePrefix = recorded.slice(0, recorded.lastIndexOf("/"))

      const old = new Date(Date.now() - orphanGraceMs - 10 * 60 * 1000)
      const put = (name: string) =>
        client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: name, Body: new TextEncoder().encode("bytes") }))
      const orphanOld = `${workspacePrefix}/file_orphanold`
      const orphanNew = `${workspacePrefix}/file_orphannew`
      const orphanOtherWorkspace = "sweep/999999/file_elsewhere"
      const foreign = "other-app/1/file_notours"
      for (const name of [orphanOld, orphanNew, orphanOtherWorkspace, foreign]) await put(name)
      await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: "sweep/7/file_x" }))
      await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: "sweep/7/file_y" }))
      await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: "other-app/7/file_z" }))
      for (const name of [recorded, orphanOld, orphanOtherWorkspace, foreign, "sweep/7/file_x", "other-app/7/file_z"])
        s3.backdate(name, old)

      const swept = await qforms.run(Effect.flatMap(Files, (files) => files.sweep))
      expect(swept).toBe(3)
      expect(s3.objectKeys()).toEqual([foreign, orphanNew, recorded].sort())
      expect(
        s3
          .pendingUploads()
          .map((upload) => upload.key)
          .sort()
      ).toEqual(["other-app/7/file_z", "sweep/7/file_y"])
      const download = await qforms.handler(
        new Request(`http://qforms.test/api/files/${answer.fileId}`, {
          headers: { authorization: `Bearer ${key}` }
        })
      )
      expect([download.status, await download.text()]).toEqual([200, "recorded bytes"])
    })
  })
}
