/**
 * The API group `Stages`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { CreateStageInput, ReorderStagesInput, Stage, UpdateStageInput } from "../../forms/index.ts"
import { Forbidden, NotFound } from "../../web/index.ts"
import { FormIdParams, IdParams, created } from "../Params.ts"

/** A form's stages. */
export class StagesGroup extends HttpApiGroup.make("stages").add(
  HttpApiEndpoint.get("list", "/forms/:formId/stages", {
    params: FormIdParams,
    success: Schema.Struct({ stages: Schema.Array(Stage) }),
    error: NotFound
  }),
  HttpApiEndpoint.post("create", "/forms/:formId/stages", {
    params: FormIdParams,
    payload: CreateStageInput,
    success: Stage.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: adds a stage at the end."),
  HttpApiEndpoint.put("reorder", "/forms/:formId/stages/order", {
    params: FormIdParams,
    payload: ReorderStagesInput,
    success: Schema.Struct({ stages: Schema.Array(Stage) }),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: puts the stages in this order (every stage id once)."),
  HttpApiEndpoint.patch("update", "/stages/:id", {
    params: IdParams,
    payload: UpdateStageInput,
    success: Stage,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: renames, recolors or (un)closes a stage."),
  HttpApiEndpoint.delete("remove", "/stages/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: deletes a stage; its responses go back to no stage.")
) {}
