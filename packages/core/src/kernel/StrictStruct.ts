/**
 * Object schemas that refuse keys they do not declare: a question's options,
 * a form's settings. A typo such as `{"allowOhter": true}` is an error that
 * names the key and the allowed ones, not an option silently dropped.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * Builds an object schema that rejects unknown keys whatever the parse
 * options (the default `onExcessProperty: "ignore"` would strip them), with
 * the message `unknown <noun> "<key>" (allowed: …)`.
 *
 * The encoded side is the struct plus an open index signature, checked so that
 * only the declared keys may appear; the JSON Schema carries that rule as
 * `propertyNames: { enum: [...] }`. Decoding yields exactly the declared struct.
 *
 * @example
 * ```ts
 * const Settings = strictStruct({ skipPrefilled: Schema.optionalKey(Schema.Boolean) }, "setting")
 * Schema.decodeUnknownSync(Settings)({ skipPrefiled: true })
 * // throws: unknown setting "skipPrefiled" (allowed: skipPrefilled)
 * ```
 */
export const strictStruct = <const Fields extends Schema.Struct.Fields>(fields: Fields, noun = "option") => {
  const allowed = Object.keys(fields)
  const allowedSet = new Set(allowed)
  const open = Schema.StructWithRest(Schema.Struct(fields), [Schema.Record(Schema.String, Schema.Unknown)]).check(
    Schema.makeFilter(
      (input: object) =>
        Object.keys(input)
          .filter((key) => !allowedSet.has(key))
          .map((key) => ({ path: [key], issue: `unknown ${noun} "${key}" (allowed: ${allowed.join(", ")})` })),
      {
        expected: `an object with only the keys ${allowed.join(", ")}`,
        toJsonSchema: () => ({ propertyNames: { enum: allowed } })
      }
    )
  )
  return open.pipe(
    Schema.decodeTo(Schema.toType(Schema.Struct(fields)), SchemaTransformation.passthrough({ strict: false }))
  )
}
