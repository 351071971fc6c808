/**
 * The served API's own description as the source of the probes: every
 * operation of the OpenAPI document (and every MCP tool's input schema), a
 * plausible valid value of a JSON Schema, and fast-check arbitraries of valid
 * and of broken values. New endpoints and tools are probed without editing
 * the suite.
 */
import fc from "fast-check"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

/** One operation of the OpenAPI document. */
export interface Operation {
  readonly method: string
  /** e.g. `/api/forms/{id}` */
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly query: ReadonlyArray<{ readonly name: string; readonly schema: Json }>
  /** The JSON body's schema (refs resolved lazily through `resolve`), if it takes one. */
  readonly body: Json | undefined
  readonly bodyContentType: string | undefined
  /** Statuses ≥ 500 the operation documents as answers to bad input (e.g. 502 from form generation); never 500 or 503. */
  readonly documented5xx: ReadonlyArray<number>
}

/** The operations of an OpenAPI 3.1 document. */
export const operations = (doc: Json): Array<Operation> => {
  const out: Array<Operation> = []
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method]
      if (op === undefined) continue
      const parameters: Array<Json> = op.parameters ?? []
      const content = op.requestBody?.content ?? {}
      const contentType = Object.keys(content)[0]
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: parameters.filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: p.schema })),
        body: contentType === undefined ? undefined : content[contentType].schema,
        bodyContentType: contentType,
        documented5xx: Object.keys(op.responses ?? {})
          .map(Number)
          .filter((status) => status > 500 && status !== 503)
      })
    }
  }
  return out
}

/** Follows `$ref`s into the document's components. */
export const resolver = (doc: Json) => {
  const resolve = (schema: Json): Json => {
    let current = schema
    for (let i = 0; i < 20 && current !== undefined && typeof current.$ref === "string"; i++) {
      const path = (current.$ref as string).replace(/^#\//, "").split("/")
      current = path.reduce((node: Json, part) => node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], doc)
    }
    return current ?? {}
  }
  return resolve
}

/** Values to use for properties by name (ids of existing records, a receiver URL...). */
export type Hints = Readonly<Record<string, unknown>>

/**
 * A plausible valid value: required properties plus those with a hint; the
 * first enum/const; short strings; minimums. Good enough for most endpoints
 * to reach their handler.
 */
export const validValue = (schema: Json, resolve: (s: Json) => Json, hints: Hints = {}, name = "", depth = 0): Json => {
  const s = resolve(schema)
  if (name in hints) return hints[name]
  if (depth > 6) return null
  if (s.const !== undefined) return s.const
  if (Array.isArray(s.enum)) return s.enum[0]
  const variants: Array<Json> | undefined = s.anyOf ?? s.oneOf
  if (variants) {
    const nonNull = variants.find((v) => resolve(v).type !== "null") ?? variants[0]
    return validValue(nonNull, resolve, hints, name, depth + 1)
  }
  if (s.allOf) return validValue(s.allOf[0], resolve, hints, name, depth + 1)
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {}
      const required: Array<string> = s.required ?? []
      for (const [key, sub] of Object.entries<Json>(s.properties ?? {})) {
        if (required.includes(key) || key in hints) out[key] = validValue(sub, resolve, hints, key, depth + 1)
      }
      return out
    }
    case "array": {
      const min = s.minItems ?? 0
      return Array.from({ length: Math.max(min, 1) }, () => validValue(s.items ?? {}, resolve, hints, name, depth + 1))
    }
    case "integer":
    case "number":
      return Math.max(s.minimum ?? 1, s.exclusiveMinimum === undefined ? 1 : s.exclusiveMinimum + 1)
    case "boolean":
      return false
    case "null":
      return null
    case "string":
      if (s.format === "uri") return "https://hooks.example.com/x"
      if (s.format === "date-time") return "2026-01-01T00:00:00Z"
      if (s.format === "email") return "someone@example.com"
      return "x".repeat(Math.max(1, s.minLength ?? 1))
    default:
      return "x"
  }
}

/** fast-check arbitrary of values of a JSON Schema (valid-looking, bounded). */
export const arbitrary = (schema: Json, resolve: (s: Json) => Json, depth = 0): fc.Arbitrary<Json> => {
  const s = resolve(schema)
  if (depth > 5) return fc.constant(null)
  if (s.const !== undefined) return fc.constant(s.const)
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum)
  const variants: Array<Json> | undefined = s.anyOf ?? s.oneOf
  if (variants && variants.length > 0) return fc.oneof(...variants.map((v) => arbitrary(v, resolve, depth + 1)))
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case "object": {
      const props = Object.entries<Json>(s.properties ?? {})
      if (props.length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
      return fc.record(Object.fromEntries(props.map(([key, sub]) => [key, arbitrary(sub, resolve, depth + 1)])), {
        requiredKeys: (s.required ?? []).filter((key: string) => props.some(([k]) => k === key))
      })
    }
    case "array":
      return fc.array(arbitrary(s.items ?? {}, resolve, depth + 1), { maxLength: 4 })
    case "integer":
      return fc.integer({ min: s.minimum ?? -10, max: s.maximum ?? 1_000 })
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true })
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "string":
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 60) })
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** Deeply nested JSON text (arrays or objects), beyond any sane depth. */
export const deepJson = (depth: number, kind: "array" | "object") =>
  kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`

/** Values of the wrong kind for anything: wrong types, huge, negative, odd numbers, odd strings. */
export const nastyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    -2147483649,
    2147483648,
    // biome-ignore lint/correctness/noPrecisionLoss: a number past 2^53 is the point of this probe
    9007199254740993,
    1e308,
    -1e308,
    0.5,
    "",
    " ",
    "\u0000",
    "\uD800",
    "../../etc/passwd",
    "..%2f..%2fetc%2fpasswd",
    "<script>alert(1)</script>",
    "' or 1=1 --",
    "${jndi:ldap://x}",
    "NaN",
    "Infinity",
    "-0",
    "1e999",
    "0x10",
    "１２",
    "\u202e",
    "😀".repeat(50),
    [],
    {},
    [[[]]],
    { __proto__: { polluted: true } },
    { constructor: { prototype: { polluted: true } } }
  ),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => "x".repeat(n))
)

/** A value with one randomly chosen place replaced by a nasty value (or the whole value). */
export const mutate = (value: Json, path: ReadonlyArray<number>, replacement: Json): Json => {
  if (path.length === 0 || value === null || typeof value !== "object") return replacement
  const keys = Object.keys(value)
  if (keys.length === 0) return replacement
  const key = keys[path[0]! % keys.length]!
  const copy: Json = Array.isArray(value) ? [...value] : { ...value }
  copy[key] = mutate(value[key], path.slice(1), replacement)
  return copy
}

/** Bad spellings of an id in a path. */
export const nastyPathIds: ReadonlyArray<string> = [
  "0",
  "-1",
  "1.5",
  "1e3",
  "99999999999999999999",
  "2147483648",
  "NaN",
  "%00",
  "..",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "....//....//etc/passwd",
  "%252e%252e%252f",
  "file_../../x",
  "sub_%2F..",
  "%E0%A4%A",
  "%FF%FE",
  "x".repeat(5_000),
  "' or 1=1 --",
  "%0d%0aX-Injected:%201"
]
