/** Handlers of the saved views group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { SavedViews } from "../../cases/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const SavedViewsHandlers = HttpApiBuilder.group(
  Api,
  "views",
  Effect.fnUntraced(function* (handlers) {
    const views = yield* SavedViews
    return handlers.handleAll({
      list: () =>
        Effect.flatMap(CurrentActor, (actor) => handle(Effect.map(views.list(actor), (list) => ({ views: list })))),
      create: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(views.create(actor, payload))),
      get: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(views.get(actor, params.id))),
      update: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(views.update(actor, params.id, payload))),
      remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(views.remove(actor, params.id)))
    })
  })
)
