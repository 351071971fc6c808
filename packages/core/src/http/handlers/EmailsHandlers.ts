/** Handlers of the emails group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { RespondentEmails } from "../../email/index.ts"
import { StatusLinks, statusPath } from "../../cases/index.ts"
import { LinkBase } from "../../kernel/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const EmailsHandlers = HttpApiBuilder.group(
  Api,
  "emails",
  Effect.fnUntraced(function* (handlers) {
    const emails = yield* RespondentEmails
    const statusLinks = yield* StatusLinks
    return handlers.handleAll({
      send: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(emails.send(actor, params.id, payload))),
      issueStatusLink: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.gen(function* () {
              const { token, createdAt } = yield* statusLinks.issue(actor, params.id)
              const base = (yield* LinkBase).replace(/\/$/, "")
              return { url: `${base}${statusPath(token)}`, createdAt: createdAt.toISOString() }
            })
          )
        ),
      revokeStatusLink: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(statusLinks.revoke(actor, params.id))),
      getConfirmation: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(emails.getConfirmation(actor, params.id))),
      putConfirmation: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(emails.putConfirmation(actor, params.id, payload))),
      getSettings: () => Effect.flatMap(CurrentActor, (actor) => handle(emails.getSettings(actor.workspaceId))),
      putSettings: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(emails.putSettings(actor, payload)))
    })
  })
)
