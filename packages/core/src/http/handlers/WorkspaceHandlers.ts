/** Handlers of the workspace group: its settings. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { WorkspaceSettingsStore } from "../../forms/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const WorkspaceHandlers = HttpApiBuilder.group(
  Api,
  "workspace",
  Effect.fnUntraced(function* (handlers) {
    const settings = yield* WorkspaceSettingsStore
    return handlers.handleAll({
      settings: () => Effect.flatMap(CurrentActor, (actor) => handle(settings.get(actor))),
      replaceSettings: ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(settings.replace(actor, payload)))
    })
  })
)
