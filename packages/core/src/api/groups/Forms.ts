/**
 * The API group `Forms`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { CreatedForm, CreateFormInput, FormSummary, FormWithFields, UpdateFormInput } from "../../forms/index.ts"
import { Forbidden, NotFound } from "../../web/index.ts"
import { IdParams, created } from "../Params.ts"

/** Forms and their questions. */
export class FormsGroup extends HttpApiGroup.make("forms").add(
  HttpApiEndpoint.get("list", "/forms", { success: Schema.Array(FormSummary) }).annotate(
    OpenApi.Description,
    "The workspace's forms, newest change first."
  ),
  HttpApiEndpoint.post("create", "/forms", {
    payload: CreateFormInput,
    success: CreatedForm.pipe(created),
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Creates a draft form (extension: with `fields`, its questions; the answer lists them with their ids)."
  ),
  HttpApiEndpoint.get("get", "/forms/:id", { params: IdParams, success: FormWithFields, error: NotFound }),
  HttpApiEndpoint.patch("update", "/forms/:id", {
    params: IdParams,
    payload: UpdateFormInput,
    success: FormSummary,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Changes any subset; `fields` (extension) replaces the questions."),
  HttpApiEndpoint.delete("remove", "/forms/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Deletes the form and everything that came in through it.")
) {}
