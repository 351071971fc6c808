/**
 * How a team gets in: invitations (an owner or admin invites an e-mail
 * address with a role; the invitee sets a password, or signs in to the
 * account the address already has, and becomes a member), password resets by
 * e-mail, and one-time sign-in links an owner or admin issues for a member.
 *
 * Every token is 32 random bytes (base64url), shown once; only its SHA-256 is
 * stored and looked up, so no stored token can be used and nothing compares
 * a secret byte by byte. A token is spent in the very statement that checks
 * it (`update … where token_hash = … and not used and not expired returning`),
 * inside the transaction that makes its change: of two uses at once exactly
 * one wins, and a spent token is refused.
 *
 * Invitations last {@link invitationMs} (7 days), resets {@link resetMs}
 * (1 hour), member sign-in links `Sessions.memberSignInLinkMs` (15 minutes).
 */
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Accounts, EmailAddress } from "./Accounts.ts"
import { Actors, Conflict, type Forbidden } from "../kernel/index.ts"
import { AuditLogModule as AuditLog } from "../audit/index.ts"
import { type MemberNotFound, MemberRole, Members } from "./Members.ts"
import { type AccountLocked, type Opened, Sessions, type SignInRefused, memberSignInLinkMs } from "./Sessions.ts"

/** How long an invitation is valid (7 days). */
export const invitationMs = 7 * 24 * 60 * 60_000
/** How long a password reset link is valid (1 hour). */
export const resetMs = 60 * 60_000

/** A pending invitation as the API shows it (never its token). */
export const Invitation = Schema.Struct({
  id: Schema.Int,
  email: Schema.String,
  role: MemberRole,
  /** The account of the owner or admin who invited; null when it is gone or the system invited. */
  invitedBy: Schema.NullOr(Schema.Int),
  createdAt: Schema.String,
  expiresAt: Schema.String,
  /** `expired` once `expiresAt` has passed (it can no longer be accepted; revoke it or invite again). */
  status: Schema.Literals(["pending", "expired"])
})
export type Invitation = typeof Invitation.Type

/** What inviting takes. */
export const CreateInvitationInput = Schema.Struct({
  email: EmailAddress,
  role: MemberRole
})
export type CreateInvitationInput = typeof CreateInvitationInput.Type

/**
 * A new invitation: `emailed` when it went out by e-mail; otherwise `link`
 * (`{appUrl}/app/invite/{token}`), shown only in this answer, for the inviter
 * to pass on.
 */
export const CreatedInvitation = Schema.Struct({
  ...Invitation.fields,
  emailed: Schema.Boolean,
  link: Schema.optionalKey(Schema.String),
  emailError: Schema.optionalKey(Schema.String)
})
export type CreatedInvitation = typeof CreatedInvitation.Type

/** A one-time sign-in link for a member, valid 15 minutes. */
export const IssuedSignInLink = Schema.Struct({
  accountId: Schema.Int,
  link: Schema.String,
  expiresAt: Schema.String
})
export type IssuedSignInLink = typeof IssuedSignInLink.Type

/** No such invitation in this workspace (or no pending one). */
export class InvitationNotFound extends Schema.TaggedError<InvitationNotFound>()("InvitationNotFound", {
  message: Schema.String
}) {}

/** An invitation or reset token nobody issued. */
export class TokenUnknown extends Schema.TaggedError<TokenUnknown>()("TokenUnknown", {
  message: Schema.String
}) {}

/** A token that was used, revoked or has expired. */
export class TokenGone extends Schema.TaggedError<TokenGone>()("TokenGone", {
  message: Schema.String
}) {}

/** What an invitation token leads to, for the page that accepts it. */
export interface InvitationView {
  readonly workspaceId: number
  readonly workspaceName: string
  readonly email: string
  readonly role: MemberRole
  /**
   * `new`: no account, or one without a password and without another
   * workspace: the invitee sets a name and password. `password`: the account
   * has a password: the invitee signs in with it. `signInFirst`: an account
   * without a password that belongs to another workspace: it must sign in
   * there first (a reset or a sign-in link), then accept.
   */
  readonly account: "new" | "password" | "signInFirst"
}

