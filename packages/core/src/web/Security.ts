/**
 * How a request is authenticated and guarded, for every surface (API, MCP,
 * event stream, application): API keys, sessions and the host's identity
 * bridge with the per-key rate limit, the session cookie, CSRF and cross-site
 * write refusal, and decoding failures described field by field.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as SchemaIssue from "effect/SchemaIssue"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as HttpApiError from "effect/http-api/HttpApiError"
import { Actors, type Issue } from "../kernel/index.ts"
import { ApiKeys, Members, Sessions } from "../identity/index.ts"
import { BadRequest } from "./ApiErrors.ts"
import { IdentityBridge } from "./Identity.ts"
import * as RateLimit from "./RateLimit.ts"

/** The `WWW-Authenticate` challenge of a refused key (RFC 6750). */
export const bearerChallenge = (description: string) =>
  // A header value may hold only visible ASCII: anything else makes Node refuse the whole response.
  `Bearer realm="qforms", error="invalid_token", error_description="${description
    .replace(/[^\x20-\x7e]/g, "")
    .replaceAll('"', "'")}"`

const unauthorized = (message: string) =>
  HttpServerResponse.jsonUnsafe(
    { error: message },
    {
      status: 401,
      headers: { "www-authenticate": bearerChallenge(message) }
    }
  )

/** The cookie that carries an application session's id (HttpOnly, SameSite=Lax; Secure behind https). */
export const sessionCookie = "qforms_session"

/** The header every write of a session must carry: the session's CSRF token. */
export const csrfHeader = "x-csrf-token"

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"])

/** Whether a request may change something (anything but GET, HEAD and OPTIONS). */
export const isWrite = (method: string) => !safeMethods.has(method.toUpperCase())

const firstValue = (value: string | undefined) => value?.split(",")[0]?.trim()

/**
 * Why a write riding on the browser's own credentials (the application's
 * session cookie, or whatever the host's identity bridge reads: its cookie,
 * its session) is refused as a cross-site request forgery, or `undefined`
 * when it came from a page of this origin or from no browser at all.
 *
 * The browser's `Sec-Fetch-Site` decides when it is sent (`same-origin`, or
 * `none` for what the user typed); otherwise an `Origin` must name this
 * host (`Host`, or the `X-Forwarded-Host` a proxy set: no page can set
 * either on a cross-site request). A request with neither header comes from
 * no browser (a script holding the cookie), which a forged request cannot be.
 * Bearer-key calls never come here: a page cannot make a browser attach them.
 */
export const crossSiteRefusal = (headers: Readonly<Record<string, string | undefined>>): string | undefined => {
  const site = headers["sec-fetch-site"]?.trim().toLowerCase()
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return `cross-site request refused (Sec-Fetch-Site: ${site}): writes signed in through the browser must come from this site's own pages; other sites use an API key`
  }
  const origin = headers["origin"]
  if (origin === undefined || site === "same-origin") return undefined
  const hosts = [firstValue(headers["x-forwarded-host"]), firstValue(headers["host"])].filter(
    (h) => h !== undefined && h !== ""
  )
  const host = URL.canParse(origin) ? new URL(origin).host : undefined
  return host !== undefined && host !== "" && hosts.includes(host)
    ? undefined
    : `cross-site request refused (Origin: ${origin.slice(0, 200).replace(/[^\x20-\x7e]/g, "")}): writes signed in through the browser must come from this site's own pages; other sites use an API key`
}

const forbidden = (error: string) => HttpServerResponse.jsonUnsafe({ error }, { status: 403 })

/** Who a request acts as, and the rate-limit headers to send back with its answer. */
export interface Authenticated {
  readonly actor: Actors.Actor
  readonly headers: Record<string, string>
}

/**
 * Authenticates a bearer key (or, with none or a token that is no API key,
 * asks the host's identity bridge)
 * and applies the per-key rate limit (`cost` tokens: one per call of an MCP
 * batch): the member it acts as, or the refusal to answer with (401 with its
 * challenge, 429). Shared by the API and `/mcp`.
 */
