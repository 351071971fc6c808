/**
 * Everything qforms serves over HTTP, as routes of an `HttpRouter`: the API
 * under `/api`, its OpenAPI document (`/api/openapi.json`) and reference page
 * (`/api/docs`, see `Docs.ts`), the welcome page (`/`), the MCP endpoint (`/mcp`, see `Mcp.ts`), `/healthz` and `/readyz`, the embed kit (`/embed.js`), and one router-wide layer that keeps every answer in shape:
 * `{error}` bodies, 404 and 405 (with `Allow`), 413 over the body limit, 503
 * when the database is away, and 500 with a request id for the unexpected.
 */
import { randomBytes } from "node:crypto"
import * as ByteSize from "effect/ByteSize"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as OpenApi from "effect/http-api/OpenApi"
import * as SqlClient from "effect/sql/SqlClient"
import { Api, Documented } from "./api/index.ts"
import {
  ApiKeysHandlers,
  AssignmentRulesHandlers,
  AuditHandlers,
  AuthenticationLive,
  CaseFieldsHandlers,
  DigestRoutes,
  Docs,
  EmailRoutes,
  EmailsHandlers,
  FilesHandlers,
  FormsHandlers,
  GenerateHandlers,
  ImagesHandlers,
  imageUploadPath,
  InsightsHandlers,
  InvitationsHandlers,
  MembersHandlers,
  NotificationsHandlers,
  PrivacyHandlers,
  RequestErrorsLive,
  ResponsesHandlers,
  SavedViewsHandlers,
  StagesHandlers,
  TranslationsHandlers,
  WebhooksHandlers,
  WorkspaceHandlers
} from "./http/index.ts"
import { EmbedScript, PublicPage, StatusPage, UploadLimiter, Uploads, Welcome } from "./pages/index.ts"
import { Database, DiskSpace } from "./storage/index.ts"
import { BlobStoreModule as BlobStore } from "./files/index.ts"
import { App } from "./app/index.ts"
import {
  baseUrl,
  bearerChallenge,
  Caching,
  clientAddress,
  ErrorTable,
  mountPrefix,
  type JsonRoute,
  RateLimit,
  RouteBook,
  redactUrl,
  toPattern
} from "./web/index.ts"
import { Mcp } from "./mcp/index.ts"
import { AuditLogModule as AuditLog } from "./audit/index.ts"
import { Links } from "./kernel/index.ts"

/** Options of the HTTP routes. */
export interface HttpOptions {
  /** Per-key rate limit (default 20 requests/s, bursts of 100). */
  readonly rateLimit?: RateLimit.RateLimitConfig | undefined
  /** Largest accepted request body in bytes (default 1 MiB; uploads have their question's own limit). */
  readonly maxBodyBytes?: number | undefined
  /**
   * File uploads per client address (default bursts of 30, then one every 2
   * seconds), one bucket for the upload route and the public page's file steps;
   * the address is read with `publicPage.trustedProxyHops`.
   */
  readonly uploadRateLimit?: RateLimit.RateLimitConfig | undefined
  /**
   * Where the application is served, e.g. `https://forms.example.com` or
   * `/forms-service` when mounted under a prefix: the OpenAPI `servers` entry.
   */
  readonly appUrl?: string | undefined
  /**
   * OAuth 2.1 sign-in for assistants on `/mcp`: serves the protected resource
   * metadata naming these authorization servers; `resolveActor` validates their tokens.
   */
  readonly oauth?: Mcp.OAuthOptions | undefined
  /** The public form page (`/f/{publicId}`): framing, abuse limits, proxies. */
  readonly publicPage?: PublicPage.PublicPageOptions | undefined
  /** The application at `/app` (sign-in, forms, inbox, settings); not served when absent or false. */
  readonly app?: App.AppOptions | boolean | undefined
}

/** The default body limit: 1 MiB. */
export const defaultMaxBodyBytes = 1024 * 1024

/**
 * The API's routes that read a JSON body, from its definition: its writes
 * (a file upload's body is multipart; a session's write still needs its CSRF
 * header, see web/Security.ts). The other surfaces declare theirs in the
 * route book where they add them (`/mcp`, the public page's JSON submission,
 * the application's password change).
 */
