/**
 * The path parameters and statuses the API's groups share: an id, a form's
 * id, 201 Created, and the answers of routes the router serves itself.
 */
import * as Schema from "effect/Schema"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import { IdempotencyKey } from "../cases/index.ts"
import { Id } from "../kernel/index.ts"
import {
  BadRequest,
  Conflict,
  InternalError,
  MethodNotAllowed,
  PayloadTooLarge,
  ServiceUnavailable
} from "../web/index.ts"

export const IdParams = { id: Id }

export const FormIdParams = { formId: Id }

export const created = HttpApiSchema.status(201)

const idempotencyKeySchema = Schema.toJsonSchemaDocument(IdempotencyKey).schema

/**
 * Documents a submission's optional `Idempotency-Key` header (an
 * `OpenApi.Transform` of its operation), with the Schema its handler decodes
 * it by. Not declared as the endpoint's `headers`: that would make a headers
 * argument required in every call of the Effect client (`@qforms/client`).
 */
export const documentsIdempotencyKey = (operation: Record<string, unknown>): Record<string, unknown> => ({
  ...operation,
  parameters: [
    ...((operation["parameters"] as ReadonlyArray<unknown> | undefined) ?? []),
    {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: idempotencyKeySchema["description"],
      schema: idempotencyKeySchema
    }
  ]
})

// ---------------------------------------------------------------------------
// Routes served outside the HttpApi (by the router directly), described here
// with the same Schemas their routes decode with, so that the document covers
// everything qforms answers on the API's paths and the public page's JSON.
// ---------------------------------------------------------------------------

/** The answers the router may give on any route (see `Http.ts`: 400, 405, 409, 413, 500, 503). */
export const routerErrors = [
  BadRequest,
  MethodNotAllowed,
  Conflict,
  PayloadTooLarge,
  InternalError,
  ServiceUnavailable
] as const
