/**
 * Webhook subscriptions: an outside tool asks for an event of one form to be
 * posted to its URL, or (an extension) for events of every form of the
 * workspace: a workspace-wide subscription, which can name forms to keep and
 * outlives a deleted form, so it hears `form.deleted`. Each subscription has a
 * signing secret, returned once when it is created. (Delivery reads the
 * outbox; see `Events.ts`.)
 */
import { randomBytes } from "node:crypto"
import { isIP } from "node:net"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, type Forbidden, FormNotFound, Id, InvalidInput, Tag } from "../kernel/index.ts"
import { AuditLogModule as AuditLog } from "../audit/index.ts"
import { DeliveryConfig } from "./DeliveryConfig.ts"
import * as SsrfGuard from "./SsrfGuard.ts"
import { EventName } from "../events/index.ts"

/** Which of a form's responses a subscription hears of: those in some stages, or with some tags. */
export const SubscriptionFilters = Schema.Struct({
  stageIds: Schema.optionalKey(
    Schema.Array(Id).check(
      Schema.isMinLength(1, { message: "filters.stageIds must name 1 to 50 stages" }),
      Schema.isMaxLength(50, { message: "filters.stageIds must name 1 to 50 stages" })
    )
  ).annotate({ description: "Only responses in one of these stages of the form." }),
  tags: Schema.optionalKey(
    Schema.Array(Tag).check(
      Schema.isMinLength(1, { message: "filters.tags must name 1 to 50 tags" }),
      Schema.isMaxLength(50, { message: "filters.tags must name 1 to 50 tags" })
    )
  ).annotate({ description: "Only responses with at least one of these tags (compared without case)." })
}).annotate({
  identifier: "SubscriptionFilters",
  description:
    "Extension: which responses the subscription hears of. An event that is not about a response (form.published, form.closed) reaches only subscriptions without filters."
})
export type SubscriptionFilters = typeof SubscriptionFilters.Type

/** The filters of a workspace-wide subscription: those of a form's, and which forms. */
export const WorkspaceSubscriptionFilters = Schema.Struct({
  ...SubscriptionFilters.fields,
  formIds: Schema.optionalKey(
    Schema.Array(Id).check(
      Schema.isMinLength(1, { message: "filters.formIds must name 1 to 50 forms" }),
      Schema.isMaxLength(50, { message: "filters.formIds must name 1 to 50 forms" })
    )
  ).annotate({
    description:
      "Only a workspace-wide subscription: only events of these forms (a form created later is not added). " +
      "Without it, every form of the workspace, those created later included."
  })
}).annotate({
  identifier: "WorkspaceSubscriptionFilters",
  description:
    "Extension: which events the subscription hears. `stageIds` and `tags` keep responses (an event that is not " +
    "about a response reaches only subscriptions without them); `formIds`, of a workspace-wide subscription, keeps forms."
})
export type WorkspaceSubscriptionFilters = typeof WorkspaceSubscriptionFilters.Type

/** The event only workspace-wide subscriptions hear (a form's own subscriptions go with the form). */
export const workspaceOnlyEvent = "form.deleted"

/** The events of a subscription: 1 to 20 names of the catalogue. */
const invalid = (path: string, message: string) => new InvalidInput({ message, details: [{ path, message }] })

const SubscribedEvents = Schema.Array(EventName).check(
  Schema.isMinLength(1, { message: "events must name 1 to 20 events" }),
  Schema.isMaxLength(20, { message: "events must name 1 to 20 events" })
)