const apiJsonRoutes = (): ReadonlyArray<JsonRoute> => {
  const routes: Array<JsonRoute> = []
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      if (endpoint.method === "GET" || endpoint.method === "HEAD") return
      if (endpoint.payload.has("multipart/form-data")) return
      routes.push({
        method: endpoint.method,
        pattern: toPattern(endpoint.path),
        payload: endpoint.payload.has("application/json")
      })
    }
  })
  return routes
}

/** `application/json`, optionally with parameters (`application/json; charset=utf-8`). */
export const isJsonContentType = (value: string | undefined): boolean =>
  value !== undefined && /^application\/json[ \t]*(;|$)/i.test(value.trim())

/** Whether a request carries a body (a length above 0, or a chunked one). */
const hasBody = (headers: Readonly<Record<string, string | undefined>>) =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"].trim() !== "0")

const json = (status: number, body: object, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(body, headers === undefined ? { status } : { status, headers })

const makeRequestId = () => `req_${randomBytes(9).toString("base64url")}`

const contentTypeOf = (response: HttpServerResponse.HttpServerResponse) =>
  response.headers["content-type"] ??
  (response.body._tag === "Uint8Array" || response.body._tag === "Raw" ? (response.body.contentType ?? "") : "")

const isContentJson = (response: HttpServerResponse.HttpServerResponse) => contentTypeOf(response).includes("json")

/** The public page answers its errors with pages of its own (`text/html`); those are kept. */
const isContentHtml = (response: HttpServerResponse.HttpServerResponse) => contentTypeOf(response).includes("text/html")

/**
 * Keeps every error answer `{error}`-shaped: an error status with an empty or
 * non-JSON body (from the router or the platform) gets a JSON body, and a
 * 401 its `WWW-Authenticate` challenge.
 */
const normalize = (response: HttpServerResponse.HttpServerResponse) => {
  if (response.status < 400) return response
  let out = response
  if (!isContentJson(response) && !isContentHtml(response) && response.body._tag !== "Stream") {
    const replaced = json(response.status, {
      error: ErrorTable.defaultMessages[response.status] ?? `HTTP ${response.status}`
    })
    out = HttpServerResponse.setHeaders(replaced, response.headers)
    out = HttpServerResponse.removeHeader(HttpServerResponse.removeHeader(out, "content-type"), "content-length")
    out = HttpServerResponse.setBody(out, replaced.body)
  }
  if (out.status === 401 && out.headers["www-authenticate"] === undefined) {
    out = HttpServerResponse.setHeader(out, "www-authenticate", bearerChallenge("missing or invalid API key"))
  }
  return out
}

type Reason = { readonly _tag: string; readonly reason?: unknown }

const httpServerReason = (error: unknown): Reason | undefined =>
  typeof error === "object" &&
  error !== null &&
  "_tag" in error &&
  error._tag === "HttpServerError" &&
  "reason" in error
    ? (error.reason as Reason)
    : undefined

const loneSurrogate =
  /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/

/**
 * Text PostgreSQL cannot store, in a JSON body: the NUL character and lone
 * UTF-16 surrogates (`\u0000`, `\ud800`). Refused up front with a 400 rather
 * than failing in the database. The body read here is the one the endpoint
 * decodes (the platform caches it), so nothing is read twice.
 */
const unstorableText = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE") return undefined
    if (!(request.headers["content-type"] ?? "application/json").toLowerCase().includes("json")) return undefined
    const text = yield* Effect.orElseSucceed(request.text, () => "")
    if (/\\u0000/.test(text)) return "strings must not contain the NUL character (\\u0000)"
    if (loneSurrogate.test(text)) return "strings must not contain unpaired UTF-16 surrogates (e.g. \\ud800)"
    return undefined
  })

/** The router-wide layer: limits, 404/405 (by the route book), and error answers for failures and defects. */
const Guard = (options: HttpOptions) =>
  Layer.unwrap(
    Effect.gen(function* () {
      return guardWith(options, yield* RouteBook)
    })
  )

