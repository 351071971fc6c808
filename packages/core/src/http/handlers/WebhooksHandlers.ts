/** Handlers of the webhooks group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Webhooks } from "../../domain/Webhooks.ts"
import { Api, CurrentActor } from "../Api.ts"
import { handle } from "../ApiErrors.ts"

export const WebhooksHandlers = HttpApiBuilder.group(Api, "webhooks", Effect.fnUntraced(function*(handlers) {
  const webhooks = yield* Webhooks
  return handlers.handleAll({
    list: () => Effect.flatMap(CurrentActor, (actor) => handle(webhooks.list(actor))),
    subscribe: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(webhooks.subscribe(actor, payload))),
    unsubscribe: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(webhooks.unsubscribe(actor, params.id)))
  })
}))
