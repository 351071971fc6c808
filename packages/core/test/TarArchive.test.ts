/**
 * The tar archives of backups, checked against an outsider: GNU tar reads
 * what `TarArchive` writes (long names through pax headers included), and
 * `TarArchive`'s reader reads what GNU tar writes, in pieces of any size. A
 * damaged or cut-short archive is an error, never a wrong entry.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as TarArchive from "../src/files/TarArchive.ts"

const dirs: Array<string> = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), "qforms-tar-"))
  dirs.push(dir)
  return dir
}

const longName = `files/${"a".repeat(60)}/${"b".repeat(60)}/ünïcödé-${"c".repeat(40)}.pdf`
const entries: ReadonlyArray<{ readonly name: string; readonly bytes: Uint8Array }> = [
  { name: "backup.json", bytes: new TextEncoder().encode('{"format":"qforms-backup"}\n') },
  { name: "database/", bytes: new Uint8Array(0) },
  { name: "database/empty", bytes: new Uint8Array(0) },
  { name: "database/block", bytes: new Uint8Array(512).fill(7) },
  { name: "database/odd", bytes: Uint8Array.from({ length: 70_001 }, (_, i) => (i * 31) % 251) },
  { name: longName, bytes: Uint8Array.from({ length: 1_000 }, (_, i) => i % 256) }
]

const archive = () =>
  Buffer.concat([
    ...entries.flatMap((entry) =>
      entry.name.endsWith("/")
        ? [TarArchive.header(entry.name, 0)]
        : [TarArchive.header(entry.name, entry.bytes.length), entry.bytes, TarArchive.padding(entry.bytes.length)]
    ),
    TarArchive.end
  ])

/** Reads an archive pushed in pieces of the given sizes (cycled): entries and their bytes, or the error. */
const read = (bytes: Uint8Array, sizes: ReadonlyArray<number>) => {
  const reader = TarArchive.makeReader()
  const out: Array<{ name: string; size: number; type: string; parts: Array<Uint8Array> }> = []
  let at = 0
  let i = 0
  while (at < bytes.length) {
    const size = sizes[i++ % sizes.length]!
    const events = reader.push(bytes.subarray(at, at + size))
    at += size
    if (events instanceof TarArchive.TarArchiveError) return events
    for (const event of events) {
      if (event._tag === "Entry") out.push({ ...event.entry, parts: [] })
      else if (event._tag === "Data") out.at(-1)!.parts.push(Uint8Array.from(event.bytes))
    }
  }
  const end = reader.finish()
  if (end !== undefined) return end
  return out.map((entry) => ({
    name: entry.name,
    size: entry.size,
    type: entry.type,
    bytes: Buffer.concat(entry.parts)
  }))
}

describe("TarArchive", () => {
  it("writes archives GNU tar lists and extracts byte for byte", () => {
    const dir = fresh()
    writeFileSync(join(dir, "a.tar"), archive())
    const listed = execFileSync("tar", ["-tf", join(dir, "a.tar")], { encoding: "utf8" })
      .trim()
      .split("\n")
    expect(listed).toEqual(entries.map((entry) => entry.name))
    const out = join(dir, "out")
    mkdirSync(out)
    execFileSync("tar", ["-xf", join(dir, "a.tar"), "-C", out])
    for (const entry of entries.filter((e) => !e.name.endsWith("/"))) {
      expect(readFileSync(join(out, entry.name)).equals(Buffer.from(entry.bytes)), entry.name).toBe(true)
    }
  })

  it("reads its own archives and GNU tar's in pieces of any size", () => {
    const own = archive()
    const expected = entries.map((entry) => ({
      name: entry.name,
      size: entry.bytes.length,
      type: entry.name.endsWith("/") ? "directory" : "file",
      bytes: Buffer.from(entry.bytes)
    }))
    for (const sizes of [[own.length], [1], [511, 513], [7, 1024, 3], [100_000]]) {
      expect(read(own, sizes), String(sizes)).toEqual(expected)
    }
    // GNU tar's pax archive of the same tree (its own headers, mtimes, modes, long-name records).
    const dir = fresh()
    const tree = join(dir, "tree")
    for (const entry of entries) {
      const path = join(tree, entry.name)
      if (entry.name.endsWith("/")) mkdirSync(path, { recursive: true })
      else {
        mkdirSync(join(path, ".."), { recursive: true })
        writeFileSync(path, entry.bytes)
      }
    }
    const names = entries.map((entry) => entry.name)
    execFileSync("tar", ["--format=pax", "--no-recursion", "-cf", join(dir, "gnu.tar"), "-C", tree, ...names])
    const gnu = read(readFileSync(join(dir, "gnu.tar")), [333])
    expect(gnu).toEqual(expected)
  })

  it("refuses a damaged header, a cut-short archive, an unsafe name and a link", () => {
    const bytes = archive()
    expect(read(bytes.subarray(0, 512 * 3), [512])).toBeInstanceOf(TarArchive.TarArchiveError)
    const cut = read(bytes.subarray(0, bytes.length - 1024), [4096])
    expect(cut).toMatchObject({ message: expect.stringMatching(/cut short/) })
    const unsafe = Buffer.concat([TarArchive.header("database/../../etc/passwd", 0), TarArchive.end])
    expect(read(unsafe, [512])).toMatchObject({ message: expect.stringMatching(/unsafe name/) })
    // A header byte changed: the checksum no longer adds up.
    const first = Buffer.from(bytes)
    first[10] = first[10]! ^ 0x20
    expect(read(first, [512])).toMatchObject({ message: expect.stringMatching(/checksum/) })
    // A symbolic link (type 2) is neither a file nor a directory.
    const dir = fresh()
    execFileSync("ln", ["-s", "/etc/passwd", join(dir, "link")])
    execFileSync("tar", ["-cf", join(dir, "link.tar"), "-C", dir, "link"])
    expect(read(readFileSync(join(dir, "link.tar")), [512])).toMatchObject({
      message: expect.stringMatching(/neither a file nor a directory/)
    })
  })
})
