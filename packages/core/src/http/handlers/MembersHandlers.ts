/** Handlers of the members group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Members } from "../../domain/Members.ts"
import { Api, CurrentActor } from "../Api.ts"
import { handle } from "../ApiErrors.ts"

export const MembersHandlers = HttpApiBuilder.group(Api, "members", Effect.fnUntraced(function*(handlers) {
  const members = yield* Members
  return handlers.handleAll({
    list: () =>
      Effect.flatMap(CurrentActor, (actor) =>
        handle(Effect.map(members.list(actor.workspaceId), (list) => ({ members: list })))),
    add: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(members.invite(actor, payload))),
    changeRole: ({ params, payload }) =>
      Effect.flatMap(CurrentActor, (actor) => handle(members.changeRole(actor, params.accountId, payload.role))),
    remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(members.dismiss(actor, params.accountId)))
  })
}))
