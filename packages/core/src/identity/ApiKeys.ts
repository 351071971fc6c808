/**
 * API keys: `qk_live_` + 43 base62 characters (32 random bytes) + a 6-character
 * base62 CRC32 of those 43, so a scanner (or qforms itself, before any
 * database lookup) can tell a real key from a typo. Stored only as a SHA-256
 * hash with a short display prefix; shown once, at creation.
 */
import { createHash, randomBytes } from "node:crypto"
import { crc32 } from "node:zlib"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, DisplayTrim, Forbidden, Id } from "../kernel/index.ts"
import { ApiKeyCache } from "./ApiKeyCache.ts"
import { AuditLogModule as AuditLog } from "../audit/index.ts"
import { Members, type MemberNotFound, type MemberRole } from "./Members.ts"

/** An API key as listed (never the key itself). */
export const ApiKey = Schema.Struct({
  id: Schema.Int,
  name: Schema.NullOr(Schema.String),
  /** The first characters of the key, to recognise it (`qk_live_AbCd`). */
  prefix: Schema.String,
  accountId: Schema.Int,
  createdAt: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String)
})
export type ApiKey = typeof ApiKey.Type

/** What creating a key takes: the member it acts as, and an optional label. */
export const CreateApiKeyInput = Schema.Struct({
  accountId: Schema.Int,
  name: Schema.optional(Schema.NullOr(DisplayTrim.pipe(Schema.check(Schema.isMaxLength(100)))))
})
export type CreateApiKeyInput = typeof CreateApiKeyInput.Type

/** What issuing a key through the API or the application takes: a label, and the member it acts as (default: the caller). */
export const IssueApiKeyInput = Schema.Struct({
  name: Schema.optional(Schema.NullOr(DisplayTrim.pipe(Schema.check(Schema.isMaxLength(100))))),
  accountId: Schema.optional(Id)
})
export type IssueApiKeyInput = typeof IssueApiKeyInput.Type

/** A key just issued: the key itself is in this answer only. */
export const IssuedApiKey = Schema.Struct({ apiKey: ApiKey, key: Schema.String }).annotate({
  identifier: "IssuedApiKey"
})

/** The bearer credential is missing, malformed, unknown or revoked (answered as 401). */
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", {
  message: Schema.String
}) {}

/** No such key in this workspace. */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", {
  message: Schema.String
}) {}

