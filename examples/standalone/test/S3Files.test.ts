/**
 * The standalone server with QFORMS_S3_BUCKET: uploaded files go to the
 * bucket (a real local S3 service, s3rver), are downloaded from it and deleted
 * with their response; nothing is written to the data directory's files. A
 * bucket that does not exist stops the start with a message naming it.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { startS3Server, type S3TestServer } from "@qforms/test-kit/S3Server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  api,
  firstStartKey,
  type ProcessDatabase,
  processTargets,
  type ServerProcess,
  spawnServer
} from "./support/Processes.ts"

const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

for (const target of processTargets) {
  describe(`uploaded files in S3 from the standalone server on ${target.name}`, () => {
    let s3: S3TestServer
    const databases: Array<ProcessDatabase> = []
    const servers: Array<ServerProcess> = []
    beforeAll(async () => {
      s3 = await startS3Server()
    })
    afterAll(async () => {
      for (const server of servers) await server.stop()
      for (const db of databases) await db.cleanup()
      await s3?.close()
    })

    const s3Env = (bucket: string) => ({
      QFORMS_S3_BUCKET: bucket,
      QFORMS_S3_PREFIX: "qforms/files",
      QFORMS_S3_ENDPOINT: s3.endpoint,
      QFORMS_S3_REGION: "us-east-1",
      QFORMS_S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey
    })

    it("upload → object in the bucket → download → deleted with its response", async () => {
      const db = target.make()
      databases.push(db)
      const server = spawnServer({ ...db.env, ...s3Env(s3.bucket) })
      servers.push(server)
      const url = await server.listening
      const key = firstStartKey(server)

      const created = await api(url, "POST", "/forms", {
        key,
        body: { title: "Papers", fields: [{ type: "file", label: "CV", required: true }] }
      })
      expect(created.status).toBe(201)
      expect(
        (await api(url, "PATCH", `/forms/${created.body.id}`, { key, body: { status: "published" } })).status
      ).toBe(200)
      const fieldId = (await api(url, "GET", `/forms/${created.body.id}`, { key })).body.fields[0].id as number

      const body = new FormData()
      body.append("file", new Blob([PDF], { type: "application/pdf" }), "cv.pdf")
      const uploaded = await fetch(`${url}/f/${created.body.publicId}/uploads?fieldId=${fieldId}`, {
        method: "POST",
        body
      })
      expect(uploaded.status).toBe(201)
      const { fileId } = (await uploaded.json()) as { fileId: string }
      const object = s3.objectKeys().find((name) => name.endsWith(`/${fileId}`))
      expect(object).toMatch(new RegExp(`^qforms/files/\\d+/${fileId}$`))
      if (db.dataDir !== undefined) expect(existsSync(join(db.dataDir, "files"))).toBe(false)

      const download = await fetch(`${url}/api/files/${fileId}`, { headers: { authorization: `Bearer ${key}` } })
      expect(download.status).toBe(200)
      expect(Buffer.from(await download.arrayBuffer())).toEqual(PDF)

      const response = await api(url, "POST", `/forms/${created.body.id}/responses`, {
        key,
        body: { values: { [fieldId]: { fileId } } }
      })
      expect(response.status).toBe(201)
      expect((await api(url, "DELETE", `/responses/${response.body.id}`, { key })).status).toBe(204)
      expect(s3.objectKeys()).not.toContain(object)
      expect((await fetch(`${url}/api/files/${fileId}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
        404
      )
    }, 120_000)

    it("a bucket that does not exist stops the start: exit 1 with a message naming it, never the key", async () => {
      const db = target.make()
      databases.push(db)
      const server = spawnServer({
        ...db.env,
        ...s3Env("no-such-bucket"),
        AWS_SECRET_ACCESS_KEY: "a-very-secret-value-123"
      })
      servers.push(server)
      expect(await server.exited).toBe(1)
      expect(server.stderr()).toMatch(/the S3 bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ is not reachable/)
      expect(server.stderr() + server.stdout()).not.toContain("a-very-secret-value-123")
    }, 120_000)
  })
}