const guardWith = (options: HttpOptions, book: RouteBook["Service"]) => {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
  const maxBodySize = ByteSize.bytes(maxBodyBytes)
  const apiJson = apiJsonRoutes()
  // The audit log's client address: read as the application reads it (its proxies, else the public page's).
  const auditHops =
    (typeof options.app === "object" ? options.app.trustedProxyHops : undefined) ??
    options.publicPage?.trustedProxyHops ??
    0
  const tooLarge = json(
    413,
    { error: `request body too large: at most ${maxBodyBytes} bytes` },
    { connection: "close" }
  )

  const notFound = (request: HttpServerRequest.HttpServerRequest) => {
    const path = request.url.split("?")[0]!
    const allowed = [...new Set(book.routes.filter((r) => r.pattern.test(path)).map((r) => r.method))]
    if (allowed.length === 0) {
      // A person following a broken form link gets a page, not JSON.
      return path.startsWith("/f/") && (request.method === "GET" || request.method === "HEAD")
        ? PublicPage.notFoundPage(options.publicPage?.frameAncestors)
        : json(404, { error: `no route ${request.method} ${path}` })
    }
    // The router refuses a path it cannot decode, or an over-long parameter, before matching any route.
    if (allowed.includes(request.method)) {
      const decodable = Result.isSuccess(Result.try(() => decodeURIComponent(path)))
      return json(400, { error: decodable ? "a path parameter is too long" : "the URL has an invalid percent-escape" })
    }
    return json(
      405,
      { error: `method ${request.method} is not allowed on ${path}; use ${allowed.join(", ")}` },
      {
        allow: allowed.join(", ")
      }
    )
  }

  const fromCause = (request: HttpServerRequest.HttpServerRequest, cause: Cause.Cause<unknown>) =>
    Effect.gen(function* () {
      const errors = [
        ...cause.reasons.filter(Cause.isFailReason).map((reason) => reason.error),
        ...cause.reasons.filter(Cause.isDieReason).map((reason) => reason.defect)
      ]
      for (const error of errors) {
        const reason = httpServerReason(error)
        if (reason?._tag === "RouteNotFound") return notFound(request)
        if (reason?._tag === "RequestParseError") {
          return reason.reason === "BodyTooLarge" ? tooLarge : json(400, { error: "could not read the request body" })
        }
        if (DiskSpace.isDiskFull(error)) {
          const space = yield* Effect.serviceOption(DiskSpace.DiskSpace)
          if (Option.isSome(space)) yield* space.value.noteFull
          return json(
            503,
            { error: "the database's disk is full: nothing was stored; try again once space is freed" },
            { "retry-after": "30" }
          )
        }
        if (Database.isUnreachable(error)) {
          // A change cut off mid-way may have committed before its answer was lost: say so, not "try again".
          const unknown = Database.isLostMidway(error) && request.method !== "GET" && request.method !== "HEAD"
          return json(
            503,
            {
              error: unknown
                ? "the connection to the database was lost during this request: whether its change was kept is unknown; check before sending it again, or send a submission again with the same Idempotency-Key"
                : "the database is not reachable; try again shortly"
            },
            { "retry-after": "5" }
          )
        }
        // The file store (a directory, S3) failed: nothing was kept (see BlobStore's promises), so the client may retry.
        if (error instanceof BlobStore.BlobStoreError) {
          return json(
            503,
            { error: "the file store is not reachable; nothing was stored, try again shortly" },
            {
              "retry-after": "5"
            }
          )
        }
        if (Database.isConcurrentDeletion(error)) {
          return json(409, {
            error: "something this request refers to was deleted at the same time; nothing was changed"
          })
        }
        if (Database.isCollision(error)) {
          return json(409, {
            error: "this change collided with another made at the same moment; nothing was changed, try again"
          })
        }
      }
      if (cause.reasons.length > 0 && cause.reasons.every(Cause.isInterruptReason)) {
        return yield* Effect.failCause(cause)
      }
      const requestId = makeRequestId()
      yield* Effect.logError("unexpected failure", cause).pipe(
        Effect.annotateLogs({ requestId, method: request.method, url: redactUrl(request.url) })
      )
      return json(500, { error: "internal error", requestId })
    })

  return HttpRouter.middleware(
    (app) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const length = Number(request.headers["content-length"] ?? "0")
        // An upload streams under its question's own limit (see pages/Uploads.ts), an image under
        // Images.MAX_IMAGE_BYTES (http/handlers/ImagesHandlers.ts), and so does a
        // multipart step of the public page (its fields stay under this limit, see pages/StepReader.ts).
        const path = request.url.split("?")[0]!
        const upload =
          request.method === "POST" &&
          (Uploads.isUploadPath(path) ||
            path === imageUploadPath ||
            PublicPage.isMultipartStep(path, request.headers["content-type"]) ||
            // A reply on a status page keeps to the inbound e-mail limit (see pages/StatusPage.ts).
            StatusPage.isStatusPath(path))
        if (Number.isFinite(length) && length > maxBodyBytes && !upload) return tooLarge
        if (/%00/.test(request.url)) return json(400, { error: "the URL must not contain the NUL character (%00)" })
        // A JSON body only as JSON: a page of another site can send text/plain, a form or a typeless
        // blob without asking (no CORS preflight), never application/json (cross-site request forgery).
        const contentType = request.headers["content-type"]
        const takesJson = (route: JsonRoute) => route.method === request.method && route.pattern.test(path)
        const jsonRoute = apiJson.find(takesJson) ?? book.jsonRoutes.find(takesJson)
        if (
          jsonRoute !== undefined &&
          (jsonRoute.payload || hasBody(request.headers)) &&
          !isJsonContentType(contentType)
        ) {
          return json(415, {
            error: `unsupported content type ${
              contentType === undefined ? "(none)" : JSON.stringify(contentType.slice(0, 100))
            }: send the body as JSON with Content-Type: application/json`
          })
        }
        const unstorable = yield* Effect.provideService(
          unstorableText(request),
          HttpIncomingMessage.MaxBodySize,
          maxBodySize
        )
        if (unstorable !== undefined) return json(400, { error: unstorable })
        const exit = yield* Effect.exit(
          app.pipe(
            Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize),
            Effect.provideService(Links.LinkBase, baseUrl(request, options.appUrl)),
            Effect.provideService(AuditLog.AuditOrigin, { address: clientAddress(request, auditHops), surface: null })
          )
        )
        return Exit.isSuccess(exit) ? normalize(exit.value) : yield* fromCause(request, exit.cause)
      }),
    { global: true }
  )
}

