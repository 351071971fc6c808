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
import { ApiKeyCache } from "./ApiKeyCache.ts"
import { Accounts, EmailAddress, PersonName } from "./Accounts.ts"
import { Actors, Conflict, type Forbidden, MemberRole } from "../kernel/index.ts"
import { AuditLogModule as AuditLog } from "../audit/index.ts"

export { MemberRole } from "../kernel/index.ts"

/** A member as the API shows it (spec: Member). `accountId` is what `assigneeId` refers to. */
export const Member = Schema.Struct({
  accountId: Schema.Int,
  name: Schema.NullOr(Schema.String),
  email: Schema.String,
  role: MemberRole,
  /** Extension: away for now; assignment rules pass them by (`cases/AssignmentRules.ts`). */
  away: Schema.Boolean
})
export type Member = typeof Member.Type

/** What adding a member takes. */
export const AddMemberInput = Schema.Struct({
  email: EmailAddress,
  name: Schema.optional(Schema.NullOr(PersonName)),
  role: MemberRole
})
export type AddMemberInput = typeof AddMemberInput.Type

/** What changing a member's role takes. */
export const ChangeRoleInput = Schema.Struct({ role: MemberRole })
export type ChangeRoleInput = typeof ChangeRoleInput.Type

/** What marking a member away (or back) takes. */
export const SetAwayInput = Schema.Struct({ away: Schema.Boolean })
export type SetAwayInput = typeof SetAwayInput.Type

/** No such member in this workspace. */
export class MemberNotFound extends Schema.TaggedError<MemberNotFound>()("MemberNotFound", {
  message: Schema.String
}) {}

interface MemberRow {
  readonly account_id: number
  readonly name: string | null
  readonly email: string
  readonly role: MemberRole
  readonly away: boolean
}

