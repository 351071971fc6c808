/**
 * The checks of `Qforms.make`'s options and of the standalone's settings:
 * the log level by any name tools use, and every number with its range, as
 * Schemas, so that a host and the standalone refuse the same values with the
 * same messages (a rate of 0 once locked a key out forever).
 *
 * @module
 */
import type * as LogLevel from "effect/LogLevel"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

// ---------------------------------------------------------------------------
// Log level
// ---------------------------------------------------------------------------

/** Every name of a level, lower-case, as tools spell them (`warning`, `off`, …). */
const levelNames: Readonly<Record<string, LogLevel.LogLevel>> = {
  all: "All",
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  warning: "Warn",
  error: "Error",
  fatal: "Fatal",
  none: "None",
  off: "None"
}

/** The accepted names, for messages and help texts. */
export const logLevelNames: ReadonlyArray<string> = Object.keys(levelNames)

/**
 * The log level a name means, in any case (`info`, `INFO`, `Info`, `warning`,
 * `off`, …), or undefined for no level.
 *
 * @example
 * ```ts
 * Options.parseLogLevel("debug") // "Debug"
 * Options.parseLogLevel("OFF") // "None"
 * ```
 */
export const parseLogLevel = (name: string): LogLevel.LogLevel | undefined => {
  const key = name.trim().toLowerCase()
  return Object.hasOwn(levelNames, key) ? levelNames[key] : undefined
}

/**
 * The name of a log level in any case (see {@link parseLogLevel}); a bad
 * name fails with a message listing the names. {@link parseLogLevel} gives
 * the level.
 *
 * @example
 * ```ts
 * Schema.is(Options.LogLevelName)("warning") // true
 * ```
 */
export const LogLevelName = Schema.String.check(
  Schema.makeFilter(
    (name: string) =>
      parseLogLevel(name) !== undefined || `Expected a log level: ${logLevelNames.join(", ")} (any case)`
  )
)

// ---------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------

/** A finite number greater than 0 (a rate, a timeout). */
export const PositiveNumber = Schema.Finite.check(
  Schema.isGreaterThan(0, { message: "Expected a number greater than 0" })
)

/** A finite number, 0 or more. */
export const NonNegativeNumber = Schema.Finite.check(
  Schema.isGreaterThanOrEqualTo(0, { message: "Expected a number of 0 or more" })
)

/** A whole number, 1 or more (a burst, a pool size). */
export const PositiveInt = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(1, { message: "Expected a whole number of 1 or more" })
)

/** A whole number, 0 or more (hops, milliseconds that may be none). */
export const NonNegativeInt = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(0, { message: "Expected a whole number of 0 or more" })
)

/**
 * A rate limit: `requestsPerSecond` greater than 0 (a rate of 0 would lock a
 * key out forever) and a `burst` of at least one request.
 */
export const RateLimitConfig = Schema.Struct({ requestsPerSecond: PositiveNumber, burst: PositiveInt })

/**
 * The default storage quotas of uploaded files (`Qforms.make({ uploads })`,
 * `QFORMS_UPLOAD_QUOTA_FORM_BYTES` / `QFORMS_UPLOAD_QUOTA_WORKSPACE_BYTES`):
 * 1 GiB per form, 10 GiB per workspace.
 */
export const defaultUploadQuotas: { readonly maxBytesPerForm: number; readonly maxBytesPerWorkspace: number } = {
  maxBytesPerForm: 1024 * 1024 * 1024,
  maxBytesPerWorkspace: 10 * 1024 * 1024 * 1024
}

const optional = <S extends Schema.Top>(schema: S) => Schema.optional(schema)

// ---------------------------------------------------------------------------
// Where qforms is reached
// ---------------------------------------------------------------------------

const isAppUrl = (text: string): boolean => {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    url.search === "" &&
    url.hash === "" &&
    url.username === "" &&
    url.password === ""
  )
}

