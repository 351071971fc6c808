/**
 * The MCP endpoint: `POST {app_url}/mcp`, Streamable HTTP, for assistants
 * that build forms and triage responses within the caller's permissions.
 *
 * Stateless: every POST is answered on its own (no `Mcp-Session-Id`, no
 * server-initiated stream; `GET`/`DELETE` get 405), so any number of server
 * processes can serve one client without sticky sessions. The protocol is
 * the official `@modelcontextprotocol/sdk` server (it speaks every revision
 * its clients do, up to 2025-11-25); the tools (`McpTools.ts`, gathered from
 * `tools/`), the resources (`McpResources.ts`) and the prompt
 * (`TriagePrompt.ts`) run on the same domain services as the HTTP API.
 *
 * Auth is the API's: `Authorization: Bearer qk_live_…` acts as the key's
 * member with its role, a host's `resolveActor` bridge works too, and a
 * missing or wrong key gets 401 with `WWW-Authenticate`. Each JSON-RPC
 * message takes one token of the key's rate limit: a batch of 100 calls costs 100.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { Actors } from "../kernel/index.ts"
import * as McpTools from "./McpTools.ts"
import * as McpResources from "./McpResources.ts"
import * as TriagePrompt from "./TriagePrompt.ts"
import { makeAuthenticate, RouteBook } from "../web/index.ts"

/** The endpoint's path, under the mount point. */
export const path = "/mcp"

/**
 * OAuth 2.1 sign-in for assistants (the MCP authorization spec): `/mcp`
 * becomes a protected resource whose metadata (RFC 9728) names the
 * authorization servers, typically the host's identity provider. The host's
 * `resolveActor` bridge validates the access tokens they issue.
 *
 * @example
 * ```ts
 * const oauth: Mcp.OAuthOptions = { authorizationServers: ["https://id.example.com"], scopes: ["qforms"] }
 * ```
 */
export interface OAuthOptions {
  /** The issuer URLs of the authorization servers (RFC 8414) that sign assistants in. */
  readonly authorizationServers: ReadonlyArray<string>
  /** Scopes to advertise, if the authorization server knows any for qforms. */
  readonly scopes?: ReadonlyArray<string> | undefined
}

/** Where the protected resource metadata is served, under the mount point (also with `/mcp` appended, RFC 9728's form). */
export const metadataPath = "/.well-known/oauth-protected-resource"

/**
 * The protected resource metadata (RFC 9728) of the endpoint at `base` + `/mcp`.
 *
 * @example
 * ```ts
 * Mcp.protectedResourceMetadata("https://forms.example.com", { authorizationServers: ["https://id.example.com"] })
 * // { resource: "https://forms.example.com/mcp", authorization_servers: ["https://id.example.com"], … }
 * ```
 */
export const protectedResourceMetadata = (base: string, oauth: OAuthOptions) => ({
  resource: `${base}${path}`,
  authorization_servers: [...oauth.authorizationServers],
  bearer_methods_supported: ["header"],
  ...(oauth.scopes === undefined ? {} : { scopes_supported: [...oauth.scopes] }),
  resource_name: "qforms"
})

/** Headers of the connection or of the body as it was sent, not of the request the SDK reads. */
const notForwarded = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"])

/** `Authorization: Bearer <key>` → the key; anything else → "" (then the host's bridge is asked). */
const bearerKey = (header: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1] ?? ""

/** How many JSON-RPC messages a POST carries (a batch is an array of them), for the rate limit: at least one. */
const messageCount = (parsed: Result.Result<unknown, unknown>): number =>
  Result.isSuccess(parsed) && Array.isArray(parsed.success) ? Math.max(1, parsed.success.length) : 1

/** Options of {@link layer}. */
export interface McpOptions {
  /** OAuth 2.1 sign-in for assistants; without it, API keys (and the bridge) only. */
  readonly oauth?: OAuthOptions | undefined
  /** Where this request reached qforms (scheme, host, mount prefix): for the metadata's URLs. */
  readonly baseUrl: (request: HttpServerRequest.HttpServerRequest) => string
}

/**
 * The `/mcp` route on the `HttpRouter` (and, with `oauth`, the protected
 * resource metadata); needs the domain services, a `FormGenerator` and the
 * `RateLimiter` the API uses.
 *
 * @example
 * ```ts
 * const Routes = Mcp.layer({ baseUrl: () => "https://forms.example.com" }).pipe(
 *   Layer.provide(RateLimit.RateLimiter.layer(RateLimit.defaultConfig, "api"))
 * )
 * ```
 */
export const layer = (options: McpOptions) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const authenticate = yield* makeAuthenticate
      const tools = yield* McpTools.makeTools
      const resources = yield* McpResources.makeResources
      const triage = yield* TriagePrompt.makeTriagePrompt
      // The SDK's side is loaded on the first POST, and its servers are kept for the next ones.
      const answerer = yield* Effect.cached(
        Effect.map(
          Effect.promise(() => import("./McpServer.ts")),
          (McpServer) => McpServer.makeAnswerer(tools, resources, triage)
        )
      )
      const oauth = options.oauth
      if (oauth !== undefined) {
        const metadata = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
          HttpServerResponse.jsonUnsafe(protectedResourceMetadata(options.baseUrl(request), oauth))
        )
        yield* router.add("GET", metadataPath, metadata)
        yield* router.add("GET", `${metadataPath}${path}`, metadata)
      }
      /** A refusal; with OAuth, a 401 points the client at the metadata (MCP authorization spec). */
      const refusal = (
        request: HttpServerRequest.HttpServerRequest,
        response: HttpServerResponse.HttpServerResponse
      ) => {
        const challenge = response.headers["www-authenticate"]
        return oauth === undefined || response.status !== 401 || challenge === undefined
          ? response
          : HttpServerResponse.setHeader(
              response,
              "www-authenticate",
              `${challenge}, resource_metadata="${options.baseUrl(request)}${metadataPath}"`
            )
      }
      // JSON-RPC only as JSON (sent as anything else, the guard refuses it).
      const book = yield* RouteBook
      book.takesJson("POST", path, { payload: true })
      yield* router.add(
        "POST",
        path,
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          // Read here, under the router's body limit, and parsed once: for the rate limit, then handed to the
          // SDK (a body that is not JSON goes to the SDK as text, for its own parse error).
          const body = yield* request.text
          const parsed = Result.try(() => JSON.parse(body) as unknown)
          const outcome = yield* authenticate(bearerKey(request.headers.authorization), messageCount(parsed))
          if (Result.isFailure(outcome)) return refusal(request, outcome.failure)
          const actor: Actors.Actor = { ...outcome.success.actor, channel: "mcp" }
          const headers = new Headers()
          for (const [name, value] of Object.entries(request.headers)) {
            if (!notForwarded.has(name)) headers.set(name, value)
          }
          const webRequest = new Request(`http://qforms.internal${path}`, {
            method: "POST",
            headers,
            ...(Result.isSuccess(parsed) ? {} : { body })
          })
          const reply = yield* (yield* answerer).answer(
            webRequest,
            Result.isSuccess(parsed) ? parsed.success : undefined,
            actor,
            yield* Effect.context<never>()
          )
          const contentType = reply.response.headers.get("content-type")
          const answer =
            reply.text === "" || contentType === null
              ? HttpServerResponse.empty({ status: reply.response.status })
              : HttpServerResponse.text(reply.text, { status: reply.response.status, contentType })
          return HttpServerResponse.setHeaders(answer, outcome.success.headers)
        })
      )
    })
  )
