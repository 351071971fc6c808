/**
 * Accounts: people who sign in. One account may be a member of several
 * workspaces (see `Members.ts`); an account is found by its e-mail address.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { DisplayTrim } from "../kernel/index.ts"

/** An account. */
export const Account = Schema.Struct({
  id: Schema.Int,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type Account = typeof Account.Type

/**
 * A plausible e-mail address (at most 254 characters), trimmed: a domain with a dot, or `localhost`, the
 * domain of the owner a first start creates (`owner@localhost`), whose password must stay recoverable.
 */
export const EmailAddress = Schema.Trim.pipe(
  Schema.check(
    Schema.isMaxLength(254),
    Schema.isPattern(/^[^\s@]+@(?:[^\s@]+\.[^\s@]+|localhost)$/i, { message: "must be an e-mail address" })
  )
)

/** A person's display name: 1 to 200 characters, trimmed. */
export const PersonName = DisplayTrim.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))

interface AccountRow {
  readonly id: number
  readonly email: string
  readonly name: string | null
  readonly created_at: Date
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: row.created_at.toISOString()
})

/**
 * Finding and creating accounts. Used by `Members` and `Workspaces`; accounts
 * are not tenant data, so these are the only queries without a workspace id.
 */
export class Accounts extends Context.Service<
  Accounts,
  {
    /**
     * The account with this e-mail (case-insensitive), created (with `name`)
     * when there is none. An existing account is answered as it is: it may be
     * another workspace's member, and only its owner changes it.
     */
    readonly findOrCreate: (input: {
      readonly email: string
      readonly name?: string | null | undefined
    }) => Effect.Effect<Account, SqlError.SqlError>
  }
>()("@qforms/core/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const findOrCreate = Effect.fn("Accounts.findOrCreate")(function* (input: {
        readonly email: string
        readonly name?: string | null | undefined
      }) {
        const now = new Date(yield* Clock.currentTimeMillis)
        const name = input.name ?? null
        // The no-op update only makes the existing row come back (do nothing would return none); nothing changes.
        const rows = yield* sql<AccountRow>`
          insert into accounts (email, name, created_at) values (${input.email}, ${name}, ${now})
          on conflict (lower(email)) do update set email = accounts.email
          returning id, email, name, created_at`
        return toAccount(rows[0]!)
      })
      return Accounts.of({ findOrCreate })
    })
  )
}
