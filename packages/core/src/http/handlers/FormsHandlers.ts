/** Handlers of the forms group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Forms } from "../../domain/Forms.ts"
import { Api, CurrentActor } from "../Api.ts"
import { handle } from "../ApiErrors.ts"

export const FormsHandlers = HttpApiBuilder.group(Api, "forms", Effect.fnUntraced(function*(handlers) {
  const forms = yield* Forms
  return handlers.handleAll({
    list: () => Effect.flatMap(CurrentActor, (actor) => handle(forms.list(actor))),
    create: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(forms.create(actor, payload))),
    get: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(forms.get(actor, params.id))),
    update: ({ params, payload }) =>
      Effect.flatMap(CurrentActor, (actor) => handle(forms.update(actor, params.id, payload))),
    remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(forms.remove(actor, params.id)))
  })
}))
