/**
 * What the application's routes read of a request: a form field, the fields
 * of a form post or JSON body, whether a script asked for JSON, and whether
 * a write may go on (from a page of this origin, with the session's CSRF
 * token).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as UrlParams from "effect/http/UrlParams"
import { crossSiteRefusal, csrfHeader } from "../web/index.ts"
import type { Identity } from "./AppContext.ts"
import { json } from "./AppResponses.ts"

/** The first value of `key` in a form post. */
export const first = (params: UrlParams.UrlParams, key: string) =>
  Option.getOrUndefined(UrlParams.getFirst(params, key))

/** A request that writes must come from a page of this origin (login CSRF, sign-out, password change). */
export const sameOrigin = (request: HttpServerRequest.HttpServerRequest) =>
  crossSiteRefusal(request.headers) === undefined

/**
 * The refusal of a signed-in write from elsewhere: not from a page of this origin (`what` must come from
 * "this site's own page"), or, with a qforms session, without its CSRF token. Undefined when it may go on.
 */
export const writeRefusal = (request: HttpServerRequest.HttpServerRequest, identity: Identity, what: string) =>
  !sameOrigin(request)
    ? json(403, { error: `${what} must come from this site's own page` })
    : identity.via === "session" && request.headers[csrfHeader] !== identity.session.csrfToken
      ? json(403, { error: "missing or wrong CSRF token" })
      : undefined

/** A client that asked for JSON (a script) gets `{error}` rather than a page. */
export const wantsJson = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["accept"] ?? "").includes("application/json") ||
  (request.headers["content-type"] ?? "").includes("json")

/** The fields of a form post or a JSON body (strings only). */
export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const fields: Record<string, string> = {}
    if ((request.headers["content-type"] ?? "").includes("json")) {
      const body = yield* Effect.orElseSucceed(request.json, () => undefined)
      if (typeof body === "object" && body !== null) {
        for (const [key, value] of Object.entries(body)) if (typeof value === "string") fields[key] = value
      }
      return fields
    }
    const params = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
    for (const key of ["name", "password", "email", "mode"]) {
      const value = first(params, key)
      if (value !== undefined) fields[key] = value
    }
    return fields
  })
