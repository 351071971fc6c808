/**
 * Form notifications: per-form channels that forward new responses (and
 * stage changes) to Slack, Discord, Microsoft Teams, a spreadsheet endpoint,
 * e-mail, or any URL. A channel is a delivery target beside webhook
 * subscriptions: its deliveries are written with the event in the change's
 * transaction (see `Events.ts`) and sent by the same worker, retry schedule
 * and SSRF rule; the payload is formatted per channel type when it is sent
 * (see `NotificationFormats.ts`).
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { DeliveryConfig } from "./DeliveryConfig.ts"
import { Actors, Conflict, type Forbidden, FormNotFound, InvalidInput, type Issue } from "../kernel/index.ts"
import { SpecEventName } from "../events/index.ts"
import { Mailer, notConfiguredMessage } from "../mail/index.ts"
import { checkTarget, makeSecret, maskedUrl, seesCredentials } from "./Webhooks.ts"

/** The kinds of channel. */
export const ChannelType = Schema.Literals(["slack", "discord", "teams", "sheet", "email", "url"])
export type ChannelType = typeof ChannelType.Type

/** The channel types that post to a URL. */
export const UrlChannelType = Schema.Literals(["slack", "discord", "teams", "sheet", "url"])
export type UrlChannelType = typeof UrlChannelType.Type

/** Most channels per form. */
export const maxChannels = 20

/** Most recipients of one e-mail channel. */
export const maxRecipients = 20

const ChannelId = Schema.String.check(Schema.isMaxLength(100, { message: "id must be at most 100 characters" }))

const ChannelEvents = Schema.Array(SpecEventName).check(
  Schema.isMinLength(1, { message: "events must name at least one event" })
)

const ChannelUrl = Schema.String.check(
  Schema.isMaxLength(2000, { message: "url must be at most 2000 characters" }),
  Schema.makeFilter((url: string) => {
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    return (
      (parsed !== undefined &&
        (parsed.protocol === "http:" || parsed.protocol === "https:") &&
        parsed.hostname !== "") ||
      "url must be an absolute https:// URL"
    )
  })
)

const EmailAddress = Schema.String.check(
  Schema.isMaxLength(254, { message: "an address must be at most 254 characters" }),
  Schema.isPattern(/^[^\s@<>,;"()[\]\\]+@[^\s@<>,;"()[\]\\]+\.[^\s@<>,;"()[\]\\]+$/, {
    message: "to: each entry must be an e-mail address like ada@example.com"
  })
)

const common = {
  id: Schema.optionalKey(ChannelId).annotate({
    description: "Assigned by the server; send it back to keep the channel."
  }),
  enabled: Schema.optionalKey(Schema.Boolean).annotate({ description: "Default true." }),
  events: Schema.optionalKey(ChannelEvents).annotate({ description: 'Default `["response.created"]`.' }),
  includeSensitive: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Extension: send the answers of sensitive questions too. Default false: they are left out " +
      '(they read "(sensitive, not included)").'
  })
}

/** A channel posting to a URL (input). */
export const UrlChannelInput = Schema.Struct({
  ...common,
  type: UrlChannelType,
  url: ChannelUrl.annotate({
    description: "https:// (Slack/Discord/Teams/sheet webhook URL, or any URL for `url`)."
  }),
  secret: Schema.optionalKey(Schema.String).annotate({ description: "Ignored (so a GET body can be sent back)." })
}).annotate({ identifier: "UrlChannelInput" })

/** An e-mail channel (input). */
export const EmailChannelInput = Schema.Struct({
  ...common,
  type: Schema.Literal("email"),
  to: Schema.Array(EmailAddress).check(
    Schema.isMinLength(1, { message: "to must list at least one address" }),
    Schema.isMaxLength(maxRecipients, { message: `to lists at most ${maxRecipients} addresses` })
  )
}).annotate({ identifier: "EmailChannelInput" })

/** A channel as sent with PUT. */
export const ChannelInput = Schema.Union([UrlChannelInput, EmailChannelInput])
export type ChannelInput = typeof ChannelInput.Type

/** The body of `PUT /forms/{id}/notifications`: the whole list (it replaces the form's channels). */
export const NotificationSettingsInput = Schema.Struct({
  channels: Schema.Array(ChannelInput).check(
    Schema.isMaxLength(maxChannels, { message: `channels: at most ${maxChannels} channels per form` })
  )
}).annotate({ identifier: "NotificationSettingsInput" })
export type NotificationSettingsInput = typeof NotificationSettingsInput.Type

