/** Handlers of the generation group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { generateForm } from "../../generation/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

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
