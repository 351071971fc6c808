/** Handlers of the forms group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Forms } from "../../forms/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const FormsHandlers = HttpApiBuilder.group(
  Api,
  "forms",
  Effect.fnUntraced(function* (handlers) {
    const forms = yield* Forms
    return handlers.handleAll({
      list: () => Effect.flatMap(CurrentActor, (actor) => handle(forms.list(actor))),
      create: ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.gen(function* () {
              const form = yield* forms.create(actor, payload)
              // The questions with their ids, so a client can submit answers without reading the form again.
              return { ...form, fields: yield* forms.fields(actor.workspaceId, form.id) }
            })
          )
        ),
      get: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(forms.get(actor, params.id))),
      update: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(forms.update(actor, params.id, payload))),
      remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(forms.remove(actor, params.id)))
    })
  })
)