/** `GET /healthz` (the process answers) and `GET /readyz` (the database answers too). */
const HealthRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const sql = yield* SqlClient.SqlClient
    yield* router.add("GET", "/healthz", Effect.succeed(json(200, { status: "ok" })))
    // The event stream is a WebSocket: the upgrade is taken before the router
    // (see Qforms.upgradeHandler); a plain GET lands here.
    yield* router.add(
      "GET",
      "/api/events",
      Effect.succeed(
        json(
          426,
          { error: "GET /api/events is a WebSocket: connect with Upgrade: websocket" },
          {
            upgrade: "websocket",
            connection: "Upgrade"
          }
        )
      )
    )
    yield* router.add(
      "GET",
      "/readyz",
      Database.ping.pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.as(json(200, { status: "ready" })),
        Effect.catch((error) => Effect.succeed(json(503, { error: error.message })))
      )
    )
  })
)

/** The OpenAPI documents kept ready to serve, by `servers` URL (a few: one per address the service is reached at). */
const keptDocuments = 8

/**
 * The OpenAPI document, with `servers` naming where the API is mounted. It is
 * built on the first request, not at start (`OpenApi.fromApi` caches it), and
 * served with an `ETag` (304 when unchanged) and compressed as the client
 * allows, each form made once per `servers` URL.
 */
const OpenApiRoute = (options: HttpOptions) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const documents = new Map<string, Caching.Representation>()
      yield* router.add(
        "GET",
        "/api/openapi.json",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const server = baseUrl(request, options.appUrl) || "/"
          let representation = documents.get(server)
          if (representation === undefined) {
            representation = yield* Caching.makeRepresentation(
              JSON.stringify({
                ...OpenApi.fromApi(Documented),
                servers: [{ url: server, description: "This qforms service" }]
              })
            )
            // The URL comes from the request's headers: only the newest few are kept.
            if (documents.size >= keptDocuments) documents.delete(documents.keys().next().value!)
            documents.set(server, representation)
          }
          return yield* Caching.respond(representation, { contentType: "application/json", cacheControl: "no-cache" })
        })
      )
    })
  )

