/** Handlers of the privacy group: erasing a person. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Erasure } from "../../cases/Erasure.ts"
import { Api, CurrentActor } from "../../api/Api.ts"
import { handle } from "../../web/ApiErrors.ts"

export const PrivacyHandlers = HttpApiBuilder.group(
  Api,
  "privacy",
  Effect.fnUntraced(function* (handlers) {
    const erasure = yield* Erasure
    return handlers.handleAll({
      erase: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(erasure.erase(actor, payload)))
    })
  })
)