const toMember = (row: MemberRow): Member => ({
  accountId: row.account_id,
  name: row.name,
  email: row.email,
  role: row.role,
  away: row.away
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
export class Members extends Context.Service<
  Members,
  {
    /** Every member of the workspace, by name then e-mail. */
    readonly list: (workspaceId: number) => Effect.Effect<ReadonlyArray<Member>, SqlError.SqlError>
    /** One member, or `MemberNotFound`. */
    readonly get: (workspaceId: number, accountId: number) => Effect.Effect<Member, MemberNotFound | SqlError.SqlError>
    /** One member, or null for no account or one who is not (or no longer) a member, as events name people. */
    readonly find: (workspaceId: number, accountId: number | null) => Effect.Effect<Member | null, SqlError.SqlError>
    /** Adds the account with this e-mail (created if new); an existing member gets the new role. */
    readonly add: (workspaceId: number, input: AddMemberInput) => Effect.Effect<Member, SqlError.SqlError>
    /** Removes a member: their sessions end, their keys are revoked and their unused sign-in links spent, in one transaction. */
    readonly remove: (workspaceId: number, accountId: number) => Effect.Effect<void, MemberNotFound | SqlError.SqlError>
    /**
     * Checks, in a transaction that locks both members' rows, that the actor may
     * act on this member (issue or revoke their keys, change their role to
     * `grant`, remove them) under {@link Actors.requireAuthorityOver}, with both
     * roles read fresh; answers the member. Every member/key/role path calls it.
     */
    readonly authorize: (
      actor: Actors.Actor,
      accountId: number,
      grant?: MemberRole | undefined
    ) => Effect.Effect<Member, Forbidden | MemberNotFound | SqlError.SqlError>
    /**
     * Adds a member as an actor (the API and the application): owners and
     * admins, never with a role above their own; re-adding an existing member is
     * a role change under the same rules.
     */
    readonly invite: (
      actor: Actors.Actor,
      input: AddMemberInput
    ) => Effect.Effect<Member, Forbidden | Conflict | SqlError.SqlError>
    /**
     * Changes a member's role as an actor: owners and admins, on members below
     * their own role (or themselves, downwards), never to a role above their own;
     * one owner always stays.
     */
    readonly changeRole: (
      actor: Actors.Actor,
      accountId: number,
      role: MemberRole
    ) => Effect.Effect<Member, Forbidden | Conflict | MemberNotFound | SqlError.SqlError>
    /**
     * Marks a member away or back: any member but a viewer for themself, owners
     * and admins for anyone. Answers the member as they are now.
     *
     * @example
     * ```ts
     * const member = yield* members.setAway(actor, actor.accountId!, true)
     * ```
     */
    readonly setAway: (
      actor: Actors.Actor,
      accountId: number,
      away: boolean
    ) => Effect.Effect<Member, Forbidden | MemberNotFound | SqlError.SqlError>
    /** Removes a member as an actor, with the rules of {@link changeRole}. */
    readonly dismiss: (
      actor: Actors.Actor,
      accountId: number
    ) => Effect.Effect<void, Forbidden | Conflict | MemberNotFound | SqlError.SqlError>
  }
>()("@qforms/core/Members") {
  static readonly layer = Layer.effect(
    Members,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const accounts = yield* Accounts
      const keys = yield* ApiKeyCache
      // A change to a membership drops the workspace's keys from this process's memory at once (after the
      // change; other processes drop them when its notice arrives).
      const droppingKeys =
        (workspaceId: number) =>
        <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.ensuring(
            effect,
            Effect.sync(() => keys.dropWorkspace(workspaceId))
          )

      const list = Effect.fn("Members.list")(function* (workspaceId: number) {
        const rows = yield* sql<MemberRow>`
          select m.account_id, a.name, a.email, m.role, m.away
          from members m join accounts a on a.id = m.account_id
          where m.workspace_id = ${workspaceId}
          order by lower(coalesce(a.name, a.email)), a.id`
        return rows.map(toMember)
      })

      const get = Effect.fn("Members.get")(function* (workspaceId: number, accountId: number) {
        const rows = yield* sql<MemberRow>`
          select m.account_id, a.name, a.email, m.role, m.away
          from members m join accounts a on a.id = m.account_id
          where m.workspace_id = ${workspaceId} and m.account_id = ${accountId}`
        if (rows.length === 0) {
          return yield* new MemberNotFound({ message: `member ${accountId} not found` })
        }
        return toMember(rows[0]!)
      })

      const add = Effect.fn("Members.add")(function* (workspaceId: number, input: AddMemberInput) {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const account = yield* accounts.findOrCreate({ email: input.email, name: input.name ?? null })
              const rows = yield* sql<{ readonly away: boolean }>`
            insert into members (workspace_id, account_id, role, created_at)
            values (${workspaceId}, ${account.id}, ${input.role}, ${now})
            on conflict (workspace_id, account_id) do update set role = excluded.role
            returning away`
              return {
                accountId: account.id,
                name: account.name,
                email: account.email,
                role: input.role,
                away: (rows[0] as { readonly away: boolean }).away
              }
            })
          )
          .pipe(droppingKeys(workspaceId))
      })

      const remove = Effect.fn("Members.remove")(function* (workspaceId: number, accountId: number) {
        const now = new Date(yield* Clock.currentTimeMillis)
        // The membership's sessions, keys and unused sign-in links end with it, in the same transaction: re-adding
        // the account later must not bring an old cookie or key back to life.
        yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const rows = yield* sql`
            delete from members where workspace_id = ${workspaceId} and account_id = ${accountId} returning account_id`
              if (rows.length === 0) {
                return yield* new MemberNotFound({ message: `member ${accountId} not found` })
              }
              yield* sql`delete from sessions where workspace_id = ${workspaceId} and account_id = ${accountId}`
              yield* sql`delete from sign_in_links where workspace_id = ${workspaceId} and account_id = ${accountId} and used_at is null`
              yield* sql`
            update api_keys set revoked_at = ${now}
            where workspace_id = ${workspaceId} and account_id = ${accountId} and revoked_at is null`
            })
          )
          .pipe(droppingKeys(workspaceId))
      })

      const keepAnOwner = Effect.fn("Members.keepAnOwner")(function* (workspaceId: number, accountId: number) {
        const owners = yield* sql<{ readonly account_id: number }>`
          select account_id from members where workspace_id = ${workspaceId} and role = 'owner' for update`
        if (owners.length === 1 && owners[0]!.account_id === accountId) {
          return yield* new Conflict({ message: "a workspace keeps at least one owner: make someone else owner first" })
        }
      })

      // Both rows are locked (in account id order, so two callers acting on each other cannot deadlock) and the
      // roles are read as they are now, not as they were when the request authenticated.
      const authorizeNow = Effect.fn("Members.authorize")(function* (
        actor: Actors.Actor,
        accountId: number | undefined,
        grant: MemberRole | undefined,
        ownersOverOwners = false
      ) {
        const ids = [actor.accountId, accountId].filter((id): id is number => id !== null && id !== undefined)
        const rows =
          ids.length === 0
            ? []
            : yield* sql<MemberRow>`
          select m.account_id, a.name, a.email, m.role, m.away
          from members m join accounts a on a.id = m.account_id
          where m.workspace_id = ${actor.workspaceId} and ${sql.in("m.account_id", ids)}
          order by m.account_id
          for update of m`
        const callerRole =
          actor.kind === "system" ? null : (rows.find((row) => row.account_id === actor.accountId)?.role ?? null)
        if (actor.kind !== "system") yield* Actors.requireAuthorityOver(actor, callerRole, undefined, grant)
        if (accountId === undefined) return undefined
        const target = rows.find((row) => row.account_id === accountId)
        if (target === undefined) return yield* new MemberNotFound({ message: `member ${accountId} not found` })
        yield* Actors.requireAuthorityOver(actor, callerRole, { accountId, role: target.role }, grant, {
          ownersOverOwners
        })
        return toMember(target)
      })

      const authorize = (actor: Actors.Actor, accountId: number, grant?: MemberRole | undefined) =>
        Effect.andThen(Actors.requireAdmin(actor), sql.withTransaction(authorizeNow(actor, accountId, grant))).pipe(
          Effect.map((member) => member!)
        )

      const invite = Effect.fn("Members.invite")(function* (actor: Actors.Actor, input: AddMemberInput) {
        yield* Actors.requireAdmin(actor)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const existing = yield* sql<{ readonly account_id: number }>`
            select m.account_id from members m join accounts a on a.id = m.account_id
            where m.workspace_id = ${actor.workspaceId} and lower(a.email) = lower(${input.email})`
            // Re-adding an existing member with another role is a role change: the same rules apply.
            // (Removed meanwhile: then it is someone new, for whom only the role given counts, checked first.)
            const member = yield* authorizeNow(actor, existing[0]?.account_id, input.role).pipe(
              Effect.catchTag("MemberNotFound", () => Effect.succeed(undefined))
            )
            if (member?.role === "owner" && input.role !== "owner")
              yield* keepAnOwner(actor.workspaceId, member.accountId)
            const added = yield* add(actor.workspaceId, input)
            if (member?.role !== added.role)
              yield* AuditLog.record(
                sql,
                actor,
                member === undefined
                  ? {
                      action: "member.added",
                      target: { type: "account", id: added.accountId },
                      details: { email: added.email, role: added.role }
                    }
                  : {
                      action: "member.role_changed",
                      target: { type: "account", id: added.accountId },
                      details: { from: member.role, to: added.role }
                    }
              )
            return added
          })
        )
      })

      const changeRole = Effect.fn("Members.changeRole")(function* (
        actor: Actors.Actor,
        accountId: number,
        role: MemberRole
      ) {
        yield* Actors.requireAdmin(actor)
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const member = (yield* authorizeNow(actor, accountId, role, true))!
              if (member.role === role) return member
              if (member.role === "owner") yield* keepAnOwner(actor.workspaceId, accountId)
              yield* sql`update members set role = ${role} where workspace_id = ${actor.workspaceId} and account_id = ${accountId}`
              yield* AuditLog.record(sql, actor, {
                action: "member.role_changed",
                target: { type: "account", id: accountId },
                details: { from: member.role, to: role }
              })
              return { ...member, role }
            })
          )
          .pipe(droppingKeys(actor.workspaceId))
      })

      const dismiss = Effect.fn("Members.dismiss")(function* (actor: Actors.Actor, accountId: number) {
        yield* Actors.requireAdmin(actor)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const member = (yield* authorizeNow(actor, accountId, undefined, true))!
            if (member.role === "owner") yield* keepAnOwner(actor.workspaceId, accountId)
            yield* remove(actor.workspaceId, accountId)
            yield* AuditLog.record(sql, actor, {
              action: "member.removed",
              target: { type: "account", id: accountId },
              details: { role: member.role }
            })
          })
        )
      })

      const setAway = Effect.fn("Members.setAway")(function* (actor: Actors.Actor, accountId: number, away: boolean) {
        // A member (not a viewer, who only reads) sets it for themself; owners and admins for a lower role only
        // (as for keys and roles: nobody manages an equal or higher role).
        if (actor.kind !== "system" && actor.accountId === accountId) yield* Actors.requireWrite(actor)
        else if (actor.kind !== "system") {
          const target = yield* get(actor.workspaceId, accountId)
          yield* Actors.requireAuthorityOver(actor, actor.role, target)
        }
        const rows = yield* sql<{ readonly account_id: number }>`
          update members set away = ${away} where workspace_id = ${actor.workspaceId} and account_id = ${accountId}
          returning account_id`
        if (rows.length === 0) return yield* new MemberNotFound({ message: `member ${accountId} not found` })
        return yield* get(actor.workspaceId, accountId)
      })

      const find = (workspaceId: number, accountId: number | null) =>
        accountId === null
          ? Effect.succeed(null)
          : get(workspaceId, accountId).pipe(Effect.catchTag("MemberNotFound", () => Effect.succeed(null)))

      return Members.of({ list, get, find, add, remove, authorize, invite, changeRole, dismiss, setAway })
    })
  ).pipe(Layer.provide([Accounts.layer, ApiKeyCache.layer]))
}
