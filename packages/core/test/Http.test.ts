/**
 * The whole HTTP contract (`@qforms/test-kit/HttpContract`) on every test database,
 * with every answer checked against the served OpenAPI document
 * (`GET /api/openapi.json`) by an independent validator (Ajv 2020, see
 * `@qforms/test-kit/OpenApiValidator`): the status must be documented for the
 * operation, and the body must match the schema documented for that status.
 * An undocumented status or a body that does not match fails the test that
 * received it. (Adapters and the standalone run the contract's transport
 * smoke; this is the one full run.)
 */
import { describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { OpenApiValidator } from "@qforms/test-kit/OpenApiValidator"
import { type StartServer, startTestServer } from "@qforms/test-kit/TestServer"
import { httpContractSuite } from "@qforms/test-kit/HttpContract"

let validator: OpenApiValidator | undefined
const problems: Array<string> = []

/** Starts the server as the suite does, and reads the document it serves (once: it does not depend on the database). */
const start: StartServer = async (target, options) => {
  const server = await startTestServer(target, options)
  if (validator === undefined) {
    const reply = await fetch(`${server.url}/api/openapi.json`)
    validator = new OpenApiValidator(await reply.json())
  }
  return server
}

for (const target of databaseTargets) {
  httpContractSuite(target, start, "core, every answer checked against /api/openapi.json", {
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
}

describe("the contract suite's answers against the OpenAPI document", () => {
  it("checked hundreds of answers, every one documented", () => {
    expect(problems).toEqual([])
    expect(validator?.checked ?? 0).toBeGreaterThan(300)
  })
})
