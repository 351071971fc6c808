/**
 * Members: the accounts of a workspace, each with a role. An API key acts with
 * its member's role; a `viewer` only reads.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Accounts, EmailAddress, PersonName } from "./Accounts.ts"

/** A member's role: `owner`, `admin`, `member` or `viewer`. */
export const MemberRole = Schema.Literals(["owner", "admin", "member", "viewer"])
export type MemberRole = typeof MemberRole.Type

/** A member as the API shows it (spec: Member). `accountId` is what `assigneeId` refers to. */
export const Member = Schema.Struct({
  accountId: Schema.Int,
  name: Schema.NullOr(Schema.String),
  email: Schema.String,
  role: MemberRole
})
export type Member = typeof Member.Type

/** What adding a member takes. */
export const AddMemberInput = Schema.Struct({
  email: EmailAddress,
  name: Schema.optional(Schema.NullOr(PersonName)),
  role: MemberRole
})
export type AddMemberInput = typeof AddMemberInput.Type

/** No such member in this workspace. */
export class MemberNotFound extends Schema.TaggedError<MemberNotFound>()("MemberNotFound", {
  message: Schema.String
}) {}

interface MemberRow {
  readonly account_id: number
  readonly name: string | null
  readonly email: string
  readonly role: MemberRole
}

const toMember = (row: MemberRow): Member => ({
  accountId: row.account_id,
  name: row.name,
  email: row.email,
  role: row.role
})

/**
 * The members of a workspace.
 *
 * @example
 * ```ts
 * const members = yield* Members
 * const all = yield* members.list(workspaceId)
 * ```
 */
export class Members extends Context.Service<Members, {
  /** Every member of the workspace, by name then e-mail. */
  readonly list: (workspaceId: number) => Effect.Effect<ReadonlyArray<Member>, SqlError.SqlError>
  /** One member, or `MemberNotFound`. */
  readonly get: (workspaceId: number, accountId: number) => Effect.Effect<Member, MemberNotFound | SqlError.SqlError>
  /** Adds the account with this e-mail (created if new); an existing member gets the new role. */
  readonly add: (workspaceId: number, input: AddMemberInput) => Effect.Effect<Member, SqlError.SqlError>
  /** Removes a member (their keys go with them). */
  readonly remove: (workspaceId: number, accountId: number) => Effect.Effect<void, MemberNotFound | SqlError.SqlError>
}>()("@qforms/core/Members") {
  static readonly layer = Layer.effect(
    Members,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const accounts = yield* Accounts

      const list = Effect.fn("Members.list")(function*(workspaceId: number) {
        const rows = yield* sql<MemberRow>`
          select m.account_id, a.name, a.email, m.role
          from members m join accounts a on a.id = m.account_id
          where m.workspace_id = ${workspaceId}
          order by lower(coalesce(a.name, a.email)), a.id`
        return rows.map(toMember)
      })

      const get = Effect.fn("Members.get")(function*(workspaceId: number, accountId: number) {
        const rows = yield* sql<MemberRow>`
          select m.account_id, a.name, a.email, m.role
          from members m join accounts a on a.id = m.account_id
          where m.workspace_id = ${workspaceId} and m.account_id = ${accountId}`
        if (rows.length === 0) {
          return yield* new MemberNotFound({ message: `member ${accountId} not found` })
        }
        return toMember(rows[0]!)
      })

      const add = Effect.fn("Members.add")(function*(workspaceId: number, input: AddMemberInput) {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const account = yield* accounts.findOrCreate({ email: input.email, name: input.name ?? null })
          yield* sql`
            insert into members (workspace_id, account_id, role, created_at)
            values (${workspaceId}, ${account.id}, ${input.role}, ${now})
            on conflict (workspace_id, account_id) do update set role = excluded.role`
          return { accountId: account.id, name: account.name, email: account.email, role: input.role }
        }))
      })

      const remove = Effect.fn("Members.remove")(function*(workspaceId: number, accountId: number) {
        const rows = yield* sql`
          delete from members where workspace_id = ${workspaceId} and account_id = ${accountId} returning account_id`
        if (rows.length === 0) {
          return yield* new MemberNotFound({ message: `member ${accountId} not found` })
        }
      })

      return Members.of({ list, get, add, remove })
    })
  )
}