/** A channel as stored and shown. */
export const NotificationChannel = Schema.Struct({
  id: Schema.String,
  type: ChannelType,
  enabled: Schema.Boolean,
  events: Schema.Array(SpecEventName),
  includeSensitive: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Extension: true when the channel is sent the answers of sensitive questions; absent when they are left out."
  }),
  url: Schema.optionalKey(Schema.String).annotate({
    description:
      "The webhook-style types' URL. Whole for owners and admins; for members and viewers only its scheme and host, then `…` (it is a credential)."
  }),
  to: Schema.optionalKey(Schema.Array(Schema.String)).annotate({ description: "The `email` type's recipients." }),
  secret: Schema.optionalKey(Schema.String).annotate({
    description: "The `url` type's signing secret (Standard Webhooks), shown to owners and admins."
  })
}).annotate({ identifier: "NotificationChannel" })
export type NotificationChannel = typeof NotificationChannel.Type

/** A form's notification settings. */
export const NotificationSettings = Schema.Struct({
  channels: Schema.Array(NotificationChannel)
}).annotate({ identifier: "NotificationSettings" })
export type NotificationSettings = typeof NotificationSettings.Type

/** No such notification channel on this form in this workspace. */
export class ChannelNotFound extends Schema.TaggedError<ChannelNotFound>()("ChannelNotFound", {
  message: Schema.String
}) {}

interface ChannelRow {
  readonly id: string
  readonly type: ChannelType
  readonly enabled: boolean
  readonly events: ReadonlyArray<SpecEventName>
  readonly config: { readonly url?: string; readonly to?: ReadonlyArray<string>; readonly includeSensitive?: boolean }
  readonly secret: string
}

/** A channel as shown; `showSecret` (owners and admins) also shows its URL whole, else masked. */
const toChannel = (row: ChannelRow, showSecret: boolean): NotificationChannel => ({
  id: row.id,
  type: row.type,
  enabled: row.enabled,
  events: row.events,
  ...(row.config.includeSensitive === true ? { includeSensitive: true } : {}),
  ...(row.type === "email"
    ? { to: row.config.to ?? [] }
    : { url: showSecret ? (row.config.url ?? "") : maskedUrl(row.config.url ?? "") }),
  ...(row.type === "url" && showSecret ? { secret: row.secret } : {})
})

/**
 * A form's notification channels: read them, replace them.
 *
 * @example
 * ```ts
 * const notifications = yield* FormNotifications
 * yield* notifications.replace(actor, formId, {
 *   channels: [{ type: "slack", url: "https://hooks.slack.com/services/T0/B0/xyz" }]
 * })
 * ```
 */
export class FormNotifications extends Context.Service<
  FormNotifications,
  {
    readonly get: (
      actor: Actors.Actor,
      formId: number
    ) => Effect.Effect<NotificationSettings, FormNotFound | SqlError.SqlError>
    /** Replaces the form's channels (owners and admins): ids sent back are kept, new ones assigned, missing ones removed. */
    readonly replace: (
      actor: Actors.Actor,
      formId: number,
      input: NotificationSettingsInput
    ) => Effect.Effect<NotificationSettings, FormNotFound | Forbidden | InvalidInput | Conflict | SqlError.SqlError>
  }