/** What every subscription has besides its scope (a form, or the workspace) and its filters. */
const subscriptionFields = {
  id: Schema.String,
  /** The event named when subscribing (the first of `events`). */
  event: EventName,
  events: Schema.Array(EventName).annotate({ description: "Extension: every event the subscription receives." }),
  targetUrl: Schema.String.annotate({
    description:
      "The receiver's URL. Whole for owners and admins; for members and viewers only its scheme and host, then `…` (a URL can carry a token: it is a credential)."
  }),
  source: Schema.String,
  lastSentAt: Schema.NullOr(Schema.String).annotate({
    description:
      "When the receiver last answered a post (any HTTP status); null before any answer. Attempts that never reached it (DNS failure, refused connection, timeout) do not count."
  }),
  createdAt: Schema.String,
  disabled: Schema.Boolean.annotate({
    description:
      "Extension: true when deliveries are stopped (the receiver answered 410 Gone, too many deliveries in a row gave up, or a member disabled it)."
  }),
  disabledReason: Schema.NullOr(Schema.String).annotate({ description: "Extension: why it is disabled." }),
  consecutiveFailures: Schema.Int.annotate({
    description:
      "Extension: how many deliveries in a row gave up (final status `failed`); a delivered one or re-enabling resets it."
  }),
  includeSensitive: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Extension: true when the posts carry the answers of sensitive questions; absent (the default) leaves them " +
      'out: they read "(sensitive, not included)" and their keys are listed in the body\'s `redacted`.'
  })
}

/** A form's subscription as listed (spec: Subscription). */
export const Subscription = Schema.Struct({
  id: subscriptionFields.id,
  formId: Schema.Int,
  formTitle: Schema.String,
  event: subscriptionFields.event,
  events: subscriptionFields.events,
  filters: SubscriptionFilters,
  targetUrl: subscriptionFields.targetUrl,
  source: subscriptionFields.source,
  lastSentAt: subscriptionFields.lastSentAt,
  createdAt: subscriptionFields.createdAt,
  disabled: subscriptionFields.disabled,
  disabledReason: subscriptionFields.disabledReason,
  consecutiveFailures: subscriptionFields.consecutiveFailures,
  includeSensitive: subscriptionFields.includeSensitive
}).annotate({ identifier: "Subscription" })
export type Subscription = typeof Subscription.Type

/**
 * A workspace-wide subscription as listed (extension): no form of its own; it hears every form of the workspace,
 * or those of `filters.formIds`, and their deletion.
 */
export const WorkspaceSubscription = Schema.Struct({
  ...subscriptionFields,
  scope: Schema.Literal("workspace").annotate({ description: "Every form of the workspace (or those named)." }),
  filters: WorkspaceSubscriptionFilters
}).annotate({ identifier: "WorkspaceSubscription" })
export type WorkspaceSubscription = typeof WorkspaceSubscription.Type

/** Either kind of subscription, as the routes under `/webhooks/subscribe/{id}` answer it. */
export const AnySubscription = Schema.Union([Subscription, WorkspaceSubscription]).annotate({
  identifier: "AnySubscription"
})
export type AnySubscription = typeof AnySubscription.Type

/** The signing secret, shown once. */
const secretField = {
  secret: Schema.String.annotate({
    description: "The signing secret (Standard Webhooks), shown only in this response."
  })
}

/** A new subscription: the subscription and, this once, its signing secret (`whsec_…`). */
export const CreatedSubscription = Schema.Struct({ ...Subscription.fields, ...secretField }).annotate({
  identifier: "CreatedSubscription"
})
export type CreatedSubscription = typeof CreatedSubscription.Type

/** A new workspace-wide subscription and, this once, its signing secret. */
export const CreatedWorkspaceSubscription = Schema.Struct({
  ...WorkspaceSubscription.fields,
  ...secretField
}).annotate({ identifier: "CreatedWorkspaceSubscription" })
export type CreatedWorkspaceSubscription = typeof CreatedWorkspaceSubscription.Type

/** An absolute http(s) URL of at most 2000 characters. */
export const TargetUrl = Schema.String.check(
  Schema.isMaxLength(2000, { message: "targetUrl must be at most 2000 characters" }),
  Schema.makeFilter((url: string) => {
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    return (
      (parsed !== undefined &&
        (parsed.protocol === "http:" || parsed.protocol === "https:") &&
        parsed.hostname !== "") ||
      "targetUrl must be an absolute http:// or https:// URL"
    )
  })
)

/** What subscribing takes (spec: POST /webhooks/subscribe). */
export const SubscribeInput = Schema.Struct({
  formId: Id,
  event: EventName,
  events: Schema.optionalKey(SubscribedEvents).annotate({
    description:
      "Extension: more events for the same target (`event` is always one of them). See GET /api/events/catalogue."
  }),
  filters: Schema.optionalKey(SubscriptionFilters),
  targetUrl: TargetUrl,
  source: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(40, { message: "source must be at most 40 characters" })).pipe(
      Schema.decodeTo(Schema.Trimmed, SchemaTransformation.trim())
    )
  ),
  includeSensitive: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Extension: post the answers of sensitive questions too (owners and admins decide). Default false: they are left out."
  })
}).annotate({ identifier: "Subscribe" })
export type SubscribeInput = typeof SubscribeInput.Type