/**
 * Where qforms is reached, with its mount prefix: an absolute `http(s)` URL
 * with no query, fragment or credentials (`https://example.com/forms-service`).
 */
export const AppUrl = Schema.String.check(
  Schema.makeFilter(
    (text: string) =>
      isAppUrl(text) ||
      "Expected an absolute http(s) URL with the mount prefix and nothing after it, e.g. https://example.com/forms-service"
  )
)

/** A Redis server's address: `redis://` or `rediss://` (TLS), e.g. `redis://127.0.0.1:6379/0`. */
export const RedisUrl = Schema.String.check(
  Schema.makeFilter(
    (text: string) =>
      (URL.canParse(text) && ["redis:", "rediss:"].includes(new URL(text).protocol)) ||
      "Expected a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379"
  )
)

/**
 * The numeric options of `Qforms.make` (and the log level), checked before
 * anything is opened. Other options pass through unchecked here.
 */
export const CheckedOptions = Schema.Struct({
  appUrl: optional(AppUrl),
  logLevel: optional(LogLevelName),
  rateLimit: optional(RateLimitConfig),
  rateLimitStore: optional(
    Schema.Union([
      Schema.Literals(["memory", "database"]),
      Schema.Struct({ redis: RedisUrl, prefix: optional(Schema.String) })
    ])
  ),
  uploadRateLimit: optional(RateLimitConfig),
  uploads: optional(
    Schema.Struct({ maxBytesPerForm: optional(PositiveInt), maxBytesPerWorkspace: optional(PositiveInt) })
  ),
  maxBodyBytes: optional(PositiveInt),
  database: optional(Schema.Struct({ maxConnections: optional(PositiveInt) })),
  delivery: optional(
    Schema.Struct({
      schedule: optional(
        Schema.Array(NonNegativeNumber).check(Schema.isMinLength(1, { message: "Expected at least one attempt" }))
      ),
      timeoutMs: optional(PositiveInt),
      maxInFlight: optional(PositiveInt),
      maxPerHost: optional(PositiveInt),
      pollIntervalMs: optional(PositiveInt),
      alertAfterFailures: optional(PositiveInt),
      disableAfterFailures: optional(PositiveInt)
    })
  ),
  publicPage: optional(
    Schema.Struct({
      submissionRateLimit: optional(RateLimitConfig),
      stepRateLimit: optional(RateLimitConfig),
      minSubmitSeconds: optional(NonNegativeNumber),
      trustedProxyHops: optional(NonNegativeInt),
      partialResponsesPerAddressPerHour: optional(NonNegativeInt),
      accessCodeFailures: optional(
        Schema.Struct({ perAddress: optional(RateLimitConfig), perForm: optional(RateLimitConfig) })
      ),
      maxBodyBytes: optional(PositiveInt)
    })
  ),
  partialResponses: optional(
    Schema.Struct({
      maxAgeDays: optional(PositiveNumber),
      newPerAddressPerHour: optional(NonNegativeInt)
    })
  ),
  mail: optional(Schema.Struct({ timeoutMs: optional(PositiveInt) }))
})

/**
 * The problem with the options, naming the option (`rateLimit.requestsPerSecond:
 * Expected a number greater than 0`), or undefined when they are fine.
 *
 * @example
 * ```ts
 * Options.problem({ rateLimit: { requestsPerSecond: 0, burst: 10 } })
 * // "rateLimit.requestsPerSecond: Expected a number greater than 0"
 * ```
 */
export const problem = (options: unknown): string | undefined => {
  const result = Schema.decodeUnknownResult(CheckedOptions)(options, { errors: "all" })
  if (result._tag === "Success") return undefined
  return formatter(result.failure.issue)
    .issues.map((issue) => {
      const path = (issue.path ?? []).map(String).join(".")
      return path === "" ? issue.message : `${path}: ${issue.message}`
    })
    .join("; ")
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()
