/**
 * The workspace audit log (`audit_log`, migration 0035): one row per
 * security-relevant event — sign-ins and failed sign-ins, API keys, members
 * and roles, invitations, exports, workspace settings, webhook
 * subscriptions — with who acted (a member, an API key, the system or the
 * CLI), through which surface (`api`, `app`, `mcp`, `cli`, `system`), from
 * which client address (behind the trusted proxies, see
 * `web/RequestOrigin.ts` `clientAddress`), on what, and a few details that
 * never hold a respondent's personal data.
 *
 * The log is append-only: no API changes or deletes a row, and a database
 * trigger refuses UPDATE, DELETE and TRUNCATE, except the retention prune
 * ({@link AuditLog} `prune`: it sets the transaction-local setting
 * `qforms_audit.prune`) and the cascade of a deleted workspace.
 *
 * Code that changes something calls {@link record} inside its own
 * transaction, on the same `SqlClient`, so the change and its row commit
 * together. Where the request came from is read from {@link AuditOrigin},
 * which the HTTP router (address) and the CLI (surface `cli`) provide.
 *
 * Failed sign-ins: a wrong password of an account that is a member is
 * recorded once in each of its workspaces ({@link recordSignInFailure}); an
 * address with no account is recorded nowhere (there is no workspace to
 * record it in, and the log would otherwise tell which addresses exist).
 * A host's identity bridge signs its users in itself: qforms sees no sign-in.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, type Forbidden } from "../kernel/index.ts"

/**
 * What happened: a closed list. The details each action records:
 *
 * - `auth.sign_in` `{method: "password" | "link" | "switch" | "invitation" | "bridge"}`: a session opened in the
 *   workspace; `bridge`: the host's identity bridge let the member in (once per member in 12 hours).
 * - `auth.sign_in_failed` `{reason: "wrong_password"}`: a wrong password for an account that is a member.
 * - `api_key.created` `{accountId, name}`, `api_key.revoked` `{accountId, name}`: target the key.
 * - `member.added` `{email, role}`, `member.removed` `{role}`, `member.role_changed` `{from, to}`: target the account.
 * - `invitation.created` `{email, role}`, `invitation.revoked` `{email}`, `invitation.accepted` `{email, role}`.
 * - `responses.exported` `{format: "csv" | "xlsx" | "json", filters: [names of the filters used]}`: target the form.
 * - `workspace.settings_changed` `{keys: [the top-level keys whose value changed]}`.
 * - `webhook.created` `{url, events, formIds}`, `webhook.changed` `{changed: [keys], url?: {from, to}}`,
 *   `webhook.deleted` `{url}`: target the subscription; its signing secret is never recorded.
 * - `privacy.erasure` `{responses, partialResponses, files, emailsSent, emailReplies, contacts, deliveriesCancelled,
 *   notesFlagged}` (counts of what was erased, never the person's identifiers): target the erasure record.
 * - `privacy.export` `{format: "zip" | "json", responses, partialResponses, files, emailsSent, emailReplies, contacts,
 *   notes, subjectSalt, subjectHash}`: an export of a person's data (`privacy/PersonalDataExport.ts`), counts and a
 *   salted SHA-256 of the address, never the address.
 * - `retention.run` `{formId, action, olderThanDays, deleted, anonymised, partialResponses, files, emails}` (counts
 *   only): a batch of a form's retention run (`privacy/Retention.ts`), actor the system, target the form.
 * - `audit.exported` `{rows}`: the audit log's own CSV export.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(AuditAction)("api_key.created")
 * ```
 */
export const AuditAction = Schema.Literals([
  "auth.sign_in",
  "auth.sign_in_failed",
  "api_key.created",
  "api_key.revoked",
  "member.added",
  "member.removed",
  "member.role_changed",
  "invitation.created",
  "invitation.accepted",
  "invitation.revoked",
  "responses.exported",
  "workspace.settings_changed",
  "webhook.created",
  "webhook.changed",
  "webhook.deleted",
  "privacy.erasure",
  "privacy.export",
  "retention.run",
  "audit.exported"
]).annotate({ identifier: "AuditAction", description: "What happened (a closed list)." })
export type AuditAction = typeof AuditAction.Type

