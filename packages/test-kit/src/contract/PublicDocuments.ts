/**
 * The HTTP contract: public documents.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { expectStatus } from "./Expectations.ts"

export const publicDocuments = group("public documents", { transport: true }, (c) => {
  const { api, transportTest } = c
  transportTest("GET /api/openapi.json needs no key and describes API 1.0.0 in OpenAPI 3.1", async () => {
    const reply = await api("GET", "/openapi.json", { key: null })
    expectStatus(reply, 200)
    expect(reply.headers.get("content-type")).toMatch(/json/)
    expect(reply.body.openapi).toMatch(/^3\.1/)
    expect(reply.body.info.version).toBe("1.0.0")
    // Every path of the spec (and of the extensions) with its method, whatever the parameter names.
    const normalize = (path: string) => path.replace(/^\/api(?=\/)/, "").replace(/\{[^}]+\}/g, "{}")
    const documented = new Map<string, Set<string>>()
    for (const [path, item] of Object.entries(reply.body.paths as Record<string, object>)) {
      documented.set(normalize(path), new Set(Object.keys(item).map((m) => m.toUpperCase())))
    }
    const expected: ReadonlyArray<readonly [string, string]> = [
      ["GET", "/forms"],
      ["POST", "/forms"],
      ["GET", "/forms/{}"],
      ["PATCH", "/forms/{}"],
      ["DELETE", "/forms/{}"],
      ["GET", "/forms/{}/responses"],
      ["POST", "/forms/{}/responses"],
      ["GET", "/forms/{}/responses.csv"],
      ["GET", "/forms/{}/responses.xlsx"],
      ["GET", "/forms/{}/summary"],
      ["GET", "/forms/{}/summary.csv"],
      ["GET", "/forms/{}/metrics"],
      ["GET", "/metrics"],
      ["GET", "/forms/{}/digest"],
      ["PUT", "/forms/{}/digest"],
      ["POST", "/forms/{}/digest/send"],
      ["GET", "/forms/{}/stages"],
      ["POST", "/forms/{}/stages"],
      ["PUT", "/forms/{}/stages/order"],
      ["PATCH", "/stages/{}"],
      ["DELETE", "/stages/{}"],
      ["GET", "/responses/{}"],
      ["PATCH", "/responses/{}"],
      ["DELETE", "/responses/{}"],
      ["POST", "/responses/{}/notes"],
      ["GET", "/members"],
      ["GET", "/webhooks"],
      ["POST", "/webhooks/subscribe"],
      ["GET", "/webhooks/workspace-subscriptions"],
      ["POST", "/webhooks/workspace-subscriptions"],
      ["DELETE", "/webhooks/subscribe/{}"],
      ["GET", "/events/catalogue"],
      ["GET", "/webhooks/dead-letters"],
      ["POST", "/webhooks/dead-letters/replay"],
      ["GET", "/webhooks/alerts"],
      ["POST", "/privacy/erasures"],
      ["GET", "/privacy/export"],
      ["GET", "/audit-log"],
      ["GET", "/audit-log/export.csv"],
      ["POST", "/v1/forms/generate"]
    ]
    const missing = expected.filter(([method, path]) => !documented.get(path)?.has(method))
    expect(missing).toEqual([])
    const schemes = Object.values((reply.body.components?.securitySchemes ?? {}) as Record<string, { scheme?: string }>)
    expect(schemes.some((s) => s.scheme?.toLowerCase() === "bearer")).toBe(true)
  })

  transportTest("GET /api/docs needs no key and is an HTML page", async () => {
    const reply = await api("GET", "/docs", { key: null })
    expectStatus(reply, 200)
    expect(reply.headers.get("content-type")).toMatch(/^text\/html/)
    expect(reply.text).toMatch(/<html/i)
  })
})
