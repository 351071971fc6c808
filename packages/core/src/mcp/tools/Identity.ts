/**
 * The MCP tools of the workspace's members and their availability: each a
 * domain service call, with its input Schema taken from the HTTP API's (see
 * `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Id } from "../../kernel/index.ts"
import { Member, Members } from "../../identity/index.ts"
import { define, NoArguments, type McpTool } from "../McpTool.ts"

/** The tools of the workspace's members and their availability, bound to their services. */
export const tools = Effect.gen(function* () {
  const members = yield* Members

  const tools: ReadonlyArray<McpTool> = [
    define("list_members", {
      title: "List the workspace's members",
      description:
        "Lists the people of the workspace with their role. A member's `accountId` is what " +
        "update_response takes as `assigneeId` and list_responses as `assignee`.",
      input: NoArguments,
      output: Schema.Struct({ members: Schema.Array(Member) }),
      write: false,
      run: (actor) => Effect.map(members.list(actor.workspaceId), (list) => ({ members: list }))
    }),
    define("set_member_away", {
      title: "Mark a member away or back",
      description:
        "Marks a member away (`away: true`) or back: assignment rules then pass them by. Any member may set it " +
        "for themself, owners and admins for anyone. `accountId` comes from list_members.",
      input: Schema.Struct({ accountId: Id, away: Schema.Boolean }),
      output: Member,
      write: true,
      run: (actor, { accountId, away }) => members.setAway(actor, accountId, away)
    })
  ]
  return tools
})
