/**
 * What the deletion of responses leaves behind, written in the deletion's
 * transaction: the forms' tag counts lowered and, for
 * each submitted response, `response.deleted` recorded (the form, the id and
 * the time: no personal data), so subscribers can delete their copy. A partial
 * response was never announced, so neither is its deletion. (The responses'
 * own counts follow the deletion by its trigger: `ResponseFold.ts`.) One rule
 * for a member's deletion, an erasure and a retention run.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import { Events } from "../events/index.ts"
import * as ResponseCounts from "./ResponseCounts.ts"

/** A response the caller has just deleted, as it was. */
export interface DeletedResponse {
  readonly id: number
  readonly formId: number
  readonly formTitle: string
  readonly finished: boolean
  readonly stageId: number | null
  readonly tags: ReadonlyArray<string>
}

/**
 * The settling of deleted responses, on the current `SqlClient` (call it in
 * the deletion's transaction).
 *
 * @example
 * ```ts
 * const settle = yield* ResponseDeletions.make
 * yield* sql`delete from responses where workspace_id = ${workspaceId} and id = ${id}`
 * yield* settle(workspaceId, now, [{ id, formId, formTitle, finished: true, stageId: null, tags: [] }])
 * ```
 */
export const make = Effect.gen(function* () {
  const events = yield* Events
  const { countTags } = yield* ResponseCounts.make
  return (workspaceId: number, now: Date, rows: ReadonlyArray<DeletedResponse>) =>
    Effect.gen(function* () {
      for (const row of rows) {
        yield* countTags(workspaceId, row.formId, row.tags, -1)
        if (!row.finished) continue
        yield* events.record(
          workspaceId,
          now,
          {
            event: "response.deleted",
            form: { id: row.formId, title: row.formTitle },
            responseId: row.id,
            deletedAt: now.toISOString()
          },
          { stageId: row.stageId, tags: row.tags }
        )
      }
    })
})
