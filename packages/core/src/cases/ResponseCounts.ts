/**
 * The counts kept beside a form's responses: how many were submitted (sharded
 * rows, so concurrent submissions rarely wait on each other) and how many carry
 * each tag (the list's tag filter). Written in the transaction of the change
 * they count.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as SqlClient from "effect/sql/SqlClient"

/** Shards of each form's response count (see `form_response_counts`). */
const COUNT_SHARDS = 8

/** The counters, on the current `SqlClient` (inside the caller's transaction). */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** A shard of a form's response count, picked at random so writers rarely wait on each other. */
  const randomShard = Random.nextIntBetween(0, COUNT_SHARDS, { halfOpen: true })

  /** The insert that adds `delta` to one shard of the form's response count (a fragment for a larger statement). */
  const countResponsesInsert = (workspaceId: number, formId: number, shard: number, delta: number) => sql`
        insert into form_response_counts (workspace_id, form_id, shard, n)
        values (${workspaceId}, ${formId}, ${shard}, ${delta})
        on conflict (form_id, shard) do update set n = form_response_counts.n + excluded.n`

  /** Adds `delta` to the form's response count, on a random shard. */
  const countResponses = (workspaceId: number, formId: number, delta: number) =>
    Effect.flatMap(randomShard, (shard) => countResponsesInsert(workspaceId, formId, shard, delta)).pipe(Effect.asVoid)

  /** Adds `delta` to the count of each tag in the form; tags no response carries are dropped. */
  const countTags = (workspaceId: number, formId: number, tags: ReadonlyArray<string>, delta: 1 | -1) =>
    tags.length === 0
      ? Effect.void
      : Effect.gen(function* () {
          yield* sql`
        insert into form_tags (workspace_id, form_id, tag, n)
        select ${workspaceId}, ${formId}, t.tag, ${delta} from unnest(${tags}::text[]) as t(tag)
        on conflict (form_id, tag) do update set n = form_tags.n + excluded.n`
          if (delta < 0) {
            yield* sql`delete from form_tags where form_id = ${formId} and n <= 0`
          }
        })

  return { randomShard, countResponsesInsert, countResponses, countTags }
})
