/**
 * Which statements go first when the database has one connection (PGlite):
 * the delivery worker marks its few short statements urgent so that they do
 * not wait behind every queued API request. On PostgreSQL (a pool) it changes
 * nothing.
 *
 * @module
 */
import * as Context from "effect/Context"

/**
 * Whether the statements of this fiber are urgent (default: no). An urgent
 * statement waits for the statement or transaction running now and at most
 * one queued ordinary one, not for the whole queue.
 *
 * @example
 * ```ts
 * const claimed = yield* deliveries.claim({ limit: 32, leaseMs }).pipe(Effect.provideService(SqlPriority, true))
 * ```
 */
export const SqlPriority = Context.Reference<boolean>("@qforms/core/storage/SqlPriority", {
  defaultValue: () => false
})
