/**
 * The local BlobStore: the shared BlobStore contract (BlobStoreSuite.ts, also
 * run on S3), and its durability, on the real system calls (traced with
 * strace): the written file is fsynced before it is renamed into place, and
 * its directory after, so a `put` that succeeded (and the files row committed
 * after it) survives a crash or power loss; and its files are the server user's only.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { afterAll, describe, expect, it } from "vitest"
import * as BlobStore from "../src/files/BlobStore.ts"
import { blobStoreSuite } from "./BlobStoreSuite.ts"

const local = mkdtempSync(join(tmpdir(), "qforms-blob-contract-"))
afterAll(() => rmSync(local, { recursive: true, force: true }))
const partialDir = join(local, ".partial")

blobStoreSuite({
  name: "a local directory",
  layer: BlobStore.layerLocal({ directory: local }),
  partials: () =>
    existsSync(partialDir) ? readdirSync(partialDir).map((name) => statSync(join(partialDir, name)).size) : [],
  abandonWrite: async (key) => {
    mkdirSync(partialDir, { recursive: true })
    writeFileSync(join(partialDir, `${key.replaceAll("/", "_")}.0123456789ab`), "cut short")
  }
})

const strace = ["/usr/bin/strace", "/bin/strace"].find(existsSync)
const script = fileURLToPath(new URL("./support/BlobPut.ts", import.meta.url))

describe.skipIf(strace === undefined && process.env["CI"] !== "true")("local BlobStore durability", () => {
  const directory = mkdtempSync(join(tmpdir(), "qforms-blob-sync-"))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it("fsyncs the file before renaming it into place, and its directory after", () => {
    const trace = join(directory, "trace.txt")
    const store = join(directory, "store")
    const run = spawnSync(
      strace!,
      [
        "-f",
        "-qq",
        "-e",
        "trace=openat,fsync,fdatasync,rename,renameat,renameat2,close",
        "-o",
        trace,
        process.execPath,
        "--conditions=source",
        "--disable-warning=ExperimentalWarning",
        script,
        store,
        "7/file_abc"
      ],
      { encoding: "utf8", timeout: 120_000 }
    )
    expect(run.status, run.stderr).toBe(0)
    expect(readFileSync(join(store, "7", "file_abc"), "utf8")).toBe("durable bytes")

    const lines = readFileSync(trace, "utf8")
      .split("\n")
      .map((line) => line.replace(/^\d+\s+/, ""))
    /** The fd an openat of `path` answered, and the line it was on. */
    const opened = (path: RegExp) =>
      lines.flatMap((line, index) => {
        const match = line.match(/^openat\(AT_FDCWD, "([^"]+)", [^)]*\) = (\d+)/)
        return match && path.test(match[1]!) ? [{ fd: match[2]!, index }] : []
      })
    const renameAt = lines.findIndex((line) =>
      /^rename(at2?)?\(.*\.partial\/7_file_abc\.[0-9a-f]+".*7\/file_abc"/.test(line)
    )
    expect(renameAt, "the rename into place").toBeGreaterThan(-1)
    const syncOf = (fd: string, from: number, to: number) =>
      lines.slice(from, to).some((line) => new RegExp(`^f(data)?sync\\(${fd}\\)\\s+= 0`).test(line))
    // The partial file: opened for writing, then (re)opened and fsynced, all before the rename.
    const partialOpens = opened(/\.partial\/7_file_abc\.[0-9a-f]+$/).filter((open) => open.index < renameAt)
    expect(
      partialOpens.some((open) => syncOf(open.fd, open.index, renameAt)),
      "fsync of the file before the rename"
    ).toBe(true)
    // The directory the object landed in: opened and fsynced after the rename.
    const dirOpens = opened(new RegExp(`${store.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/7$`)).filter(
      (open) => open.index > renameAt
    )
    expect(
      dirOpens.some((open) => syncOf(open.fd, open.index, lines.length)),
      "fsync of the directory after the rename"
    ).toBe(true)
  })
})

describe("local BlobStore permissions", () => {
  const directory = mkdtempSync(join(tmpdir(), "qforms-blob-modes-"))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it("writes files the server's user alone can read (0600) in directories only it can enter (0700), whatever the umask", async () => {
    const store = join(directory, "store")
    const before = process.umask(0o000)
    try {
      await Effect.runPromise(
        Effect.flatMap(BlobStore.BlobStore, (blobs) =>
          blobs.put("7/file_mode", Stream.make(new Uint8Array([1, 2, 3])))
        ).pipe(Effect.provide(BlobStore.layerLocal({ directory: store })))
      )
    } finally {
      process.umask(before)
    }
    expect(statSync(join(store, "7", "file_mode")).mode & 0o777).toBe(0o600)
    expect(statSync(join(store, "7")).mode & 0o777).toBe(0o700)
    expect(statSync(join(store, ".partial")).mode & 0o777).toBe(0o700)
  })
})
