/**
 * The sweep of stored files: uploads never attached to a response within
 * {@link unattachedLifetimeMs}, and objects a crash left in the blob store
 * without a record (older than {@link orphanGraceMs}); `Files.sweep` runs it
 * (and `layerSweeper` every hour).
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as SqlClient from "effect/sql/SqlClient"
import type { BlobStore } from "./BlobStore.ts"

/** How long an upload may wait for the submission that attaches it: 24 hours. */
export const unattachedLifetimeMs = 24 * 60 * 60 * 1000

/**
 * How old a stored object without a file record, or an unfinished write, must
 * be before the sweep deletes it: far longer than the moment between an
 * upload's `put` and the insert of its record, so an upload in flight is never
 * taken for an orphan.
 */
export const orphanGraceMs = 60 * 60 * 1000

const keysOf = (rows: ReadonlyArray<{ readonly storage_key: string }>) => rows.map((row) => row.storage_key)

/**
 * The sweep, on the files' own statements: answers how many files and objects it deleted.
 *
 * @example
 * ```ts
 * const sweep = FileSweep.make(sql, blobs, deleteBlobs)
 * const deleted = yield* sweep
 * ```
 */
export const make = (
  sql: SqlClient.SqlClient,
  blobs: BlobStore["Service"],
  deleteBlobs: (keys: ReadonlyArray<string>) => Effect.Effect<void>
) => {
  // Objects that a crash left without a record (or a record's deletion left
  // behind), and unfinished writes: only what the store can list, only
  // what is older than the grace period, keys checked per workspace.
  const sweepOrphans = Effect.gen(function* () {
    const graceCutoff = new Date((yield* Clock.currentTimeMillis) - orphanGraceMs)
    const partials = blobs.removeStalePartials === undefined ? 0 : yield* blobs.removeStalePartials(graceCutoff)
    if (blobs.listKeys === undefined) return partials
    const byWorkspace = new Map<number, Array<string>>()
    for (const key of yield* blobs.listKeys(graceCutoff)) {
      const workspaceId = Number(key.split("/")[0])
      if (!Number.isSafeInteger(workspaceId)) continue
      const keys = byWorkspace.get(workspaceId)
      if (keys === undefined) byWorkspace.set(workspaceId, [key])
      else keys.push(key)
    }
    let orphans = 0
    for (const [workspaceId, keys] of byWorkspace) {
      for (let start = 0; start < keys.length; start += 500) {
        const batch = keys.slice(start, start + 500)
        const known = new Set(
          keysOf(
            yield* sql<{ readonly storage_key: string }>`
          select storage_key from files where workspace_id = ${workspaceId} and storage_key in ${sql.in(batch)}
          union all
          select storage_key from images where workspace_id = ${workspaceId} and storage_key in ${sql.in(batch)}`
          )
        )
        const orphaned = batch.filter((key) => !known.has(key))
        yield* deleteBlobs(orphaned)
        orphans += orphaned.length
      }
    }
    return partials + orphans
  }).pipe(
    Effect.catchTag("BlobStoreError", (error) =>
      Effect.as(Effect.logWarning("qforms: could not list the blob store to sweep orphaned files", error), 0)
    )
  )

  const sweep = Effect.gen(function* () {
    const cutoff = new Date((yield* Clock.currentTimeMillis) - unattachedLifetimeMs)
    // Maintenance across workspaces: each row is claimed by the delete, so
    // sweeps in several processes never delete a blob twice.
    const keys = keysOf(
      yield* sql<{ readonly storage_key: string }>`
      delete from files where id in (
        select id from files where response_id is null and created_at < ${cutoff} limit 1000
      ) and response_id is null
      returning storage_key`
    )
    yield* deleteBlobs(keys)
    return keys.length + (yield* sweepOrphans)
  }).pipe(Effect.withSpan("Files.sweep"))
  return sweep
}
