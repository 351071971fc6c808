/**
 * The path parameters and statuses the API's groups share: an id, a form's
 * id, 201 Created, and the answers of routes the router serves itself.
 */
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
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
