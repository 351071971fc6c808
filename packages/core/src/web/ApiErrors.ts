/**
 * The error responses of the API, and domain errors as them, with the
 * statuses of the one table (`ErrorTable.ts`). Every body is `{"error": "<message>"}`; a 400 may add
 * `details` (one `{path, message}` per problem) and a 500 a `requestId`.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as SqlError from "effect/sql/SqlError"
import { Issue } from "../kernel/index.ts"
import * as ErrorTable from "./ErrorTable.ts"

/** 400: the request is malformed or breaks a rule (the message names the field). */
export class BadRequest extends Schema.Error<BadRequest>("qforms/http/BadRequest")(
  {
    error: Schema.String,
    details: Schema.optionalKey(Schema.Array(Issue))
  },
  {
    httpApiStatus: 400,
    identifier: "BadRequestError",
    description: "The request is malformed or breaks a rule; `error` names the field."
  }
) {}

/** 401: the API key is missing, malformed, wrong or revoked. Sent with `WWW-Authenticate: Bearer`. */
export class Unauthorized extends Schema.Error<Unauthorized>("qforms/http/Unauthorized")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 401,
    identifier: "UnauthorizedError",
    description: "The API key is missing, malformed, wrong or revoked."
  }
) {}

/** 403: the key's member may not do this (a viewer writing). */
export class Forbidden extends Schema.Error<Forbidden>("qforms/http/Forbidden")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 403,
    identifier: "ForbiddenError",
    description: "The key's member may not do this (a viewer key is read-only)."
  }
) {}

/** 404: no such resource in this workspace (or no such route). */
export class NotFound extends Schema.Error<NotFound>("qforms/http/NotFound")(
  {
    error: Schema.String
  },
  { httpApiStatus: 404, identifier: "NotFoundError", description: "Not found in this workspace." }
) {}

/** 405: the path exists, the method does not. Sent with `Allow`. */
export class MethodNotAllowed extends Schema.Error<MethodNotAllowed>("qforms/http/MethodNotAllowed")(
  {
    error: Schema.String
  },
  { httpApiStatus: 405, identifier: "MethodNotAllowedError", description: "The path exists but not with this method." }
) {}

/** 426: a WebSocket route (`GET /api/events`) asked for without `Upgrade: websocket`. */
export class UpgradeRequired extends Schema.Error<UpgradeRequired>("qforms/http/UpgradeRequired")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 426,
    identifier: "UpgradeRequiredError",
    description: "This route is a WebSocket: connect with `Upgrade: websocket`."
  }
) {}

/**
 * 409: the change conflicts with the current state (a submission to an unpublished form, a concurrent deletion,
 * a collision with a concurrent change).
 */
export class Conflict extends Schema.Error<Conflict>("qforms/http/Conflict")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 409,
    identifier: "ConflictError",
    description:
      "The change conflicts with the current state, refers to something a concurrent request deleted, or collided " +
      "with a concurrent change (nothing was changed: try again)."
  }
) {}

/** 413: the body is over the limit (1 MiB; an upload: its question's `maxSizeMb`, or a storage quota used up). */
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("qforms/http/PayloadTooLarge")(
  {
    error: Schema.String
  },
  { httpApiStatus: 413, identifier: "PayloadTooLargeError", description: "The request body is over 1 MiB." }
) {}

/** 415: the body is not JSON (an upload: the file's content is not of an accepted type). */
export class UnsupportedMediaType extends Schema.Error<UnsupportedMediaType>("qforms/http/UnsupportedMediaType")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 415,
    identifier: "UnsupportedMediaTypeError",
    description: "The request body must be JSON (Content-Type: application/json)."
  }
) {}

/** 429: the key's rate limit is exhausted. Sent with `Retry-After`, `RateLimit-Policy` and `RateLimit`. */
export class TooManyRequests extends Schema.Error<TooManyRequests>("qforms/http/TooManyRequests")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 429,
    identifier: "TooManyRequestsError",
    description: "Too many requests for this key; retry after `Retry-After` seconds."
  }
) {}

/** 500: an unexpected failure, logged with the same request id. */
export class InternalError extends Schema.Error<InternalError>("qforms/http/InternalError")(
  {
    error: Schema.String,
    requestId: Schema.String
  },
  {
    httpApiStatus: 500,
    identifier: "InternalServerError",
    description: "An unexpected failure; the request id is in the server log."
  }
) {}

