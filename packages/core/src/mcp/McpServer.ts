/**
 * The protocol side of `/mcp`: an official `@modelcontextprotocol/sdk`
 * server answers each POST, with the tools (`McpTools.ts`), resources
 * (`McpResources.ts`) and prompt (`TriagePrompt.ts`), as the request's actor. Loaded on the first `/mcp` request
 * (`Mcp.ts`), so a process that serves no assistant never loads the SDK
 * (~30 MB and ~160 ms at start).
 *
 * Each POST gets a transport of its own (the SDK's stateless transport: two
 * clients' JSON-RPC ids never meet), but not a server of its own: building
 * one (its handlers, their schemas) cost about a third of an MCP request, so
 * idle servers wait in a pool, each answering one POST at a time.
 */
import { randomBytes } from "node:crypto"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
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
import * as Cause from "effect/Cause"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type { Actors } from "../kernel/index.ts"
import { Database, DiskSpace } from "../storage/index.ts"
import { apiVersion } from "../api/index.ts"
import type * as McpTools from "./McpTools.ts"
import * as McpResources from "./McpResources.ts"
import * as TriagePrompt from "./TriagePrompt.ts"

/** The JSON-RPC error code of an unknown resource (MCP specification). */
const resourceNotFoundCode = -32002

/**
 * A protocol error whose JSON-RPC message is the text alone. The SDK's
 * `McpError` writes "MCP error <code>: " into its message, which the server
 * sends, and the client's `McpError` prefixes it again.
 */
const mcpError = (code: number, message: string, data?: unknown): McpError => {
  const error = new McpError(code, message, data)
  error.message = message
  return error
}

const instructions =
  "qforms holds a workspace's forms (ordered questions) and the responses to them, handled " +
  "as cases: each response has a stage, an assignee, tags and internal notes. Find a form's id with " +
  "list_forms; read its responses with list_responses and get_response; triage them with update_response " +
  "and add_note. The ids are numbers; stages and members are listed by list_stages and list_members. " +
  "What you may change depends on the key's role: a viewer's key only reads."

/** Runs an effect for the SDK: a failure the handler did not turn into an answer is logged and answered as an internal error. */
const runner =
  <R>(context: Context.Context<R>) =>
  <A, E>(effect: Effect.Effect<A, E, R>): Promise<A> =>
    Effect.runPromiseWith(context)(
      effect.pipe(
        Effect.catchCause((cause) => {
          const failure = cause.reasons.find(Cause.isFailReason)?.error
          if (failure instanceof McpError) return Effect.fail(failure)
          if (Database.isUnreachable(failure)) {
            return Effect.fail(mcpError(ErrorCode.InternalError, "the database is not reachable; try again shortly"))
          }
          if (DiskSpace.isDiskFull(failure)) {
            return Effect.fail(
              mcpError(ErrorCode.InternalError, "the database's disk is full: nothing was stored; try again later")
            )
          }
          const requestId = `req_${randomBytes(9).toString("base64url")}`
          return Effect.logError("MCP request failed", cause).pipe(
            Effect.annotateLogs({ requestId }),
            Effect.andThen(Effect.fail(mcpError(ErrorCode.InternalError, `internal error (request id ${requestId})`)))
          )
        })
      )
    )

/**
 * One validator for every request's server: without it the SDK builds a new
 * Ajv per server (one per POST), ~8% of the CPU under load.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator()

export type Tools = Effect.Success<typeof McpTools.makeTools>
export type Resources = Effect.Success<typeof McpResources.makeResources>
export type Triage = Effect.Success<typeof TriagePrompt.makeTriagePrompt>

/** The POST a server is answering: as whom, and how its effects run. */
interface Serving {
  readonly actor: Actors.Actor
  readonly run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>
}

