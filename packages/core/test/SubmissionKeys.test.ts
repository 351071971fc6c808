/**
 * Submissions with an `Idempotency-Key` (cases/SubmissionKeys.ts), on a real
 * server on each test database: sent again with the same key, a submission
 * answers the response the first one stored and stores nothing (also when
 * the copies race), the same key with another body is 409, a malformed key
 * 400, keys are each workspace's own, and a key goes with its response.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { api, createForm, postJson, seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { SubmissionKeys } from "../src/cases/index.ts"

for (const target of databaseTargets) {
  describe(`submission keys on ${target.name}`, () => {
    let server: TestServer
    let key: string
    let formId: number
    let publicId: string
    let nameId: number

    beforeAll(async () => {
      server = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 100_000, burst: 100_000 } }
      })
      key = (await seedWorkspace(server)).key
      const form = await createForm(server, key, {
        title: "Retried",
        fields: [{ type: "short_text", label: "Name", required: true }]
      })
      formId = form.id
      publicId = form.publicId
      nameId = form.fields[0]!.id
    })
    afterAll(async () => {
      await server?.close()
    })

    const submit = async (apiKey: string, body: unknown, idempotencyKey?: string) => {
      const response = await fetch(`${server.url}/api/forms/${formId}/responses`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${apiKey}`,
          "content-type": "application/json",
          ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey })
        },
        body: JSON.stringify(body)
      })
      return { status: response.status, body: (await response.json()) as any }
    }
    const stored = (name: string) =>
      server.run(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.map(
            sql<{ readonly responses: number; readonly events: number }>`
              select (select count(*)::int from responses where name = ${name}) as responses,
                (select count(*)::int from events e join responses r on r.id = e.response_id
                  where r.name = ${name} and e.type = 'response.created') as events`,
            (rows) => rows[0]!
          )
        )
      )

    it("a submission sent again with its key answers the first one's response and stores nothing", async () => {
      const body = { values: { [nameId]: "Ada once" } }
      const first = await submit(key, body, "retry-1")
      expect(first.status, JSON.stringify(first.body)).toBe(201)
      const again = await submit(key, body, "retry-1")
      expect(again.status).toBe(201)
      expect(again.body).toEqual(first.body)
      expect(await stored("Ada once")).toEqual({ responses: 1, events: 1 })
      // Without a key, the same body is another submission.
      expect((await submit(key, body)).status).toBe(201)
      expect((await stored("Ada once")).responses).toBe(2)
    })

    it("copies racing with one key store one response, and every copy answers it", async () => {
      const body = { values: { [nameId]: "Grace racing" } }
      const answers = await Promise.all(Array.from({ length: 12 }, () => submit(key, body, "race-1")))
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201))
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1)
      expect(await stored("Grace racing")).toEqual({ responses: 1, events: 1 })
    })

    it("the key with another body is 409, and a malformed key 400, each naming the problem", async () => {
      expect((await submit(key, { values: { [nameId]: "First body" } }, "reused-1")).status).toBe(201)
      const other = await submit(key, { values: { [nameId]: "Second body" } }, "reused-1")
      expect(other.status).toBe(409)
      expect(other.body.error).toContain("this Idempotency-Key was used for another submission")
      expect((await stored("Second body")).responses).toBe(0)
      for (const bad of ["has space", "x".repeat(256), "café"]) {
        const refused = await submit(key, { values: { [nameId]: "Bad key" } }, bad)
        expect(refused.status, bad).toBe(400)
        expect(refused.body.error).toContain("Idempotency-Key")
      }
      expect((await stored("Bad key")).responses).toBe(0)
    })

    it("the public page takes the key too", async () => {
      const body = { values: { [nameId]: "Page retry" } }
      const first = await postJson(server, publicId, body, { "idempotency-key": "page-1" })
      expect(first.status, first.text).toBe(201)
      const again = await postJson(server, publicId, body, { "idempotency-key": "page-1" })
      expect(again.status).toBe(201)
      expect(again.body).toEqual(first.body)
      expect((await stored("Page retry")).responses).toBe(1)
      const bad = await postJson(server, publicId, body, { "idempotency-key": "no spaces allowed" })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toContain("Idempotency-Key")
    })

    it("keys are each workspace's own, go with their response, and are forgotten after a day", async () => {
      const other = (await seedWorkspace(server)).key
      const otherForm = await createForm(server, other, {
        title: "Other",
        fields: [{ type: "short_text", label: "Name", required: true }]
      })
      const otherSubmit = await fetch(`${server.url}/api/forms/${otherForm.id}/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${other}`, "content-type": "application/json", "idempotency-key": "shared" },
        body: JSON.stringify({ values: { [otherForm.fields[0]!.id]: "Other workspace" } })
      })
      expect(otherSubmit.status).toBe(201)
      const mine = await submit(key, { values: { [nameId]: "Mine" } }, "shared")
      expect(mine.status).toBe(201)
      expect((await stored("Mine")).responses).toBe(1)

      // Deleted, the response takes its key along: the key makes a new one.
      expect((await api(server, key, "DELETE", `/responses/${mine.body.id}`)).status).toBe(204)
      const remade = await submit(key, { values: { [nameId]: "Mine" } }, "shared")
      expect(remade.status).toBe(201)
      expect(remade.body.id).not.toBe(mine.body.id)

      // The sweep forgets keys recorded before its limit.
      const swept = await server.run(
        Effect.flatMap(SubmissionKeys.SubmissionKeys, (keys) => keys.sweep(new Date(Date.now() + 60_000))).pipe(
          Effect.provide(SubmissionKeys.SubmissionKeys.layer)
        )
      )
      expect(swept).toBeGreaterThanOrEqual(2)
      const afterSweep = await submit(key, { values: { [nameId]: "Mine" } }, "shared")
      expect(afterSweep.body.id).not.toBe(remade.body.id)
    })
  })
}
