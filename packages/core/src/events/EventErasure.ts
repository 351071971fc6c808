/**
 * The outbox side of erasing a person (`privacy/Erasure.ts`): the events about
 * their responses hold their answers, so they are deleted, and with them
 * every delivery of those events; the ones not yet sent (pending or retrying)
 * are answered as cancelled.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

/**
 * The statements, on the current `SqlClient` (inside the caller's transaction).
 *
 * @example
 * ```ts
 * const outbox = yield* EventErasure.make
 * const { cancelledDeliveryIds } = yield* outbox.forgetResponses(workspaceId, [12, 13])
 * ```
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** Cancels the unsent deliveries of the events about `responseIds`, then deletes those events. */
  const forgetResponses = Effect.fn("EventErasure.forgetResponses")(function* (
    workspaceId: number,
    responseIds: ReadonlyArray<number>
  ) {
    if (responseIds.length === 0) return { cancelledDeliveryIds: [], eventCount: 0 }
    const cancelled = yield* sql<{ readonly id: number }>`
      delete from deliveries d using events e
      where e.workspace_id = ${workspaceId} and e.response_id = any(${responseIds}::int[])
        and d.workspace_id = e.workspace_id and d.event_id = e.id and d.status in ('pending', 'retrying')
      returning d.id`
    const events = yield* sql<{ readonly seq: number }>`
      delete from events where workspace_id = ${workspaceId} and response_id = any(${responseIds}::int[])
      returning seq`
    return {
      cancelledDeliveryIds: cancelled.map((row) => row.id).sort((a, b) => a - b),
      eventCount: events.length
    }
  })

  return { forgetResponses }
})
