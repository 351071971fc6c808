/** Handlers of the forms group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Forms, FormWithFields } from "../../forms/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { EncodedJson, handle } from "../../web/index.ts"

export const FormsHandlers = HttpApiBuilder.group(
  Api,
  "forms",
  Effect.fnUntraced(function* (handlers) {
    const forms = yield* Forms
    // A form read from the cache is the same object until it changes: encoded once (the read's main cost).
    const formAnswer = EncodedJson.make(FormWithFields)
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
      get: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(Effect.map(forms.get(actor, params.id), formAnswer))),
      update: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(forms.update(actor, params.id, payload))),
      remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(forms.remove(actor, params.id)))
    })
  })
)
