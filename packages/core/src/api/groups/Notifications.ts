/**
 * The API group `Notifications`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { Delivery, DeliveryLog, NotificationSettings, NotificationSettingsInput } from "../../deliveries/index.ts"
import { Id } from "../../kernel/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { IdParams } from "../Params.ts"
import { DeliveryLogQuery } from "./Webhooks.ts"

/** A notification channel's id (`ch_…`). */
export const ChannelId = Schema.String.check(Schema.isMaxLength(100))

/** Per-form notifications: Slack, Discord, Teams, a sheet, e-mail or any URL. */
export class NotificationsGroup extends HttpApiGroup.make("notifications").add(
  HttpApiEndpoint.get("get", "/forms/:id/notifications", {
    params: IdParams,
    success: NotificationSettings,
    error: NotFound
  }).annotate(OpenApi.Description, "The form's notification channels."),
  HttpApiEndpoint.put("replace", "/forms/:id/notifications", {
    params: IdParams,
    payload: NotificationSettingsInput,
    success: NotificationSettings,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Replaces the form's channels (owners and admins). A channel sent back with its `id` is kept; " +
      "409 when an `email` channel is listed and e-mail is not configured."
  ),
  HttpApiEndpoint.get("deliveries", "/forms/:id/notifications/:channelId/deliveries", {
    params: { id: Id, channelId: ChannelId },
    query: DeliveryLogQuery.fields,
    success: DeliveryLog,
    error: NotFound
  }).annotate(OpenApi.Description, "The channel's delivery log, newest first, with every attempt."),
  HttpApiEndpoint.post("retry", "/forms/:id/notifications/:channelId/deliveries/:deliveryId/retry", {
    params: { id: Id, channelId: ChannelId, deliveryId: Id },
    success: Delivery,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Sends a channel's delivery again now (409 for an e-mail that was sent: never twice)."
  )
) {}
