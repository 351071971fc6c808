/**
 * Sessions of the application: an account signs in with its e-mail and
 * password (or a one-time sign-in link) and gets a session in its workspace.
 * Only a SHA-256 hash of each session id is stored; each session carries its
 * own CSRF token. Five wrong passwords in a row lock the account for 15
 * minutes.
 */
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { InvalidInput } from "./Errors.ts"
import type { MemberRole } from "./Members.ts"
import * as Passwords from "./Passwords.ts"

/** A signed-in session, with the member it acts as (role read fresh on every request). */
export interface Session {
  readonly accountId: number
  readonly workspaceId: number
  readonly role: MemberRole
  readonly name: string | null
  readonly email: string
  readonly csrfToken: string
  readonly expiresAt: Date
}

/** Wrong e-mail, wrong password, no membership, or a used/expired sign-in link: one message for all. */
export class SignInRefused extends Schema.TaggedError<SignInRefused>()("SignInRefused", {
  message: Schema.String
}) {}

/** Too many wrong passwords: the account is locked for a while. */
export class AccountLocked extends Schema.TaggedError<AccountLocked>()("AccountLocked", {
  message: Schema.String,
  retryAfterSeconds: Schema.Int
}) {}

/** Wrong passwords in a row before a lockout. */
export const maxFailedSignIns = 5
/** How long a lockout lasts. */
export const lockoutMs = 15 * 60_000
/** How long a session lasts. */
export const sessionMs = 14 * 24 * 60 * 60_000
/** How long a one-time sign-in link is valid. */
export const signInLinkMs = 7 * 24 * 60 * 60_000

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url")
const token = () => randomBytes(32).toString("base64url")

interface SessionRow {
  readonly account_id: number
  readonly workspace_id: number
  readonly role: MemberRole
  readonly name: string | null
  readonly email: string
  readonly csrf_token: string
  readonly expires_at: Date
}

const toSession = (row: SessionRow): Session => ({
  accountId: row.account_id,
  workspaceId: row.workspace_id,
  role: row.role,
  name: row.name,
  email: row.email,
  csrfToken: row.csrf_token,
  expiresAt: row.expires_at
})

const refused = () => new SignInRefused({ message: "wrong e-mail or password" })

/** A new session: the id to put in the cookie (shown only here) and the session. */
export interface Opened {
  readonly id: string
  readonly session: Session
}

/**
 * Signing in and out, sessions, passwords and sign-in links.
 *
 * @example
 * ```ts
 * const sessions = yield* Sessions
 * const { id } = yield* sessions.signIn({ email: "owner@localhost", password: "…" })
 * const session = yield* sessions.resolve(id) // undefined once signed out or expired
 * ```
 */