>()("@qforms/core/FormNotifications") {
  static readonly layer = Layer.effect(
    FormNotifications,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const rowsOf = (workspaceId: number, formId: number) =>
        sql<ChannelRow>`
          select id, type, enabled, events, config, secret from notification_channels
          where workspace_id = ${workspaceId} and form_id = ${formId}
          order by position, id`

      const formExists = (workspaceId: number, formId: number, lock: boolean) =>
        Effect.flatMap(
          sql`select 1 from forms where workspace_id = ${workspaceId} and id = ${formId} ${lock ? sql`for update` : sql``}`,
          (rows) =>
            rows.length === 0 ? Effect.fail(new FormNotFound({ message: `form ${formId} not found` })) : Effect.void
        )

      const get = Effect.fn("FormNotifications.get")(function* (actor: Actors.Actor, formId: number) {
        yield* formExists(actor.workspaceId, formId, false)
        const rows = yield* rowsOf(actor.workspaceId, formId)
        return { channels: rows.map((row) => toChannel(row, seesCredentials(actor))) }
      })

      /** The rules the schema cannot check alone: https for the chat types, the SSRF rule, e-mail configured. */
      const check = Effect.fnUntraced(function* (channels: ReadonlyArray<ChannelInput>) {
        const config = yield* DeliveryConfig
        const issues: Array<Issue> = []
        const ids = new Set<string>()
        for (const [index, channel] of channels.entries()) {
          if (channel.id !== undefined) {
            if (ids.has(channel.id))
              issues.push({ path: `channels.${index}.id`, message: `channel ${channel.id} is listed twice` })
            ids.add(channel.id)
          }
          if (channel.type === "email") continue
          // http:// is for local development only (private targets allowed); `url` takes http like webhooks do.
          if (channel.type !== "url" && !config.allowPrivateTargets && new URL(channel.url).protocol !== "https:") {
            issues.push({
              path: `channels.${index}.url`,
              message: `channels.${index}.url: a ${channel.type} URL must be https://`
            })
          }
        }
        if (issues.length > 0) {
          return yield* new InvalidInput({ message: issues.map((i) => i.message).join("; "), details: issues })
        }
        for (const [index, channel] of channels.entries()) {
          if (channel.type !== "email") yield* checkTarget(channel.url, `channels.${index}.url`)
        }
        if (channels.some((channel) => channel.type === "email") && !(yield* Mailer).configured) {
          return yield* new Conflict({ message: notConfiguredMessage })
        }
      })

      const replace = Effect.fn("FormNotifications.replace")(function* (
        actor: Actors.Actor,
        formId: number,
        input: NotificationSettingsInput
      ) {
        yield* Actors.requireAdmin(actor)
        yield* formExists(actor.workspaceId, formId, false)
        yield* check(input.channels)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* formExists(actor.workspaceId, formId, true)
            const existing = new Map((yield* rowsOf(actor.workspaceId, formId)).map((row) => [row.id, row]))
            const unknown = input.channels.flatMap((channel, index) =>
              channel.id !== undefined && !existing.has(channel.id)
                ? [
                    {
                      path: `channels.${index}.id`,
                      message: `channels.${index}.id: channel ${channel.id} is not a channel of form ${formId}`
                    }
                  ]
                : []
            )
            if (unknown.length > 0) {
              return yield* new InvalidInput({ message: unknown.map((i) => i.message).join("; "), details: unknown })
            }
            const kept = new Set(input.channels.flatMap((channel) => (channel.id === undefined ? [] : [channel.id])))
            const removed = [...existing.keys()].filter((id) => !kept.has(id))
            if (removed.length > 0) {
              yield* sql`
              delete from notification_channels
              where workspace_id = ${actor.workspaceId} and form_id = ${formId} and ${sql.in("id", removed)}`
            }
            for (const [position, channel] of input.channels.entries()) {
              const events = [...new Set(channel.events ?? ["response.created"])]
              const config = {
                ...(channel.type === "email" ? { to: [...new Set(channel.to)] } : { url: channel.url }),
                ...(channel.includeSensitive === true ? { includeSensitive: true } : {})
              }
              const enabled = channel.enabled ?? true
              const previous = channel.id === undefined ? undefined : existing.get(channel.id)
              if (previous !== undefined) {
                yield* sql`
                update notification_channels set position = ${position}, type = ${channel.type}, enabled = ${enabled},
                  events = ${events}::text[], config = ${JSON.stringify(config)}::jsonb
                where workspace_id = ${actor.workspaceId} and id = ${previous.id}`
              } else {
                const id = `ch_${randomBytes(12).toString("base64url")}`
                yield* sql`
                insert into notification_channels (id, workspace_id, form_id, position, type, enabled, events, config,
                  secret, created_at)
                values (${id}, ${actor.workspaceId}, ${formId}, ${position}, ${channel.type}, ${enabled},
                  ${events}::text[], ${JSON.stringify(config)}::jsonb, ${makeSecret()}, ${now})`
              }
            }
            const rows = yield* rowsOf(actor.workspaceId, formId)
            return { channels: rows.map((row) => toChannel(row, true)) }
          })
        )
      })

      return FormNotifications.of({ get, replace })
    })
  )
}
