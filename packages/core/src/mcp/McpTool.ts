/**
 * What an MCP tool is and how one is defined: its input and output Schemas
 * (the JSON Schemas `tools/list` shows, the decoding of `tools/call`'s
 * arguments), the read-only or writing role it needs, and the domain call it
 * runs; its domain errors are tool errors the assistant reads. The tools
 * themselves are in `tools/`, one module per context.
 */
import * as Effect from "effect/Effect"
import type * as JsonSchema from "effect/JsonSchema"
import * as Schema from "effect/Schema"
import { Actors, Id, jsonSchemaOf } from "../kernel/index.ts"
import type * as SqlError from "effect/sql/SqlError"
import { describeIssue, type ErrorTable } from "../web/index.ts"

/** What a tool call answers: JSON text for any client, the same value as `structuredContent`, or a tool error. */
export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
  readonly structuredContent?: Record<string, unknown> | undefined
  readonly isError: boolean
}

/** A tool as listed (`tools/list`) and called (`tools/call`). */
export interface McpTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JsonSchema.JsonSchema
  readonly outputSchema: JsonSchema.JsonSchema
  readonly annotations: {
    readonly readOnlyHint: boolean
    readonly destructiveHint: boolean
    readonly idempotentHint: boolean
    readonly openWorldHint: boolean
  }
  /** Decodes the arguments and runs the tool as `actor`; bad arguments and refusals are tool errors. */
  readonly call: (actor: Actors.Actor, args: unknown) => Effect.Effect<ToolResult, SqlError.SqlError>
}

/** Every error a domain service may fail with: its message is what the assistant reads. */
/** The errors a tool answers as a tool error result: those with a row in the error table (checked by the compiler). */
type DomainError = { readonly _tag: ErrorTable.AnsweredTag; readonly message: string }

const toolError = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true })

/**
 * The results made of values answered before: a form kept by the form cache stays one object until it
 * changes, so `get_form` writes its JSON text once (the SDK copies a result as it checks it, never changes it).
 */
const successes = new WeakMap<Record<string, unknown>, ToolResult>()

/** A result as JSON text plus `structuredContent` (the same object). */
export const toolSuccess = (value: Record<string, unknown>): ToolResult => {
  const kept = successes.get(value)
  if (kept !== undefined) return kept
  const result: ToolResult = {
    content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
    isError: false
  }
  successes.set(value, result)
  return result
}

/** The arguments of a tool that takes none: an empty object (`Schema.Struct({})` would take any value). */
export const NoArguments = Schema.Record(Schema.String, Schema.Never.annotate({ message: "unknown field" }))

/** How tool arguments are decoded: an unknown field is an error, and every problem is named. */
export const parseOptions = { onExcessProperty: "error", errors: "all" } as const

/**
 * A tool from its Schemas and its domain call: bad arguments and a reader's
 * write are refused as tool errors before `run`; a domain error is a tool
 * error with its message; a database failure fails the call.
 *
 * @example
 * ```ts
 * define("get_form", {
 *   title: "Get a form with its questions",
 *   description: "Returns one form with its questions in order. …",
 *   input: Schema.Struct({ formId: FormId }),
 *   output: FormWithFields,
 *   write: false,
 *   run: (actor, { formId }) => forms.get(actor, formId)
 * })
 * ```
 */
export const define = <I extends Schema.Top & { readonly DecodingServices: never }, O extends Schema.Top>(
  name: string,
  options: {
    readonly title: string
    readonly description: string
    readonly input: I
    readonly output: O
    readonly write: boolean
    /**
     * A viewer may call this writing tool too: the service decides what they may do (their own saved views);
     * otherwise a viewer is refused before it runs.
     */
    readonly viewers?: boolean | undefined
    /** The tool deletes what cannot be brought back (MCP's `destructiveHint`). */
    readonly destructive?: boolean | undefined
    readonly run: (actor: Actors.Actor, input: I["Type"]) => Effect.Effect<O["Type"], DomainError | SqlError.SqlError>
  }
): McpTool => {
  const decode = Schema.decodeUnknownEffect(options.input, parseOptions)
  return {
    name,
    title: options.title,
    description: options.description,
    inputSchema: jsonSchemaOf(options.input, "error"),
    outputSchema: jsonSchemaOf(options.output, "ignore"),
    annotations: {
      readOnlyHint: !options.write,
      destructiveHint: options.destructive === true,
      idempotentHint: !options.write,
      openWorldHint: false
    },
    call: (actor, args) =>
      Effect.gen(function* () {
        const decoded = yield* Effect.result(decode(args ?? {}))
        if (decoded._tag === "Failure") {
          const { error } = describeIssue(decoded.failure.issue, "arguments", true)
          return toolError(`invalid arguments: ${error}`)
        }
        if (options.write && options.viewers !== true) {
          const allowed = yield* Effect.result(Actors.requireWrite(actor))
          if (allowed._tag === "Failure") return toolError(allowed.failure.message)
        }
        const result = yield* Effect.result(options.run(actor, decoded.success))
        if (result._tag === "Success") return toolSuccess(result.success as Record<string, unknown>)
        const error = result.failure
        if (error._tag === "SqlError") return yield* Effect.fail(error as SqlError.SqlError)
        return toolError(error.message)
      })
  }
}

/** A tool's `formId` argument. */
export const FormId = Id.annotate({
  description: "The form's numeric id (`id` in list_forms), not its `publicId`."
})
/** A tool's `responseId` argument. */
export const ResponseId = Id.annotate({ description: "The response's numeric id (`id` in list_responses)." })
