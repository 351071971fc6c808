/**
 * A client generated from the served OpenAPI document works: the document of
 * a real server (`GET /api/openapi.json`) goes through `openapi-typescript`,
 * the README's curl flow written with `openapi-fetch` against those types
 * (`test/client/ReadmeFlow.ts`) must type-check with `tsc` as written, and then
 * runs, as its own Node process, against the same live server on loopback.
 *
 * Runs on PGlite only: the document does not depend on the database.
 */
import { execFile } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const pglite = databaseTargets.find((target) => target.name === "pglite")!
const clientDir = join(dirname(fileURLToPath(import.meta.url)), "client")
const tsc = join(dirname(fileURLToPath(import.meta.url)), "../../../node_modules/typescript/bin/tsc")

/** Runs Node (this process's, Node 24) with `args`; resolves with the exit code and output, never rejects. */
const node = (args: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    execFile(process.execPath, [...args], { cwd: clientDir, timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
      resolve({ code, stdout, stderr })
    })
  })

describe("a client generated from /api/openapi.json (openapi-typescript + openapi-fetch)", () => {
  let server: TestServer
  let key: string

  beforeAll(async () => {
    server = await startTestServer(pglite, { publicPage: { minSubmitSeconds: 0 } })
    key = await server.run(
      Effect.gen(function* () {
        const workspaces = yield* Workspaces
        const keys = yield* ApiKeys
        const w = yield* workspaces.create({ name: "Client", ownerEmail: "owner@example.com", ownerName: "Owner" })
        return (yield* keys.create(w.workspace.id, { accountId: w.ownerAccountId, name: "client" })).key
      })
    )
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as OpenAPI3
    const types = astToString(await openapiTS(document))
    await mkdir(join(clientDir, "generated"), { recursive: true })
    await writeFile(join(clientDir, "generated", "openapi.ts"), types)
  }, 120_000)

  afterAll(async () => {
    await server?.close()
  })

  it("the README flow written against the generated types type-checks with tsc", async () => {
    const checked = await node([tsc, "-p", join(clientDir, "tsconfig.json")])
    expect(checked.stdout + checked.stderr, "tsc output").toBe("")
    expect(checked.code).toBe(0)
  }, 240_000)

  it("runs against the live server: create, publish, submit with the returned ids, list, triage, note, export, webhooks, public submit", async () => {
    const run = await node([join(clientDir, "ReadmeFlow.ts"), server.url, key])
    expect(run.stderr, "the program's errors").toBe("")
    expect(run.code).toBe(0)
    const summary = JSON.parse(run.stdout)
    expect(summary.fieldIds).toHaveLength(3)
    expect(summary.fieldIds).toEqual(summary.fetchedFieldIds)
    const [name, email, topic] = summary.fieldIds as Array<number>
    expect(summary.values).toEqual({ [name!]: "Ada Lovelace", [email!]: "ada@example.com", [topic!]: "Support" })
    expect(summary.listed).toEqual([
      { id: summary.responseId, answers: { Name: "Ada Lovelace", Email: "ada@example.com", Topic: "Support" } }
    ])
    expect(summary.nextCursor).toBeNull()
    expect(summary.changed).toBe(true)
    expect(summary.stageId).toEqual(expect.any(Number))
    expect(summary.assigneeId).toEqual(expect.any(Number))
    expect(summary.tags).toEqual(["vip"])
    expect(summary.note).toBe("Called back; waiting for the invoice.")
    expect(summary.activities).toEqual(
      expect.arrayContaining(["created", "stage_changed", "assigned", "tags_changed", "note"])
    )
    expect(summary.csvHasAda).toBe(true)
    expect(summary.subscriptionId).toMatch(/^sub_/)
    expect(summary.subscriptionListed).toBe(true)
    expect(summary.deliveries).toBe(0)
    expect(summary.unsubscribed).toBe(204)
    expect(summary.publicResponseId).toEqual(expect.any(Number))
    expect(summary.missing.status).toBe(404)
    expect(summary.missing.error).toEqual(expect.any(String))
  }, 240_000)
})
