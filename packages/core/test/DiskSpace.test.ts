import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { DiskSpace, isDiskFull } from "../src/storage/DiskSpace.ts"

const sqlError = (cause: unknown, message = "query failed") =>
  new SqlError({ reason: new UnknownError({ cause, message, operation: "query" }) })

describe("DiskSpace", () => {
  it("knows a full disk by SQLSTATE 53100 or the system's ENOSPC text, nothing else", () => {
    expect(isDiskFull(sqlError({ code: "53100" }))).toBe(true)
    expect(isDiskFull(sqlError({ message: 'could not extend file "base/5/17502": No space left on device' }))).toBe(
      true
    )
    expect(isDiskFull(sqlError({ code: "23505" }))).toBe(false)
    expect(isDiskFull(new Error("No space left on device"))).toBe(false)
    expect(isDiskFull(undefined)).toBe(false)
  })

  it.effect("on PostgreSQL: not ready for 30 s after a write found the disk full", () =>
    Effect.gen(function* () {
      const space = yield* DiskSpace
      expect(yield* space.shortage).toBeUndefined()
      yield* space.noteFull
      expect(yield* space.shortage).toContain("disk full")
      yield* TestClock.adjust("29 seconds")
      expect(yield* space.shortage).toContain("disk full")
      yield* TestClock.adjust("2 seconds")
      expect(yield* space.shortage).toBeUndefined()
    }).pipe(Effect.provide(DiskSpace.layer(undefined)))
  )

  it.effect("on the embedded database: reads the data directory's free space", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "qforms-space-"))
      // The test machine's temporary directory has room: ready, whatever failures were noted.
      const space = yield* Effect.provide(DiskSpace, DiskSpace.layer(dir))
      yield* space.noteFull
      expect(yield* space.shortage).toBeUndefined()
      rmSync(dir, { recursive: true })
    })
  )
})
