/**
 * The API group `Generate`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { GenerateFormInput } from "../../generation/index.ts"
import { FormWithFields } from "../../forms/index.ts"
import { BadGateway, Forbidden } from "../../web/index.ts"
import { created } from "../Params.ts"

/** Form generation from a description. */
export class GenerateGroup extends HttpApiGroup.make("generate").add(
  HttpApiEndpoint.post("generate", "/v1/forms/generate", {
    payload: GenerateFormInput,
    success: FormWithFields.pipe(created),
    error: [Forbidden, BadGateway]
  }).annotate(OpenApi.Description, "Writes the questions from a description and creates the form.")
) {}
