/**
 * The API group `Members`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { AddMemberInput, ChangeRoleInput, IssuedSignInLink, Member, SetAwayInput } from "../../identity/index.ts"
import { Id } from "../../kernel/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { created } from "../Params.ts"

/** The workspace's members. */
export class MembersGroup extends HttpApiGroup.make("members").add(
  HttpApiEndpoint.get("list", "/members", { success: Schema.Struct({ members: Schema.Array(Member) }) }),
  HttpApiEndpoint.post("add", "/members", {
    payload: AddMemberInput,
    success: Member.pipe(created),
    error: [Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: adds a member by e-mail (owners and admins; an existing member gets the role)."
  ),
  HttpApiEndpoint.patch("changeRole", "/members/:accountId", {
    params: { accountId: Id },
    payload: ChangeRoleInput,
    success: Member,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: changes a member's role (the owner role is an owner's to give; one owner stays)."
  ),
  HttpApiEndpoint.put("setAway", "/members/:accountId/away", {
    params: { accountId: Id },
    payload: SetAwayInput,
    success: Member,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: marks a member away (or back): any member but a viewer for themself, owners and admins for anyone. " +
      "Assignment rules pass away members by."
  ),
  HttpApiEndpoint.delete("remove", "/members/:accountId", {
    params: { accountId: Id },
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(OpenApi.Description, "Extension: removes a member (their API keys go with them)."),
  HttpApiEndpoint.post("signInLink", "/members/:accountId/sign-in-link", {
    params: { accountId: Id },
    success: IssuedSignInLink.pipe(created),
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: a one-time link `{appUrl}/app/link/{token}` that signs this member in to this workspace, valid " +
      "15 minutes, for an owner or admin to pass on (over members whose role is below their own). 409 when the " +
      "account belongs to another workspace too."
  )
) {}