export class Sessions extends Context.Service<Sessions, {
  /** Checks the password (with lockout) and opens a fresh session in the account's first workspace. */
  readonly signIn: (input: { readonly email: string; readonly password: string }) => Effect.Effect<
    Opened,
    SignInRefused | AccountLocked | SqlError.SqlError
  >
  /** The live session with this id, or undefined. */
  readonly resolve: (id: string) => Effect.Effect<Session | undefined, SqlError.SqlError>
  /** Ends the session (nothing happens for an unknown id). */
  readonly signOut: (id: string) => Effect.Effect<void, SqlError.SqlError>
  /** Changes the password after checking the current one; every other session of the account ends. */
  readonly changePassword: (
    sessionId: string,
    input: { readonly currentPassword: string; readonly newPassword: string }
  ) => Effect.Effect<void, InvalidInput | SignInRefused | SqlError.SqlError>
  /** Sets an account's password (the CLI): ends its sessions and lifts a lockout. */
  readonly setPassword: (email: string, password: string) => Effect.Effect<void, SignInRefused | SqlError.SqlError>
  /** A one-time sign-in link token for a member (the first start's, for the owner). */
  readonly createSignInLink: (workspaceId: number, accountId: number) => Effect.Effect<string, SqlError.SqlError>
  /** Redeems a one-time link: a fresh session, and the link is spent. */
  readonly redeemSignInLink: (linkToken: string) => Effect.Effect<Opened, SignInRefused | SqlError.SqlError>
}>()("@qforms/core/Sessions") {
  static readonly layer = Layer.effect(
    Sessions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const open = Effect.fn("Sessions.open")(function*(accountId: number, workspaceId: number | undefined) {
        const now = yield* Clock.currentTimeMillis
        const memberships = yield* sql<{ readonly workspace_id: number }>`
          select workspace_id from members where account_id = ${accountId}
          ${workspaceId === undefined ? sql`` : sql`and workspace_id = ${workspaceId}`}
          order by workspace_id limit 1`
        if (memberships.length === 0) return yield* refused()
        // Expired sessions of the account go when it signs in again (the table never grows without bound per account).
        yield* sql`delete from sessions where account_id = ${accountId} and expires_at <= ${new Date(now)}`
        const id = token()
        yield* sql`
          insert into sessions (id_hash, account_id, workspace_id, csrf_token, created_at, expires_at)
          values (${sha256(id)}, ${accountId}, ${memberships[0]!.workspace_id}, ${token()}, ${new Date(now)},
                  ${new Date(now + sessionMs)})`
        const session = yield* resolve(id)
        if (session === undefined) return yield* refused()
        return { id, session }
      })

      const resolve = Effect.fn("Sessions.resolve")(function*(id: string) {
        if (id === "" || id.length > 100) return undefined
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = yield* sql<SessionRow>`
          select s.account_id, s.workspace_id, m.role, a.name, a.email, s.csrf_token, s.expires_at
          from sessions s
          join members m on m.workspace_id = s.workspace_id and m.account_id = s.account_id
          join accounts a on a.id = s.account_id
          where s.id_hash = ${sha256(id)} and s.expires_at > ${now}`
        return rows.length === 0 ? undefined : toSession(rows[0]!)
      })

      const signIn = Effect.fn("Sessions.signIn")(function*(input: { readonly email: string; readonly password: string }) {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql<{
          readonly id: number
          readonly password_hash: string | null
          readonly failed_sign_ins: number
          readonly locked_until: Date | null
        }>`select id, password_hash, failed_sign_ins, locked_until from accounts where lower(email) = lower(${input.email.trim()})`
        const account = rows[0]
        if (account?.locked_until !== null && account?.locked_until !== undefined && account.locked_until.getTime() > now) {
          const retryAfterSeconds = Math.ceil((account.locked_until.getTime() - now) / 1000)
          return yield* new AccountLocked({
            message: `too many wrong passwords: this account is locked for ${Math.ceil(retryAfterSeconds / 60)} more minute(s)`,
            retryAfterSeconds
          })
        }
        const ok = yield* Passwords.verify(input.password, account?.password_hash ?? null)
        if (account === undefined) return yield* refused()
        if (!ok) {
          const failed = account.failed_sign_ins + 1
          if (failed >= maxFailedSignIns) {
            yield* sql`update accounts set failed_sign_ins = 0, locked_until = ${new Date(now + lockoutMs)} where id = ${account.id}`
          } else {
            yield* sql`update accounts set failed_sign_ins = ${failed} where id = ${account.id}`
          }
          return yield* refused()
        }
        yield* sql`update accounts set failed_sign_ins = 0, locked_until = null where id = ${account.id}`
        return yield* open(account.id, undefined)
      })

      const signOut = Effect.fn("Sessions.signOut")(function*(id: string) {
        yield* sql`delete from sessions where id_hash = ${sha256(id)}`
      })

      const changePassword = Effect.fn("Sessions.changePassword")(function*(
        sessionId: string,
        input: { readonly currentPassword: string; readonly newPassword: string }
      ) {
        const session = yield* resolve(sessionId)
        if (session === undefined) return yield* refused()
        const valid = Schema.decodeUnknownExit(Passwords.NewPassword)(input.newPassword)
        if (valid._tag === "Failure") {
          return yield* new InvalidInput({
            message: input.newPassword.length < 10
              ? "the new password must be at least 10 characters"
              : "the new password must be at most 200 characters"
          })
        }
        const rows = yield* sql<{ readonly password_hash: string | null }>`
          select password_hash from accounts where id = ${session.accountId}`
        const current = rows[0]?.password_hash ?? null
        // An account that never had a password (signed in by a one-time link) sets its first one.
        if (current !== null && !(yield* Passwords.verify(input.currentPassword, current))) {
          return yield* new InvalidInput({ message: "the current password is wrong" })
        }
        const hashed = yield* Passwords.hash(input.newPassword)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`update accounts set password_hash = ${hashed}, failed_sign_ins = 0, locked_until = null
                     where id = ${session.accountId}`
          yield* sql`delete from sessions where account_id = ${session.accountId} and id_hash <> ${sha256(sessionId)}`
        }))
      })

      const setPassword = Effect.fn("Sessions.setPassword")(function*(email: string, password: string) {
        const hashed = yield* Passwords.hash(password)
        yield* sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql<{ readonly id: number }>`
            update accounts set password_hash = ${hashed}, failed_sign_ins = 0, locked_until = null
            where lower(email) = lower(${email.trim()}) returning id`
          if (rows.length === 0) return yield* new SignInRefused({ message: `no account with the e-mail ${email}` })
          yield* sql`delete from sessions where account_id = ${rows[0]!.id}`
        }))
      })

      const createSignInLink = Effect.fn("Sessions.createSignInLink")(function*(workspaceId: number, accountId: number) {
        const now = yield* Clock.currentTimeMillis
        const linkToken = token()
        yield* sql`
          insert into sign_in_links (token_hash, account_id, workspace_id, created_at, expires_at)
          values (${sha256(linkToken)}, ${accountId}, ${workspaceId}, ${new Date(now)}, ${new Date(now + signInLinkMs)})`
        return linkToken
      })

      const redeemSignInLink = Effect.fn("Sessions.redeemSignInLink")(function*(linkToken: string) {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql<{ readonly account_id: number; readonly workspace_id: number }>`
            update sign_in_links set used_at = ${now}
            where token_hash = ${sha256(linkToken)} and used_at is null and expires_at > ${now}
            returning account_id, workspace_id`
          if (rows.length === 0) {
            return yield* new SignInRefused({ message: "this sign-in link was already used or has expired" })
          }
          return yield* open(rows[0]!.account_id, rows[0]!.workspace_id)
        }))
      })

      return Sessions.of({ signIn, resolve, signOut, changePassword, setPassword, createSignInLink, redeemSignInLink })
    })
  )
}