const PREFIX = "qk_live_"
const BODY_LENGTH = 43
const CHECKSUM_LENGTH = 6
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const KEY_PATTERN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`)
/** lastUsedAt is written at most this often per key and process. */
const LAST_USED_RESOLUTION_MS = 60_000

const base62 = (value: bigint, length: number): string => {
  let out = ""
  let rest = value
  while (rest > 0n) {
    out = ALPHABET[Number(rest % 62n)] + out
    rest /= 62n
  }
  return out.padStart(length, "0")
}

/** The body's CRC-32 in base 62 (in plain numbers: it is checked on every request, and a CRC fits in one). */
const checksum = (body: string): string => {
  let out = ""
  for (let rest = crc32(body); rest > 0; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out
  return out.padStart(CHECKSUM_LENGTH, "0")
}

/**
 * Whether a string has the shape and checksum of a qforms key (no database
 * lookup). A typo fails here.
 *
 * @example
 * ```ts
 * ApiKeys.isWellFormed("qk_live_nope") // false
 * ```
 */
export const isWellFormed = (key: string): boolean => {
  if (!KEY_PATTERN.test(key)) return false
  const body = key.slice(PREFIX.length, PREFIX.length + BODY_LENGTH)
  return checksum(body) === key.slice(PREFIX.length + BODY_LENGTH)
}

/** A new random key (not stored). */
export const generate = (): string => {
  const body = base62(BigInt(`0x${randomBytes(32).toString("hex")}`), BODY_LENGTH)
  return `${PREFIX}${body}${checksum(body)}`
}

const hash = (key: string): string => createHash("sha256").update(key).digest("hex")

const displayPrefix = (key: string): string => key.slice(0, PREFIX.length + 4)

interface ApiKeyRow {
  readonly id: number
  readonly name: string | null
  readonly prefix: string
  readonly account_id: number
  readonly created_at: Date
  readonly last_used_at: Date | null
  readonly revoked_at: Date | null
}

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  accountId: row.account_id,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null
})

/**
 * Issuing, listing, revoking and checking API keys.
 *
 * @example
 * ```ts
 * const keys = yield* ApiKeys
 * const { key } = yield* keys.create(workspaceId, { accountId })
 * const actor = yield* keys.authenticate(key) // acts as that member, with their role
 * ```
 */
export class ApiKeys extends Context.Service<
  ApiKeys,
  {
    /** Issues a key acting as a member of the workspace; the key is returned this once. */
    readonly create: (
      workspaceId: number,
      input: CreateApiKeyInput
    ) => Effect.Effect<{ readonly apiKey: ApiKey; readonly key: string }, MemberNotFound | SqlError.SqlError>
    readonly list: (workspaceId: number) => Effect.Effect<ReadonlyArray<ApiKey>, SqlError.SqlError>
    /** Revokes a key: it stops working on the next request. */
    readonly revoke: (workspaceId: number, keyId: number) => Effect.Effect<ApiKey, ApiKeyNotFound | SqlError.SqlError>
    /**
     * The workspace a key belongs to, by the key's id: for operator tools (the
     * CLI) that are given a key id alone. Not for requests, which are scoped by
     * their own workspace.
     */
    readonly locate: (keyId: number) => Effect.Effect<number, ApiKeyNotFound | SqlError.SqlError>
    /**
     * The actor a bearer key stands for, or `InvalidApiKey`. A key checked
     * before is answered from memory ({@link ApiKeyCache}); `fresh` reads the
     * database whatever is kept (a re-check after its credentials changed).
     */
    readonly authenticate: (
      key: string,
      options?: { readonly fresh?: boolean }
    ) => Effect.Effect<Actors.Actor, InvalidApiKey | SqlError.SqlError>
    /**
     * Issues a key as an actor, acting as `accountId` or else the actor's own
     * account: owners and admins, for themselves or for members whose role is
     * below their own (`Members.authorize`).
     */
    readonly issue: (
      actor: Actors.Actor,
      input: IssueApiKeyInput
    ) => Effect.Effect<
      { readonly apiKey: ApiKey; readonly key: string },
      Forbidden | MemberNotFound | SqlError.SqlError
    >
    /** The workspace's keys as an actor (owners and admins). */
    readonly listAs: (actor: Actors.Actor) => Effect.Effect<ReadonlyArray<ApiKey>, Forbidden | SqlError.SqlError>
    /** Revokes a key as an actor: owners and admins, their own keys or those of members below their role. */
    readonly revokeAs: (
      actor: Actors.Actor,
      keyId: number
    ) => Effect.Effect<ApiKey, Forbidden | ApiKeyNotFound | SqlError.SqlError>
  }
>()("@qforms/core/ApiKeys") {
  static readonly layer = Layer.effect(
    ApiKeys,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const members = yield* Members
      const cache = yield* ApiKeyCache
      const lastWritten = new Map<number, number>()

      const create = Effect.fn("ApiKeys.create")(function* (workspaceId: number, input: CreateApiKeyInput) {
        yield* members.get(workspaceId, input.accountId)
        const key = yield* Effect.sync(generate)
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = yield* sql<ApiKeyRow>`
          insert into api_keys (workspace_id, account_id, name, prefix, hash, created_at)
          values (${workspaceId}, ${input.accountId}, ${input.name ?? null}, ${displayPrefix(key)}, ${hash(key)}, ${now})
          returning id, name, prefix, account_id, created_at, last_used_at, revoked_at`
        return { apiKey: toApiKey(rows[0]!), key }
      })

      const list = Effect.fn("ApiKeys.list")(function* (workspaceId: number) {
        const rows = yield* sql<ApiKeyRow>`
          select id, name, prefix, account_id, created_at, last_used_at, revoked_at
          from api_keys where workspace_id = ${workspaceId} order by id`
        return rows.map(toApiKey)
      })

      const revoke = Effect.fn("ApiKeys.revoke")(function* (workspaceId: number, keyId: number) {
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = yield* sql<ApiKeyRow>`
          update api_keys set revoked_at = coalesce(revoked_at, ${now})
          where workspace_id = ${workspaceId} and id = ${keyId}
          returning id, name, prefix, account_id, created_at, last_used_at, revoked_at`.pipe(
          // At once in this process; every other process drops it when the revocation's notice arrives.
          Effect.ensuring(Effect.sync(() => cache.dropWorkspace(workspaceId)))
        )
        if (rows.length === 0) return yield* new ApiKeyNotFound({ message: `API key ${keyId} not found` })
        return toApiKey(rows[0]!)
      })

      // lastUsedAt is written at most once a minute per key and process, from memory or not.
      const used = Effect.fnUntraced(function* (keyId: number) {
        const now = yield* Clock.currentTimeMillis
        const last = lastWritten.get(keyId)
        if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return
        lastWritten.set(keyId, now)
        const at = new Date(now)
        const earliest = new Date(now - LAST_USED_RESOLUTION_MS)
        yield* sql`
          update api_keys set last_used_at = ${at}
          where id = ${keyId} and (last_used_at is null or last_used_at < ${earliest})`
      })

      const authenticate = Effect.fn("ApiKeys.authenticate")(function* (
        key: string,
        options?: { readonly fresh?: boolean }
      ) {
        if (key === "")
          return yield* new InvalidApiKey({ message: "missing API key: send Authorization: Bearer qk_live_..." })
        if (!isWellFormed(key)) return yield* new InvalidApiKey({ message: "malformed API key" })
        const digest = hash(key)
        const kept = options?.fresh === true ? undefined : cache.get(digest)
        if (kept !== undefined) {
          yield* used(kept.apiKeyId!)
          return kept
        }
        const stamp = cache.stamp()
        const rows = yield* sql<{
          readonly id: number
          readonly workspace_id: number
          readonly account_id: number
          readonly role: MemberRole
          readonly name: string | null
          readonly revoked: boolean
        }>`
          select k.id, k.workspace_id, k.account_id, m.role, a.name, k.revoked_at is not null as revoked
          from api_keys k
          join members m on m.workspace_id = k.workspace_id and m.account_id = k.account_id
          join accounts a on a.id = k.account_id
          where k.hash = ${digest}`
        const row = rows[0]
        if (row === undefined) return yield* new InvalidApiKey({ message: "unknown API key" })
        if (row.revoked) return yield* new InvalidApiKey({ message: "this API key has been revoked" })
        yield* used(row.id)
        const actor = Actors.member({
          workspaceId: row.workspace_id,
          accountId: row.account_id,
          role: row.role,
          name: row.name,
          via: "api_key",
          apiKeyId: row.id
        })
        cache.put(stamp, digest, actor)
        return actor
      })

      const locate = Effect.fn("ApiKeys.locate")(function* (keyId: number) {
        const rows = yield* sql<{
          readonly workspace_id: number
        }>`select workspace_id from api_keys where id = ${keyId}`
        if (rows.length === 0) return yield* new ApiKeyNotFound({ message: `API key ${keyId} not found` })
        return rows[0]!.workspace_id
      })

      const issue = Effect.fn("ApiKeys.issue")(function* (actor: Actors.Actor, input: IssueApiKeyInput) {
        yield* Actors.requireAdmin(actor)
        const accountId = input.accountId ?? actor.accountId
        if (accountId === null) return yield* new Forbidden({ message: "name the member the key acts as (accountId)" })
        // A key acts as its member: issuing one for someone is acting on them (Actors.requireAuthorityOver).
        return yield* sql.withTransaction(
          Effect.andThen(
            members.authorize(actor, accountId),
            create(actor.workspaceId, { accountId, name: input.name ?? null })
          ).pipe(
            Effect.tap(({ apiKey }) =>
              AuditLog.record(sql, actor, {
                action: "api_key.created",
                target: { type: "api_key", id: apiKey.id },
                details: { accountId, name: apiKey.name }
              })
            )
          )
        )
      })
      const listAs = (actor: Actors.Actor) => Effect.andThen(Actors.requireAdmin(actor), list(actor.workspaceId))
      const revokeAs = Effect.fn("ApiKeys.revokeAs")(function* (actor: Actors.Actor, keyId: number) {
        yield* Actors.requireAdmin(actor)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly account_id: number }>`
            select account_id from api_keys where workspace_id = ${actor.workspaceId} and id = ${keyId}`
            if (rows.length === 0) return yield* new ApiKeyNotFound({ message: `API key ${keyId} not found` })
            // A key of someone no longer a member acts as nobody: any owner or admin may revoke it.
            yield* members
              .authorize(actor, rows[0]!.account_id)
              .pipe(Effect.catchTag("MemberNotFound", () => Effect.void))
            const revoked = yield* revoke(actor.workspaceId, keyId)
            yield* AuditLog.record(sql, actor, {
              action: "api_key.revoked",
              target: { type: "api_key", id: keyId },
              details: { accountId: revoked.accountId, name: revoked.name }
            })
            return revoked
          })
        )
      })

      return ApiKeys.of({ create, list, revoke, authenticate, locate, issue, listAs, revokeAs })
    })
  ).pipe(Layer.provide([ApiKeyCache.layer, Members.layer]))
}
