/**
 * The API group `Privacy`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { ErasureRequest, ErasureResult, PersonExportRequest } from "../../privacy/index.ts"
import { Forbidden, NotFound } from "../../web/index.ts"
import { created } from "../Params.ts"

/** Personal data (extension, owners and admins): erasing a person, exporting their data. */
export class PrivacyGroup extends HttpApiGroup.make("privacy").add(
  HttpApiEndpoint.post("erase", "/privacy/erasures", {
    payload: ErasureRequest,
    success: ErasureResult.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: erases a person from the workspace, by `email` or `contactId` (exactly one): their responses " +
      "(partial ones too) and files, e-mails sent to them and replies from them, their contact; unsent deliveries " +
      "about them are cancelled and notes naming them flagged for review. Answers what was removed, per kind. " +
      "One transaction; 404 for an unknown contact."
  ),
  HttpApiEndpoint.get("exportPerson", "/privacy/export", {
    query: PersonExportRequest,
    success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/zip" })),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: everything the workspace holds about a person (GDPR Article 15), by `email` or `contactId` " +
      "(exactly one), found as the erasure finds them, as a ZIP (owners and admins): `person.json` (the " +
      "`PersonData` schema: contact, responses with questions and answers, stage, tags and notes, files, e-mails " +
      "sent and replies received) and each file's bytes under `files/<responseId>/<name>`. Read in one snapshot " +
      "and recorded in the audit log (`privacy.export`, counts only). An address with nothing answers empty " +
      "lists; 404 for an unknown contact."
  )
) {}
