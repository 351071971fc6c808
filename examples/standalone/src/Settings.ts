/**
 * The standalone's configuration, from the environment (shared by the server
 * and the CLI). A bad value stops the process with a message naming it.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import {
  FormGenerator,
  Mailer,
  OpenAiFormGenerator,
  Options,
  PgliteClient,
  PublicPage,
  type Qforms,
  Responses,
  RetrySchedule
} from "@qforms/core"

/** Seconds to wait for the model, e.g. `30` or `2.5`. */
const Seconds = Schema.Finite.check(Schema.isGreaterThan(0, { message: "Expected a number of seconds greater than 0" }))

/** A count of at least one, e.g. a limit of open streams. */
const AtLeastOne = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: "Expected an integer of at least 1" }))

/** A TCP port; 0 asks the system for a free one (the printed URL has the real port). */
const Port = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65535 }))

/** A duration in milliseconds, at least 1. */
const Milliseconds = Schema.Int.check(
  Schema.isGreaterThan(0, { message: "Expected a whole number of milliseconds greater than 0" })
)

/** A count where 0 means no limit. */
const Count = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(0, { message: "Expected a whole number, 0 or more (0: no limit)" })
)

/**
 * `QFORMS_RATE_LIMIT_STORE`: where the rate limits keep their buckets:
 * `memory` (each process on its own), `database` (shared by every process on
 * the same PostgreSQL) or a `redis://` / `rediss://` URL (shared through Redis).
 */
const RateLimitStoreText = Schema.String.check(
  Schema.makeFilter(
    (text: string) =>
      text === "memory" ||
      text === "database" ||
      Schema.is(Options.RedisUrl)(text) ||
      "Expected memory, database, or a redis:// URL such as redis://127.0.0.1:6379"
  )
)

/** A retry schedule such as `0s,5s,5m,30m,2h`. */
const ScheduleText = Schema.String.check(
  Schema.makeFilter((text: string) => {
    const parsed = RetrySchedule.parse(text)
    return Result.isSuccess(parsed) || parsed.failure
  })
)

/** `QFORMS_FRAME_ANCESTORS`: CSP frame-ancestors sources separated by spaces, each checked. */
const FrameAncestors = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Array(PublicPage.FrameAncestor),
    SchemaTransformation.transform<ReadonlyArray<string>, string>({
      decode: (text: string) => text.split(/\s+/).filter((s) => s !== ""),
      encode: (list: ReadonlyArray<string>) => list.join(" ")
    })
  )
)

