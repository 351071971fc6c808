/**
 * The API group `Service`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { routerErrors } from "../Params.ts"

/** The service's own documents and probes, readable without a key. */
export class ServiceGroup extends HttpApiGroup.make("service").add(
  HttpApiEndpoint.get("openapi", "/api/openapi.json", {
    success: Schema.StructWithRest(Schema.Struct({ openapi: Schema.String }), [
      Schema.Record(
        Schema.String,
        Schema.Union([Schema.String, Schema.Array(Schema.Unknown), Schema.Record(Schema.String, Schema.Unknown)])
      )
    ]).annotate({ description: "This OpenAPI 3.1 document." }),
    error: routerErrors
  }).annotate(OpenApi.Description, "The OpenAPI document of the API (this document), without a key."),
  HttpApiEndpoint.get("docs", "/api/docs", {
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" })),
    error: routerErrors
  }).annotate(OpenApi.Description, "The API reference page (HTML), without a key."),
  HttpApiEndpoint.get("health", "/healthz", {
    success: Schema.Struct({ status: Schema.Literal("ok") }),
    error: routerErrors
  }).annotate(OpenApi.Description, "Liveness: the process answers."),
  HttpApiEndpoint.get("ready", "/readyz", {
    success: Schema.Struct({ status: Schema.Literal("ready") }),
    error: routerErrors
  }).annotate(OpenApi.Description, "Readiness: the database answers too (503 when it does not).")
) {}
