/** Handlers of the stages group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Stages } from "../../forms/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const StagesHandlers = HttpApiBuilder.group(
  Api,
  "stages",
  Effect.fnUntraced(function* (handlers) {
    const stages = yield* Stages
    return handlers.handleAll({
      list: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(stages.list(actor, params.formId), (list) => ({ stages: list })))
        ),
      create: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(stages.create(actor, params.formId, payload))),
      reorder: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(stages.reorder(actor, params.formId, payload), (list) => ({ stages: list })))
        ),
      update: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(stages.update(actor, params.id, payload))),
      remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(stages.remove(actor, params.id)))
    })
  })
)