/** An S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BucketName = Schema.String.check(
  Schema.isPattern(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
    message: "Expected an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens"
  })
)

/** A key prefix in the bucket, e.g. `qforms/files`: letters, digits, `_` and `-` in `/`-separated parts. */
const KeyPrefix = Schema.String.check(
  Schema.isPattern(/^\/*[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\/*$/, {
    message: 'Expected a key prefix such as qforms/files: letters, digits, "_" and "-" in "/"-separated parts'
  })
)

/** The object storage service's address: an http(s) URL. */
const Endpoint = Schema.String.check(
  Schema.makeFilter((text: string) => {
    const url = URL.parse(text)
    return (
      (url !== null && (url.protocol === "https:" || url.protocol === "http:")) ||
      "Expected an http:// or https:// URL, e.g. https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:9000"
    )
  })
)

/** The settings, read and checked. */
export const Settings = Config.all({
  port: Config.schema(Port, "PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  appUrl: Config.option(Config.URL("APP_URL")),
  dataDir: Config.String("QFORMS_DATA_DIR").pipe(Config.withDefault("./.qforms-data")),
  pgliteSharedBuffers: Config.schema(PgliteClient.MemorySize, "QFORMS_PGLITE_SHARED_BUFFERS").pipe(
    Config.withDefault(PgliteClient.defaultSharedBuffers)
  ),
  filesDir: Config.option(Config.String("QFORMS_FILES_DIR")),
  s3Bucket: Config.option(Config.schema(BucketName, "QFORMS_S3_BUCKET")),
  s3Prefix: Config.option(Config.schema(KeyPrefix, "QFORMS_S3_PREFIX")),
  s3Endpoint: Config.option(Config.schema(Endpoint, "QFORMS_S3_ENDPOINT")),
  s3Region: Config.option(Config.String("QFORMS_S3_REGION")),
  s3ForcePathStyle: Config.Boolean("QFORMS_S3_FORCE_PATH_STYLE").pipe(Config.withDefault(false)),
  // Read by the AWS SDK itself; here only to refuse one without the other.
  awsAccessKeyId: Config.option(Config.String("AWS_ACCESS_KEY_ID")),
  awsSecretAccessKey: Config.option(Config.Redacted("AWS_SECRET_ACCESS_KEY")),
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
  schema: Config.String("QFORMS_DB_SCHEMA").pipe(Config.withDefault("qforms")),
  logLevel: Config.schema(Options.LogLevelName, "LOG_LEVEL").pipe(
    Config.map((name) => Options.parseLogLevel(name) ?? "Info"),
    Config.withDefault("Info" as const)
  ),
  logFormat: Config.Literals(["pretty", "json"], "LOG_FORMAT").pipe(Config.withDefault("pretty" as const)),
  logRequests: Config.Boolean("LOG_REQUESTS").pipe(Config.withDefault(false)),
  ownerEmail: Config.String("QFORMS_OWNER_EMAIL").pipe(Config.withDefault("owner@localhost")),
  rateLimitPerSecond: Config.schema(Options.PositiveNumber, "QFORMS_RATE_LIMIT_PER_SECOND").pipe(
    Config.withDefault(20)
  ),
  rateLimitBurst: Config.schema(Options.PositiveInt, "QFORMS_RATE_LIMIT_BURST").pipe(Config.withDefault(100)),
  rateLimitStore: Config.schema(RateLimitStoreText, "QFORMS_RATE_LIMIT_STORE").pipe(Config.withDefault("memory")),
  rateLimitRedisPrefix: Config.String("QFORMS_RATE_LIMIT_REDIS_PREFIX").pipe(Config.withDefault("qforms:rate-limit:")),
  shutdownTimeoutMs: Config.schema(Options.NonNegativeInt, "QFORMS_SHUTDOWN_TIMEOUT_MS").pipe(
    Config.withDefault(10_000)
  ),
  headersTimeoutMs: Config.schema(Milliseconds, "QFORMS_HEADERS_TIMEOUT_MS").pipe(Config.withDefault(15_000)),
  requestTimeoutMs: Config.schema(Milliseconds, "QFORMS_REQUEST_TIMEOUT_MS").pipe(Config.withDefault(120_000)),
  keepAliveTimeoutMs: Config.schema(Milliseconds, "QFORMS_KEEP_ALIVE_TIMEOUT_MS").pipe(Config.withDefault(5_000)),
  maxConnectionsPerAddress: Config.schema(Count, "QFORMS_MAX_CONNECTIONS_PER_ADDRESS").pipe(Config.withDefault(100)),
  retrySchedule: Config.option(
    Config.schema(ScheduleText, "QFORMS_WEBHOOK_RETRY_SCHEDULE").pipe(
      Config.map((text) => Result.getOrElse(RetrySchedule.parse(text), () => RetrySchedule.defaultSchedule))
    )
  ),
  webhookTimeoutMs: Config.schema(Options.PositiveInt, "QFORMS_WEBHOOK_TIMEOUT_MS").pipe(Config.withDefault(10_000)),
  allowPrivateWebhookTargets: Config.Boolean("QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS").pipe(Config.withDefault(false)),
  deliveryWorker: Config.Boolean("QFORMS_DELIVERY_WORKER").pipe(Config.withDefault(true)),
  webhookAlertAfterFailures: Config.schema(Options.PositiveInt, "QFORMS_WEBHOOK_ALERT_AFTER_FAILURES").pipe(
    Config.withDefault(3)
  ),
  webhookDisableAfterFailures: Config.schema(Options.PositiveInt, "QFORMS_WEBHOOK_DISABLE_AFTER_FAILURES").pipe(
    Config.withDefault(10)
  ),
  formGenerator: Config.option(Config.Literals(["offline", "openai", "none"], "QFORMS_FORM_GENERATOR")),
  llmBaseUrl: Config.option(Config.URL("QFORMS_LLM_BASE_URL")),
  llmApiKey: Config.option(Config.Redacted("QFORMS_LLM_API_KEY")),
  llmModel: Config.option(Config.String("QFORMS_LLM_MODEL")),
  llmTimeoutSeconds: Config.schema(Seconds, "QFORMS_LLM_TIMEOUT").pipe(Config.withDefault(30)),
  frameAncestors: Config.schema(FrameAncestors, "QFORMS_FRAME_ANCESTORS").pipe(Config.withDefault(["*"])),
  trustedProxyHops: Config.schema(Options.NonNegativeInt, "QFORMS_TRUSTED_PROXY_HOPS").pipe(Config.withDefault(0)),
  formMinSeconds: Config.schema(Options.NonNegativeNumber, "QFORMS_FORM_MIN_SECONDS").pipe(
    Config.withDefault(PublicPage.defaultMinSubmitSeconds)
  ),
  formSubmissionsPerMinute: Config.schema(Options.PositiveNumber, "QFORMS_FORM_SUBMISSIONS_PER_MINUTE").pipe(
    Config.withDefault(10)
  ),
  uploadsPerMinute: Config.schema(Options.PositiveNumber, "QFORMS_UPLOADS_PER_MINUTE").pipe(Config.withDefault(30)),
  uploadQuotaFormBytes: Config.schema(Options.PositiveInt, "QFORMS_UPLOAD_QUOTA_FORM_BYTES").pipe(
    Config.withDefault(Options.defaultUploadQuotas.maxBytesPerForm)
  ),
  uploadQuotaWorkspaceBytes: Config.schema(Options.PositiveInt, "QFORMS_UPLOAD_QUOTA_WORKSPACE_BYTES").pipe(
    Config.withDefault(Options.defaultUploadQuotas.maxBytesPerWorkspace)
  ),
  partialMaxAgeDays: Config.schema(Options.PositiveNumber, "QFORMS_PARTIAL_RESPONSE_MAX_AGE_DAYS").pipe(
    Config.withDefault(Responses.defaultPartialMaxAgeDays)
  ),
  partialResponsesPerAddressPerHour: Config.schema(
    Options.NonNegativeInt,
    "QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR"
  ).pipe(Config.withDefault(PublicPage.defaultPartialResponsesPerAddressPerHour)),
  smtpUrl: Config.option(Config.Redacted("QFORMS_SMTP_URL")),
  mailFrom: Config.option(Config.String("QFORMS_MAIL_FROM")),
  inboundAddress: Config.option(Config.String("QFORMS_INBOUND_ADDRESS")),
  inboundSecret: Config.option(Config.Redacted("QFORMS_INBOUND_SECRET")),
  inboundMaxBytes: Config.schema(
    Schema.Int.check(Schema.isGreaterThan(0, { message: "Expected a number of bytes greater than 0" })),
    "QFORMS_INBOUND_MAX_BYTES"
  ).pipe(Config.withDefault(Mailer.defaultInboundMaxBytes)),
  imapUrl: Config.option(Config.Redacted("QFORMS_IMAP_URL")),
  eventStreamsPerKey: Config.schema(AtLeastOne, "QFORMS_EVENT_STREAMS_PER_KEY").pipe(Config.withDefault(20)),
  eventStreamsMax: Config.schema(AtLeastOne, "QFORMS_EVENT_STREAMS_MAX").pipe(Config.withDefault(1000)),
  eventStreamRecheckSeconds: Config.schema(Seconds, "QFORMS_EVENT_STREAM_RECHECK_SECONDS").pipe(Config.withDefault(60))
})
export type Settings = Config.Success<typeof Settings>

/** Settings that are each valid but do not fit together. */
const checkCombination = (settings: Settings): Effect.Effect<Settings, string> => {
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    return Effect.fail(
      `Invalid configuration: QFORMS_HEADERS_TIMEOUT_MS (${settings.headersTimeoutMs}) must not be more than QFORMS_REQUEST_TIMEOUT_MS (${settings.requestTimeoutMs})`
    )
  }
  if (Option.isNone(settings.s3Bucket)) {
    const needsBucket = [
      Option.isSome(settings.s3Prefix) ? "QFORMS_S3_PREFIX" : undefined,
      Option.isSome(settings.s3Endpoint) ? "QFORMS_S3_ENDPOINT" : undefined,
      Option.isSome(settings.s3Region) ? "QFORMS_S3_REGION" : undefined,
      settings.s3ForcePathStyle ? "QFORMS_S3_FORCE_PATH_STYLE" : undefined
    ].filter((name) => name !== undefined)
    if (needsBucket.length > 0) {
      return Effect.fail(
        `Invalid configuration: ${needsBucket.join(" and ")} need QFORMS_S3_BUCKET (the bucket for uploaded files)`
      )
    }
  } else {
    if (Option.isSome(settings.filesDir)) {
      return Effect.fail(
        "Invalid configuration: QFORMS_FILES_DIR and QFORMS_S3_BUCKET both say where uploaded files go: set one of them"
      )
    }
    if (Option.isSome(settings.awsAccessKeyId) !== Option.isSome(settings.awsSecretAccessKey)) {
      return Effect.fail(
        `Invalid configuration: ${Option.isSome(settings.awsAccessKeyId) ? "AWS_ACCESS_KEY_ID needs AWS_SECRET_ACCESS_KEY" : "AWS_SECRET_ACCESS_KEY needs AWS_ACCESS_KEY_ID"} (the access key of QFORMS_S3_BUCKET)`
      )
    }
  }
  const openai = Option.getOrElse(settings.formGenerator, () =>
    Option.isSome(settings.llmBaseUrl) ? "openai" : "offline"
  )
  if (openai === "openai") {
    const missing = [
      Option.isNone(settings.llmBaseUrl) ? "QFORMS_LLM_BASE_URL" : undefined,
      Option.isNone(settings.llmModel) ? "QFORMS_LLM_MODEL" : undefined
    ].filter((name) => name !== undefined)
    if (missing.length > 0) {
      return Effect.fail(
        `Invalid configuration: the openai form generator needs ${missing.join(" and ")} (in QFORMS_FORM_GENERATOR)`
      )
    }
  }
  if (Option.isSome(settings.smtpUrl)) {
    const problem = Mailer.smtpUrlProblem(Redacted.value(settings.smtpUrl.value))
    if (problem !== undefined) return Effect.fail(`Invalid configuration: ${problem}`)
    if (Option.isSome(settings.imapUrl) && !/^imaps?:\/\/[^/]+/.test(Redacted.value(settings.imapUrl.value))) {
      return Effect.fail(
        "Invalid configuration: QFORMS_IMAP_URL must look like imaps://user:pass@imap.example.com/INBOX"
      )
    }
    if (Option.isSome(settings.inboundAddress) && !settings.inboundAddress.value.includes("{token}")) {
      return Effect.fail(
        "Invalid configuration: QFORMS_INBOUND_ADDRESS must contain {token}, e.g. reply+{token}@in.example.com"
      )
    }
    if (Option.isNone(settings.mailFrom)) {
      return Effect.fail(
        'Invalid configuration: QFORMS_SMTP_URL needs QFORMS_MAIL_FROM (e.g. "Forms <forms@example.com>")'
      )
    }
  }
  return Effect.succeed(settings)
}

/** Reads the settings from the environment; a bad value fails with a readable message. */
export const load: Effect.Effect<Settings, string> = Effect.mapError(
  Settings,
  (error) =>
    `Invalid configuration: ${error.message.replace(/^SchemaError\((.*)\)$/s, "$1").replace(/\n\s*at \["?([^"\]]+)"?\]/g, " (in $1)")}`
).pipe(Effect.flatMap(checkCombination))

/**
 * The form generator the settings choose: `QFORMS_FORM_GENERATOR` when set;
 * otherwise a model when `QFORMS_LLM_BASE_URL` is set, else the offline one.
 */
export const formGenerator = (settings: Settings): NonNullable<Qforms.QformsOptions["formGenerator"]> => {
  const kind = Option.getOrElse(settings.formGenerator, () =>
    Option.isSome(settings.llmBaseUrl) ? "openai" : "offline"
  )
  if (kind === "none") return FormGenerator.FormGenerator.layerNone
  if (kind === "offline" || Option.isNone(settings.llmBaseUrl) || Option.isNone(settings.llmModel)) {
    return FormGenerator.FormGenerator.layerOffline
  }
  return OpenAiFormGenerator.layer({
    baseUrl: settings.llmBaseUrl.value.toString(),
    model: settings.llmModel.value,
    apiKey: Option.getOrUndefined(settings.llmApiKey),
    timeout: `${settings.llmTimeoutSeconds * 1000} millis`
  })
}

/** Which generator the settings choose, for the start-up line. */
export const formGeneratorName = (settings: Settings): string => {
  const kind = Option.getOrElse(settings.formGenerator, () =>
    Option.isSome(settings.llmBaseUrl) ? "openai" : "offline"
  )
  return kind === "openai"
    ? `model ${Option.getOrElse(settings.llmModel, () => "?")} at ${Option.match(settings.llmBaseUrl, { onNone: () => "?", onSome: (url) => url.origin })}`
    : kind
}

/** The database part of the settings, as `Qforms.make` takes it. */
export const database = (settings: Settings): NonNullable<Qforms.QformsOptions["database"]> =>
  Option.match(settings.databaseUrl, {
    onNone: () => ({ dataDir: settings.dataDir, schema: settings.schema, sharedBuffers: settings.pgliteSharedBuffers }),
    onSome: (url) => ({ url: Redacted.value(url), schema: settings.schema })
  })

/**
 * Where uploaded files are kept: the S3 bucket `QFORMS_S3_BUCKET` (under
 * `QFORMS_S3_PREFIX`, at `QFORMS_S3_ENDPOINT` for MinIO, R2 and other
 * S3-compatible services; the access key from `AWS_ACCESS_KEY_ID` and
 * `AWS_SECRET_ACCESS_KEY` or the SDK's other sources), else `QFORMS_FILES_DIR`,
 * else core's default (`$QFORMS_DATA_DIR/files` on the embedded database,
 * `./.qforms-files` on PostgreSQL). The AWS SDK is loaded only with a bucket.
 */
export const files = (settings: Settings): Qforms.QformsOptions["files"] => {
  if (Option.isSome(settings.s3Bucket)) {
    const options = {
      bucket: settings.s3Bucket.value,
      prefix: Option.getOrUndefined(settings.s3Prefix),
      endpoint: Option.getOrUndefined(settings.s3Endpoint),
      region: Option.getOrUndefined(settings.s3Region),
      forcePathStyle: settings.s3ForcePathStyle
    }
    return {
      store: Layer.unwrap(
        Effect.map(
          Effect.promise(() => import("@qforms/core/s3")),
          (S3BlobStore) => S3BlobStore.layer(options)
        )
      )
    }
  }
  return Option.match(settings.filesDir, { onNone: () => undefined, onSome: (directory) => ({ directory }) })
}

/**
 * Where the service is reached: `APP_URL`, else `http://localhost:$PORT`; with
 * `PORT=0` (a port chosen at start) and no `APP_URL`, undefined here: the
 * server then listens first and uses the address it got.
 */
export const appUrl = (settings: Settings): string | undefined =>
  Option.match(settings.appUrl, {
    onNone: () => (settings.port === 0 ? undefined : `http://localhost:${settings.port}`),
    onSome: (url) => url.toString().replace(/\/$/, "")
  })

/** The upload limit per client address (`QFORMS_UPLOADS_PER_MINUTE`, the burst of the same size), as `Qforms.make` takes it. */
export const uploadRateLimit = (settings: Settings): NonNullable<Qforms.QformsOptions["uploadRateLimit"]> => ({
  requestsPerSecond: settings.uploadsPerMinute / 60,
  burst: Math.max(1, Math.ceil(settings.uploadsPerMinute))
})

/**
 * Where the rate limits keep their buckets (`QFORMS_RATE_LIMIT_STORE`, and in
 * Redis the keys' `QFORMS_RATE_LIMIT_REDIS_PREFIX`), as `Qforms.make` takes it.
 */
export const rateLimitStore = (settings: Settings): NonNullable<Qforms.QformsOptions["rateLimitStore"]> =>
  settings.rateLimitStore === "memory" || settings.rateLimitStore === "database"
    ? settings.rateLimitStore
    : { redis: settings.rateLimitStore, prefix: settings.rateLimitRedisPrefix }

/** The storage quotas of uploaded files (`QFORMS_UPLOAD_QUOTA_FORM_BYTES`, `QFORMS_UPLOAD_QUOTA_WORKSPACE_BYTES`), as `Qforms.make` takes them. */
export const uploads = (settings: Settings): NonNullable<Qforms.QformsOptions["uploads"]> => ({
  maxBytesPerForm: settings.uploadQuotaFormBytes,
  maxBytesPerWorkspace: settings.uploadQuotaWorkspaceBytes
})

/** The live event stream's limits, as `Qforms.make` takes them. */
export const events = (settings: Settings): NonNullable<Qforms.QformsOptions["events"]> => ({
  maxStreamsPerCredential: settings.eventStreamsPerKey,
  maxStreams: settings.eventStreamsMax,
  recheckInterval: `${settings.eventStreamRecheckSeconds} seconds`
})

/** The public page part of the settings, as `Qforms.make` takes it. */
export const publicPage = (settings: Settings): NonNullable<Qforms.QformsOptions["publicPage"]> => ({
  frameAncestors: settings.frameAncestors,
  trustedProxyHops: settings.trustedProxyHops,
  minSubmitSeconds: settings.formMinSeconds,
  submissionRateLimit: {
    requestsPerSecond: settings.formSubmissionsPerMinute / 60,
    burst: Math.max(1, Math.ceil(settings.formSubmissionsPerMinute))
  }
})

/**
 * E-mail over SMTP (`QFORMS_SMTP_URL`, `QFORMS_MAIL_FROM`; replies through
 * `QFORMS_INBOUND_ADDRESS` and `QFORMS_INBOUND_SECRET`, or polled from `QFORMS_IMAP_URL`), as
 * `Qforms.make` takes it; none without them.
 */
export const mail = (settings: Settings): Qforms.QformsOptions["mail"] =>
  Option.isSome(settings.smtpUrl) && Option.isSome(settings.mailFrom)
    ? {
        url: Redacted.value(settings.smtpUrl.value),
        from: settings.mailFrom.value,
        timeoutMs: settings.webhookTimeoutMs,
        inboundAddress: Option.getOrUndefined(settings.inboundAddress),
        inboundSecret: Option.getOrUndefined(Option.map(settings.inboundSecret, Redacted.value)),
        inboundMaxBytes: settings.inboundMaxBytes,
        imap: Option.getOrUndefined(Option.map(settings.imapUrl, (url) => ({ url: Redacted.value(url) })))
      }
    : undefined
