/** Handlers of the members group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Members } from "../../domain/Members.ts"
import { Api, CurrentActor } from "../Api.ts"
import { handle } from "../ApiErrors.ts"

export const MembersHandlers = HttpApiBuilder.group(Api, "members", Effect.fnUntraced(function*(handlers) {
  const members = yield* Members
  return handlers.handleAll({
    list: () =>
      Effect.flatMap(CurrentActor, (actor) =>
        handle(Effect.map(members.list(actor.workspaceId), (list) => ({ members: list }))))
  })
}))