/**
 * What a workspace-wide subscription takes (extension: POST /api/webhooks/workspace-subscriptions): a subscription
 * without `formId`, for every form of the workspace or those of `filters.formIds`.
 */
export const WorkspaceSubscribeInput = Schema.Struct({
  event: EventName,
  events: SubscribeInput.fields.events,
  filters: Schema.optionalKey(WorkspaceSubscriptionFilters),
  targetUrl: TargetUrl,
  source: SubscribeInput.fields.source,
  includeSensitive: SubscribeInput.fields.includeSensitive
}).annotate({ identifier: "SubscribeWorkspace" })
export type WorkspaceSubscribeInput = typeof WorkspaceSubscribeInput.Type

/**
 * What changing a subscription takes: `{"disabled": false}` re-enables it; `{"includeSensitive": true}` lets its
 * posts carry the answers of sensitive questions. A field left out is left as it is.
 */
export const UpdateSubscriptionInput = Schema.Struct({
  disabled: Schema.optionalKey(Schema.Boolean),
  includeSensitive: Schema.optionalKey(Schema.Boolean).annotate({
    description: "Extension: whether the posts carry the answers of sensitive questions."
  })
}).annotate({ identifier: "UpdateSubscription" })
export type UpdateSubscriptionInput = typeof UpdateSubscriptionInput.Type

/** Why a subscription a member disabled is disabled (no alert is sent for it). */
export const memberDisabledReason = "disabled by a member"

/** Where and how a subscription's posts go (for a test ping). */
export interface SubscriptionTarget {
  readonly subscription: AnySubscription
  readonly secret: string
  /** The subscription's form as events about forms name it; null for a workspace-wide subscription. */
  readonly form: { readonly publicId: string; readonly status: string } | null
}

/** No such subscription in this workspace. */
export class SubscriptionNotFound extends Schema.TaggedError<SubscriptionNotFound>()("SubscriptionNotFound", {
  message: Schema.String
}) {}

interface SubscriptionRow {
  readonly id: string
  readonly form_id: number | null
  readonly form_title: string | null
  readonly form_ids: ReadonlyArray<number> | null
  readonly event: EventName
  readonly events: ReadonlyArray<EventName>
  readonly stage_ids: ReadonlyArray<number> | null
  readonly tags: ReadonlyArray<string> | null
  readonly target_url: string
  readonly source: string
  readonly last_sent_at: Date | null
  readonly created_at: Date
  readonly disabled_at: Date | null
  readonly disabled_reason: string | null
  readonly consecutive_failures: number
  readonly include_sensitive: boolean
}

/**
 * A receiver URL as members and viewers see it: scheme and host, then `…`.
 * Webhook and chat URLs often carry their token in the path or query.
 *
 * @example
 * ```ts
 * maskedUrl("https://hooks.slack.com/services/T0/B0/xyz") // "https://hooks.slack.com/…"
 * ```
 */
export const maskedUrl = (url: string): string => {
  const parsed = URL.parse(url)
  return parsed === null ? "…" : `${parsed.protocol}//${parsed.host}/…`
}

/** Whether the actor sees receiver URLs and secrets whole: owners, admins, the system. */
export const seesCredentials = (actor: Actors.Actor): boolean =>
  actor.kind === "system" || actor.role === "owner" || actor.role === "admin"

const sharedOf = (row: SubscriptionRow) => ({
  event: row.event,
  events: row.events,
  targetUrl: row.target_url,
  source: row.source,
  lastSentAt: row.last_sent_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  disabled: row.disabled_at !== null,
  disabledReason: row.disabled_reason,
  consecutiveFailures: row.consecutive_failures,
  ...(row.include_sensitive ? { includeSensitive: true } : {})
})

const filtersOf = (row: SubscriptionRow): SubscriptionFilters => ({
  ...(row.stage_ids === null ? {} : { stageIds: row.stage_ids }),
  ...(row.tags === null ? {} : { tags: row.tags })
})

