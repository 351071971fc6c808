/**
 * The streaming ZIP writer, checked by independent readers: Python's zipfile
 * (every entry read back and its CRC-32 checked) and Info-ZIP's `unzip -t`
 * when the machine has it. Pieces of every size, an entry over 64 KiB of
 * incompressible bytes, an empty entry, non-ASCII names and contents; a slow
 * reader holds the source back; the limits without ZIP64 fail clearly.
 */
import { spawnSync } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { crc32 } from "node:zlib"
import { Cause, Effect, Exit, Stream } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as ZipWriter from "../src/files/ZipWriter.ts"

const directory = mkdtempSync(join(tmpdir(), "qforms-zip-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const bytesOf = (stream: Stream.Stream<Uint8Array, unknown>): Promise<Buffer> =>
  Effect.runPromise(Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(chunks)))

/** What Python's zipfile reads of an archive: `testzip()` (CRCs), then each entry. */
const python = (path: string) => {
  const script = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    entries = []
    for info in z.infolist():
        data = z.read(info)
        entries.append({"name": info.filename, "size": info.file_size, "crc": info.CRC,
                        "method": info.compress_type, "flags": info.flag_bits, "date": list(info.date_time),
                        "sha256": hashlib.sha256(data).hexdigest()})
    print(json.dumps({"bad": bad, "entries": entries}))
`
  const run = spawnSync("python3", ["-c", script, path], { encoding: "utf8" })
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as {
    bad: string | null
    entries: Array<{
      name: string
      size: number
      crc: number
      method: number
      flags: number
      date: Array<number>
      sha256: string
    }>
  }
}

const unzip = ["/usr/bin/unzip", "/bin/unzip"].find(existsSync)

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** `bytes` cut at the given lengths (the rest in one last piece). */
const pieces = (bytes: Buffer, lengths: ReadonlyArray<number>): Array<Uint8Array> => {
  const out: Array<Uint8Array> = []
  let at = 0
  for (const length of lengths) {
    out.push(bytes.subarray(at, at + length))
    at += length
  }
  if (at < bytes.length) out.push(bytes.subarray(at))
  return out
}

describe("ZipWriter.archive", () => {
  const hello = Buffer.from("Hello, world\n")
  const random = randomBytes(200 * 1024)
  const unicode = Buffer.from("Grüße, 世界 🌍 — naïve café\n".repeat(300))
  const repetitive = Buffer.from('<row><c t="inlineStr"><is><t>same</t></is></c></row>'.repeat(40_000))
  const entries = [
    { name: "hello.txt", bytes: hello, content: pieces(hello, [5, 0, 1]) },
    { name: "empty.txt", bytes: Buffer.alloc(0), content: [] },
    { name: "random.bin", bytes: random, content: pieces(random, [1, 70_000, 65_536, 3]) },
    { name: "données/naïve ☃ 世界.txt", bytes: unicode, content: pieces(unicode, [17, 4_000]) },
    { name: "xl/worksheets/sheet1.xml", bytes: repetitive, content: pieces(repetitive, [100_000, 100_000, 1]) },
    { name: "empty-pieces.txt", bytes: Buffer.alloc(0), content: [new Uint8Array(0), new Uint8Array(0)] }
  ]
  const archive = ZipWriter.archive(
    entries.map(({ name, content }) => ({ name, content: Stream.fromIterable(content) }))
  )

  it("writes an archive Python's zipfile reads back entry by entry, every CRC right", async () => {
    const bytes = await bytesOf(archive)
    const path = join(directory, "mixed.zip")
    writeFileSync(path, bytes)
    const read = python(path)
    expect(read.bad).toBe(null)
    expect(read.entries).toEqual(
      entries.map(({ name, bytes }) => ({
        name,
        size: bytes.length,
        // testzip() above checked each recorded CRC against the data.
        crc: crc32(bytes),
        method: 8,
        // Bit 3: sizes in a data descriptor; bit 11: UTF-8 name.
        flags: 0x0808,
        date: [1980, 1, 1, 0, 0, 0],
        sha256: sha256(bytes)
      }))
    )
    // The repetitive entry is compressed, the random one not grown by much.
    expect(bytes.length).toBeLessThan(random.length + unicode.length / 4 + repetitive.length / 50 + 4_096)
  })

  it.skipIf(unzip === undefined)("passes unzip -t", async () => {
    const path = join(directory, "unzip.zip")
    writeFileSync(path, await bytesOf(archive))
    const run = spawnSync(unzip!, ["-t", path], { encoding: "utf8" })
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/No errors detected/)
  })

  it("writes the same bytes for the same entries", async () => {
    expect((await bytesOf(archive)).equals(await bytesOf(archive))).toBe(true)
  })

  it("an archive of no entries is an empty archive", async () => {
    const path = join(directory, "none.zip")
    writeFileSync(path, await bytesOf(ZipWriter.archive([])))
    expect(python(path)).toEqual({ bad: null, entries: [] })
  })

  it("reads a piece of content only once the bytes before it were taken", async () => {
    let read = 0
    const content = Stream.fromIterable(Array.from({ length: 50 }, () => randomBytes(10_000))).pipe(
      Stream.rechunk(1),
      Stream.tap(() => Effect.sync(() => void (read += 1)))
    )
    const taken = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const pull = yield* Stream.toPull(ZipWriter.archive([{ name: "big.bin", content }]))
          const seen: Array<number> = []
          // The local header, then one compressed piece per pull.
          for (let i = 0; i < 6; i++) {
            yield* pull
            seen.push(read)
          }
          return seen
        })
      )
    )
    expect(taken).toEqual([0, 1, 2, 3, 4, 5])
  })

  it("fails with the content's error", async () => {
    const exit = await Effect.runPromiseExit(
      Stream.runDrain(ZipWriter.archive([{ name: "a.txt", content: Stream.fail("the rows failed") }]))
    )
    expect(Exit.isFailure(exit) && Cause.squash(exit.cause)).toBe("the rows failed")
  })

  it("refuses more entries than a ZIP without ZIP64 holds", async () => {
    const many = Array.from({ length: 65_536 }, (_, i) => ZipWriter.text(`${i}.txt`, ""))
    const exit = await Effect.runPromiseExit(Stream.runDrain(ZipWriter.archive(many)))
    const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
    expect(error).toBeInstanceOf(ZipWriter.ZipWriteFailed)
    expect((error as ZipWriter.ZipWriteFailed).message).toMatch(/ZIP64/)
  })
})
