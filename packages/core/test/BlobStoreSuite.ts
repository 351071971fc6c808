/**
 * The BlobStore contract, written once and run against every store qforms
 * ships: the local directory (`BlobStore.test.ts`) and S3 on a local s3rver
 * (`S3BlobStore.test.ts`). A target gives the store and a view of its
 * unfinished writes, read from the storage itself (the partial-write
 * directory, the service's unfinished multipart uploads).
 */
import { createHash } from "node:crypto"
import { assert, describe, expect, it } from "@effect/vitest"
import { Clock, Data, Effect, Exit, Fiber, type Layer, Schedule, Stream } from "effect"
import * as BlobStore from "../src/files/BlobStore.ts"

export interface BlobStoreTarget {
  readonly name: string
  readonly layer: Layer.Layer<BlobStore.BlobStore, BlobStore.BlobStoreError>
  /** The bytes of the unfinished writes there are now, one number each. */
  readonly partials: () => ReadonlyArray<number>
  /** Leaves an unfinished write behind under `key`, as a process killed in the middle of a `put` does. */
  readonly abandonWrite: (key: string) => Promise<void>
}

const MiB = 1024 * 1024

class StreamBroke extends Data.TaggedError("StreamBroke")<{ readonly afterBytes: number }> {}

/** `total` bytes in chunks of 64 KiB, made as they are pulled (a pattern that shows misplaced bytes). */
const generated = (total: number) => {
  const chunk = 64 * 1024
  return Stream.range(0, Math.ceil(total / chunk) - 1).pipe(
    Stream.map((index) => {
      const length = Math.min(chunk, total - index * chunk)
      const bytes = new Uint8Array(length)
      for (let i = 0; i < length; i++) bytes[i] = (index * chunk + i) % 251
      return bytes
    })
  )
}

const digest = <E, R>(stream: Stream.Stream<Uint8Array, E, R>) =>
  Effect.gen(function* () {
    const hash = createHash("sha256")
    let size = 0
    yield* Stream.runForEach(stream, (chunk) =>
      Effect.sync(() => {
        hash.update(chunk)
        size += chunk.length
      })
    )
    return { size, sha256: hash.digest("hex") }
  })

const text = (value: string) => Stream.make(new TextEncoder().encode(value))

const read = (key: string) =>
  Effect.gen(function* () {
    const store = yield* BlobStore.BlobStore
    const chunks = yield* Stream.runCollect(yield* store.get(key))
    return new TextDecoder().decode(Buffer.concat(chunks))
  })

/** Now, moved by `offsetMs`. */
const inAWhile = (offsetMs: number) => Effect.map(Clock.currentTimeMillis, (now) => new Date(now + offsetMs))

/** Polls a condition until it holds (at most 10 s). */
const until = (condition: () => boolean) =>
  Effect.suspend(() => (condition() ? Effect.void : Effect.fail("not yet"))).pipe(
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 500 }),
    Effect.orDie
  )