/** The surface a request came through: `api` (an API key), `app` (the application's session), `mcp`, `cli`, `system`. */
export const AuditSurface = Schema.Literals(["api", "app", "mcp", "cli", "system"]).annotate({
  identifier: "AuditSurface"
})
export type AuditSurface = typeof AuditSurface.Type

/** Who acted: a member (signed in), an API key, the system, or the administration CLI. */
export const AuditActorKind = Schema.Literals(["member", "api_key", "system", "cli"])
export type AuditActorKind = typeof AuditActorKind.Type

/** The kinds of thing an entry is about. */
export const AuditTargetType = Schema.Literals([
  "account",
  "api_key",
  "invitation",
  "form",
  "workspace",
  "webhook",
  "erasure"
])
export type AuditTargetType = typeof AuditTargetType.Type

/**
 * One entry of the audit log.
 *
 * @example
 * ```ts
 * const entry: AuditEntry = {
 *   id: 1, occurredAt: "2026-11-27T10:00:00.000Z", action: "api_key.revoked", surface: "api", address: "203.0.113.7",
 *   actor: { kind: "member", id: 7, label: "ada@example.com" }, target: { type: "api_key", id: "12" }, details: {}
 * }
 * ```
 */
export const AuditEntry = Schema.Struct({
  id: Schema.Int,
  occurredAt: Schema.String.annotate({ format: "date-time" }),
  action: AuditAction,
  actor: Schema.Struct({
    kind: AuditActorKind,
    id: Schema.NullOr(Schema.Int).annotate({ description: "The account (member) or the key (api_key)." }),
    label: Schema.NullOr(Schema.String).annotate({ description: "The member's e-mail address or the key's name." })
  }),
  surface: AuditSurface,
  address: Schema.NullOr(Schema.String).annotate({
    description: "The client's address (behind the trusted proxies); null outside a request."
  }),
  target: Schema.NullOr(Schema.Struct({ type: AuditTargetType, id: Schema.String })),
  details: Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "What the action records (see the action list); never a respondent's personal data."
  })
}).annotate({ identifier: "AuditEntry" })
export type AuditEntry = typeof AuditEntry.Type

/** A page of the audit log, newest first. */
export const AuditLogPage = Schema.Struct({
  entries: Schema.Array(AuditEntry),
  nextCursor: Schema.NullOr(Schema.String).annotate({ description: "The cursor of the next page; null on the last." })
}).annotate({ identifier: "AuditLogPage" })
export type AuditLogPage = typeof AuditLogPage.Type

