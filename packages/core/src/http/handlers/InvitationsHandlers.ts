/** Handlers of the invitations group: inviting by e-mail (or a link to pass on), listing and revoking. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Invitations, Workspaces } from "../../identity/index.ts"
import { Mailer } from "../../mail/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"
import { Links } from "../../kernel/index.ts"

/** The link of an invitation token under a base URL. */
export const invitationLink = (base: string, token: string) => `${base.replace(/\/$/, "")}/app/invite/${token}`

export const InvitationsHandlers = HttpApiBuilder.group(
  Api,
  "invitations",
  Effect.fnUntraced(function* (handlers) {
    const invitations = yield* Invitations
    const workspaces = yield* Workspaces
    return handlers.handleAll({
      list: () =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(Effect.map(invitations.list(actor), (list) => ({ invitations: list })))
        ),
      create: ({ payload }) =>
        Effect.gen(function* () {
          const actor = yield* CurrentActor
          const { invitation, token } = yield* handle(invitations.create(actor, payload))
          const mailer = yield* Mailer
          const sentBase = yield* Links.SentLinkBase
          // Without SMTP (or without an absolute appUrl for the e-mail) the inviter gets the link, this once.
          if (!mailer.configured || sentBase === "") {
            return { ...invitation, emailed: false, link: invitationLink(yield* Links.LinkBase, token) }
          }
          const workspace = yield* workspaces.get(actor.workspaceId).pipe(Effect.orDie)
          const link = invitationLink(sentBase, token)
          const inviter = actor.name === null ? "An administrator" : actor.name
          const sent = yield* Effect.result(
            mailer.send({
              to: [invitation.email],
              subject: `You are invited to ${workspace.name} on qforms`,
              text:
                `${inviter} invited you to the workspace "${workspace.name}" as ${invitation.role}.\n\n` +
                `Accept the invitation and choose your password here (valid for 7 days, once):\n${link}\n\n` +
                "If you did not expect this, ignore this e-mail."
            })
          )
          if (sent._tag === "Failure") {
            yield* Effect.logWarning("qforms: an invitation e-mail could not be sent", sent.failure.message)
            return {
              ...invitation,
              emailed: false,
              link: invitationLink(yield* Links.LinkBase, token),
              emailError: `the e-mail could not be sent (${sent.failure.message}): pass the link on yourself`
            }
          }
          return { ...invitation, emailed: true }
        }),
      revoke: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(invitations.revoke(actor, params.id)))
    })
  })
)
