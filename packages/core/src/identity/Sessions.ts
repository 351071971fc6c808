/**
 * Sessions of the application: an account signs in with its e-mail and
 * password (or a one-time sign-in link) and gets a session in its workspace.
 * Only a SHA-256 hash of each session id is stored; each session carries its
 * own CSRF token. Five wrong passwords (at sign-in or as the current password
 * of a password change) within 15 minutes lock the e-mail address for 15
 * minutes, counted atomically per address whether or not it has an account.
 * An account that is a member of several workspaces chooses one at sign-in
 * and may switch later; each session is bound to one workspace.
 */
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, InvalidInput } from "../kernel/index.ts"
import type { MemberRole } from "./Members.ts"
import * as Passwords from "./Passwords.ts"
import { AuditLogModule as AuditLog } from "../audit/index.ts"

/** A signed-in session, with the member it acts as (role read fresh on every request). */
export interface Session {
  readonly accountId: number
  readonly workspaceId: number
  readonly role: MemberRole
  readonly name: string | null
  readonly email: string
  /** The language the account chose for the application (null: the browser's). */
  readonly language: string | null
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

/** Wrong passwords in a row from one client address before that address is locked out of the account. */
export const maxFailedSignIns = 5
/**
 * Wrong passwords in a row from all addresses together before the account itself is locked: guessing spread
 * over many addresses still meets a limit, and one address alone can no longer lock the owner out.
 */
export const maxFailedSignInsPerAccount = 20
/** How long a lockout lasts. */
export const lockoutMs = 15 * 60_000
/** How long a session lasts. */
export const sessionMs = 14 * 24 * 60 * 60_000
/** How long a one-time sign-in link is valid. */
export const signInLinkMs = 7 * 24 * 60 * 60_000
/** How long a sign-in link an owner or admin issues for a member is valid (15 minutes). */
export const memberSignInLinkMs = 15 * 60_000

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url")
const token = () => randomBytes(32).toString("base64url")

interface SessionRow {
  readonly account_id: number
  readonly workspace_id: number
  readonly role: MemberRole
  readonly name: string | null
  readonly email: string
  readonly language: string | null
  readonly csrf_token: string
  readonly expires_at: Date
}

const toSession = (row: SessionRow): Session => ({
  accountId: row.account_id,
  workspaceId: row.workspace_id,
  role: row.role,
  name: row.name,
  email: row.email,
  language: row.language,
  csrfToken: row.csrf_token,
  expiresAt: row.expires_at
})

const refused = () => new SignInRefused({ message: "wrong e-mail or password" })

/** A new session: the id to put in the cookie (shown only here) and the session. */
export interface Opened {
  readonly id: string
  readonly session: Session
}

/** A workspace the account is a member of. */
export interface Membership {
  readonly workspaceId: number
  readonly workspaceName: string
  readonly role: MemberRole
}

/** A workspace offered at sign-in, with the one-time token that opens a session in it. */
export interface WorkspaceChoice extends Membership {
  readonly token: string
}

/**
 * What a verified password leads to: a session (one workspace), or the
 * workspaces to choose from (several), each with a one-time token for
 * `redeemSignInLink` (the tokens of one sign-in are spent together).
 */
export type SignedIn =
  | { readonly _tag: "Opened"; readonly opened: Opened }
  | { readonly _tag: "ChooseWorkspace"; readonly choices: ReadonlyArray<WorkspaceChoice> }

/** The account is not a member of the workspace it asked to switch to. */
export class NotAMember extends Schema.TaggedError<NotAMember>()("NotAMember", {
  message: Schema.String
}) {}

/** How long the workspace choice offered at sign-in stays valid. */
export const workspaceChoiceMs = 10 * 60_000

/** The key of an e-mail address's failed sign-ins: a hash, so addresses without an account are not stored. */
const addressKey = (email: string) => sha256(`sign-in:${email.trim().toLowerCase()}`)
/** The key of the attempts on an account's address from one client address (unknown: the CLI, a test). */
const pairKey = (email: string, client: string | null) =>
  sha256(`sign-in:${email.trim().toLowerCase()}:from:${client ?? "unknown"}`)

const lockedMessage = (retryAfterSeconds: number) =>
  new AccountLocked({
    message: `too many wrong passwords: this account is locked for ${Math.ceil(retryAfterSeconds / 60)} more minute(s)`,
    retryAfterSeconds
  })

/** How long a sign-in through the host's identity bridge counts as one (one audit entry per member): 12 hours. */
export const bridgedSignInWindowHours = 12

/** A member named by the host's identity bridge, with their application language (null: the browser's). */
export interface BridgedMember {
  readonly accountId: number
  readonly role: MemberRole
  readonly name: string | null
  readonly email: string
  readonly language: string | null
}

/** How a session was opened, as the audit log records it (`auth.sign_in`). */
export type SignInMethod = "password" | "link" | "switch" | "invitation"

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
export class Sessions extends Context.Service<
  Sessions,
  {
    /**
     * Checks the password (with lockout) and opens a fresh session in the
     * account's workspace, or, for a member of several, answers the workspaces
     * to choose from (nothing is opened before the choice).
     */
    readonly signIn: (input: {
      readonly email: string
      readonly password: string
    }) => Effect.Effect<SignedIn, SignInRefused | AccountLocked | SqlError.SqlError>
    /** The workspaces an account is a member of, by name. */
    readonly memberships: (accountId: number) => Effect.Effect<ReadonlyArray<Membership>, SqlError.SqlError>
    /**
     * Moves a signed-in person to another of their workspaces: this session
     * ends and a fresh one (new id, new CSRF token) opens in that workspace.
     */
    readonly switchWorkspace: (
      sessionId: string,
      workspaceId: number
    ) => Effect.Effect<Opened, SignInRefused | NotAMember | SqlError.SqlError>
    /** The live session with this id, or undefined. */
    readonly resolve: (id: string) => Effect.Effect<Session | undefined, SqlError.SqlError>
    /** Ends the session (nothing happens for an unknown id). */
    readonly signOut: (id: string) => Effect.Effect<void, SqlError.SqlError>
    /**
     * Changes the password after checking the current one (a wrong current
     * password counts towards the lockout, and a locked account cannot change
     * it); every other session of the account ends.
     */
    readonly changePassword: (
      sessionId: string,
      input: { readonly currentPassword: string; readonly newPassword: string }
    ) => Effect.Effect<void, InvalidInput | SignInRefused | AccountLocked | SqlError.SqlError>
    /** Sets an account's password (the CLI): ends its sessions and lifts a lockout. */
    readonly setPassword: (email: string, password: string) => Effect.Effect<void, SignInRefused | SqlError.SqlError>
    /**
     * A one-time sign-in link token for a member (the first start's, for the
     * owner: valid {@link signInLinkMs}; or `validForMs`).
     */
    readonly createSignInLink: (
      workspaceId: number,
      accountId: number,
      validForMs?: number | undefined
    ) => Effect.Effect<string, SqlError.SqlError>
    /**
     * A fresh session of the account in this workspace, of which it must be a
     * member (runs inside the caller's transaction, if any).
     */
    readonly openSession: (
      accountId: number,
      workspaceId: number,
      method?: SignInMethod
    ) => Effect.Effect<Opened, SignInRefused | SqlError.SqlError>
    /**
     * Checks an account's password like a sign-in (the same lockout, the same
     * count, one scrypt whether or not the address has an account): answers
     * the account id.
     */
    readonly verifyPassword: (
      email: string,
      password: string
    ) => Effect.Effect<number, SignInRefused | AccountLocked | SqlError.SqlError>
    /**
     * Stores a new password hash for an account (a reset or an accepted
     * invitation): lifts its lockout and ends every session of the account.
     */
    readonly replacePassword: (accountId: number, passwordHash: string) => Effect.Effect<void, SqlError.SqlError>
    /** Redeems a one-time link: a fresh session, and the link (with the other links of its batch) is spent. */
    readonly redeemSignInLink: (linkToken: string) => Effect.Effect<Opened, SignInRefused | SqlError.SqlError>
    /**
     * A member as the host's identity bridge names them (workspace and
     * account), with the language they chose for the application: one query
     * per request. Undefined when the account is no member of the workspace.
     */
    readonly bridgedMember: (
      workspaceId: number,
      accountId: number
    ) => Effect.Effect<BridgedMember | undefined, SqlError.SqlError>
    /**
     * Records in the audit log that the host's identity bridge let a member
     * in (`auth.sign_in` `{method: "bridge"}`): the bridge is asked on every
     * request, so at most once per member and workspace in
     * {@link bridgedSignInWindowHours} hours (remembered in this process, and
     * checked against the log itself for several processes). Never fails the
     * request: a failure to record is logged.
     */
    readonly noteBridgedSignIn: (
      workspaceId: number,
      accountId: number,
      surface: "app" | "api" | "mcp"
    ) => Effect.Effect<void>
    /** Stores (or, with null, forgets) the language an account chose for the application. */
    readonly setLanguage: (accountId: number, language: string | null) => Effect.Effect<void, SqlError.SqlError>
  }
>()("@qforms/core/Sessions") {
  static readonly layer = Layer.effect(
    Sessions,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      /** A fresh session of the account in this workspace, of which it must be a member. */
      const open = Effect.fn("Sessions.open")(function* (
        accountId: number,
        workspaceId: number,
        method: SignInMethod = "password"
      ) {
        const now = yield* Clock.currentTimeMillis
        const memberships = yield* sql<{ readonly workspace_id: number }>`
          select workspace_id from members where account_id = ${accountId} and workspace_id = ${workspaceId}`
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
        const actor = { workspaceId, accountId, role: session.role, name: session.name, via: "session" } as const
        yield* AuditLog.record(sql, Actors.member(actor), { action: "auth.sign_in", details: { method } })
        return { id, session }
      })

      const resolve = Effect.fn("Sessions.resolve")(function* (id: string) {
        if (id === "" || id.length > 100) return undefined
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = yield* sql<SessionRow>`
          select s.account_id, s.workspace_id, m.role, a.name, a.email, a.language, s.csrf_token, s.expires_at
          from sessions s
          join members m on m.workspace_id = s.workspace_id and m.account_id = s.account_id
          join accounts a on a.id = s.account_id
          where s.id_hash = ${sha256(id)} and s.expires_at > ${now}`
        return rows.length === 0 ? undefined : toSession(rows[0]!)
      })

      /**
       * Counts one password attempt under `key` in a single atomic upsert, before the password is checked
       * (so concurrent guesses all count, and a burst gets no more checks than a lockout allows): the count
       * restarts after a lockout has passed or after 15 quiet minutes, and reaching `max` locks. A right
       * password then clears the counts ({@link clearFailures}).
       */
      const countAttempt = Effect.fnUntraced(function* (
        key: string,
        accountHash: string | null,
        max: number,
        now: Date
      ) {
        const until = new Date(now.getTime() + lockoutMs)
        const quietSince = new Date(now.getTime() - lockoutMs)
        const rows = yield* sql<{ readonly failures: number; readonly locked_until: Date | null }>`
          insert into sign_in_failures as f (email_hash, account_hash, failures, locked_until, updated_at)
          values (${key}, ${accountHash}, 1, ${max <= 1 ? until : null}, ${now})
          on conflict (email_hash) do update set
            failures = case when f.locked_until <= ${now} or f.updated_at < ${quietSince} then 1 else f.failures + 1 end,
            locked_until = case
              when f.locked_until > ${now} then f.locked_until
              when (case when f.locked_until <= ${now} or f.updated_at < ${quietSince} then 1 else f.failures + 1 end)
                >= ${max} then ${until}
              else null end,
            updated_at = ${now}
          returning failures, locked_until`
        return { ...rows[0]!, max }
      })

      /** Every count of an account's address: its own and each client address's. */
      const clearFailures = (email: string) => {
        const account = addressKey(email)
        return sql`delete from sign_in_failures where email_hash = ${account} or account_hash = ${account}`
      }

      /**
       * Takes one password attempt for an address, whether or not it has an account (the same answer either
       * way): counted first, for the client address the request came from (locked after
       * {@link maxFailedSignIns}) and for the account from everywhere (after {@link maxFailedSignInsPerAccount});
       * refused as locked when either was locked already (its count past its maximum), so of a burst of
       * concurrent guesses at most the maximum are checked. Answers the count that locks soonest.
       */
      const takeAttempt = Effect.fn("Sessions.takeAttempt")(function* (email: string) {
        const client = (yield* AuditLog.AuditOrigin).address
        const now = new Date(yield* Clock.currentTimeMillis)
        const account = addressKey(email)
        // One transaction, the pair's row first: concurrent attempts reach both rows in the same order, so the
        // first to count for the address are the first to count for the account.
        const [pair, whole] = yield* sql.withTransaction(
          Effect.all([
            countAttempt(pairKey(email, client), account, maxFailedSignIns, now),
            countAttempt(account, null, maxFailedSignInsPerAccount, now)
          ])
        )
        // Addresses quiet for longer than a lockout are forgotten (the table stays small whatever is tried).
        yield* sql`
          delete from sign_in_failures
          where updated_at < ${new Date(now.getTime() - lockoutMs)} and (locked_until is null or locked_until <= ${now})`
        for (const counted of [pair, whole]) {
          const until = counted.locked_until?.getTime()
          if (counted.failures > counted.max && until !== undefined && until > now.getTime()) {
            return yield* lockedMessage(Math.ceil((until - now.getTime()) / 1000))
          }
        }
        return (whole.locked_until?.getTime() ?? 0) > (pair.locked_until?.getTime() ?? 0) ? whole : pair
      })

      const memberships = Effect.fn("Sessions.memberships")(function* (accountId: number) {
        const rows = yield* sql<{ readonly workspace_id: number; readonly name: string; readonly role: MemberRole }>`
          select m.workspace_id, w.name, m.role from members m join workspaces w on w.id = m.workspace_id
          where m.account_id = ${accountId} order by lower(w.name), w.id`
        return rows.map(
          (row): Membership => ({ workspaceId: row.workspace_id, workspaceName: row.name, role: row.role })
        )
      })

      const signIn = Effect.fn("Sessions.signIn")(function* (input: {
        readonly email: string
        readonly password: string
      }) {
        // Known or unknown, an address goes through the same steps: lockout, one scrypt, the same count.
        yield* takeAttempt(input.email)
        const rows = yield* sql<{ readonly id: number; readonly password_hash: string | null }>`
          select id, password_hash from accounts where lower(email) = lower(${input.email.trim()})`
        const account = rows[0]
        const ok = yield* Passwords.verify(input.password, account?.password_hash ?? null)
        if (account === undefined || !ok) {
          // An address with no account is recorded nowhere (AuditLog.recordSignInFailure).
          if (account !== undefined) yield* AuditLog.recordSignInFailure(sql, account.id, "wrong_password")
          return yield* refused()
        }
        yield* clearFailures(input.email)
        const workspaces = yield* memberships(account.id)
        if (workspaces.length === 0) return yield* refused()
        if (workspaces.length === 1) {
          return { _tag: "Opened", opened: yield* open(account.id, workspaces[0]!.workspaceId) } satisfies SignedIn
        }
        const now = yield* Clock.currentTimeMillis
        const batch = token()
        const choices: Array<WorkspaceChoice> = []
        for (const membership of workspaces) {
          const linkToken = token()
          yield* sql`
            insert into sign_in_links (token_hash, account_id, workspace_id, created_at, expires_at, batch)
            values (${sha256(linkToken)}, ${account.id}, ${membership.workspaceId}, ${new Date(now)},
                    ${new Date(now + workspaceChoiceMs)}, ${batch})`
          choices.push({ ...membership, token: linkToken })
        }
        return { _tag: "ChooseWorkspace", choices } satisfies SignedIn
      })

      const switchWorkspace = Effect.fn("Sessions.switchWorkspace")(function* (sessionId: string, workspaceId: number) {
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const session = yield* resolve(sessionId)
            if (session === undefined) return yield* refused()
            const member = yield* sql`
            select 1 from members where workspace_id = ${workspaceId} and account_id = ${session.accountId}`
            if (member.length === 0) {
              return yield* new NotAMember({ message: `you are not a member of workspace ${workspaceId}` })
            }
            yield* signOut(sessionId)
            return yield* open(session.accountId, workspaceId, "switch")
          })
        )
      })

      const signOut = Effect.fn("Sessions.signOut")(function* (id: string) {
        yield* sql`delete from sessions where id_hash = ${sha256(id)}`
      })

      const changePassword = Effect.fn("Sessions.changePassword")(function* (
        sessionId: string,
        input: { readonly currentPassword: string; readonly newPassword: string }
      ) {
        const session = yield* resolve(sessionId)
        if (session === undefined) return yield* refused()
        const valid = Schema.decodeUnknownExit(Passwords.NewPassword)(input.newPassword)
        if (valid._tag === "Failure") {
          return yield* new InvalidInput({
            message:
              input.newPassword.length < 10
                ? "the new password must be at least 10 characters"
                : "the new password must be at most 200 characters"
          })
        }
        const rows = yield* sql<{ readonly password_hash: string | null }>`
          select password_hash from accounts where id = ${session.accountId}`
        const current = rows[0]?.password_hash ?? null
        // The current password is a password guess like a sign-in: the same lockout, the same count.
        const counted = yield* takeAttempt(session.email)
        // An account that never had a password (signed in by a one-time link) sets its first one.
        if (current !== null && !(yield* Passwords.verify(input.currentPassword, current))) {
          const now = yield* Clock.currentTimeMillis
          const until = counted.locked_until?.getTime()
          if (until !== undefined && until > now) return yield* lockedMessage(Math.ceil((until - now) / 1000))
          return yield* new InvalidInput({ message: "the current password is wrong" })
        }
        const hashed = yield* Passwords.hash(input.newPassword)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`update accounts set password_hash = ${hashed} where id = ${session.accountId}`
            yield* clearFailures(session.email)
            yield* sql`delete from sessions where account_id = ${session.accountId} and id_hash <> ${sha256(sessionId)}`
          })
        )
      })

      const setPassword = Effect.fn("Sessions.setPassword")(function* (email: string, password: string) {
        const hashed = yield* Passwords.hash(password)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly id: number }>`
            update accounts set password_hash = ${hashed}
            where lower(email) = lower(${email.trim()}) returning id`
            if (rows.length === 0) return yield* new SignInRefused({ message: `no account with the e-mail ${email}` })
            yield* clearFailures(email)
            yield* sql`delete from sessions where account_id = ${rows[0]!.id}`
          })
        )
      })

      const createSignInLink = Effect.fn("Sessions.createSignInLink")(function* (
        workspaceId: number,
        accountId: number,
        validForMs?: number | undefined
      ) {
        const now = yield* Clock.currentTimeMillis
        const linkToken = token()
        yield* sql`
          insert into sign_in_links (token_hash, account_id, workspace_id, created_at, expires_at)
          values (${sha256(linkToken)}, ${accountId}, ${workspaceId}, ${new Date(now)},
                  ${new Date(now + (validForMs ?? signInLinkMs))})`
        return linkToken
      })

      const verifyPassword = Effect.fn("Sessions.verifyPassword")(function* (email: string, password: string) {
        yield* takeAttempt(email)
        const rows = yield* sql<{ readonly id: number; readonly password_hash: string | null }>`
          select id, password_hash from accounts where lower(email) = lower(${email.trim()})`
        const account = rows[0]
        const ok = yield* Passwords.verify(password, account?.password_hash ?? null)
        if (account === undefined || !ok) return yield* refused()
        yield* clearFailures(email)
        return account.id
      })

      const replacePassword = Effect.fn("Sessions.replacePassword")(function* (
        accountId: number,
        passwordHash: string
      ) {
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly email: string }>`
            update accounts set password_hash = ${passwordHash} where id = ${accountId} returning email`
            if (rows.length > 0) yield* clearFailures(rows[0]!.email)
            yield* sql`delete from sessions where account_id = ${accountId}`
          })
        )
      })

      const redeemSignInLink = Effect.fn("Sessions.redeemSignInLink")(function* (linkToken: string) {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{
              readonly account_id: number
              readonly workspace_id: number
              readonly batch: string | null
            }>`
            update sign_in_links set used_at = ${now}
            where token_hash = ${sha256(linkToken)} and used_at is null and expires_at > ${now}
            returning account_id, workspace_id, batch`
            if (rows.length === 0) {
              return yield* new SignInRefused({ message: "this sign-in link was already used or has expired" })
            }
            // The other workspaces offered at the same sign-in are spent with the one chosen.
            const batch = rows[0]!.batch
            if (batch !== null)
              yield* sql`update sign_in_links set used_at = ${now} where batch = ${batch} and used_at is null`
            // A batch is the workspaces offered after a password was checked: that sign-in was the password's.
            return yield* open(rows[0]!.account_id, rows[0]!.workspace_id, batch === null ? "link" : "password")
          })
        )
      })

      const bridgedMember = Effect.fn("Sessions.bridgedMember")(function* (workspaceId: number, accountId: number) {
        const rows = yield* sql<{
          readonly account_id: number
          readonly role: MemberRole
          readonly name: string | null
          readonly email: string
          readonly language: string | null
        }>`
          select m.account_id, m.role, a.name, a.email, a.language
          from members m join accounts a on a.id = m.account_id
          where m.workspace_id = ${workspaceId} and m.account_id = ${accountId}`
        const row = rows[0]
        return row === undefined
          ? undefined
          : { accountId: row.account_id, role: row.role, name: row.name, email: row.email, language: row.language }
      })

      const bridgedSeen = new Map<string, number>()
      const noteBridgedSignIn = Effect.fn("Sessions.noteBridgedSignIn")(function* (
        workspaceId: number,
        accountId: number,
        surface: "app" | "api" | "mcp"
      ) {
        const now = yield* Clock.currentTimeMillis
        const window = bridgedSignInWindowHours * 3_600_000
        const member = `${workspaceId}:${accountId}`
        const seen = bridgedSeen.get(member)
        if (seen !== undefined && now - seen < window) return
        // Bounded: a host with more members than this only checks the log more often.
        if (bridgedSeen.size >= 10_000) bridgedSeen.clear()
        bridgedSeen.set(member, now)
        yield* AuditLog.recordBridgedSignIn(sql, {
          workspaceId,
          accountId,
          surface,
          windowHours: bridgedSignInWindowHours
        }).pipe(
          Effect.catch((error) =>
            Effect.andThen(
              Effect.sync(() => bridgedSeen.delete(member)),
              Effect.logWarning(`could not record a sign-in through the identity bridge: ${error.message}`)
            )
          )
        )
      })

      const setLanguage = Effect.fn("Sessions.setLanguage")(function* (accountId: number, language: string | null) {
        yield* sql`update accounts set language = ${language} where id = ${accountId}`
      })

      return Sessions.of({
        signIn,
        memberships,
        switchWorkspace,
        resolve,
        signOut,
        changePassword,
        setPassword,
        createSignInLink,
        redeemSignInLink,
        openSession: open,
        verifyPassword,
        replacePassword,
        bridgedMember,
        noteBridgedSignIn,
        setLanguage
      })
    })
  )
}