/**
 * The routes of qforms: provide the domain services (`Services.layer…`) and a
 * `FormGenerator`, then serve with `HttpRouter.serve` or turn into a handler
 * with `HttpRouter.toWebHandler`.
 *
 * @example
 * ```ts
 * import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
 * import * as HttpRouter from "effect/http/HttpRouter"
 * import * as Layer from "effect/Layer"
 * import { createServer } from "node:http"
 * import * as Http from "./Http.ts" // internal to core: hosts use `Qforms.layer` (from "@qforms/core") instead
 * import { FormGenerator } from "./generation/index.ts"
 * import * as Services from "./Services.ts"
 *
 * const Server = HttpRouter.serve(Http.layer({ appUrl: "http://localhost:3000" }), { disableLogger: true }).pipe(
 *   Layer.provide([Services.layerPglite({ dataDir: "./data" }), FormGenerator.FormGenerator.layerNone]),
 *   Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 }))
 * )
 * ```
 */
export const layer = (options: HttpOptions = {}) => {
  // One limiter for the API and /mcp: a key's budget is shared by both.
  const limiter = RateLimit.RateLimiter.layer(options.rateLimit, "api")
  return Layer.mergeAll(
    HttpApiBuilder.layer(Api).pipe(
      Layer.provide(
        Layer.mergeAll(
          FormsHandlers,
          ResponsesHandlers,
          StagesHandlers,
          AssignmentRulesHandlers,
          SavedViewsHandlers,
          CaseFieldsHandlers,
          MembersHandlers,
          WebhooksHandlers,
          FilesHandlers,
          ImagesHandlers,
          TranslationsHandlers,
          GenerateHandlers,
          NotificationsHandlers,
          EmailsHandlers,
          ApiKeysHandlers,
          InvitationsHandlers,
          WorkspaceHandlers,
          InsightsHandlers,
          PrivacyHandlers,
          AuditHandlers
        ).pipe(Layer.provide([AuthenticationLive.pipe(Layer.provide(limiter)), RequestErrorsLive]))
      )
    ),
    OpenApiRoute(options),
    HealthRoutes,
    EmbedScript.layer,
    Docs.layer((request) => mountPrefix(request, options.appUrl)),
    Welcome.layer({
      app: options.app !== undefined && options.app !== false,
      baseUrl: (request) => baseUrl(request, options.appUrl),
      prefix: (request) => mountPrefix(request, options.appUrl),
      mcpPath: Mcp.path
    }),
    Mcp.layer({ oauth: options.oauth, baseUrl: (request) => baseUrl(request, options.appUrl) }).pipe(
      Layer.provide(limiter)
    ),
    // One upload limiter for every route that stores a respondent's file, keyed by the trusted client address.
    Layer.mergeAll(
      PublicPage.layer({ ...options.publicPage, maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes }),
      Uploads.layer(),
      StatusPage.layer({
        frameAncestors: options.publicPage?.frameAncestors,
        trustedProxyHops: options.publicPage?.trustedProxyHops,
        replyRateLimit: options.publicPage?.submissionRateLimit
      })
    ).pipe(
      Layer.provide(
        UploadLimiter.layer({
          rateLimit: options.uploadRateLimit,
          trustedProxyHops: options.publicPage?.trustedProxyHops
        })
      )
    ),
    EmailRoutes.layer,
    DigestRoutes.layer,
    options.app === undefined || options.app === false
      ? Layer.empty
      : App.layer({
          ...(options.app === true ? {} : options.app),
          appUrl: options.appUrl,
          trustedProxyHops:
            (options.app === true ? undefined : options.app.trustedProxyHops) ?? options.publicPage?.trustedProxyHops
        }),
    Guard(options)
  ).pipe(Layer.provide(RouteBook.recordingRouter), Layer.provide(RouteBook.layer))
}