/** 502: the form generator could not be reached or gave an unusable result. */
export class BadGateway extends Schema.Error<BadGateway>("qforms/http/BadGateway")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 502,
    identifier: "BadGatewayError",
    description: "The form generator could not be reached or gave an unusable result."
  }
) {}

/** 503: the database is not reachable right now. */
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("qforms/http/ServiceUnavailable")(
  {
    error: Schema.String
  },
  {
    httpApiStatus: 503,
    identifier: "ServiceUnavailableError",
    description: "The service cannot reach its database right now."
  }
) {}

/** Every error a domain service may fail with that the API answers (its status is in `ErrorTable`). */
type DomainError =
  | { readonly _tag: "InvalidInput"; readonly message: string; readonly details?: ReadonlyArray<Issue> | undefined }
  | {
      readonly _tag: Exclude<
        ErrorTable.AnsweredTag,
        | "InvalidInput"
        | "SignInRefused"
        | "NotAMember"
        | "TokenUnknown"
        | "TokenGone"
        | "AccountLocked"
        | "InvalidEmailToken"
        | "ReplyNotMatched"
        | "MessageTooLarge"
      >
      readonly message: string
    }

/** The API's error class of each status of the table (the statuses its handlers can answer). */
interface HttpErrors {
  readonly 400: BadRequest
  readonly 401: Unauthorized
  readonly 403: Forbidden
  readonly 404: NotFound
  readonly 409: Conflict
  readonly 413: PayloadTooLarge
  readonly 415: UnsupportedMediaType
  readonly 502: BadGateway
}

/** The HTTP error a domain error is answered with: its status in `ErrorTable`, as the API's error class. */
export type HttpErrorOf<E> = E extends { readonly _tag: infer Tag extends ErrorTable.AnsweredTag }
  ? ErrorTable.StatusOf<Tag> extends keyof HttpErrors
    ? HttpErrors[ErrorTable.StatusOf<Tag>]
    : never
  : never

const httpErrors: { readonly [S in keyof HttpErrors]: (error: string) => HttpErrors[S] } = {
  400: (error) => new BadRequest({ error }),
  401: (error) => new Unauthorized({ error }),
  403: (error) => new Forbidden({ error }),
  404: (error) => new NotFound({ error }),
  409: (error) => new Conflict({ error }),
  413: (error) => new PayloadTooLarge({ error }),
  415: (error) => new UnsupportedMediaType({ error }),
  502: (error) => new BadGateway({ error })
}

/** Maps one domain error to its HTTP error (the status from `ErrorTable`). */
export const fromDomain = (error: DomainError): HttpErrors[keyof HttpErrors] =>
  error._tag === "InvalidInput" && error.details !== undefined
    ? new BadRequest({ error: error.message, details: error.details })
    : httpErrors[ErrorTable.statusOf(error)](error.message)

/**
 * Runs a domain effect for a handler: its domain errors become HTTP errors,
 * and a database failure becomes a defect (answered 500 or 503 by the router).
 */
export const handle = <A, E extends DomainError | SqlError.SqlError, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, HttpErrorOf<Exclude<E, SqlError.SqlError>>, R> =>
  Effect.catch(effect, (error) =>
    error._tag === "SqlError"
      ? Effect.die(error)
      : Effect.fail(fromDomain(error as DomainError) as HttpErrorOf<Exclude<E, SqlError.SqlError>>)
  )

/**
 * A domain error as a plain `{error}` response, for routes served outside the
 * `HttpApi` (same statuses as {@link fromDomain}).
 *
 * @example
 * ```ts
 * Effect.catch(files.upload(input), (error) => Effect.succeed(ApiErrors.domainResponse(error)))
 * ```
 */
export const domainResponse = (
  error: DomainError,
  headers?: Record<string, string>
): HttpServerResponse.HttpServerResponse => {
  const http = fromDomain(error)
  const body =
    http instanceof BadRequest && http.details !== undefined
      ? { error: http.error, details: http.details }
      : { error: http.error }
  return HttpServerResponse.jsonUnsafe(body, {
    status: ErrorTable.statusOf(error),
    ...(headers === undefined ? {} : { headers })
  })
}
