/**
 * The MCP endpoint: `POST {app_url}/mcp`, Streamable HTTP, for assistants
 * that build forms and triage responses within the caller's permissions.
 *
 * Stateless: every POST is answered on its own (no `Mcp-Session-Id`, no
 * server-initiated stream; `GET`/`DELETE` get 405), so any number of server
 * processes can serve one client without sticky sessions. The protocol is
 * the official `@modelcontextprotocol/sdk` server (it speaks every revision
 * its clients do, up to 2025-11-25); the tools, resources and the prompt are
 * in `McpTools.ts`, on the same domain services as the HTTP API.
 *
 * Auth is the API's: `Authorization: Bearer qk_live_…` acts as the key's
 * member with its role, a host's `resolveActor` bridge works too, and a
 * missing or wrong key gets 401 with `WWW-Authenticate`. Each POST takes one
 * token of the key's rate limit.
 */
import { randomBytes } from "node:crypto"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, type Context, Effect, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type * as Actors from "../domain/Actors.ts"
import * as Database from "../storage/Database.ts"
import { apiVersion } from "./Api.ts"
import * as McpTools from "./McpTools.ts"
import { makeAuthenticate } from "./Security.ts"

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

/** The JSON-RPC error code of an unknown resource (MCP specification). */
const resourceNotFoundCode = -32002

const instructions = "qforms holds a workspace's forms (ordered questions) and the responses to them, handled " +
  "as cases: each response has a stage, an assignee, tags and internal notes. Find a form's id with " +
  "list_forms; read its responses with list_responses and get_response; triage them with update_response " +
  "and add_note. The ids are numbers; stages and members are listed by list_stages and list_members. " +
  "What you may change depends on the key's role: a viewer's key only reads."

/** Runs an effect for the SDK: a failure the handler did not turn into an answer is logged and answered as an internal error. */
const runner = <R>(context: Context.Context<R>) =>
<A, E>(effect: Effect.Effect<A, E, R>): Promise<A> =>
  Effect.runPromiseWith(context)(effect.pipe(
    Effect.catchCause((cause) => {
      const failure = cause.reasons.find(Cause.isFailReason)?.error
      if (failure instanceof McpError) return Effect.fail(failure)
      if (Database.isUnreachable(failure)) {
        return Effect.fail(new McpError(ErrorCode.InternalError, "the database is not reachable; try again shortly"))
      }
      const requestId = `req_${randomBytes(9).toString("base64url")}`
      return Effect.logError("MCP request failed", cause).pipe(
        Effect.annotateLogs({ requestId }),
        Effect.andThen(Effect.fail(new McpError(ErrorCode.InternalError, `internal error (request id ${requestId})`)))
      )
    })
  ))

type Tools = Effect.Success<typeof McpTools.makeTools>
type Resources = Effect.Success<typeof McpTools.makeResources>
type Triage = Effect.Success<typeof McpTools.makeTriagePrompt>

