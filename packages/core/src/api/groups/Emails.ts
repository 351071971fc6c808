/**
 * The API group `Emails`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { ConfirmationSettings, EmailSettings, ResponseEmail, SendEmailInput } from "../../email/index.ts"
import { StatusLink } from "../../cases/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { IdParams, created } from "../Params.ts"

/** E-mail with respondents: confirmations, e-mails from the case, the workspace's e-mail settings. */
export class EmailsGroup extends HttpApiGroup.make("emails").add(
  HttpApiEndpoint.post("send", "/responses/:id/emails", {
    params: IdParams,
    payload: SendEmailInput,
    success: ResponseEmail.pipe(created),
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Writes to the respondent from the case (queued and sent by the delivery worker). " +
      "409 when e-mail is not configured or the response has no e-mail address."
  ),
  HttpApiEndpoint.post("issueStatusLink", "/responses/:id/status-link", {
    params: IdParams,
    success: StatusLink.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: a new link to the respondent's status page (`/s/{token}`: the stage's public name, the e-mail " +
      "thread, a reply form). The link before it stops working; only a hash of the token is stored, so the URL " +
      "is shown this once."
  ),
  HttpApiEndpoint.delete("revokeStatusLink", "/responses/:id/status-link", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: revokes the response's status link (its page answers 404 from now on)."),
  HttpApiEndpoint.get("getConfirmation", "/forms/:id/confirmation", {
    params: IdParams,
    success: ConfirmationSettings,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "The form's confirmation e-mail, sent when a response with an e-mail address arrives."
  ),
  HttpApiEndpoint.put("putConfirmation", "/forms/:id/confirmation", {
    params: IdParams,
    payload: ConfirmationSettings,
    success: ConfirmationSettings,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Sets the form's confirmation e-mail (`{{field:<id>}}` and `{{answers}}` in the body). " +
      "409 when enabling it while e-mail is not configured."
  ),
  HttpApiEndpoint.get("getSettings", "/email/settings", { success: EmailSettings }).annotate(
    OpenApi.Description,
    "The workspace's e-mail settings: open/click tracking, reopening on reply."
  ),
  HttpApiEndpoint.put("putSettings", "/email/settings", {
    payload: EmailSettings,
    success: EmailSettings,
    error: Forbidden
  }).annotate(OpenApi.Description, "Sets the workspace's e-mail settings (owners and admins).")
) {}
