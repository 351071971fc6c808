/**
 * The API group `Webhooks`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import {
  AnySubscription,
  CreatedSubscription,
  CreatedWorkspaceSubscription,
  DeadLetterList,
  Delivery,
  DeliveryLog,
  PingResult,
  ReplayDeadLettersInput,
  ReplayResult,
  SubscribeInput,
  Subscription,
  TestInput,
  UpdateSubscriptionInput,
  WebhookAlertList,
  WorkspaceSubscribeInput,
  WorkspaceSubscription
} from "../../deliveries/index.ts"
import { EventCatalogueDocument } from "../../events/index.ts"
import { Id } from "../../kernel/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { created } from "../Params.ts"

/** A webhook subscription's id (`sub_…`). */
export const SubscriptionId = Schema.String.check(Schema.isMaxLength(100))

const SubscriptionIdParams = { id: SubscriptionId }

/** The paging of a delivery log (query string). */
export const DeliveryLogQuery = Schema.Struct({
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))).annotate({
    description: "At most this many deliveries (1–200); `nextCursor` then leads to the next page."
  }),
  cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(20))).annotate({
    description: "`nextCursor` of the previous page."
  })
})

/** Webhook subscriptions. */
export class WebhooksGroup extends HttpApiGroup.make("webhooks").add(
  HttpApiEndpoint.get("list", "/webhooks", { success: Schema.Array(Subscription) }),
  HttpApiEndpoint.post("subscribe", "/webhooks/subscribe", {
    payload: SubscribeInput,
    success: CreatedSubscription.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Subscribes a URL to an event of a form. The signing `secret` is shown only here."),
  HttpApiEndpoint.get("listWorkspace", "/webhooks/workspace-subscriptions", {
    success: Schema.Array(WorkspaceSubscription)
  }).annotate(
    OpenApi.Description,
    "Extension: the workspace-wide subscriptions (GET /webhooks lists the forms' own, as the contract has it)."
  ),
  HttpApiEndpoint.post("subscribeWorkspace", "/webhooks/workspace-subscriptions", {
    payload: WorkspaceSubscribeInput,
    success: CreatedWorkspaceSubscription.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: subscribes a URL to events of every form of the workspace (forms created later included), or of " +
      "the forms of `filters.formIds` (404 if one is absent in this workspace). Only such a subscription hears `form.deleted`: a " +
      "form's own subscriptions are deleted with the form. Managed like any other (`/webhooks/subscribe/{id}`)."
  ),
  HttpApiEndpoint.delete("unsubscribe", "/webhooks/subscribe/:id", {
    params: SubscriptionIdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }),
  HttpApiEndpoint.patch("update", "/webhooks/subscribe/:id", {
    params: SubscriptionIdParams,
    payload: UpdateSubscriptionInput,
    success: AnySubscription,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, 'Extension: `{"disabled": false}` re-enables a disabled subscription.'),
  HttpApiEndpoint.get("deliveries", "/webhooks/subscribe/:id/deliveries", {
    params: SubscriptionIdParams,
    query: DeliveryLogQuery.fields,
    success: DeliveryLog,
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: the delivery log, newest first, with every attempt."),
  HttpApiEndpoint.post("retry", "/webhooks/deliveries/:deliveryId/retry", {
    params: { deliveryId: Id },
    success: Delivery,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: redelivers now, with the same `webhook-id`."),
  HttpApiEndpoint.post("test", "/webhooks/subscribe/:id/test", {
    params: SubscriptionIdParams,
    query: TestInput.fields,
    success: PingResult,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: sends a signed test now and reports the answer: a `ping`, or with `?event=` that event's example " +
      "about the subscription's form, as the event is posted (its `webhook-id` starts with `msg_test_`)."
  ),
  HttpApiEndpoint.get("deadLetters", "/webhooks/dead-letters", {
    query: {
      ...DeliveryLogQuery.fields,
      subscriptionId: Schema.optionalKey(SubscriptionId).annotate({ description: "Only this subscription's." })
    },
    success: DeadLetterList,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the workspace's webhook deliveries that gave up (status `failed`), newest first, with every attempt."
  ),
  HttpApiEndpoint.post("replay", "/webhooks/dead-letters/replay", {
    payload: ReplayDeadLettersInput,
    success: ReplayResult,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: redelivers dead letters now (same `webhook-id`): the named ones, or all of a subscription (at most " +
      "500 a call). A disabled subscription's are not replayed (409 for `subscriptionId`): enable it first."
  ),
  HttpApiEndpoint.get("alerts", "/webhooks/alerts", {
    query: DeliveryLogQuery.fields,
    success: WebhookAlertList
  }).annotate(
    OpenApi.Description,
    "Extension: the workspace's webhook failure alerts (deliveries failing in a row, a subscription disabled), " +
      "newest first."
  ),
  HttpApiEndpoint.get("catalogue", "/events/catalogue", { success: EventCatalogueDocument }).annotate(
    OpenApi.Description,
    "Extension: every event qforms sends, with a description, the JSON Schema of its body and an example. The " +
      "same bodies are in this document's `webhooks`."
  )
) {}
