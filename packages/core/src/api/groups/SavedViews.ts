/**
 * The API group `SavedViews`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { CreateSavedViewInput, SavedView, UpdateSavedViewInput } from "../../cases/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { IdParams, created } from "../Params.ts"

/** Saved views of the workspace-wide list (extension). */
export class SavedViewsGroup extends HttpApiGroup.make("views").add(
  HttpApiEndpoint.get("list", "/views", {
    success: Schema.Struct({ views: Schema.Array(SavedView) }),
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Extension: the caller's personal views and the workspace's shared ones, by name. A view is a name, the " +
      "filter of `GET /responses` (its query parameters), a sort and the columns shown; `GET /responses?view={id}` " +
      "applies it."
  ),
  HttpApiEndpoint.post("create", "/views", {
    payload: CreateSavedViewInput,
    success: SavedView.pipe(created),
    error: [Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: saves a view. Personal (the default; viewers too) or `shared` (seen by every member; owners, " +
      "admins and members). Names are unique ignoring case per member's personal views and per workspace's shared " +
      "ones (409). At most 50 personal views per member and 100 shared per workspace (400)."
  ),
  HttpApiEndpoint.get("get", "/views/:id", { params: IdParams, success: SavedView, error: NotFound }).annotate(
    OpenApi.Description,
    "Extension: one view; another member's personal view is not found (404)."
  ),
  HttpApiEndpoint.patch("update", "/views/:id", {
    params: IdParams,
    payload: UpdateSavedViewInput,
    success: SavedView,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: renames or changes a view (`filter` is replaced as a whole). A personal view only by its owner; " +
      "a shared one by the member who made it, an owner or an admin (else 403)."
  ),
  HttpApiEndpoint.delete("remove", "/views/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: deletes a view, with the same rules as a change.")
) {}