export const blobStoreSuite = (target: BlobStoreTarget) =>
  describe(`BlobStore contract on ${target.name}`, () => {
    it.layer(target.layer, { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("puts, gets, replaces and deletes an object", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          expect(yield* store.put("1/file_a", text("first bytes"))).toEqual({ size: 11 })
          expect(yield* read("1/file_a")).toBe("first bytes")
          expect(yield* store.put("1/file_a", text("second"))).toEqual({ size: 6 })
          expect(yield* read("1/file_a")).toBe("second")
          yield* store.delete("1/file_a")
          const missing = yield* Effect.flip(store.get("1/file_a"))
          expect(missing._tag).toBe("BlobNotFound")
          // Deleting what is not there succeeds.
          yield* store.delete("1/file_a")
          yield* store.delete("1/never_written")
        })
      )

      it.effect("an empty object is an object", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          expect(yield* store.put("1/file_empty", Stream.empty)).toEqual({ size: 0 })
          expect(yield* read("1/file_empty")).toBe("")
        })
      )

      it.effect("refuses keys outside the key alphabet", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          for (const key of ["../etc/passwd", "a/../b", "", "a//b", "a.b"]) {
            const error = yield* Effect.flip(store.put(key, text("x")))
            expect(error._tag, key).toBe("BlobStoreError")
            expect((yield* Effect.flip(store.get(key)))._tag).toBe("BlobStoreError")
          }
        })
      )

      it.effect("streams a large object (12 MiB, several parts) in and out, byte for byte", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          const total = 12 * MiB + 12_345
          const expected = yield* digest(generated(total))
          expect(yield* store.put("2/file_large", generated(total))).toEqual({ size: total })
          expect(yield* digest(yield* store.get("2/file_large"))).toEqual(expected)
          expect(target.partials()).toEqual([])
          yield* store.delete("2/file_large")
        })
      )

      it.effect("a stream that fails mid-way leaves nothing: no object, no unfinished write", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          yield* store.put("3/file_broken", text("an older version"))
          const broken = Stream.concat(generated(7 * MiB), Stream.fail(new StreamBroke({ afterBytes: 7 * MiB })))
          const error = yield* Effect.flip(store.put("3/file_broken", broken))
          expect(error._tag).toBe("StreamBroke")
          // The key keeps what it had.
          expect(yield* read("3/file_broken")).toBe("an older version")
          const fresh = yield* Effect.flip(store.put("3/file_never", broken))
          expect(fresh._tag).toBe("StreamBroke")
          expect((yield* Effect.flip(store.get("3/file_never")))._tag).toBe("BlobNotFound")
          expect(target.partials()).toEqual([])
        })
      )

      it.effect("an interrupted put leaves nothing, even after part of it was written", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          const endless = Stream.concat(generated(6 * MiB), Stream.never)
          const fiber = yield* Effect.forkChild(store.put("4/file_cut", endless))
          // Wait until the store holds part of it (a partial file, an uploaded part) …
          yield* until(() => target.partials().some((bytes) => bytes >= 5 * MiB))
          yield* Fiber.interrupt(fiber)
          // … which goes with the interruption.
          expect(target.partials()).toEqual([])
          expect((yield* Effect.flip(store.get("4/file_cut")))._tag).toBe("BlobNotFound")
        })
      )

      it.effect("lists the keys written before a time", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          yield* store.put("5/file_one", text("one"))
          yield* store.put("5/file_two", text("two"))
          const future = yield* inAWhile(60_000)
          const past = yield* inAWhile(-60 * 60_000)
          const all = yield* store.listKeys!(future)
          expect(all).toEqual(expect.arrayContaining(["5/file_one", "5/file_two"]))
          expect(all.every((key) => BlobStore.isValidKey(key))).toBe(true)
          const old = yield* store.listKeys!(past)
          expect(old.filter((key) => key.startsWith("5/"))).toEqual([])
          yield* store.delete("5/file_one")
          expect(yield* store.listKeys!(future)).not.toContain("5/file_one")
        })
      )

      it.effect("removes the unfinished writes started before a time, not the newer ones", () =>
        Effect.gen(function* () {
          const store = yield* BlobStore.BlobStore
          yield* Effect.promise(() => target.abandonWrite("6/file_abandoned"))
          expect(target.partials()).toHaveLength(1)
          const future = yield* inAWhile(60_000)
          expect(yield* store.removeStalePartials!(yield* inAWhile(-60 * 60_000))).toBe(0)
          expect(target.partials()).toHaveLength(1)
          expect(yield* store.removeStalePartials!(future)).toBe(1)
          expect(target.partials()).toEqual([])
          // Never an object.
          expect((yield* Effect.flip(store.get("6/file_abandoned")))._tag).toBe("BlobNotFound")
          const exit = yield* Effect.exit(store.removeStalePartials!(future))
          assert.deepStrictEqual(exit, Exit.succeed(0))
        })
      )
    })
  })