/** An SDK server that answers, one POST at a time, as the actor its `serving` slot names. */
const makeServer = (serving: { current: Serving | undefined }, tools: Tools, resources: Resources, triage: Triage) => {
  // Read at a handler's start: the slot changes only between POSTs, when no handler runs.
  const now = () => {
    const current = serving.current
    if (current === undefined) throw new Error("an MCP server answered outside a POST")
    return current
  }
  const server = new Server(
    { name: "qforms", title: "qforms", version: apiVersion },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions, jsonSchemaValidator }
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
    })
  )
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { actor, run } = now()
    const tool = byName.get(request.params.name)
    if (tool === undefined) {
      return Promise.resolve({
        content: [
          {
            type: "text" as const,
            text: `unknown tool ${request.params.name}; the tools are ${[...byName.keys()].join(", ")}`
          }
        ],
        isError: true
      })
    }
    return run(
      Effect.map(tool.call(actor, request.params.arguments), (result) => ({ ...result, content: [...result.content] }))
    )
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => {
    const { actor, run } = now()
    return run(Effect.map(resources.list(actor), (list) => ({ resources: list })))
  })
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () =>
    Promise.resolve({
      resourceTemplates: [
        {
          uriTemplate: McpResources.formUriTemplate,
          name: "form",
          title: "A form with its questions",
          description: "A form of the workspace by its numeric id, with its questions in order.",
          mimeType: "application/json"
        }
      ]
    })
  )
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { actor, run } = now()
    return run(
      resources.read(actor, request.params.uri).pipe(
        Effect.map((contents) => ({ contents: [contents] })),
        Effect.catchTag("ResourceNotFound", (error) =>
          Effect.fail(mcpError(resourceNotFoundCode, error.message, { uri: request.params.uri }))
        )
      )
    )
  })
  server.setRequestHandler(ListPromptsRequestSchema, () =>
    Promise.resolve({
      prompts: [
        {
          name: TriagePrompt.triagePromptName,
          title: "Triage new responses",
          description:
            "Walks through a form's untriaged responses: read each, set stage, assignee and tags, " +
            "and leave a note saying why.",
          arguments: TriagePrompt.triagePromptArguments
        }
      ]
    })
  )
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== TriagePrompt.triagePromptName) {
      return Promise.reject(
        mcpError(
          ErrorCode.InvalidParams,
          `unknown prompt ${request.params.name}; the prompt is ${TriagePrompt.triagePromptName}`
        )
      )
    }
    const { actor, run } = now()
    return run(
      triage(actor, request.params.arguments).pipe(
        Effect.catchTags({
          InvalidPromptArguments: (error) => Effect.fail(mcpError(ErrorCode.InvalidParams, error.message)),
          FormNotFound: (error) => Effect.fail(mcpError(ErrorCode.InvalidParams, error.message))
        })
      )
    )
  })
  return server
}

/** How many idle servers a process keeps (one per POST answered at the same moment, up to this). */
const idleServers = 64

/** Answers MCP POSTs (Web requests whose bodies were already read under the router's limits). */
export interface Answerer {
  /** `parsedBody`: the body as parsed JSON (the request then carries none), or undefined for the SDK to read it. */
  readonly answer: (
    webRequest: Request,
    parsedBody: unknown,
    actor: Actors.Actor,
    context: Context.Context<never>
  ) => Effect.Effect<{ readonly response: Response; readonly text: string }>
}

/**
 * The answerer of one qforms instance: each POST takes an idle server (or a
 * new one), connects it to a transport of its own, and gives it back once
 * the transport has answered and closed. A POST that ends any other way
 * (interrupted, failed) discards its server: a handler of it might still be
 * running and would answer on the next POST's transport.
 *
 * @example
 * ```ts
 * const answerer = McpServer.makeAnswerer(tools, resources, triage)
 * const { response, text } = yield* answerer.answer(webRequest, undefined, actor, yield* Effect.context<never>())
 * ```
 */
export const makeAnswerer = (tools: Tools, resources: Resources, triage: Triage): Answerer => {
  const idle: Array<{ readonly server: Server; readonly serving: { current: Serving | undefined } }> = []
  const take = () => {
    const pooled = idle.pop()
    if (pooled !== undefined) return pooled
    const serving: { current: Serving | undefined } = { current: undefined }
    return { server: makeServer(serving, tools, resources, triage), serving }
  }
  return {
    answer: (webRequest, parsedBody, actor, context) =>
      Effect.suspend(() => {
        const pooled = take()
        pooled.serving.current = { actor, run: runner(context) }
        const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
        return Effect.promise(() =>
          pooled.server
            .connect(transport)
            .then(() => transport.handleRequest(webRequest, parsedBody === undefined ? undefined : { parsedBody }))
            .then((response) => response.text().then((text) => ({ response, text })))
            .then((reply) => pooled.server.close().then(() => reply))
        ).pipe(
          Effect.onExit((exit) =>
            Effect.sync(() => {
              pooled.serving.current = undefined
              if (Exit.isSuccess(exit)) {
                if (idle.length < idleServers) idle.push(pooled)
              } else {
                pooled.server.close().catch(() => undefined)
              }
            })
          )
        )
      })
  }
}
