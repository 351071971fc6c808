/** Handlers of the members group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Invitations, Members } from "../../identity/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"
import { Links } from "../../kernel/index.ts"

export const MembersHandlers = HttpApiBuilder.group(
  Api,
  "members",
  Effect.fnUntraced(function* (handlers) {
    const members = yield* Members
    const invitations = yield* Invitations
    return handlers.handleAll({
      list: () =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(members.list(actor.workspaceId), (list) => ({ members: list })))
        ),
      add: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(members.invite(actor, payload))),
      changeRole: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(members.changeRole(actor, params.accountId, payload.role))),
      setAway: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(members.setAway(actor, params.accountId, payload.away))),
      remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(members.dismiss(actor, params.accountId))),
      signInLink: ({ params }) =>
        Effect.gen(function* () {
          const actor = yield* CurrentActor
          const issued = yield* handle(invitations.issueSignInLink(actor, params.accountId))
          const base = (yield* Links.LinkBase).replace(/\/$/, "")
          return {
            accountId: params.accountId,
            link: `${base}/app/link/${issued.token}`,
            expiresAt: issued.expiresAt.toISOString()
          }
        })
    })
  })
)
