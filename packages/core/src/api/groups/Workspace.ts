/**
 * The API group `Workspace`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { WorkspaceSettings } from "../../forms/index.ts"
import { Forbidden } from "../../web/index.ts"

/** The workspace's own settings (extension): the default theme of its forms' pages. */
export class WorkspaceGroup extends HttpApiGroup.make("workspace").add(
  HttpApiEndpoint.get("settings", "/workspace/settings", { success: WorkspaceSettings }).annotate(
    OpenApi.Description,
    "Extension: the workspace's settings: `theme`, worn by the public pages of its forms that have no theme of their own."
  ),
  HttpApiEndpoint.put("replaceSettings", "/workspace/settings", {
    payload: WorkspaceSettings,
    success: WorkspaceSettings,
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Extension: replaces the workspace's settings (owners and admins); a key left out takes its default. A theme " +
      "is checked for contrast as a form's is (400 naming the pair)."
  )
) {}
