/**
 * The count kept beside a form's responses by their changes: how many carry
 * each tag (the list's tag filter), written in the transaction of the change
 * it counts. (How many responses a form has is folded in the background:
 * `ResponseFold.ts`.)
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

/** The counters, on the current `SqlClient` (inside the caller's transaction). */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

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

  return { countTags }
})
