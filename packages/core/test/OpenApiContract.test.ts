/**
 * Every answer of the HTTP contract suite (`HttpContractSuite.ts`), checked
 * against the served OpenAPI document (`GET /api/openapi.json`) by an
 * independent validator (Ajv 2020, see `support/OpenApiValidator.ts`): the
 * status must be documented for the operation, and the body must match the
 * schema documented for that status. An undocumented status or a body that
 * does not match fails the test that received it.
 *
 * Runs on PGlite only: the document does not depend on the database.
 */
import { describe, expect, it } from "vitest"
import { databaseTargets } from "./support/Databases.ts"
import { OpenApiValidator } from "./support/OpenApiValidator.ts"
import { type StartServer, startTestServer } from "./support/TestServer.ts"
import { httpContractSuite } from "./HttpContractSuite.ts"

const pglite = databaseTargets.find((target) => target.name === "pglite")!

let validator: OpenApiValidator | undefined
const problems: Array<string> = []

/** Starts the server as the suite does, and reads the document it serves (once). */
const start: StartServer = async (target, options) => {
  const server = await startTestServer(target, options)
  if (validator === undefined) {
    const reply = await fetch(`${server.url}/api/openapi.json`)
    validator = new OpenApiValidator(await reply.json())
  }
  return server
}

httpContractSuite(pglite, start, "core, every answer checked against /api/openapi.json", {
  onReply: (exchange) => {
    const problem = validator!.check({
      method: exchange.method,
      path: new URL(exchange.url).pathname,
      status: exchange.status,
      contentType: exchange.headers.get("content-type") ?? "",
      text: exchange.text
    })
    if (problem !== undefined) {
      problems.push(problem)
      throw new Error(`the answer does not match the OpenAPI document: ${problem}`)
    }
  }
})

describe("the contract suite's answers against the OpenAPI document", () => {
  it("checked hundreds of answers, every one documented", () => {
    expect(problems).toEqual([])
    expect(validator?.checked ?? 0).toBeGreaterThan(300)
  })
})