/** A form's subscription, or a workspace-wide one (a row without a form). */
const toSubscription = (row: SubscriptionRow): AnySubscription =>
  row.form_id === null || row.form_title === null
    ? {
        id: row.id,
        scope: "workspace",
        ...sharedOf(row),
        filters: { ...filtersOf(row), ...(row.form_ids === null ? {} : { formIds: row.form_ids }) }
      }
    : { id: row.id, formId: row.form_id, formTitle: row.form_title, ...sharedOf(row), filters: filtersOf(row) }

/** Whether a subscription is a form's own (the contract's Subscription). */
export const isFormSubscription = (subscription: AnySubscription): subscription is Subscription =>
  "formId" in subscription

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export const makeSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

/**
 * Refuses a target that is, or resolves to, a loopback, private or
 * otherwise internal address (unless private targets are allowed). A name
 * that cannot be resolved now is accepted: delivery checks again (and refuses
 * it then if need be). `path` names the field in the error.
 *
 * @example
 * ```ts
 * yield* checkTarget("https://hooks.example.com/x") // fails with InvalidInput for http://10.0.0.1/
 * ```
 */
export const checkTarget = Effect.fnUntraced(function* (targetUrl: string, path = "targetUrl") {
  const config = yield* DeliveryConfig
  if (config.allowPrivateTargets) return
  const refuse = (error: SsrfGuard.SsrfRejected) => {
    const message = error.message.replace(/^targetUrl/, path)
    return new InvalidInput({ message, details: [{ path, message }] })
  }
  // Scheme, credentials, literal addresses and loopback names, even for a name that cannot be resolved now.
  yield* SsrfGuard.vetWithoutDns(targetUrl, { allowPrivate: false }).pipe(Effect.mapError(refuse))
  const host = new URL(targetUrl).hostname.replace(/^\[|\]$/g, "")
  const addresses =
    isIP(host) !== 0
      ? undefined
      : yield* SsrfGuard.systemResolve(host).pipe(
          Effect.timeout("3 seconds"),
          Effect.orElseSucceed(() => null)
        )
  if (addresses === null) return
  yield* SsrfGuard.vet(targetUrl, {
    allowPrivate: false,
    ...(addresses === undefined ? {} : { resolve: () => Effect.succeed(addresses) })
  }).pipe(
    // No address now: accepted like a name that does not resolve (delivery checks again).
    Effect.catchTag("TargetUnresolved", () => Effect.void),
    Effect.mapError(refuse)
  )
})

/**
 * Webhook subscriptions of a workspace. Managing them takes an owner or admin.
 *
 * @example
 * ```ts
 * const created = yield* (yield* Webhooks).subscribe(actor, {
 *   formId, event: "response.created", targetUrl: "https://hooks.example.com/qforms"
 * })
 * ```
 */
export class Webhooks extends Context.Service<
  Webhooks,
  {
    /** The forms' own subscriptions (the contract's list). */
    readonly list: (actor: Actors.Actor) => Effect.Effect<ReadonlyArray<Subscription>, SqlError.SqlError>
    /** The workspace-wide subscriptions. */
    readonly listWorkspace: (
      actor: Actors.Actor
    ) => Effect.Effect<ReadonlyArray<WorkspaceSubscription>, SqlError.SqlError>
    readonly subscribe: (
      actor: Actors.Actor,
      input: SubscribeInput
    ) => Effect.Effect<CreatedSubscription, FormNotFound | Forbidden | InvalidInput | SqlError.SqlError>
    /** A workspace-wide subscription: every form of the workspace, or those of `filters.formIds`. */
    readonly subscribeWorkspace: (
      actor: Actors.Actor,
      input: WorkspaceSubscribeInput
    ) => Effect.Effect<CreatedWorkspaceSubscription, FormNotFound | Forbidden | InvalidInput | SqlError.SqlError>
    readonly unsubscribe: (
      actor: Actors.Actor,
      subscriptionId: string
    ) => Effect.Effect<void, SubscriptionNotFound | Forbidden | SqlError.SqlError>
    /** Disables or re-enables a subscription. */
    readonly update: (
      actor: Actors.Actor,
      subscriptionId: string,
      input: UpdateSubscriptionInput
    ) => Effect.Effect<AnySubscription, SubscriptionNotFound | Forbidden | SqlError.SqlError>
    /** A subscription with its signing secret (owners and admins; for a test ping). */
    readonly target: (
      actor: Actors.Actor,
      subscriptionId: string
    ) => Effect.Effect<SubscriptionTarget, SubscriptionNotFound | Forbidden | SqlError.SqlError>
  }
