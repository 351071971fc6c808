/**
 * A bad setting stops the server before it opens anything: exit 1 and a
 * message naming the variable.
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { normalizeLogLevelFlag } from "../src/Commands.ts"
import * as Settings from "../src/Settings.ts"
import { cli, spawnServer } from "./support/Processes.ts"

/** The settings read from exactly this environment, in process. */
const load = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.result(Settings.load).pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
    )
  )

describe("settings", () => {
  it.concurrent.each([
    [{ LOG_LEVEL: "Loud" }, /^Invalid configuration: .*\(in LOG_LEVEL\)\n$/],
    [{ LOG_FORMAT: "xml" }, /^Invalid configuration: .*"pretty".*"json".*\(in LOG_FORMAT\)\n$/s],
    [{ PORT: "70000" }, /^Invalid configuration: Expected a value between 0 and 65535 \(in PORT\)\n$/],
    [{ QFORMS_RATE_LIMIT_BURST: "many" }, /^Invalid configuration: .*\(in QFORMS_RATE_LIMIT_BURST\)\n$/],
    // Every numeric setting refuses what it cannot mean (a rate of 0 locked a key out forever).
    [
      { QFORMS_RATE_LIMIT_PER_SECOND: "0" },
      /^Invalid configuration: Expected a number greater than 0 \(in QFORMS_RATE_LIMIT_PER_SECOND\)\n$/
    ],
    [
      { QFORMS_RATE_LIMIT_PER_SECOND: "-5" },
      /^Invalid configuration: .*greater than 0.*\(in QFORMS_RATE_LIMIT_PER_SECOND\)\n$/
    ],
    [{ QFORMS_RATE_LIMIT_PER_SECOND: "Infinity" }, /^Invalid configuration: .*\(in QFORMS_RATE_LIMIT_PER_SECOND\)\n$/],
    [
      { QFORMS_RATE_LIMIT_BURST: "0" },
      /^Invalid configuration: Expected a whole number of 1 or more \(in QFORMS_RATE_LIMIT_BURST\)\n$/
    ],
    [{ QFORMS_SHUTDOWN_TIMEOUT_MS: "-1" }, /^Invalid configuration: .*0 or more.*\(in QFORMS_SHUTDOWN_TIMEOUT_MS\)\n$/],
    [{ QFORMS_WEBHOOK_TIMEOUT_MS: "0" }, /^Invalid configuration: .*1 or more.*\(in QFORMS_WEBHOOK_TIMEOUT_MS\)\n$/],
    [
      { QFORMS_WEBHOOK_ALERT_AFTER_FAILURES: "0" },
      /^Invalid configuration: .*1 or more.*\(in QFORMS_WEBHOOK_ALERT_AFTER_FAILURES\)\n$/
    ],
    [
      { QFORMS_WEBHOOK_DISABLE_AFTER_FAILURES: "x" },
      /^Invalid configuration: .*\(in QFORMS_WEBHOOK_DISABLE_AFTER_FAILURES\)\n$/
    ],
    [{ QFORMS_TRUSTED_PROXY_HOPS: "-1" }, /^Invalid configuration: .*0 or more.*\(in QFORMS_TRUSTED_PROXY_HOPS\)\n$/],
    [
      { QFORMS_UPLOADS_PER_MINUTE: "0" },
      /^Invalid configuration: .*greater than 0.*\(in QFORMS_UPLOADS_PER_MINUTE\)\n$/
    ],
    [
      { QFORMS_UPLOAD_QUOTA_FORM_BYTES: "0" },
      /^Invalid configuration: .*1 or more.*\(in QFORMS_UPLOAD_QUOTA_FORM_BYTES\)\n$/
    ],
    [
      { QFORMS_UPLOAD_QUOTA_WORKSPACE_BYTES: "10GB" },
      /^Invalid configuration: .*\(in QFORMS_UPLOAD_QUOTA_WORKSPACE_BYTES\)\n$/
    ],
    [{ QFORMS_TRUSTED_PROXY_HOPS: "1.5" }, /^Invalid configuration: .*\(in QFORMS_TRUSTED_PROXY_HOPS\)\n$/],
    [{ QFORMS_FORM_MIN_SECONDS: "-3" }, /^Invalid configuration: .*0 or more.*\(in QFORMS_FORM_MIN_SECONDS\)\n$/],
    [
      { QFORMS_FORM_SUBMISSIONS_PER_MINUTE: "0" },
      /^Invalid configuration: .*greater than 0.*\(in QFORMS_FORM_SUBMISSIONS_PER_MINUTE\)\n$/
    ],
    [{ PORT: "-1" }, /^Invalid configuration: .*\(in PORT\)\n$/],
    [{ QFORMS_FORM_GENERATOR: "gpt" }, /^Invalid configuration: .*"offline".*\(in QFORMS_FORM_GENERATOR\)\n$/s],
    [
      { QFORMS_FORM_GENERATOR: "openai" },
      /^Invalid configuration: the openai form generator needs QFORMS_LLM_BASE_URL and QFORMS_LLM_MODEL \(in QFORMS_FORM_GENERATOR\)\n$/
    ],
    [
      { QFORMS_LLM_BASE_URL: "http://127.0.0.1:11434/v1" },
      /^Invalid configuration: the openai form generator needs QFORMS_LLM_MODEL \(in QFORMS_FORM_GENERATOR\)\n$/
    ],
    [
      { QFORMS_LLM_BASE_URL: "not a url", QFORMS_LLM_MODEL: "m" },
      /^Invalid configuration: .*\(in QFORMS_LLM_BASE_URL\)\n$/
    ],
    [{ QFORMS_LLM_TIMEOUT: "0" }, /^Invalid configuration: .*greater than 0.*\(in QFORMS_LLM_TIMEOUT\)\n$/],
    [
      { QFORMS_PGLITE_SHARED_BUFFERS: "lots" },
      /^Invalid configuration: .*kB, MB or GB.*\(in QFORMS_PGLITE_SHARED_BUFFERS\)\n$/
    ],
    [
      { QFORMS_PGLITE_SHARED_BUFFERS: "64kB" },
      /^Invalid configuration: 64kB is out of range.*\(in QFORMS_PGLITE_SHARED_BUFFERS\)\n$/
    ],
    [
      { QFORMS_PARTIAL_RESPONSE_MAX_AGE_DAYS: "0" },
      /^Invalid configuration: .*greater than 0.*\(in QFORMS_PARTIAL_RESPONSE_MAX_AGE_DAYS\)\n$/
    ],
    [
      { QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR: "-1" },
      /^Invalid configuration: .*0 or more.*\(in QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR\)\n$/
    ],
    [
      { QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR: "2.5" },
      /^Invalid configuration: .*\(in QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR\)\n$/
    ],
    [
      { QFORMS_EVENT_STREAMS_PER_KEY: "0" },
      /^Invalid configuration: .*at least 1.*\(in QFORMS_EVENT_STREAMS_PER_KEY\)\n$/
    ],
    [{ QFORMS_EVENT_STREAMS_MAX: "lots" }, /^Invalid configuration: .*\(in QFORMS_EVENT_STREAMS_MAX\)\n$/],
    [
      { QFORMS_EVENT_STREAM_RECHECK_SECONDS: "-1" },
      /^Invalid configuration: .*greater than 0.*\(in QFORMS_EVENT_STREAM_RECHECK_SECONDS\)\n$/
    ],
    [
      { QFORMS_SMTP_URL: "http://mail.example.com" },
      /^Invalid configuration: QFORMS_SMTP_URL must start with smtp:\/\/ or smtps:\/\/\n$/
    ],
    [
      { QFORMS_SMTP_URL: "smtp://mail.example.com:587" },
      /^Invalid configuration: QFORMS_SMTP_URL needs QFORMS_MAIL_FROM/
    ],
    [
      {
        QFORMS_SMTP_URL: "smtp://mail.example.com:587",
        QFORMS_MAIL_FROM: "f@example.com",
        QFORMS_INBOUND_ADDRESS: "reply@in.example.com"
      },
      /^Invalid configuration: QFORMS_INBOUND_ADDRESS must contain \{token\}/
    ],
    [
      {
        QFORMS_SMTP_URL: "smtp://mail.example.com:587",
        QFORMS_MAIL_FROM: "f@example.com",
        QFORMS_IMAP_URL: "pop3://x"
      },
      /^Invalid configuration: QFORMS_IMAP_URL must look like imaps:\/\//
    ],
    [
      { QFORMS_S3_BUCKET: "My_Bucket" },
      /^Invalid configuration: Expected an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens \(in QFORMS_S3_BUCKET\)\n$/
    ],
    [
      { QFORMS_S3_BUCKET: "forms", QFORMS_S3_PREFIX: "../up" },
      /^Invalid configuration: Expected a key prefix such as qforms\/files.*\(in QFORMS_S3_PREFIX\)\n$/
    ],
    [
      { QFORMS_S3_BUCKET: "forms", QFORMS_S3_ENDPOINT: "minio:9000" },
      /^Invalid configuration: Expected an http:\/\/ or https:\/\/ URL.*\(in QFORMS_S3_ENDPOINT\)\n$/
    ],
    [
      { QFORMS_S3_BUCKET: "forms", QFORMS_S3_FORCE_PATH_STYLE: "sometimes" },
      /^Invalid configuration: .*\(in QFORMS_S3_FORCE_PATH_STYLE\)\n$/
    ],
    [
      { QFORMS_S3_PREFIX: "qforms", QFORMS_S3_ENDPOINT: "http://127.0.0.1:9000" },
      /^Invalid configuration: QFORMS_S3_PREFIX and QFORMS_S3_ENDPOINT need QFORMS_S3_BUCKET/
    ],
    [
      { QFORMS_S3_BUCKET: "forms", QFORMS_FILES_DIR: "/srv/files" },
      /^Invalid configuration: QFORMS_FILES_DIR and QFORMS_S3_BUCKET both say where uploaded files go: set one of them\n$/
    ],
    [
      { QFORMS_S3_BUCKET: "forms", AWS_ACCESS_KEY_ID: "AKIAEXAMPLE" },
      /^Invalid configuration: AWS_ACCESS_KEY_ID needs AWS_SECRET_ACCESS_KEY/
    ]
  ])("%j: exit 1 with a message", async (env, message) => {
    // A data directory that must never be created: nothing is opened.
    const server = spawnServer({ QFORMS_DATA_DIR: "/nonexistent/qforms-never-created", ...env })
    expect(await server.exited).toBe(1)
    expect(server.stderr()).toMatch(message)
    expect(server.stdout()).toBe("")
  })

  it.each([
    ["info", "Info"],
    ["INFO", "Info"],
    ["Info", "Info"],
    ["debug", "Debug"],
    ["warn", "Warn"],
    ["warning", "Warn"],
    ["Error", "Error"],
    ["trace", "Trace"],
    ["fatal", "Fatal"],
    ["none", "None"],
    ["OFF", "None"],
    ["all", "All"]
  ])("LOG_LEVEL=%s is %s", async (name, level) => {
    const result = await load({ LOG_LEVEL: name })
    expect(result._tag).toBe("Success")
    if (result._tag === "Success") expect(result.success.logLevel).toBe(level)
  })

  it.each([
    [{}, "memory"],
    [{ QFORMS_RATE_LIMIT_STORE: "database" }, "database"],
    [
      { QFORMS_RATE_LIMIT_STORE: "redis://127.0.0.1:6379/2", QFORMS_RATE_LIMIT_REDIS_PREFIX: "site-a:" },
      { redis: "redis://127.0.0.1:6379/2", prefix: "site-a:" }
    ],
    [
      { QFORMS_RATE_LIMIT_STORE: "rediss://cache.example.com" },
      { redis: "rediss://cache.example.com", prefix: "qforms:rate-limit:" }
    ]
  ])("QFORMS_RATE_LIMIT_STORE %j", async (env, option) => {
    const result = await load(env)
    expect(result._tag).toBe("Success")
    if (result._tag === "Success") expect(Settings.rateLimitStore(result.success)).toEqual(option)
  })

  it.each(["redis", "postgres://127.0.0.1/test", "Memory", "http://127.0.0.1:6379"])(
    "QFORMS_RATE_LIMIT_STORE=%s is refused with what it takes",
    async (value) => {
      const result = await load({ QFORMS_RATE_LIMIT_STORE: value })
      expect(result._tag).toBe("Failure")
      expect(String(result._tag === "Failure" ? result.failure : "")).toContain(
        "Expected memory, database, or a redis:// URL such as redis://127.0.0.1:6379"
      )
    }
  )

  it("QFORMS_S3_* choose the S3 store (without loading the AWS SDK until the store is built); without them, the directory", async () => {
    const s3 = await load({
      QFORMS_S3_BUCKET: "forms.example",
      QFORMS_S3_PREFIX: "/qforms/files/",
      QFORMS_S3_ENDPOINT: "http://127.0.0.1:9000",
      QFORMS_S3_REGION: "eu-central-1",
      QFORMS_S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "secret"
    })
    expect(s3._tag).toBe("Success")
    if (s3._tag === "Success") {
      expect(Settings.files(s3.success)).toEqual({ store: expect.anything() })
      expect(JSON.stringify(s3.success)).not.toContain("secret")
    }
    const directory = await load({ QFORMS_FILES_DIR: "/srv/files" })
    if (directory._tag === "Success") expect(Settings.files(directory.success)).toEqual({ directory: "/srv/files" })
    const neither = await load({})
    if (neither._tag === "Success") expect(Settings.files(neither.success)).toBeUndefined()
  })

  it("the CLI's --log-level takes the same names in any case", async () => {
    expect(normalizeLogLevelFlag(["--log-level", "OFF", "workspace", "list"])).toEqual([
      "--log-level",
      "none",
      "workspace",
      "list"
    ])
    expect(normalizeLogLevelFlag(["--log-level=Warning"])).toEqual(["--log-level=warn"])
    expect(normalizeLogLevelFlag(["--log-level", "loud"])).toEqual(["--log-level", "loud"])
    // Through the real CLI: a bad setting fails (exit 1) once the flags are read, a bad level before (exit 2).
    const env = { LOG_FORMAT: "xml" }
    for (const level of ["DEBUG", "off", "Warning", "info"]) {
      const result = await cli(["--log-level", level, "workspace", "list"], env)
      expect(result.stderr, level).toMatch(/^qforms: Invalid configuration: .*\(in LOG_FORMAT\)/)
      expect(result.code, level).toBe(1)
    }
    const bad = await cli(["--log-level", "loud", "workspace", "list"], env)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/log-level/)
  })
})
