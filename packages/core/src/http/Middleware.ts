/**
 * The API's middleware implementations: bearer authentication with the
 * per-key rate limit (see `web/Security.ts`), and request decoding failures
 * as 400 `{error, details}`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import { Authentication, CurrentActor, RequestErrors } from "../api/index.ts"
import { describeSchemaError, makeAuthenticate } from "../web/index.ts"

/**
 * Authenticates the bearer key (or, without one or with a bearer token that is
 * no API key, asks the host's identity bridge), applies the rate limit, and runs the endpoint as that member.
 * Every answer carries the rate-limit headers.
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const authenticate = yield* makeAuthenticate
    return Authentication.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          const outcome = yield* authenticate(Redacted.value(credential))
          if (Result.isFailure(outcome)) return outcome.failure
          const response = yield* Effect.provideService(httpEffect, CurrentActor, outcome.success.actor)
          return HttpServerResponse.setHeaders(response, outcome.success.headers)
        })
    })
  })
)

/** Answers request decoding failures with 400 `{error, details}`. */
export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (error) =>
  error.kind === "Body" || error.kind === "ResponseHeaders"
    ? Effect.fail(error)
    : Effect.fail(describeSchemaError(error))
)
