/**
 * The database's disk running out of space. A write that finds no room fails
 * (SQLSTATE 53100, "No space left on device") while reads still work, so a
 * readiness check that only reads said "ready" while every submission failed.
 * Now such a failure is answered 503 naming the cause (`Http.ts`), noted
 * here, and the readiness check reports not-ready: on the embedded database
 * while the data directory's file system has less than 16 MB free (read with
 * `statfs` at each check), on PostgreSQL (whose disk is its server's) for 30 s
 * after a write found it full. Freeing space brings it back without a
 * restart.
 */
import { statfs } from "node:fs/promises"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** Below this much free space on the data directory's file system the embedded database is not ready. */
export const minimumFreeBytes = 16 * 1024 * 1024

/** How long after a write found the disk full the database is reported not ready. */
const fullForMs = 30_000

/**
 * Whether a failure is the database's disk out of space: SQLSTATE 53100
 * (`disk_full`) or the system's ENOSPC text in the message.
 *
 * @example
 * ```ts
 * if (DiskSpace.isDiskFull(error)) return json(503, { error: "the database's disk is full" })
 * ```
 */
export const isDiskFull = (error: unknown): boolean => {
  if (typeof error !== "object" || error === null || !("_tag" in error) || error._tag !== "SqlError") return false
  const reason = (error as { readonly reason?: { readonly cause?: unknown; readonly message?: unknown } }).reason
  const cause = reason?.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  return (
    cause?.code === "53100" ||
    (typeof cause?.message === "string" && cause.message.includes("No space left on device")) ||
    (typeof reason?.message === "string" && reason.message.includes("No space left on device"))
  )
}

/**
 * @example
 * ```ts
 * const space = yield* DiskSpace
 * yield* space.check // fails with the reason when the disk is full
 * ```
 */
export class DiskSpace extends Context.Service<
  DiskSpace,
  {
    /** Notes that a write found the disk full (the readiness check reports it for a while). */
    readonly noteFull: Effect.Effect<void>
    /** Undefined when there is room; else why not, for `/readyz`. */
    readonly shortage: Effect.Effect<string | undefined>
  }
>()("@qforms/core/storage/DiskSpace") {
  /**
   * The disk of the database: `dataDir`, the embedded database's directory
   * (its free space read at each check), or none (PostgreSQL's disk is its
   * server's: only the failures tell).
   */
  static readonly layer = (dataDir: string | undefined): Layer.Layer<DiskSpace> =>
    Layer.sync(DiskSpace, () => {
      let fullAt: number | undefined
      const now = Effect.clockWith((clock) => clock.currentTimeMillis)
      return DiskSpace.of({
        noteFull: Effect.map(now, (at) => {
          fullAt = at
        }),
        shortage: Effect.gen(function* () {
          if (dataDir === undefined) {
            const at = yield* now
            return fullAt !== undefined && at - fullAt < fullForMs
              ? "a write found the database's disk full in the last 30 s"
              : undefined
          }
          const stats = yield* Effect.promise(() => statfs(dataDir).catch(() => undefined))
          if (stats === undefined) return undefined
          const free = stats.bavail * stats.bsize
          return free < minimumFreeBytes
            ? `the embedded database's disk has ${Math.floor(free / 1024 / 1024)} MB free (${dataDir})`
            : undefined
        })
      })
    })
}
