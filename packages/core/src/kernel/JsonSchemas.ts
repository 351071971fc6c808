/**
 * A Schema as one self-contained JSON Schema: what MCP tools publish as their
 * input and output, and what the event catalogue gives for each event's body.
 *
 * @module
 */
import type * as JsonSchema from "effect/JsonSchema"
import * as Schema from "effect/Schema"

/**
 * A Schema's JSON Schema with an object schema at the root (not a `$ref` to
 * one) and the shared definitions in `$defs`.
 *
 * @example
 * ```ts
 * jsonSchemaOf(Schema.Struct({ id: Schema.Int }), "ignore") // { type: "object", properties: { id: … }, … }
 * ```
 */
export const jsonSchemaOf = (schema: Schema.Top, onExcessProperty: "error" | "ignore"): JsonSchema.JsonSchema => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty })
  const ref = document.schema.$ref
  const name = typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined
  const root = name === undefined ? document.schema : (document.definitions[name] ?? document.schema)
  return Object.keys(document.definitions).length === 0 ? root : { ...root, $defs: document.definitions }
}
