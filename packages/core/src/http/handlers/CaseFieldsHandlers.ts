/** Handlers of the case fields group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { CaseFieldsService } from "../../cases/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const CaseFieldsHandlers = HttpApiBuilder.group(
  Api,
  "caseFields",
  Effect.fnUntraced(function* (handlers) {
    const caseFields = yield* CaseFieldsService
    return handlers.handleAll({
      get: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(caseFields.list(actor, params.formId), (list) => ({ fields: list })))
        ),
      replace: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(caseFields.replace(actor, params.formId, payload), (list) => ({ fields: list })))
        )
    })
  })
)