/** How the invitee proves who they are when accepting. */
export type Acceptance =
  | { readonly _tag: "NewPassword"; readonly name: string | null; readonly passwordHash: string }
  | { readonly _tag: "Password"; readonly password: string }
  | { readonly _tag: "Session"; readonly accountId: number }

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url")
const newToken = () => randomBytes(32).toString("base64url")
/** A token as it may arrive in a URL: anything else is unknown without a query. */
const plausible = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token)

interface InvitationRow {
  readonly id: number
  readonly workspace_id: number
  readonly email: string
  readonly role: MemberRole
  readonly invited_by: number | null
  readonly created_at: Date
  readonly expires_at: Date
  readonly accepted_at: Date | null
  readonly revoked_at: Date | null
}

const toInvitation = (row: InvitationRow, now: number): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  status: row.expires_at.getTime() > now ? "pending" : "expired"
})

const gone = (what: string) => new TokenGone({ message: `this ${what} was already used, was revoked or has expired` })
const unknown = (what: string) => new TokenUnknown({ message: `this ${what} does not exist` })

/**
 * Invitations, password resets and member sign-in links.
 *
 * @example
 * ```ts
 * const invitations = yield* Invitations
 * const { invitation, token } = yield* invitations.create(actor, { email: "ada@example.com", role: "member" })
 * ```
 */
export class Invitations extends Context.Service<
  Invitations,
  {
    /**
     * Invites an address as an actor: owners and admins, never with a role
     * above their own (`Actors.requireAuthorityOver`); a current member is a
     * `Conflict`. Answers the invitation and its token (shown only here).
     */
    readonly create: (
      actor: Actors.Actor,
      input: CreateInvitationInput
    ) => Effect.Effect<
      { readonly invitation: Invitation; readonly token: string },
      Forbidden | Conflict | SqlError.SqlError
    >
    /** The workspace's invitations that were neither accepted nor revoked (owners and admins). */
    readonly list: (actor: Actors.Actor) => Effect.Effect<ReadonlyArray<Invitation>, Forbidden | SqlError.SqlError>
    /** Revokes a pending invitation (owners and admins, for roles they could give). */
    readonly revoke: (
      actor: Actors.Actor,
      id: number
    ) => Effect.Effect<void, Forbidden | InvitationNotFound | SqlError.SqlError>
    /** What a token leads to (nothing is spent). */
    readonly view: (token: string) => Effect.Effect<InvitationView, TokenUnknown | TokenGone | SqlError.SqlError>
    /**
     * Accepts an invitation: in one transaction the token is spent, the account
     * made (or its password set) and the membership added; answers a session in
     * the workspace.
     */
    readonly accept: (
      token: string,
      how: Acceptance
    ) => Effect.Effect<Opened, TokenUnknown | TokenGone | Conflict | SignInRefused | AccountLocked | SqlError.SqlError>
    /**
     * Starts a password reset: for an account with this address a token is made
     * (valid an hour, the account's older ones spent); answers it with the
     * account's address, or undefined when there is no such account.
     */
    readonly requestReset: (
      email: string
    ) => Effect.Effect<{ readonly token: string; readonly email: string } | undefined, SqlError.SqlError>
    /** Whether a reset token may still be used. */
    readonly checkReset: (token: string) => Effect.Effect<void, TokenUnknown | TokenGone | SqlError.SqlError>
    /** Uses a reset token: the new password is stored and every session of the account ends, in one transaction. */
    readonly reset: (
      token: string,
      passwordHash: string
    ) => Effect.Effect<void, TokenUnknown | TokenGone | SqlError.SqlError>
    /**
     * A one-time sign-in link token (15 minutes) for a member, issued by an
     * owner or admin over a lower role (`Members.authorize`). Refused for an
     * account that belongs to another workspace too: the session could reach it.
     */
    readonly issueSignInLink: (
      actor: Actors.Actor,
      accountId: number
    ) => Effect.Effect<
      { readonly token: string; readonly expiresAt: Date },
      Forbidden | Conflict | MemberNotFound | SqlError.SqlError
    >
  }
