/**
 * The HTTP contract: every endpoint of `form-response-api.md` section 4 and
 * its extensions, against a real server on an ephemeral loopback port, with
 * plain `fetch`. Written once, by concern (one module per group in
 * `contract/`), and run by core's `Http.test.ts` on PGlite always and on
 * PostgreSQL when QFORMS_TEST_DATABASE_URL is set; every adapter and the
 * standalone run its transport smoke through their own way of serving qforms.
 */
import { afterAll, beforeAll, describe, it } from "vitest"
import type { ContractSuiteOptions } from "./contract/Requests.ts"
import { type ContractGroup, makeContract, type Seed, seedWorkspaces } from "./contract/Contract.ts"
import { publicDocuments } from "./contract/PublicDocuments.ts"
import { authentication } from "./contract/Authentication.ts"
import { routing } from "./contract/Routing.ts"
import { forms } from "./contract/Forms.ts"
import { stages } from "./contract/Stages.ts"
import { publicFormPage } from "./contract/PublicFormPage.ts"
import { submitting } from "./contract/Submitting.ts"
import { listing } from "./contract/Listing.ts"
import { oneResponse } from "./contract/OneResponse.ts"
import { notes } from "./contract/Notes.ts"
import { members } from "./contract/Members.ts"
import { webhookSubscriptions } from "./contract/WebhookSubscriptions.ts"
import { formGeneration } from "./contract/FormGeneration.ts"
import { mcpEndpoint } from "./contract/McpEndpoint.ts"
import { csvExport } from "./contract/CsvExport.ts"
import { workspaces } from "./contract/Workspaces.ts"
import { roles } from "./contract/Roles.ts"
import { uploadedFiles } from "./contract/UploadedFiles.ts"
import { jsonBodies } from "./contract/JsonBodies.ts"
import { crossSiteWrites } from "./contract/CrossSiteWrites.ts"
import { rateLimiting } from "./contract/RateLimiting.ts"
import type { DatabaseTarget } from "./Databases.ts"
import { type StartServer, startTestServer, type TestServer } from "./TestServer.ts"

export type { ContractSuiteOptions, Exchange } from "./contract/Requests.ts"

/**
 * The concerns of the contract, in the order they run. A group declared
 * `{ transport: true }` holds tests of the transport smoke (`transportTest`):
 * the ones whose answers depend on how a request reaches core and how the
 * answer leaves it — prefixes and `servers`, headers (authentication
 * challenges, `Allow`, CSP, rate limits, CSRF's origin headers), bodies of
 * every kind (JSON, url-encoded and multipart steps, a file up and down byte
 * for byte, over-large and malformed bodies, empty 204s), streamed lists and
 * CSV, and MCP's transport. The rest (rules, filters, roles, tenancy) is the
 * same whoever serves it and runs in core's full run.
 */
export const contractGroups: ReadonlyArray<ContractGroup> = [
  publicDocuments,
  authentication,
  routing,
  forms,
  stages,
  publicFormPage,
  submitting,
  listing,
  oneResponse,
  notes,
  members,
  webhookSubscriptions,
  formGeneration,
  mcpEndpoint,
  csvExport,
  workspaces,
  roles,
  uploadedFiles,
  jsonBodies,
  crossSiteWrites,
  rateLimiting
]

/**
 * The contract, run against one database and one way of serving qforms
 * (`start`: the core routes directly by default; the standalone and every
 * adapter pass their own, mounted under a prefix).
 *
 * @example
 * ```ts
 * for (const target of databaseTargets) httpContractSuite(target, startUnderPrefix, "express", { smoke: true })
 * ```
 */
export const httpContractSuite = (
  target: DatabaseTarget,
  start: StartServer = startTestServer,
  via = "core",
  settings: ContractSuiteOptions = {}
) =>
  describe(`HTTP contract via ${via}${settings.smoke === true ? " (transport smoke)" : ""} on ${target.name}`, () => {
    const smoke = settings.smoke === true
    let server: TestServer
    let seed: Seed
    /** The group whose tests are being declared. */
    let declaring: ContractGroup | undefined

    beforeAll(async () => {
      // A generous limit: this suite sends hundreds of requests with one key; 429 has its own server (rate limiting).
      server = await start(target, {
        rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 1000, burst: 1000 } }
      })
      seed = await server.run(seedWorkspaces)
    })

    afterAll(async () => {
      await server?.close()
    })

    const contract = makeContract(
      target,
      start,
      settings,
      () => server,
      () => seed,
      {
        test: (name, fn, timeout) => {
          if (!smoke) it(name, fn, timeout)
        },
        transportTest: (name, fn, timeout) => {
          // A smoke run declares only transport groups: one holding a transport test must say so.
          if (declaring?.transport !== true) {
            throw new Error(
              `"${name}" is a transport test, but its group "${declaring?.name}" is not { transport: true }`
            )
          }
          it(name, fn, timeout)
        }
      }
    )
    for (const concern of contractGroups) {
      if (smoke && !concern.transport) continue
      describe(concern.name, () => {
        declaring = concern
        concern.register(contract)
        declaring = undefined
      })
    }
  })
