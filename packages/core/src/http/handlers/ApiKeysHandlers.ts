/** Handlers of the API keys group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { ApiKeys } from "../../identity/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const ApiKeysHandlers = HttpApiBuilder.group(
  Api,
  "apiKeys",
  Effect.fnUntraced(function* (handlers) {
    const keys = yield* ApiKeys
    return handlers.handleAll({
      list: () =>
        Effect.flatMap(CurrentActor, (actor) => handle(Effect.map(keys.listAs(actor), (apiKeys) => ({ apiKeys })))),
      issue: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(keys.issue(actor, payload))),
      revoke: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(keys.revokeAs(actor, params.id)))
    })
  })
)
