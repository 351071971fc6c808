/**
 * Real images to upload in tests: a PNG of any size and colour, built with
 * Node's zlib (the bytes a browser decodes and `Images.dimensions` reads), and
 * a multipart upload of bytes to the image library.
 */
import { deflateSync } from "node:zlib"
import type { TestServer } from "./TestServer.ts"

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const chunk = (type: string, data: Uint8Array): Buffer => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, "ascii")
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/**
 * A PNG of `width` × `height` pixels of one RGB colour.
 *
 * @example
 * ```ts
 * const logo = png(320, 80, [11, 87, 208])
 * ```
 */
export const png = (width: number, height: number, rgb: readonly [number, number, number] = [11, 87, 208]): Buffer => {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // truecolour
  const row = Buffer.alloc(1 + width * 3)
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3)
  const raw = Buffer.concat(Array.from({ length: height }, () => row))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array(0))
  ])
}

/**
 * Uploads bytes to the workspace's image library (`POST /api/images`) as one
 * file part named `file`; answers the status and the parsed body.
 */
export const uploadImage = async (
  server: TestServer,
  key: string,
  bytes: Uint8Array,
  name = "picture.png",
  type = "image/png"
): Promise<{ readonly status: number; readonly body: any; readonly text: string }> => {
  const form = new FormData()
  form.append("file", new Blob([bytes], { type }), name)
  const response = await fetch(`${server.url}/api/images`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form
  })
  const text = await response.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, body, text }
}
