/**
 * The HTTP contract's transport smoke (its `transportTest`s), served by the
 * standalone server itself (`start(settings)` from Server.ts, in this process
 * so the suite can seed through `qforms.run`), on every test database; core
 * runs the whole contract.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Option, Redacted } from "effect"
import { httpContractSuite } from "@qforms/test-kit/HttpContract"
import { databaseTargets } from "@qforms/test-kit/Databases"
import type { StartServer } from "@qforms/test-kit/TestServer"
import { start } from "../src/Server.ts"
import type * as Settings from "../src/Settings.ts"

const startStandalone: StartServer = async (target, options = {}) => {
  const { database, cleanup } = target.options()
  // The standalone keeps PGlite in a directory (never in memory): a temporary one.
  const dataDir = "url" in database ? undefined : mkdtempSync(join(tmpdir(), "qforms-contract-"))
  const settings: Settings.Settings = {
    port: 0,
    host: "127.0.0.1",
    appUrl: Option.none(),
    dataDir: dataDir ?? "./.qforms-data",
    pgliteSharedBuffers: "16MB",
    filesDir: Option.some(mkdtempSync(join(tmpdir(), "qforms-contract-files-"))),
    s3Bucket: Option.none(),
    s3Prefix: Option.none(),
    s3Endpoint: Option.none(),
    s3Region: Option.none(),
    s3ForcePathStyle: false,
    awsAccessKeyId: Option.none(),
    awsSecretAccessKey: Option.none(),
    databaseUrl: "url" in database ? Option.some(Redacted.make(database.url)) : Option.none(),
    schema: database.schema ?? "qforms",
    logLevel: "Error",
    logFormat: "json",
    logRequests: false,
    ownerEmail: "owner@localhost",
    rateLimitPerSecond: options.rateLimit?.requestsPerSecond ?? 20,
    rateLimitBurst: options.rateLimit?.burst ?? 100,
    // The shared store under the whole contract (the core's own contract run keeps the default, memory).
    rateLimitStore: "database",
    rateLimitRedisPrefix: "qforms:rate-limit:",
    shutdownTimeoutMs: 5_000,
    headersTimeoutMs: 15_000,
    requestTimeoutMs: 120_000,
    keepAliveTimeoutMs: 5_000,
    maxConnectionsPerAddress: 0,
    retrySchedule: Option.none(),
    webhookTimeoutMs: 10_000,
    allowPrivateWebhookTargets: false,
    deliveryWorker: false,
    webhookAlertAfterFailures: 3,
    webhookDisableAfterFailures: 10,
    formGenerator: Option.none(),
    llmBaseUrl: Option.none(),
    llmApiKey: Option.none(),
    llmModel: Option.none(),
    llmTimeoutSeconds: 30,
    frameAncestors: options.publicPage?.frameAncestors ?? ["*"],
    trustedProxyHops: options.publicPage?.trustedProxyHops ?? 0,
    formMinSeconds: options.publicPage?.minSubmitSeconds ?? 3,
    formSubmissionsPerMinute: (options.publicPage?.submissionRateLimit?.requestsPerSecond ?? 10 / 60) * 60,
    uploadsPerMinute: (options.uploadRateLimit?.requestsPerSecond ?? 0.5) * 60,
    uploadQuotaFormBytes: options.uploads?.maxBytesPerForm ?? 1024 * 1024 * 1024,
    uploadQuotaWorkspaceBytes: options.uploads?.maxBytesPerWorkspace ?? 10 * 1024 * 1024 * 1024,
    partialMaxAgeDays: 30,
    partialResponsesPerAddressPerHour: options.publicPage?.partialResponsesPerAddressPerHour ?? 10,
    smtpUrl: Option.none(),
    mailFrom: Option.none(),
    inboundAddress: Option.none(),
    inboundSecret: Option.none(),
    inboundMaxBytes: 1024 * 1024,
    imapUrl: Option.none(),
    eventStreamsPerKey: 20,
    eventStreamsMax: 1000,
    eventStreamRecheckSeconds: 60
  }
  const server = await start(settings)
  return {
    url: server.url,
    run: server.qforms.run,
    close: async () => {
      await server.close()
      await cleanup()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

for (const target of databaseTargets) httpContractSuite(target, startStandalone, "standalone", { smoke: true })