>()("@qforms/core/Invitations") {
  static readonly layer = Layer.effect(
    Invitations,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const accounts = yield* Accounts
      const members = yield* Members
      const sessions = yield* Sessions

      /** The caller's role as it is now (row locked), checked against the one rule for the role given. */
      /**
       * The one rule of `Actors.requireAuthorityOver`, for an invitation: the role given, and, when the address is
       * already a member's, authority over that member (an invitation must not become a way to act on an equal).
       */
      const requireGrant = Effect.fn("Invitations.requireGrant")(function* (
        actor: Actors.Actor,
        role: MemberRole,
        existing: { readonly accountId: number; readonly role: MemberRole } | undefined
      ) {
        yield* Actors.requireAdmin(actor)
        if (actor.kind === "system") return
        const rows =
          actor.accountId === null
            ? []
            : yield* sql<{ readonly role: MemberRole }>`
          select role from members where workspace_id = ${actor.workspaceId} and account_id = ${actor.accountId} for update`
        yield* Actors.requireAuthorityOver(actor, rows[0]?.role ?? null, existing, role)
      })

      const create = Effect.fn("Invitations.create")(function* (actor: Actors.Actor, input: CreateInvitationInput) {
        const now = yield* Clock.currentTimeMillis
        const token = newToken()
        const row = yield* sql.withTransaction(
          Effect.gen(function* () {
            const existing = yield* sql<{ readonly account_id: number; readonly role: MemberRole }>`
            select m.account_id, m.role from members m join accounts a on a.id = m.account_id
            where m.workspace_id = ${actor.workspaceId} and lower(a.email) = lower(${input.email})`
            const member = existing[0]
            yield* requireGrant(
              actor,
              input.role,
              member === undefined ? undefined : { accountId: member.account_id, role: member.role }
            )
            if (member !== undefined) {
              return yield* new Conflict({
                message: `${input.email} is already a member of this workspace: change their role, or issue them a sign-in link`
              })
            }
            const rows = yield* sql<InvitationRow>`
            insert into invitations (workspace_id, email, role, token_hash, invited_by, created_at, expires_at)
            values (${actor.workspaceId}, ${input.email}, ${input.role}, ${sha256(token)}, ${actor.accountId},
                    ${new Date(now)}, ${new Date(now + invitationMs)})
            returning id, workspace_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at`
            yield* AuditLog.record(sql, actor, {
              action: "invitation.created",
              target: { type: "invitation", id: rows[0]!.id },
              details: { email: input.email, role: input.role }
            })
            return rows[0]!
          })
        )
        return { invitation: toInvitation(row, now), token }
      })

      const list = Effect.fn("Invitations.list")(function* (actor: Actors.Actor) {
        yield* Actors.requireAdmin(actor)
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql<InvitationRow>`
          select id, workspace_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at
          from invitations
          where workspace_id = ${actor.workspaceId} and accepted_at is null and revoked_at is null
          order by created_at desc, id desc`
        return rows.map((row) => toInvitation(row, now))
      })

      const revoke = Effect.fn("Invitations.revoke")(function* (actor: Actors.Actor, id: number) {
        yield* Actors.requireAdmin(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly role: MemberRole; readonly email: string }>`
            select role, email from invitations
            where workspace_id = ${actor.workspaceId} and id = ${id} and accepted_at is null and revoked_at is null
            for update`
            if (rows.length === 0) return yield* new InvitationNotFound({ message: `no pending invitation ${id}` })
            yield* requireGrant(actor, rows[0]!.role, undefined)
            yield* sql`update invitations set revoked_at = ${now} where workspace_id = ${actor.workspaceId} and id = ${id}`
            yield* AuditLog.record(sql, actor, {
              action: "invitation.revoked",
              target: { type: "invitation", id },
              details: { email: rows[0]!.email }
            })
          })
        )
      })

      /** The invitation of a token, live or not; unknown tokens fail. */
      const find = Effect.fn("Invitations.find")(function* (token: string) {
        if (!plausible(token)) return yield* unknown("invitation")
        const rows = yield* sql<InvitationRow & { readonly workspace_name: string }>`
          select i.id, i.workspace_id, i.email, i.role, i.invited_by, i.created_at, i.expires_at, i.accepted_at,
                 i.revoked_at, w.name as workspace_name
          from invitations i join workspaces w on w.id = i.workspace_id
          where i.token_hash = ${sha256(token)}`
        if (rows.length === 0) return yield* unknown("invitation")
        return rows[0]!
      })

      /** What the invited address's account (if any) must do to accept. */
      const accountState = Effect.fn("Invitations.accountState")(function* (email: string, workspaceId: number) {
        const rows = yield* sql<{ readonly id: number; readonly has_password: boolean; readonly elsewhere: number }>`
          select a.id, a.password_hash is not null as has_password,
                 (select count(*)::int from members m where m.account_id = a.id and m.workspace_id <> ${workspaceId}) as elsewhere
          from accounts a where lower(a.email) = lower(${email})`
        const account = rows[0]
        if (account === undefined) return { state: "new" as const, accountId: undefined }
        if (account.has_password) return { state: "password" as const, accountId: account.id }
        return { state: account.elsewhere > 0 ? ("signInFirst" as const) : ("new" as const), accountId: account.id }
      })

      const view = Effect.fn("Invitations.view")(function* (token: string) {
        const row = yield* find(token)
        const now = yield* Clock.currentTimeMillis
        if (row.accepted_at !== null || row.revoked_at !== null || row.expires_at.getTime() <= now) {
          return yield* gone("invitation")
        }
        const { state } = yield* accountState(row.email, row.workspace_id)
        return {
          workspaceId: row.workspace_id,
          workspaceName: row.workspace_name,
          email: row.email,
          role: row.role,
          account: state
        } satisfies InvitationView
      })

      const accept = Effect.fn("Invitations.accept")(function* (token: string, how: Acceptance) {
        const invitation = yield* find(token)
        // A password is checked (scrypt, lockout) before the transaction, which stays short.
        const verified =
          how._tag === "Password" ? yield* sessions.verifyPassword(invitation.email, how.password) : undefined
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const spent = yield* sql<{ readonly id: number }>`
            update invitations set accepted_at = ${now}
            where token_hash = ${sha256(token)} and accepted_at is null and revoked_at is null and expires_at > ${now}
            returning id`
            if (spent.length === 0) return yield* gone("invitation")
            const { state, accountId: existing } = yield* accountState(invitation.email, invitation.workspace_id)
            let accountId: number
            switch (how._tag) {
              case "Session": {
                const rows = yield* sql<{ readonly id: number }>`
                select id from accounts where id = ${how.accountId} and lower(email) = lower(${invitation.email})`
                if (rows.length === 0) {
                  return yield* new Conflict({
                    message: `this invitation is for ${invitation.email}: sign in as that address`
                  })
                }
                accountId = how.accountId
                break
              }
              case "Password": {
                if (verified === undefined || verified !== existing) {
                  return yield* new Conflict({
                    message: `this invitation is for ${invitation.email}: sign in as that address`
                  })
                }
                accountId = verified
                break
              }
              case "NewPassword": {
                // Only an address nobody can sign in as yet, and in no other workspace: setting its password here
                // must not open a workspace the inviter has no say over.
                if (state !== "new") {
                  return yield* new Conflict({
                    message: `${invitation.email} already has an account: sign in to it to accept this invitation`
                  })
                }
                const account =
                  existing === undefined
                    ? yield* accounts.findOrCreate({ email: invitation.email, name: how.name })
                    : undefined
                accountId = account?.id ?? existing!
                if (how.name !== null) {
                  yield* sql`update accounts set name = coalesce(name, ${how.name}) where id = ${accountId}`
                }
                yield* sessions.replacePassword(accountId, how.passwordHash)
                break
              }
            }
            yield* sql`update invitations set accepted_by = ${accountId} where id = ${spent[0]!.id}`
            // Someone added meanwhile keeps the role they have.
            yield* sql`
            insert into members (workspace_id, account_id, role, created_at)
            values (${invitation.workspace_id}, ${accountId}, ${invitation.role}, ${now})
            on conflict (workspace_id, account_id) do nothing`
            yield* AuditLog.record(
              sql,
              Actors.member({
                workspaceId: invitation.workspace_id,
                accountId,
                role: invitation.role,
                name: null,
                via: "session"
              }),
              {
                action: "invitation.accepted",
                target: { type: "invitation", id: spent[0]!.id },
                details: { email: invitation.email, role: invitation.role }
              }
            )
            return yield* sessions.openSession(accountId, invitation.workspace_id, "invitation")
          })
        )
      })

      const requestReset = Effect.fn("Invitations.requestReset")(function* (email: string) {
        const now = yield* Clock.currentTimeMillis
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            // Expired resets go (the table stays small whatever is asked for); spent ones stay until then, so an
            // older link still says it was replaced (410) rather than that nobody issued it.
            yield* sql`delete from password_resets where expires_at <= ${new Date(now)}`
            // The account's row is locked: two requests at once for one account leave exactly one live link.
            const rows = yield* sql<{ readonly id: number; readonly email: string }>`
            select id, email from accounts where lower(email) = lower(${email.trim()}) for update`
            const account = rows[0]
            if (account === undefined) return undefined
            yield* sql`update password_resets set used_at = ${new Date(now)} where account_id = ${account.id} and used_at is null`
            const token = newToken()
            yield* sql`
            insert into password_resets (token_hash, account_id, created_at, expires_at)
            values (${sha256(token)}, ${account.id}, ${new Date(now)}, ${new Date(now + resetMs)})`
            return { token, email: account.email }
          })
        )
      })

      const checkReset = Effect.fn("Invitations.checkReset")(function* (token: string) {
        if (!plausible(token)) return yield* unknown("password reset link")
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql<{ readonly expires_at: Date; readonly used_at: Date | null }>`
          select expires_at, used_at from password_resets where token_hash = ${sha256(token)}`
        if (rows.length === 0) return yield* unknown("password reset link")
        if (rows[0]!.used_at !== null || rows[0]!.expires_at.getTime() <= now) return yield* gone("password reset link")
      })

      const reset = Effect.fn("Invitations.reset")(function* (token: string, passwordHash: string) {
        if (!plausible(token)) return yield* unknown("password reset link")
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly account_id: number }>`
            update password_resets set used_at = ${now}
            where token_hash = ${sha256(token)} and used_at is null and expires_at > ${now}
            returning account_id`
            if (rows.length === 0) {
              const known = yield* sql`select 1 from password_resets where token_hash = ${sha256(token)}`
              return yield* known.length === 0 ? unknown("password reset link") : gone("password reset link")
            }
            yield* sessions.replacePassword(rows[0]!.account_id, passwordHash)
          })
        )
      })

      const issueSignInLink = Effect.fn("Invitations.issueSignInLink")(function* (
        actor: Actors.Actor,
        accountId: number
      ) {
        const member = yield* members.authorize(actor, accountId)
        const elsewhere = yield* sql`
          select 1 from members where account_id = ${member.accountId} and workspace_id <> ${actor.workspaceId} limit 1`
        if (elsewhere.length > 0) {
          return yield* new Conflict({
            message:
              `${member.email} is also a member of another workspace, which a sign-in link would open too: ` +
              "they can reset their password from the sign-in page"
          })
        }
        const now = yield* Clock.currentTimeMillis
        const token = yield* sessions.createSignInLink(actor.workspaceId, member.accountId, memberSignInLinkMs)
        return { token, expiresAt: new Date(now + memberSignInLinkMs) }
      })

      return Invitations.of({ create, list, revoke, view, accept, requestReset, checkReset, reset, issueSignInLink })
    })
  ).pipe(Layer.provide([Accounts.layer, Members.layer, Sessions.layer]))
}
