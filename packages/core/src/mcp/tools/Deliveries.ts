/**
 * The MCP tools of webhooks, the event catalogue, deliveries and dead letters:
 * each a domain service call, with its input Schema taken from the HTTP API's
 * (see `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  DeadLetterList,
  Deliveries,
  Delivery,
  DeliveryLog,
  ReplayDeadLettersInput,
  ReplayResult,
  Subscription,
  Webhooks,
  WorkspaceSubscription
} from "../../deliveries/index.ts"
import { Id } from "../../kernel/index.ts"
import { catalogueDocument, EventCatalogueDocument } from "../../events/index.ts"
import { DeliveryLogQuery, SubscriptionId } from "../../api/index.ts"
import { define, NoArguments, type McpTool } from "../McpTool.ts"

/** The tools of webhooks, the event catalogue, deliveries and dead letters, bound to their services. */
export const tools = Effect.gen(function* () {
  const webhooks = yield* Webhooks
  const deliveries = yield* Deliveries

  const tools: ReadonlyArray<McpTool> = [
    define("list_webhooks", {
      title: "List webhook subscriptions",
      description:
        "Lists the webhook subscriptions (`sub_…` ids): which form and event each sends where, " +
        "whether it is disabled and when its receiver last answered (any status); then the workspace-wide ones " +
        "(every form, or those of `filters.formIds`). Use a subscription's `id` with get_delivery_log.",
      input: NoArguments,
      output: Schema.Struct({
        webhooks: Schema.Array(Subscription),
        workspaceWebhooks: Schema.Array(WorkspaceSubscription)
      }),
      write: false,
      run: (actor) => Effect.all({ webhooks: webhooks.list(actor), workspaceWebhooks: webhooks.listWorkspace(actor) })
    }),
    define("list_event_catalogue", {
      title: "List the events qforms sends",
      description:
        "Lists every event webhooks and the live stream carry (`response.created`, `note.created`, …): what " +
        "each means, the JSON Schema of its body and an example. Subscriptions name these events.",
      input: NoArguments,
      output: EventCatalogueDocument,
      write: false,
      run: () => Effect.succeed(catalogueDocument())
    }),
    define("get_delivery_log", {
      title: "Get a webhook's delivery log",
      description:
        "Shows a subscription's deliveries, newest first, each with every attempt (status code, " +
        "error, time). Use it to find out why a webhook did not arrive; retry_delivery takes a delivery's `id`.",
      input: Schema.Struct({
        subscriptionId: SubscriptionId.annotate({ description: "The subscription's id (`sub_…`) from list_webhooks." }),
        ...DeliveryLogQuery.fields
      }),
      output: DeliveryLog,
      write: false,
      run: (actor, { subscriptionId, ...page }) => deliveries.list(actor, subscriptionId, page)
    }),
    define("list_dead_letters", {
      title: "List webhook deliveries that gave up",
      description:
        "Lists the workspace's dead letters: webhook deliveries that gave up after their retries (status `failed`), " +
        "newest first, each with its subscription and every attempt. Optionally of one subscription. " +
        "replay_dead_letters sends them again.",
      input: Schema.Struct({
        subscriptionId: Schema.optionalKey(
          SubscriptionId.annotate({ description: "Only this subscription's (`sub_…`, from list_webhooks)." })
        ),
        ...DeliveryLogQuery.fields
      }),
      output: DeadLetterList,
      write: false,
      run: (actor, query) => deliveries.deadLetters(actor, query)
    }),
    define("retry_delivery", {
      title: "Retry a webhook delivery",
      description:
        "Sends a delivery again now, with the same `webhook-id` so the receiver can tell a repeat. " +
        "Take the delivery's `id` from get_delivery_log.",
      input: Schema.Struct({
        deliveryId: Id.annotate({ description: "The delivery's numeric id from get_delivery_log." })
      }),
      output: Delivery,
      write: true,
      run: (actor, { deliveryId }) => deliveries.retry(actor, deliveryId)
    }),
    define("replay_dead_letters", {
      title: "Replay webhook deliveries that gave up",
      description:
        "Sends dead letters again now (owners and admins only), each with its own `webhook-id`: give `deliveryIds` " +
        "(from list_dead_letters, up to 100) or a `subscriptionId` to replay all of it (up to 500 a call). A " +
        "disabled subscription's are not replayed: enable it first.",
      input: ReplayDeadLettersInput,
      output: ReplayResult,
      write: true,
      run: (actor, input) => deliveries.replayDeadLetters(actor, input)
    })
  ]
  return tools
})
