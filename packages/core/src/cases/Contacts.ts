/**
 * Contacts: one per e-mail address per workspace, so one person's responses
 * link together and a name given once fills in later responses.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"

/** A contact. */
export const Contact = Schema.Struct({
  id: Schema.Int,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type Contact = typeof Contact.Type

/** A contact as stored. */
export interface ContactRow {
  readonly id: number
  readonly email: string
  readonly name: string | null
  readonly created_at: Date
}

/**
 * Finding the contact of a respondent.
 *
 * @example
 * ```ts
 * const contact = yield* (yield* Contacts).upsert(workspaceId, { email: "ada@example.com", name: "Ada" })
 * ```
 */
export class Contacts extends Context.Service<
  Contacts,
  {
    /**
     * The workspace's contact with this e-mail (case-insensitive), created when
     * there is none. A newly given name replaces the stored one.
     */
    readonly upsert: (
      workspaceId: number,
      input: { readonly email: string; readonly name: string | null }
    ) => Effect.Effect<Contact, SqlError.SqlError>
    /**
     * The statement of {@link upsert} (returning the stored row), for a change
     * that writes the contact in a statement of its own making, e.g.
     * `with contact as (${upsertStatement(…)}) select …`.
     */
    readonly upsertStatement: (
      workspaceId: number,
      input: { readonly email: string; readonly name: string | null },
      at: Date
    ) => Statement.Statement<ContactRow>
  }
>()("@qforms/core/Contacts") {
  static readonly layer = Layer.effect(
    Contacts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const upsertStatement = (
        workspaceId: number,
        input: { readonly email: string; readonly name: string | null },
        at: Date
      ) => sql<ContactRow>`
          insert into contacts (workspace_id, email, name, created_at)
          values (${workspaceId}, ${input.email}, ${input.name}, ${at})
          on conflict (workspace_id, lower(email)) do update set name = coalesce(excluded.name, contacts.name)
          returning id, email, name, created_at`
      const upsert = Effect.fn("Contacts.upsert")(function* (
        workspaceId: number,
        input: { readonly email: string; readonly name: string | null }
      ) {
        const rows = yield* upsertStatement(workspaceId, input, new Date(yield* Clock.currentTimeMillis))
        const row = rows[0]!
        return { id: row.id, email: row.email, name: row.name, createdAt: row.created_at.toISOString() }
      })
      return Contacts.of({ upsert, upsertStatement })
    })
  )
}
