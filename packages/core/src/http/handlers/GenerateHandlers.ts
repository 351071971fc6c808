/** Handlers of the generation group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { generateForm } from "../../generation/FormGenerator.ts"
import { Api, CurrentActor } from "../../api/Api.ts"
import { handle } from "../../web/ApiErrors.ts"

export const GenerateHandlers = HttpApiBuilder.group(
  Api,
  "generate",
  Effect.fnUntraced(function* (handlers) {
    const generate = yield* generateForm
    return handlers.handleAll({
      generate: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(generate(actor, payload)))
    })
  })
)
