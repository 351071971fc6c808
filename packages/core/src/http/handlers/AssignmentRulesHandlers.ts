/** Handlers of the assignment rules group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { AssignmentRulesService } from "../../cases/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const AssignmentRulesHandlers = HttpApiBuilder.group(
  Api,
  "assignmentRules",
  Effect.fnUntraced(function* (handlers) {
    const rules = yield* AssignmentRulesService
    return handlers.handleAll({
      get: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(rules.list(actor, params.formId), (list) => ({ rules: list })))
        ),
      replace: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(rules.replace(actor, params.formId, payload), (list) => ({ rules: list })))
        )
    })
  })
)
