/**
 * A real local S3 service for tests: `s3rver` (an S3 emulator writing to a
 * temporary directory) on 127.0.0.1 and a free port, with one bucket.
 *
 * s3rver 3.7 has no `ListMultipartUploads` and no `AbortMultipartUpload`
 * (it answers NotImplemented / MethodNotAllowed). Both are added here in front
 * of it, on s3rver's own record of the unfinished uploads (its
 * `<bucket>/._S3rver_uploads/<upload id>/` directories: the key, then one file
 * per part, removed when the upload completes), so that aborting and listing
 * act on the emulator's real state. Everything else is s3rver's.
 *
 * `resetPartsAfter(n)` makes the connection of every `UploadPart` request with
 * a part number above `n` reset (a store failing in the middle of a multipart
 * upload); `undefined` ends it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import S3rver from "s3rver"

export interface S3TestServer {
  readonly endpoint: string
  readonly bucket: string
  /** Access key s3rver accepts. */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string }
  /** The keys of the objects in the bucket (full keys, prefix included). */
  readonly objectKeys: () => ReadonlyArray<string>
  /** The unfinished multipart uploads: key, and the bytes of the parts received so far. */
  readonly pendingUploads: () => ReadonlyArray<{ readonly key: string; readonly bytes: number }>
  /** Back-dates an object (its LastModified) or an unfinished upload of this key (its Initiated), as time passing would. */
  readonly backdate: (key: string, at: Date) => void
  /** Resets the connection of `UploadPart` requests past this part number (undefined: none). */
  readonly resetPartsAfter: (partNumber: number | undefined) => void
  readonly close: () => Promise<void>
}

const SUFFIX = "._S3rver_"

export const startS3Server = async (bucket = "qforms-test"): Promise<S3TestServer> => {
  const directory = mkdtempSync(NodePath.join(tmpdir(), "qforms-s3rver-"))
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] })
  await s3rver.configureBuckets()
  const handle = s3rver.callback()
  const uploadsDir = NodePath.join(directory, bucket, `${SUFFIX}uploads`)
  let resetAfter: number | undefined

  const uploads = () => {
    let ids: Array<string>
    try {
      ids = readdirSync(uploadsDir)
    } catch {
      return []
    }
    return ids.flatMap((uploadId) => {
      const dir = NodePath.join(uploadsDir, uploadId)
      try {
        const key = readFileSync(NodePath.join(dir, "key"), "utf8")
        const bytes = readdirSync(dir)
          .filter((name) => /^\d+$/.test(name))
          .reduce((sum, name) => sum + statSync(NodePath.join(dir, name)).size, 0)
        return [{ uploadId, key, bytes, initiated: statSync(NodePath.join(dir, "key")).mtime }]
      } catch {
        return []
      }
    })
  }

  const xml = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { "content-type": "application/xml" })
    response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`)
  }

  const listUploads = (url: URL, response: ServerResponse) => {
    const prefix = url.searchParams.get("prefix") ?? ""
    const found = uploads()
      .filter((upload) => upload.key.startsWith(prefix))
      .sort((a, b) => a.key.localeCompare(b.key) || a.uploadId.localeCompare(b.uploadId))
    xml(
      response,
      200,
      `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket>` +
        `<Prefix>${prefix}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
        found
          .map(
            (upload) =>
              `<Upload><Key>${upload.key}</Key><UploadId>${upload.uploadId}</UploadId>` +
              `<Initiated>${upload.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`
          )
          .join("") +
        `</ListMultipartUploadsResult>`
    )
  }

  const abortUpload = (uploadId: string, response: ServerResponse) => {
    if (!/^[0-9a-f]+$/.test(uploadId) || !uploads().some((upload) => upload.uploadId === uploadId))
      return xml(
        response,
        404,
        `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`
      )
    rmSync(NodePath.join(uploadsDir, uploadId), { recursive: true, force: true })
    response.writeHead(204)
    response.end()
  }

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://s3")
    const path = url.pathname.split("/").filter((part) => part !== "")
    const uploadId = url.searchParams.get("uploadId")
    const partNumber = Number(url.searchParams.get("partNumber"))
    if (request.method === "GET" && path.length === 1 && url.searchParams.has("uploads"))
      return request.resume().on("end", () => listUploads(url, response))
    if (request.method === "DELETE" && path.length >= 2 && uploadId !== null)
      return request.resume().on("end", () => abortUpload(uploadId, response))
    if (request.method === "PUT" && uploadId !== null && resetAfter !== undefined && partNumber > resetAfter) {
      request.socket.resetAndDestroy()
      return
    }
    handle(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo

  const objectKeys = () => {
    const out: Array<string> = []
    const walk = (dir: string, prefix: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) {
          if (!entry.name.startsWith(SUFFIX)) walk(NodePath.join(dir, entry.name), `${prefix}${entry.name}/`)
        } else if (entry.name.endsWith(`${SUFFIX}object`)) {
          out.push(`${prefix}${entry.name.slice(0, -`${SUFFIX}object`.length)}`)
        }
      }
    }
    walk(NodePath.join(directory, bucket), "")
    return out.sort()
  }

  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    objectKeys,
    pendingUploads: () => uploads().map(({ key, bytes }) => ({ key, bytes })),
    backdate: (key, at) => {
      const parts = key.split("/")
      const object = NodePath.join(directory, bucket, ...parts.slice(0, -1), `${parts.at(-1)}${SUFFIX}object`)
      if (existsSync(object)) utimesSync(object, at, at)
      for (const upload of uploads().filter((upload) => upload.key === key))
        utimesSync(NodePath.join(uploadsDir, upload.uploadId, "key"), at, at)
    },
    resetPartsAfter: (partNumber) => {
      resetAfter = partNumber
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(directory, { recursive: true, force: true })
    }
  }
}