/** The filters of a listing (all optional). */
export interface AuditFilter {
  readonly action?: AuditAction | undefined
  readonly actorKind?: AuditActorKind | undefined
  readonly actorId?: number | undefined
  readonly surface?: AuditSurface | undefined
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** The retention of a workspace's log when its settings name none: 365 days. */
export const defaultRetentionDays = 365

/** The shortest retention a workspace may set: 30 days. */
export const minimumRetentionDays = 30

/**
 * Where the current request came from: the client's address (the HTTP
 * router provides it for every request) and, for the CLI, the surface.
 *
 * @example
 * ```ts
 * effect.pipe(Effect.provideService(AuditOrigin, { address: null, surface: "cli" }))
 * ```
 */
export const AuditOrigin = Context.Reference<{
  readonly address: string | null
  readonly surface: AuditSurface | null
}>("@qforms/core/audit/AuditOrigin", { defaultValue: () => ({ address: null, surface: null }) })

/**
 * A URL as the log keeps it: scheme, host and path, without the user name,
 * password, query or fragment (where a receiver's token may ride).
 *
 * @example
 * ```ts
 * urlWithoutSecrets("https://u:p@hooks.example.com/in?token=s3cret") // "https://hooks.example.com/in?…"
 * ```
 */
export const urlWithoutSecrets = (url: string): string => {
  const parsed = URL.parse(url)
  if (parsed === null) return "…"
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search === "" && parsed.hash === "" ? "" : "?…"}`
}

/** What {@link record} writes beside the actor and the origin. */
export interface AuditRecord {
  readonly action: AuditAction
  readonly target?: { readonly type: AuditTargetType; readonly id: string | number } | undefined
  readonly details?: { readonly [key: string]: unknown } | undefined
}

/** The surface of an actor, unless the origin names one (the CLI). */
const surfaceOf = (actor: Actors.Actor, origin: AuditSurface | null): AuditSurface =>
  actor.channel === "mcp"
    ? "mcp"
    : actor.kind === "api_key"
      ? "api"
      : actor.kind === "session"
        ? "app"
        : (origin ?? "system")

/**
 * Writes one entry of the actor's workspace, in the caller's transaction
 * when it runs in one (use the caller's `SqlClient`): the change and its
 * entry commit together. The actor's label (e-mail address or key name) is
 * read in the same statement.
 *
 * @example
 * ```ts
 * yield* sql.withTransaction(Effect.gen(function* () {
 *   const revoked = yield* keys.revoke(actor.workspaceId, id) // the change, on the same connection
 *   yield* AuditLog.record(sql, actor, { action: "api_key.revoked", target: { type: "api_key", id: revoked.id } })
 * }))
 * ```
 */
export const record = (
  sql: SqlClient.SqlClient,
  actor: Actors.Actor,
  entry: AuditRecord
): Effect.Effect<void, SqlError.SqlError> =>
  Effect.gen(function* () {
    const origin = yield* AuditOrigin
    const now = new Date(yield* Clock.currentTimeMillis)
    const surface = surfaceOf(actor, origin.surface)
    const kind: AuditActorKind =
      actor.kind === "api_key" ? "api_key" : actor.kind === "session" ? "member" : surface === "cli" ? "cli" : "system"
    const actorId = kind === "api_key" ? (actor.apiKeyId ?? null) : kind === "member" ? actor.accountId : null
    const keyId = actor.apiKeyId ?? null
    const accountId = actor.accountId
    yield* sql`
      insert into audit_log
        (workspace_id, occurred_at, actor_kind, actor_id, actor_label, surface, address, action, target_type,
         target_id, details)
      values (${actor.workspaceId}, ${now}, ${kind}, ${actorId},
        left(coalesce(
          (select name from api_keys where id = ${keyId} and workspace_id = ${actor.workspaceId}),
          (select email from accounts where id = ${accountId})
        ), 320),
        ${surface}, ${origin.address === null ? null : origin.address.slice(0, 100)}, ${entry.action},
        ${entry.target?.type ?? null}, ${entry.target === undefined ? null : String(entry.target.id).slice(0, 100)},
        ${JSON.stringify(entry.details ?? {})}::jsonb)`
  })

/**
 * Records a failed sign-in of an account (a wrong password) in each
 * workspace it is a member of, as that member, in one statement. An address
 * with no account is recorded nowhere: call this only with an account.
 *
 * @example
 * ```ts
 * yield* AuditLog.recordSignInFailure(sql, account.id, "wrong_password")
 * ```
 */
export const recordSignInFailure = (
  sql: SqlClient.SqlClient,
  accountId: number,
  reason: "wrong_password"
): Effect.Effect<void, SqlError.SqlError> =>
  Effect.gen(function* () {
    const origin = yield* AuditOrigin
    const now = new Date(yield* Clock.currentTimeMillis)
    yield* sql`
      insert into audit_log
        (workspace_id, occurred_at, actor_kind, actor_id, actor_label, surface, address, action, target_type,
         target_id, details)
      select m.workspace_id, ${now}, 'member', m.account_id, left(a.email, 320), ${origin.surface ?? "app"},
        ${origin.address === null ? null : origin.address.slice(0, 100)}, 'auth.sign_in_failed', 'account',
        ${String(accountId)}, ${JSON.stringify({ reason })}::jsonb
      from members m join accounts a on a.id = m.account_id
      where m.account_id = ${accountId}`
  })

/**
 * Records that the host's identity bridge let a member in: `auth.sign_in`
 * `{method: "bridge"}` as that member, unless the log holds one for them in
 * this workspace from the last `windowHours` (the bridge is asked on every
 * request; one entry stands for the host's session). Nothing for an account
 * that does not exist.
 *
 * @example
 * ```ts
 * yield* AuditLog.recordBridgedSignIn(sql, { workspaceId: 1, accountId: 7, surface: "app", windowHours: 12 })
 * ```
 */
export const recordBridgedSignIn = (
  sql: SqlClient.SqlClient,
  options: {
    readonly workspaceId: number
    readonly accountId: number
    readonly surface: "app" | "api" | "mcp"
    readonly windowHours: number
  }
): Effect.Effect<void, SqlError.SqlError> =>
  Effect.gen(function* () {
    const origin = yield* AuditOrigin
    const millis = yield* Clock.currentTimeMillis
    const now = new Date(millis)
    const since = new Date(millis - options.windowHours * 3_600_000)
    yield* sql`
      insert into audit_log
        (workspace_id, occurred_at, actor_kind, actor_id, actor_label, surface, address, action, target_type,
         target_id, details)
      select ${options.workspaceId}, ${now}, 'member', a.id, left(a.email, 320), ${options.surface},
        ${origin.address === null ? null : origin.address.slice(0, 100)}, 'auth.sign_in', null, null,
        ${JSON.stringify({ method: "bridge" })}::jsonb
      from accounts a
      where a.id = ${options.accountId} and not exists (
        select 1 from audit_log l
        where l.workspace_id = ${options.workspaceId} and l.action = 'auth.sign_in' and l.actor_kind = 'member'
          and l.actor_id = ${options.accountId} and l.occurred_at > ${since} and l.details ->> 'method' = 'bridge')`
  })

interface Row {
  readonly id: number
  readonly occurred_at: Date
  readonly actor_kind: AuditActorKind
  readonly actor_id: number | null
  readonly actor_label: string | null
  readonly surface: AuditSurface
  readonly address: string | null
  readonly action: AuditAction
  readonly target_type: AuditTargetType | null
  readonly target_id: string | null
  readonly details: unknown
}

const toEntry = (row: Row): AuditEntry => ({
  id: row.id,
  occurredAt: row.occurred_at.toISOString(),
  action: row.action,
  actor: { kind: row.actor_kind, id: row.actor_id, label: row.actor_label },
  surface: row.surface,
  address: row.address,
  target: row.target_type === null ? null : { type: row.target_type, id: row.target_id ?? "" },
  details:
    typeof row.details === "string"
      ? (JSON.parse(row.details) as AuditEntry["details"])
      : ((row.details ?? {}) as AuditEntry["details"])
})

const pageSize = 500

/**
 * Reading the audit log (owners and admins of the workspace only) and the
 * retention prune.
 *
 * @example
 * ```ts
 * const audit = yield* AuditLog
 * const page = yield* audit.list(actor, { action: "api_key.created", limit: 50 })
 * ```
 */
export class AuditLog extends Context.Service<
  AuditLog,
  {
    /** A page of the actor's workspace's log, newest first (owners and admins). */
    readonly list: (
      actor: Actors.Actor,
      filter: AuditFilter
    ) => Effect.Effect<AuditLogPage, Forbidden | SqlError.SqlError>
    /**
     * The whole filtered log, page by page, newest first, for an export (owners and admins); the export is
     * itself recorded (`audit.exported`).
     */
    readonly export: (
      actor: Actors.Actor,
      filter: AuditFilter
    ) => Effect.Effect<Stream.Stream<ReadonlyArray<AuditEntry>, SqlError.SqlError>, Forbidden | SqlError.SqlError>
    /** Records an entry on its own (outside any other change): an export, for one. */
    readonly recordNow: (actor: Actors.Actor, entry: AuditRecord) => Effect.Effect<void, SqlError.SqlError>
    /**
     * Deletes every workspace's entries older than its retention (`auditRetentionDays` of its settings,
     * default {@link defaultRetentionDays}, at least {@link minimumRetentionDays}); answers how many.
     */
    readonly prune: Effect.Effect<number, SqlError.SqlError>
  }
>()("@qforms/core/AuditLog") {
  static readonly layer = Layer.effect(
    AuditLog,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const page = (workspaceId: number, filter: AuditFilter, limit: number, before: number | undefined) =>
        sql<Row>`
          select id, occurred_at, actor_kind, actor_id, actor_label, surface, address, action, target_type,
            target_id, details
          from audit_log
          where ${sql.and([
            sql`workspace_id = ${workspaceId}`,
            ...(before === undefined ? [] : [sql`id < ${before}`]),
            ...(filter.action === undefined ? [] : [sql`action = ${filter.action}`]),
            ...(filter.actorKind === undefined ? [] : [sql`actor_kind = ${filter.actorKind}`]),
            ...(filter.actorId === undefined ? [] : [sql`actor_id = ${filter.actorId}`]),
            ...(filter.surface === undefined ? [] : [sql`surface = ${filter.surface}`]),
            ...(filter.from === undefined ? [] : [sql`occurred_at >= ${filter.from}`]),
            ...(filter.to === undefined ? [] : [sql`occurred_at <= ${filter.to}`])
          ])}
          order by id desc
          limit ${limit}`

      const cursorOf = (cursor: string | undefined) =>
        cursor === undefined || !/^[1-9]\d{0,9}$/.test(cursor) || Number(cursor) > 2147483647
          ? undefined
          : Number(cursor)

      const list = Effect.fn("AuditLog.list")(function* (actor: Actors.Actor, filter: AuditFilter) {
        yield* Actors.requireAdmin(actor)
        const limit = filter.limit ?? 50
        const rows = yield* page(actor.workspaceId, filter, limit + 1, cursorOf(filter.cursor))
        const entries = rows.slice(0, limit).map(toEntry)
        return {
          entries,
          nextCursor: rows.length > limit ? String(entries[entries.length - 1]!.id) : null
        } satisfies AuditLogPage
      })

      const recordNow = (actor: Actors.Actor, entry: AuditRecord) => record(sql, actor, entry)

      const exportLog = Effect.fn("AuditLog.export")(function* (actor: Actors.Actor, filter: AuditFilter) {
        yield* Actors.requireAdmin(actor)
        const [{ rows }] = yield* sql<{ readonly rows: number }>`
          select count(*)::int as rows from audit_log where workspace_id = ${actor.workspaceId}`
        yield* recordNow(actor, { action: "audit.exported", details: { rows } })
        return Stream.paginate(cursorOf(filter.cursor), (before: number | undefined) =>
          Effect.map(page(actor.workspaceId, filter, pageSize, before), (rows) => {
            const entries = rows.map(toEntry)
            const last = entries[entries.length - 1]
            return [
              [entries],
              rows.length === pageSize && last !== undefined ? Option.some(last.id) : Option.none()
            ] as const
          })
        )
      })

      const prune = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`select set_config('qforms_audit.prune', 'on', true)`
            const rows = yield* sql<{ readonly id: number }>`
              delete from audit_log l
              using workspaces w
              left join workspace_page_settings s on s.workspace_id = w.id
              where l.workspace_id = w.id
                and l.occurred_at < ${new Date(now)}::timestamptz - make_interval(days => greatest(
                  ${minimumRetentionDays},
                  coalesce(
                    case when jsonb_typeof(s.settings -> 'auditRetentionDays') = 'number'
                      then floor((s.settings ->> 'auditRetentionDays')::numeric)::int end,
                    ${defaultRetentionDays})))
              returning l.id`
            yield* sql`select set_config('qforms_audit.prune', 'off', true)`
            return rows.length
          })
        )
      }).pipe(Effect.withSpan("AuditLog.prune"))

      return AuditLog.of({ list, export: exportLog, recordNow, prune })
    })
  )
}

/**
 * Prunes every workspace's audit log to its retention now and every hour
 * while the layer lives (see {@link AuditLog} `prune`). `Qforms.make` runs it.
 */
export const layerPruner: Layer.Layer<never, never, AuditLog> = Layer.effectDiscard(
  Effect.gen(function* () {
    const audit = yield* AuditLog
    const once = audit.prune.pipe(
      Effect.tap((n) =>
        n > 0 ? Effect.logInfo(`qforms: pruned ${n} audit log entries past their retention`) : Effect.void
      ),
      Effect.catchCause((cause) => Effect.logWarning("qforms: pruning the audit log failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(once, Effect.sleep("1 hour"))))
  })
)