>()("@qforms/core/Webhooks") {
  static readonly layer = Layer.effect(
    Webhooks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const columns = sql.literal(
        "s.id, s.form_id, f.title as form_title, s.form_ids, s.event, s.events, s.stage_ids, s.tags, s.target_url, " +
          "s.source, " +
          "s.last_sent_at, s.created_at, " +
          "s.disabled_at, s.disabled_reason, s.consecutive_failures, s.include_sensitive"
      )
      const notFound = (id: string) => new SubscriptionNotFound({ message: `subscription ${id} not found` })
      // The audit log's entry of a new subscription (never its secret; the URL without query or credentials).
      const audited = (actor: Actors.Actor) => (rows: ReadonlyArray<SubscriptionRow>) =>
        rows.length === 0
          ? Effect.void
          : AuditLog.record(sql, actor, {
              action: "webhook.created",
              target: { type: "webhook", id: rows[0]!.id },
              details: {
                url: AuditLog.urlWithoutSecrets(rows[0]!.target_url),
                events: rows[0]!.events,
                formIds: rows[0]!.form_id === null ? rows[0]!.form_ids : [rows[0]!.form_id]
              }
            })

      const update = Effect.fn("Webhooks.update")(function* (
        actor: Actors.Actor,
        subscriptionId: string,
        input: UpdateSubscriptionInput
      ) {
        yield* Actors.requireAdmin(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        // A field left out keeps its value: `keep` is true when `disabled` is not sent (or is true).
        const keep = input.disabled !== false
        const rows = yield* sql<SubscriptionRow>`
          with changed as (
            update webhook_subscriptions set
              disabled_at = ${input.disabled === undefined ? sql`disabled_at` : input.disabled ? sql`coalesce(disabled_at, ${now})` : sql`null`},
              disabled_reason = ${input.disabled === undefined ? sql`disabled_reason` : input.disabled ? sql`coalesce(disabled_reason, ${memberDisabledReason})` : sql`null`},
              consecutive_failures = ${keep ? sql`consecutive_failures` : sql`0`},
              failing_alerted_at = ${keep ? sql`failing_alerted_at` : sql`null`},
              disabled_alerted_at = ${keep ? sql`disabled_alerted_at` : sql`null`},
              include_sensitive = ${input.includeSensitive === undefined ? sql`include_sensitive` : sql`${input.includeSensitive}`}
            where workspace_id = ${actor.workspaceId} and id = ${subscriptionId}
            returning *
          )
          select ${columns} from changed s left join forms f on f.id = s.form_id`.pipe(
          Effect.tap((rows) =>
            rows.length === 0
              ? Effect.void
              : AuditLog.record(sql, actor, {
                  action: "webhook.changed",
                  target: { type: "webhook", id: subscriptionId },
                  details: {
                    changed: [
                      ...(input.disabled === undefined ? [] : ["disabled"]),
                      ...(input.includeSensitive === undefined ? [] : ["includeSensitive"])
                    ],
                    ...(input.disabled === undefined ? {} : { disabled: input.disabled }),
                    ...(input.includeSensitive === undefined ? {} : { includeSensitive: input.includeSensitive }),
                    url: AuditLog.urlWithoutSecrets(rows[0]!.target_url)
                  }
                })
          ),
          sql.withTransaction
        )
        if (rows.length === 0) return yield* notFound(subscriptionId)
        return toSubscription(rows[0]!)
      })

      const target = Effect.fn("Webhooks.target")(function* (actor: Actors.Actor, subscriptionId: string) {
        yield* Actors.requireAdmin(actor)
        const rows = yield* sql<
          SubscriptionRow & {
            readonly secret: string
            readonly public_id: string | null
            readonly status: string | null
          }
        >`
          select ${columns}, s.secret, f.public_id, f.status
          from webhook_subscriptions s left join forms f on f.id = s.form_id
          where s.workspace_id = ${actor.workspaceId} and s.id = ${subscriptionId}`
        if (rows.length === 0) return yield* notFound(subscriptionId)
        const row = rows[0]!
        return {
          subscription: toSubscription(row),
          secret: row.secret,
          form: row.public_id === null || row.status === null ? null : { publicId: row.public_id, status: row.status }
        }
      })

      /** The subscriptions of one kind, their URLs masked for members and viewers. */
      const listed = (actor: Actors.Actor, workspaceWide: boolean) =>
        Effect.map(
          sql<SubscriptionRow>`
            select ${columns} from webhook_subscriptions s left join forms f on f.id = s.form_id
            where s.workspace_id = ${actor.workspaceId} and (s.form_id is null) = ${workspaceWide}
            order by s.created_at, s.id`,
          (rows) => {
            const whole = seesCredentials(actor)
            return rows.map((row) =>
              whole ? toSubscription(row) : { ...toSubscription(row), targetUrl: maskedUrl(row.target_url) }
            )
          }
        )

      const list = Effect.fn("Webhooks.list")(function* (actor: Actors.Actor) {
        return (yield* listed(actor, false)).filter(isFormSubscription)
      })

      const listWorkspace = Effect.fn("Webhooks.listWorkspace")(function* (actor: Actors.Actor) {
        return (yield* listed(actor, true)).filter(
          (subscription): subscription is WorkspaceSubscription => !isFormSubscription(subscription)
        )
      })

      /** What both kinds of subscription check and store alike: the target, the events, the filters. */
      const prepare = Effect.fnUntraced(function* (
        actor: Actors.Actor,
        input: WorkspaceSubscribeInput | SubscribeInput
      ) {
        yield* Actors.requireAdmin(actor)
        yield* checkTarget(input.targetUrl)
        const now = new Date(yield* Clock.currentTimeMillis)
        const id = `sub_${randomBytes(12).toString("base64url")}`
        const secret = makeSecret()
        const events = [input.event, ...(input.events ?? []).filter((e) => e !== input.event)].filter(
          (e, i, all) => all.indexOf(e) === i
        )
        if (events.length > 20) return yield* invalid("events", "events must name 1 to 20 events")
        const stageIds = input.filters?.stageIds === undefined ? null : [...new Set(input.filters.stageIds)]
        const tags =
          input.filters?.tags === undefined ? null : [...new Set(input.filters.tags.map((t) => t.trim().toLowerCase()))]
        if (tags?.includes("")) return yield* invalid("filters.tags", "filters.tags must not hold an empty tag")
        return { now, id, secret, events, stageIds, tags }
      })

      const returned = sql.literal(
        "id, form_id, (select title from forms where id = form_id) as form_title, form_ids, event, events, " +
          "stage_ids, tags, target_url, source, last_sent_at, created_at, disabled_at, disabled_reason, " +
          "consecutive_failures, include_sensitive"
      )

      const subscribe = Effect.fn("Webhooks.subscribe")(function* (actor: Actors.Actor, input: SubscribeInput) {
        const { now, id, secret, events, stageIds, tags } = yield* prepare(actor, input)
        if (events.includes(workspaceOnlyEvent)) {
          return yield* invalid(
            input.event === workspaceOnlyEvent ? "event" : "events",
            `${workspaceOnlyEvent} reaches only workspace-wide subscriptions (POST /api/webhooks/workspace-subscriptions): ` +
              "a form's own subscriptions are deleted with the form"
          )
        }
        if (stageIds !== null) {
          const known = yield* sql<{ readonly form: boolean; readonly n: number }>`
            select exists (select 1 from forms where workspace_id = ${actor.workspaceId} and id = ${input.formId}) as form,
              (select count(*)::int from stages where workspace_id = ${actor.workspaceId} and form_id = ${input.formId}
                and id = any(${stageIds}::integer[])) as n`
          if (!known[0]!.form) return yield* new FormNotFound({ message: `form ${input.formId} not found` })
          if (known[0]!.n !== stageIds.length) {
            return yield* invalid(
              "filters.stageIds",
              `filters.stageIds: not every stage belongs to form ${input.formId}`
            )
          }
        }
        const rows = yield* sql<SubscriptionRow>`
          insert into webhook_subscriptions (id, workspace_id, form_id, event, events, stage_ids, tags, target_url,
            source, secret, created_at, include_sensitive)
          select ${id}, f.workspace_id, f.id, ${input.event}, ${events}::text[], ${stageIds}::integer[],
            ${tags}::text[], ${input.targetUrl}, ${input.source || "api"}, ${secret}, ${now},
            ${input.includeSensitive === true}
          from forms f where f.workspace_id = ${actor.workspaceId} and f.id = ${input.formId}
          returning ${returned}`.pipe(Effect.tap(audited(actor)), sql.withTransaction)
        const subscription = rows.length === 0 ? undefined : toSubscription(rows[0]!)
        if (subscription === undefined || !isFormSubscription(subscription)) {
          return yield* new FormNotFound({ message: `form ${input.formId} not found` })
        }
        return { ...subscription, secret }
      })

      const subscribeWorkspace = Effect.fn("Webhooks.subscribeWorkspace")(function* (
        actor: Actors.Actor,
        input: WorkspaceSubscribeInput
      ) {
        const { now, id, secret, events, stageIds, tags } = yield* prepare(actor, input)
        const formIds = input.filters?.formIds === undefined ? null : [...new Set(input.filters.formIds)]
        // Forms and stages of this workspace only (of the named forms, when there are some).
        const known = yield* sql<{ readonly forms: ReadonlyArray<number>; readonly stages: ReadonlyArray<number> }>`
          select
            array(select id from forms where workspace_id = ${actor.workspaceId}
              and id = any(${formIds ?? []}::integer[])) as forms,
            array(select id from stages where workspace_id = ${actor.workspaceId} and id = any(${stageIds ?? []}::integer[])
              and (${formIds}::integer[] is null or form_id = any(${formIds}::integer[]))) as stages`
        const missingForm = formIds?.find((formId) => !known[0]!.forms.includes(formId))
        if (missingForm !== undefined) return yield* new FormNotFound({ message: `form ${missingForm} not found` })
        const missingStage = stageIds?.find((stageId) => !known[0]!.stages.includes(stageId))
        if (missingStage !== undefined) {
          return yield* invalid(
            "filters.stageIds",
            formIds === null
              ? `filters.stageIds: stage ${missingStage} not found in this workspace`
              : `filters.stageIds: stage ${missingStage} belongs to none of filters.formIds`
          )
        }
        const rows = yield* sql<SubscriptionRow>`
          insert into webhook_subscriptions (id, workspace_id, form_id, form_ids, event, events, stage_ids, tags,
            target_url, source, secret, created_at, include_sensitive)
          values (${id}, ${actor.workspaceId}, null, ${formIds}::integer[], ${input.event}, ${events}::text[],
            ${stageIds}::integer[], ${tags}::text[], ${input.targetUrl}, ${input.source || "api"}, ${secret}, ${now},
            ${input.includeSensitive === true})
          returning ${returned}`.pipe(Effect.tap(audited(actor)), sql.withTransaction)
        const subscription = toSubscription(rows[0]!)
        if (isFormSubscription(subscription)) return yield* Effect.die("a workspace-wide subscription has no form")
        return { ...subscription, secret }
      })

      const unsubscribe = Effect.fn("Webhooks.unsubscribe")(function* (actor: Actors.Actor, subscriptionId: string) {
        yield* Actors.requireAdmin(actor)
        const rows = yield* sql`
          delete from webhook_subscriptions where workspace_id = ${actor.workspaceId} and id = ${subscriptionId}
          returning id, target_url`.pipe(
          Effect.tap((rows) =>
            rows.length === 0
              ? Effect.void
              : AuditLog.record(sql, actor, {
                  action: "webhook.deleted",
                  target: { type: "webhook", id: subscriptionId },
                  details: { url: AuditLog.urlWithoutSecrets(String(rows[0]!.target_url)) }
                })
          ),
          sql.withTransaction
        )
        if (rows.length === 0) {
          return yield* new SubscriptionNotFound({ message: `subscription ${subscriptionId} not found` })
        }
      })

      return Webhooks.of({ list, listWorkspace, subscribe, subscribeWorkspace, unsubscribe, update, target })
    })
  )
}
