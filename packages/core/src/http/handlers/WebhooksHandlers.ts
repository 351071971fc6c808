/** Handlers of the webhooks group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Deliveries, TestPing, WebhookAlerts, Webhooks } from "../../deliveries/index.ts"
import { catalogueDocument } from "../../events/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const WebhooksHandlers = HttpApiBuilder.group(
  Api,
  "webhooks",
  Effect.fnUntraced(function* (handlers) {
    const webhooks = yield* Webhooks
    const deliveries = yield* Deliveries
    const alerts = yield* WebhookAlerts
    const catalogue = catalogueDocument()
    return handlers.handleAll({
      update: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(webhooks.update(actor, params.id, payload))),
      deliveries: ({ params, query }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(deliveries.list(actor, params.id, query))),
      retry: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(deliveries.retry(actor, params.deliveryId))),
      test: ({ params, query }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.flatMap(webhooks.target(actor, params.id), (target) => TestPing.send(target, query)))
        ),
      deadLetters: ({ query }) => Effect.flatMap(CurrentActor, (actor) => handle(deliveries.deadLetters(actor, query))),
      replay: ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(deliveries.replayDeadLetters(actor, payload))),
      alerts: ({ query }) => Effect.flatMap(CurrentActor, (actor) => handle(alerts.list(actor, query))),
      catalogue: () => Effect.succeed(catalogue),
      list: () => Effect.flatMap(CurrentActor, (actor) => handle(webhooks.list(actor))),
      subscribe: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(webhooks.subscribe(actor, payload))),
      listWorkspace: () => Effect.flatMap(CurrentActor, (actor) => handle(webhooks.listWorkspace(actor))),
      subscribeWorkspace: ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(webhooks.subscribeWorkspace(actor, payload))),
      unsubscribe: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(webhooks.unsubscribe(actor, params.id)))
    })
  })
)
