/**
 * The API group `ApiKeys`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { ApiKey, IssueApiKeyInput, IssuedApiKey } from "../../identity/index.ts"
import { Forbidden, NotFound } from "../../web/index.ts"
import { IdParams, created } from "../Params.ts"

/** API keys of the workspace (owners and admins). */
export class ApiKeysGroup extends HttpApiGroup.make("apiKeys").add(
  HttpApiEndpoint.get("list", "/api-keys", {
    success: Schema.Struct({ apiKeys: Schema.Array(ApiKey) }),
    error: Forbidden
  }).annotate(OpenApi.Description, "Extension: the workspace's keys (prefixes only, never the keys)."),
  HttpApiEndpoint.post("issue", "/api-keys", {
    payload: IssueApiKeyInput,
    success: IssuedApiKey.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: issues a key; `key` is shown only in this answer."),
  HttpApiEndpoint.delete("revoke", "/api-keys/:id", {
    params: IdParams,
    success: ApiKey,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: revokes a key; it stops working on the next request.")
) {}