export const makeAuthenticate = Effect.gen(function* () {
  const keys = yield* ApiKeys
  const members = yield* Members
  const limiter = yield* RateLimit.RateLimiter
  const bridge = yield* IdentityBridge
  const sessions = yield* Sessions

  /**
   * The member of the application session in the request's cookie, if any; a
   * write without the session's CSRF token is refused (403).
   */
  const fromSession = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const id = request.cookies[sessionCookie]
    if (id === undefined || id === "") return undefined
    const session = yield* Effect.orDie(sessions.resolve(id))
    if (session === undefined) return undefined
    const crossSite = isWrite(request.method) ? crossSiteRefusal(request.headers) : undefined
    if (crossSite !== undefined) return forbidden(crossSite)
    if (!safeMethods.has(request.method) && request.headers[csrfHeader] !== session.csrfToken) {
      return HttpServerResponse.jsonUnsafe(
        { error: `missing or wrong CSRF token: send the session's token in ${csrfHeader}` },
        {
          status: 403
        }
      )
    }
    return Actors.member({
      workspaceId: session.workspaceId,
      accountId: session.accountId,
      role: session.role,
      name: session.name,
      via: "session"
    })
  })

  /**
   * The member the host's bridge says is signed in, if any. `viaBrowser`: no
   * bearer token came with the request, so the bridge can only have read the
   * browser's own credentials, and a write must pass {@link crossSiteRefusal}.
   */
  const fromHost = (viaBrowser: boolean) =>
    Effect.gen(function* () {
      if (bridge === undefined) return undefined
      const request = yield* HttpServerRequest.HttpServerRequest
      // The bridge may answer a value or a promise, or throw: all three become one promise.
      const identity = yield* Effect.tryPromise(() =>
        Promise.resolve().then(() => bridge({ source: request.source, headers: request.headers }))
      ).pipe(Effect.orDie)
      if (identity === null || identity === undefined) return undefined
      const member = yield* members.get(identity.workspaceId, identity.accountId).pipe(
        Effect.catchTag("MemberNotFound", () => Effect.succeed(undefined)),
        Effect.orDie
      )
      if (member === undefined) return undefined
      const crossSite = viaBrowser && isWrite(request.method) ? crossSiteRefusal(request.headers) : undefined
      if (crossSite !== undefined) return forbidden(crossSite)
      const path = request.url.split("?", 1)[0] ?? ""
      yield* sessions.noteBridgedSignIn(identity.workspaceId, member.accountId, /\/mcp\/?$/.test(path) ? "mcp" : "api")
      return Actors.member({
        workspaceId: identity.workspaceId,
        accountId: member.accountId,
        role: member.role,
        name: member.name,
        via: "session"
      })
    })

  return (
    key: string,
    cost = 1
  ): Effect.Effect<
    Result.Result<Authenticated, HttpServerResponse.HttpServerResponse>,
    never,
    HttpServerRequest.HttpServerRequest
  > =>
    Effect.gen(function* () {
      // A bearer token that is no API key may be the host's own (an OAuth access token): its bridge decides.
      const sessionActor = key === "" ? yield* fromSession : undefined
      if (HttpServerResponse.isHttpServerResponse(sessionActor)) return Result.fail(sessionActor)
      const hostActor = sessionActor ?? (key === "" || !key.startsWith("qk_") ? yield* fromHost(key === "") : undefined)
      if (HttpServerResponse.isHttpServerResponse(hostActor)) return Result.fail(hostActor)
      const result = hostActor === undefined ? yield* Effect.result(keys.authenticate(key)) : Result.succeed(hostActor)
      if (Result.isFailure(result)) {
        if (result.failure._tag === "SqlError") return yield* Effect.die(result.failure)
        return Result.fail(unauthorized(result.failure.message))
      }
      const actor = result.success
      const decision = yield* limiter.take(
        actor.apiKeyId === undefined ? `member:${actor.workspaceId}:${actor.accountId}` : `key:${actor.apiKeyId}`,
        cost
      )
      const headers = RateLimit.headers(limiter.config, decision)
      if (!decision.allowed) {
        return Result.fail(
          HttpServerResponse.jsonUnsafe(
            {
              error:
                `rate limit exceeded: at most ${limiter.config.requestsPerSecond} requests per second ` +
                `(bursts of ${limiter.config.burst}) per key` +
                (cost > 1 ? `; this batch counts as ${cost} requests` : "") +
                (cost > limiter.config.burst
                  ? `, more than a burst: send at most ${limiter.config.burst} calls at once`
                  : `; retry in ${decision.retryAfterSeconds} s`)
            },
            { status: 429, headers }
          )
        )
      }
      return Result.succeed({ actor, headers })
    })
})

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const where: Record<HttpApiError.HttpApiSchemaError["kind"], string> = {
  Params: "path",
  Query: "query string",
  Headers: "headers",
  Payload: "request body",
  Body: "response body",
  ResponseHeaders: "response headers"
}

/**
 * The issues of a decoding failure as `{path, message}` pairs, each message
 * naming its field (`title: title must be at most 200 characters` reads
 * better as just the message, which already names it). `subject` names the
 * whole input in a message about it as a whole (`request body`, `arguments`).
 */
export const describeIssue = (
  issue: SchemaIssue.Issue,
  subject: string,
  isPayload: boolean
): { readonly error: string; readonly details: ReadonlyArray<Issue> } => {
  const details = formatter(issue).issues.map((issue) => {
    const path = (issue.path ?? [])
      .map((segment) =>
        typeof segment === "object" && segment !== null && "key" in segment ? String(segment.key) : String(segment)
      )
      .join(".")
    const message =
      issue.message === "Expected no excess property"
        ? "unknown field"
        : issue.message === "Missing key"
          ? "is required"
          : issue.message
    if (path === "") {
      return {
        path: "",
        message:
          message === "Expected a valid JSON body"
            ? "the request body is not valid JSON"
            : message.startsWith("Expected") && isPayload
              ? `${subject} must be a JSON object`
              : `${subject}: ${message}`
      }
    }
    const field = path.split(".")[0]!
    return { path, message: message.startsWith(field) ? message : `${path}: ${message}` }
  })
  return { error: details.map((d) => d.message).join("; "), details }
}

/** A request decoding failure as a 400 naming the fields (see {@link describeIssue}). */
export const describeSchemaError = (error: HttpApiError.HttpApiSchemaError): BadRequest =>
  new BadRequest(describeIssue(error.cause.issue, where[error.kind], error.kind === "Payload"))
