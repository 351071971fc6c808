/**
 * The HTTP contract: authentication.
 */
import { expect } from "vitest"
import { ApiKeys } from "@qforms/core"
import { group, hookUrl } from "./Contract.ts"
import { expectStatus, expectError, softError } from "./Expectations.ts"

export const authentication = group("authentication", { transport: true }, (c) => {
  const { api, everything, test, transportTest } = c
  const badCredentials = (): ReadonlyArray<readonly [string, Record<string, string>]> => [
    ["missing header", {}],
    ["malformed key", { authorization: "Bearer qk_live_short" }],
    ["wrong key", { authorization: `Bearer ${ApiKeys.generate()}` }],
    ["revoked key", { authorization: `Bearer ${c.seed.keys.revoked}` }]
  ]

  for (const kind of ["missing header", "malformed key", "wrong key", "revoked key"]) {
    test(`401 {error} with WWW-Authenticate: Bearer for a ${kind}`, async () => {
      const [, headers] = badCredentials().find(([label]) => label === kind)!
      const reply = await api("GET", "/forms", { key: null, headers })
      expectError(reply, 401)
      expect(reply.headers.get("www-authenticate") ?? "").toMatch(/^Bearer/)
    })
  }

  transportTest(
    "every endpoint answers 401 to a bad key, before looking at the request, and changes nothing",
    async () => {
      const all = await everything()
      const f = all.form.formId
      const endpoints: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["GET", "/forms"],
        ["POST", "/forms", { title: "x" }],
        ["GET", `/forms/${f}`],
        ["PATCH", `/forms/${f}`, { title: "Stolen" }],
        ["DELETE", `/forms/${f}`],
        ["GET", `/forms/${f}/responses`],
        ["GET", `/forms/${f}/responses.csv`],
        ["GET", `/forms/${f}/responses.xlsx`],
        ["GET", `/forms/${f}/summary`],
        ["GET", `/forms/${f}/summary.csv`],
        ["GET", `/forms/${f}/metrics`],
        ["GET", "/metrics"],
        ["GET", `/forms/${f}/digest`],
        ["PUT", `/forms/${f}/digest`, { frequency: "daily" }],
        ["POST", `/forms/${f}/digest/send`],
        [
          "POST",
          `/forms/${f}/responses`,
          { values: { [all.form.ids.name]: "X", [all.form.ids.email]: "x@example.com" } }
        ],
        ["GET", `/forms/${f}/stages`],
        ["POST", `/forms/${f}/stages`, { name: "x" }],
        ["PUT", `/forms/${f}/stages/order`, { stageIds: [] }],
        ["PATCH", `/stages/${all.stageId}`, { name: "x" }],
        ["DELETE", `/stages/${all.stageId}`],
        ["GET", `/responses/${all.responseId}`],
        ["PATCH", `/responses/${all.responseId}`, { tags: ["x"] }],
        ["DELETE", `/responses/${all.responseId}`],
        ["POST", `/responses/${all.responseId}/notes`, { body: "x" }],
        ["GET", "/members"],
        ["GET", "/webhooks"],
        ["POST", "/webhooks/subscribe", { formId: f, event: "response.created", targetUrl: hookUrl() }],
        ["GET", "/webhooks/workspace-subscriptions"],
        ["POST", "/webhooks/workspace-subscriptions", { event: "form.deleted", targetUrl: hookUrl() }],
        ["GET", "/audit-log"],
        ["GET", "/audit-log/export.csv"],
        ["DELETE", `/webhooks/subscribe/${all.subscriptionId}`],
        ["GET", "/events/catalogue"],
        ["GET", "/webhooks/dead-letters"],
        ["POST", "/webhooks/dead-letters/replay", { subscriptionId: all.subscriptionId }],
        ["GET", "/webhooks/alerts"],
        ["POST", "/privacy/erasures", { email: "ada@example.com" }],
        ["GET", "/privacy/export?email=ada@example.com"],
        ["POST", "/v1/forms/generate", { prompt: "A contact form" }]
      ]
      for (const [label, headers] of badCredentials()) {
        for (const [method, path, body] of endpoints) {
          const reply = await api(method, path, { key: null, headers, body })
          softError(`${label}: ${method} ${path}`, reply, 401)
          expect.soft(reply.headers.get("www-authenticate") ?? "", `${label}: ${method} ${path}`).toMatch(/^Bearer/)
        }
      }
      const form = await api("GET", `/forms/${f}`)
      expectStatus(form, 200)
      expect(form.body.title).toBe("Everything")
      expectStatus(await api("GET", `/responses/${all.responseId}`), 200)
      const stages = await api("GET", `/forms/${f}/stages`)
      expect(stages.body.stages.map((s: { id: number }) => s.id)).toContain(all.stageId)
      const hooks = await api("GET", "/webhooks")
      expect(hooks.body.map((s: { id: string }) => s.id)).toContain(all.subscriptionId)
    }
  )
})
