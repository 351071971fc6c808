/**
 * The API group `Invitations`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { CreatedInvitation, CreateInvitationInput, Invitation } from "../../identity/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { IdParams, created } from "../Params.ts"

/** Invitations to the workspace (owners and admins). */
export class InvitationsGroup extends HttpApiGroup.make("invitations").add(
  HttpApiEndpoint.get("list", "/invitations", {
    success: Schema.Struct({ invitations: Schema.Array(Invitation) }),
    error: Forbidden
  }).annotate(OpenApi.Description, "Extension: the invitations neither accepted nor revoked (expired ones included)."),
  HttpApiEndpoint.post("create", "/invitations", {
    payload: CreateInvitationInput,
    success: CreatedInvitation.pipe(created),
    error: [Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: invites an e-mail address with a role (never above the caller's own), valid 7 days. Sent by " +
      "e-mail when SMTP is configured; otherwise (or when sending fails) `link` is in this answer only, to pass on. " +
      "409 when the address is already a member."
  ),
  HttpApiEndpoint.delete("revoke", "/invitations/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: revokes a pending invitation; its link stops working.")
) {}