/** An SDK server for one POST, answering as `actor`. */
const makeServer = (
  actor: Actors.Actor,
  run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>,
  tools: Tools,
  resources: Resources,
  triage: Triage
) => {
  const server = new Server(
    { name: "qforms", title: "qforms", version: apiVersion },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions }
  )
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  server.setRequestHandler(ListToolsRequestSchema, () =>
    Promise.resolve({
      tools: tools.map(({ annotations, description, inputSchema, name, outputSchema, title }) => ({
        name,
        title,
        description,
        inputSchema: inputSchema as { type: "object" },
        outputSchema: outputSchema as { type: "object" },
        annotations
      }))
    }))
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined) {
      return Promise.resolve({
        content: [{
          type: "text" as const,
          text: `unknown tool ${request.params.name}; the tools are ${[...byName.keys()].join(", ")}`
        }],
        isError: true
      })
    }
    return run(Effect.map(tool.call(actor, request.params.arguments), (result) => ({ ...result, content: [...result.content] })))
  })
  server.setRequestHandler(ListResourcesRequestSchema, () =>
    run(Effect.map(resources.list(actor), (list) => ({ resources: list }))))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () =>
    Promise.resolve({
      resourceTemplates: [{
        uriTemplate: McpTools.formUriTemplate,
        name: "form",
        title: "A form with its questions",
        description: "A form of the workspace by its numeric id, with its questions in order.",
        mimeType: "application/json"
      }]
    }))
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    run(resources.read(actor, request.params.uri).pipe(
      Effect.map((contents) => ({ contents: [contents] })),
      Effect.catchTag("ResourceNotFound", (error) =>
        Effect.fail(new McpError(resourceNotFoundCode, error.message, { uri: request.params.uri })))
    )))
  server.setRequestHandler(ListPromptsRequestSchema, () =>
    Promise.resolve({
      prompts: [{
        name: McpTools.triagePromptName,
        title: "Triage new responses",
        description: "Walks through a form's untriaged responses: read each, set stage, assignee and tags, " +
          "and leave a note saying why.",
        arguments: McpTools.triagePromptArguments
      }]
    }))
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    request.params.name !== McpTools.triagePromptName
      ? Promise.reject(
        new McpError(ErrorCode.InvalidParams, `unknown prompt ${request.params.name}; the prompt is ${McpTools.triagePromptName}`)
      )
      : run(triage(actor, request.params.arguments).pipe(
        Effect.catchTags({
          InvalidPromptArguments: (error) => Effect.fail(new McpError(ErrorCode.InvalidParams, error.message)),
          FormNotFound: (error) => Effect.fail(new McpError(ErrorCode.InvalidParams, error.message))
        })
      )))
  return server
}

/** Headers of the connection or of the body as it was sent, not of the request the SDK reads. */
const notForwarded = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"])

/** `Authorization: Bearer <key>` → the key; anything else → "" (then the host's bridge is asked). */
const bearerKey = (header: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1] ?? ""

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
 *   Layer.provide(RateLimit.RateLimiter.layerMemory())
 * )
 * ```
 */
export const layer = (options: McpOptions) => HttpRouter.use(Effect.fnUntraced(function*(router) {
  const authenticate = yield* makeAuthenticate
  const tools = yield* McpTools.makeTools
  const resources = yield* McpTools.makeResources
  const triage = yield* McpTools.makeTriagePrompt
  const oauth = options.oauth
  if (oauth !== undefined) {
    const metadata = Effect.map(
      HttpServerRequest.HttpServerRequest,
      (request) => HttpServerResponse.jsonUnsafe(protectedResourceMetadata(options.baseUrl(request), oauth))
    )
    yield* router.add("GET", metadataPath, metadata)
    yield* router.add("GET", `${metadataPath}${path}`, metadata)
  }
  /** A refusal; with OAuth, a 401 points the client at the metadata (MCP authorization spec). */
  const refusal = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
    const challenge = response.headers["www-authenticate"]
    return oauth === undefined || response.status !== 401 || challenge === undefined
      ? response
      : HttpServerResponse.setHeader(
        response,
        "www-authenticate",
        `${challenge}, resource_metadata="${options.baseUrl(request)}${metadataPath}"`
      )
  }
  yield* router.add(
    "POST",
    path,
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const outcome = yield* authenticate(bearerKey(request.headers.authorization))
      if (Result.isFailure(outcome)) return refusal(request, outcome.failure)
      const actor: Actors.Actor = { ...outcome.success.actor, channel: "mcp" }
      // Read here, under the router's body limit; the SDK gets the text again as a plain Web request.
      const body = yield* request.text
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (!notForwarded.has(name)) headers.set(name, value)
      }
      const webRequest = new Request(`http://qforms.internal${path}`, { method: "POST", headers, body })
      const run = runner(yield* Effect.context<never>())
      const server = makeServer(actor, run, tools, resources, triage)
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
      const reply = yield* Effect.acquireUseRelease(
        Effect.promise(() => server.connect(transport)),
        () =>
          Effect.promise(() =>
            transport.handleRequest(webRequest).then((response) => response.text().then((text) => ({ response, text })))
          ),
        () => Effect.promise(() => server.close())
      )
      const contentType = reply.response.headers.get("content-type")
      const answer = reply.text === "" || contentType === null
        ? HttpServerResponse.empty({ status: reply.response.status })
        : HttpServerResponse.text(reply.text, { status: reply.response.status, contentType })
      return HttpServerResponse.setHeaders(answer, outcome.success.headers)
    })
  )
}))
