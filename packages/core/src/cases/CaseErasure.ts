/**
 * The cases side of erasing and expiring a person's data (`privacy/Erasure.ts`,
 * `privacy/Retention.ts`): the statements on responses, contacts and
 * activities, which only cases write. Each runs on the current `SqlClient`,
 * inside the caller's transaction; the caller settles what a deletion leaves
 * (`ResponseDeletions`) and records what it did.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { Actors } from "../kernel/index.ts"

/** The activities that carry a respondent's words or answers: an anonymised case keeps none of them. */
export const personalActivityTypes = ["answers_changed", "email_sent", "email_reply"]

/**
 * The statements.
 *
 * @example
 * ```ts
 * const cases = yield* CaseErasure.make
 * yield* cases.deleteResponses(workspaceId, [12, 13])
 * ```
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** Deletes responses (their notes, activities and answers go with them). */
  const deleteResponses = (workspaceId: number, responseIds: ReadonlyArray<number>) =>
    responseIds.length === 0
      ? Effect.void
      : Effect.asVoid(
          sql`delete from responses where workspace_id = ${workspaceId} and id = any(${responseIds}::int[])`
        )

  /** Deletes contacts. */
  const deleteContacts = (workspaceId: number, contactIds: ReadonlyArray<number>) =>
    contactIds.length === 0
      ? Effect.void
      : Effect.asVoid(sql`delete from contacts where workspace_id = ${workspaceId} and id = any(${contactIds}::int[])`)

  /**
   * Flags for review the notes anywhere in the workspace whose body holds one of `needles` (lower case):
   * answers the flagged notes' ids.
   */
  const flagNotesNaming = (workspaceId: number, needles: ReadonlyArray<string>, flaggedBy: Actors.Actor, at: Date) =>
    sql<{ readonly id: number }>`
      update activities set review_flagged_at = ${at},
        review_flagged_by = ${JSON.stringify(Actors.toActivityActor(flaggedBy))}::jsonb
      where workspace_id = ${workspaceId} and type = 'note'
        and exists (
          select 1 from unnest(${needles}::text[]) as n(needle)
          where strpos(lower(payload->>'body'), n.needle) > 0
        )
      returning id`

  /**
   * Anonymises finished responses: their answers, name, address and contact go, and so do their
   * {@link personalActivityTypes}; each gets an `anonymised` activity by `actor` saying after how many days.
   */
  const anonymise = Effect.fnUntraced(function* (
    workspaceId: number,
    responseIds: ReadonlyArray<number>,
    olderThanDays: number,
    actor: Actors.Actor,
    at: Date
  ) {
    if (responseIds.length === 0) return
    yield* sql`
      delete from activities
      where workspace_id = ${workspaceId} and response_id = any(${responseIds}::int[])
        and type = any(${personalActivityTypes}::text[])`
    // The answer tallies follow the answers (migration 0031's update trigger).
    yield* sql`
      update responses
      set answers = '{}'::jsonb, search_text = '', name = null, email = null, contact_id = null,
        anonymised_at = ${at}
      where workspace_id = ${workspaceId} and id = any(${responseIds}::int[])`
    const payload = JSON.stringify({ olderThanDays })
    yield* sql`
      insert into activities (workspace_id, response_id, type, actor, payload, created_at)
      select ${workspaceId}, t.id, 'anonymised',
        ${JSON.stringify(Actors.toActivityActor(actor))}::jsonb, ${payload}::jsonb, ${at}
      from unnest(${responseIds}::int[]) as t(id)`
  })

  return { deleteResponses, deleteContacts, flagNotesNaming, anonymise }
})
