/** Handlers of the notifications group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Deliveries, DeliveryNotFound, FormNotifications } from "../../deliveries/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const NotificationsHandlers = HttpApiBuilder.group(
  Api,
  "notifications",
  Effect.fnUntraced(function* (handlers) {
    const notifications = yield* FormNotifications
    const deliveries = yield* Deliveries
    return handlers.handleAll({
      get: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(notifications.get(actor, params.id))),
      replace: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(notifications.replace(actor, params.id, payload))),
      deliveries: ({ params, query }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(deliveries.listChannel(actor, params.id, params.channelId, query))
        ),
      retry: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.gen(function* () {
              // The delivery must be one of this channel's: look it up in the channel's log first.
              const log = yield* deliveries.listChannel(actor, params.id, params.channelId, {
                limit: 1,
                cursor: String(params.deliveryId + 1)
              })
              if (log.deliveries[0]?.id !== params.deliveryId) {
                return yield* new DeliveryNotFound({
                  message: `delivery ${params.deliveryId} not found in this channel's log`
                })
              }
              return yield* deliveries.retry(actor, params.deliveryId, { channelId: params.channelId })
            })
          )
        )
    })
  })
)
