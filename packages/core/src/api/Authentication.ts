/**
 * The API's security and the answers every route may give: the bearer API key
 * (`Authentication`, which provides the `CurrentActor`) and the request
 * errors of the router (`RequestErrors`).
 */
import * as Context from "effect/Context"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import type { Actors } from "../kernel/index.ts"
import {
  BadRequest,
  Conflict,
  InternalError,
  MethodNotAllowed,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType
} from "../web/index.ts"

/** The actor of the current request: the member an API key acts as. */
export class CurrentActor extends Context.Service<CurrentActor, Actors.Actor>()("@qforms/core/http/CurrentActor") {}

/**
 * Bearer authentication with an API key (`Authorization: Bearer qk_live_…`),
 * plus the per-key rate limit.
 */
export class Authentication extends HttpApiMiddleware.Service<
  Authentication,
  {
    provides: CurrentActor
  }
>()("@qforms/core/http/Authentication", {
  security: {
    bearer: HttpApiSecurity.bearer.pipe(HttpApiSecurity.annotate(OpenApi.Description, "An API key: `qk_live_…`"))
  },
  error: [Unauthorized, TooManyRequests]
}) {}

/**
 * The answers the router may give on any route: request decoding failures as
 * a 400 `{error, details}` naming the field, 405 (a method the path does not
 * take, with `Allow`), 409 (something the request refers to was deleted by a
 * concurrent request, or the change collided with a concurrent one: nothing
 * was changed), 413, 415, 500 and 503.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("@qforms/core/http/RequestErrors", {
  error: [
    BadRequest,
    MethodNotAllowed,
    Conflict,
    PayloadTooLarge,
    UnsupportedMediaType,
    InternalError,
    ServiceUnavailable
  ]
}) {}
