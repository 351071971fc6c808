/** Handlers of the emails group. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { RespondentEmails } from "../../email/RespondentEmails.ts"
import { Api, CurrentActor } from "../../api/Api.ts"
import { handle } from "../../web/ApiErrors.ts"

export const EmailsHandlers = HttpApiBuilder.group(
  Api,
  "emails",
  Effect.fnUntraced(function* (handlers) {
    const emails = yield* RespondentEmails
    return handlers.handleAll({
      send: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(emails.send(actor, params.id, payload))),
      getConfirmation: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(emails.getConfirmation(actor, params.id))),
      putConfirmation: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(emails.putConfirmation(actor, params.id, payload))),
      getSettings: () => Effect.flatMap(CurrentActor, (actor) => handle(emails.getSettings(actor.workspaceId))),
      putSettings: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(emails.putSettings(actor, payload)))
    })
  })
)
