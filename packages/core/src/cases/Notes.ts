/**
 * Notes: internal comments on a case, never shown to the respondent. A note
 * is stored as an activity of type `note` (so it sits in the timeline).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Activities } from "./Activities.ts"
import { Actors, type Forbidden, ResponseNotFound, withoutBidiControls } from "../kernel/index.ts"
import { Events, toEventMember } from "../events/index.ts"
import { Members } from "../identity/index.ts"

/** A note (spec: Note). */
export const Note = Schema.Struct({
  id: Schema.Int,
  responseId: Schema.Int,
  type: Schema.Literal("note"),
  payload: Schema.Struct({ body: Schema.String }),
  createdAt: Schema.String
}).annotate({ identifier: "Note" })
export type Note = typeof Note.Type

/** What adding a note takes: its body, 1 to 5000 characters. */
export const AddNoteInput = Schema.Struct({
  // The length as sent (what the OpenAPI document describes); then bidirectional formatting controls are
  // removed (DisplayText) and what is left must not be blank.
  body: Schema.String.check(
    Schema.isMinLength(1, { message: "body must be 1 to 5000 characters" }),
    Schema.isMaxLength(5000, { message: "body must be 1 to 5000 characters" })
  ).pipe(
    Schema.decodeTo(
      Schema.String.check(Schema.makeFilter((body: string) => body.trim() !== "" || "body must not be blank")),
      withoutBidiControls
    )
  )
}).annotate({ identifier: "AddNote" })
export type AddNoteInput = typeof AddNoteInput.Type

/**
 * Adding notes to a case.
 *
 * @example
 * ```ts
 * const note = yield* (yield* Notes).add(actor, responseId, { body: "Called back, waiting for the invoice." })
 * ```
 */
export class Notes extends Context.Service<
  Notes,
  {
    readonly add: (
      actor: Actors.Actor,
      responseId: number,
      input: AddNoteInput
    ) => Effect.Effect<Note, ResponseNotFound | Forbidden | SqlError.SqlError>
  }
>()("@qforms/core/Notes") {
  static readonly layer = Layer.effect(
    Notes,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const activities = yield* Activities
      const events = yield* Events
      const members = yield* Members
      const add = Effect.fn("Notes.add")(function* (actor: Actors.Actor, responseId: number, input: AddNoteInput) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const found = yield* sql<{
              readonly form_id: number
              readonly form_title: string
              readonly stage_id: number | null
              readonly tags: ReadonlyArray<string>
            }>`
            select r.form_id, f.title as form_title, r.stage_id, r.tags
            from responses r join forms f on f.workspace_id = r.workspace_id and f.id = r.form_id
            where r.workspace_id = ${actor.workspaceId} and r.id = ${responseId}
            for key share of r`
            const response = found[0]
            if (response === undefined) {
              return yield* new ResponseNotFound({ message: `response ${responseId} not found` })
            }
            const [activity] = yield* activities.record(actor, responseId, now, [
              {
                type: "note",
                payload: { body: input.body }
              }
            ])
            const member = yield* members.find(actor.workspaceId, actor.accountId)
            const author = member === null ? null : toEventMember(member)
            yield* events.record(
              actor.workspaceId,
              now,
              {
                event: "note.created",
                form: { id: response.form_id, title: response.form_title },
                responseId,
                note: { id: activity!.id, body: input.body, author, createdAt: activity!.createdAt }
              },
              { stageId: response.stage_id, tags: response.tags }
            )
            return {
              id: activity!.id,
              responseId,
              type: "note" as const,
              payload: { body: input.body },
              createdAt: activity!.createdAt
            }
          })
        )
      })
      return Notes.of({ add })
    })
  ).pipe(Layer.provide([Activities.layer, Events.layer, Members.layer]))
}
