/**
 * Webhook delivery end to end: a real qforms (Qforms.make, with its worker),
 * real receivers on loopback, short retry schedules. On PGlite always, on
 * PostgreSQL too when QFORMS_TEST_DATABASE_URL is set.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import type { DeliveryLog } from "../src/deliveries/Deliveries.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { apiOf } from "@qforms/test-kit/InProcessApi"
import { receiver } from "@qforms/test-kit/Receiver"

/** The subscription's delivery log, once `ready` says it shows what the test waits for. */
const logWhen = (
  api: (method: string, path: string) => Promise<{ readonly json: DeliveryLog }>,
  subscriptionId: string,
  ready: (log: DeliveryLog) => boolean
) =>
  waitFor(async () => {
    const { json } = await api("GET", `/webhooks/subscribe/${subscriptionId}/deliveries`)
    return ready(json) ? json : undefined
  })

for (const target of databaseTargets) {
  describe(`webhook delivery on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let key: string
    // qforms and key are set in beforeAll: read them at each call.
    const api = (method: string, path: string, body?: unknown) => apiOf(qforms, key)(method, path, body)

    /** A published form with a subscription to `targetUrl`; returns its ids and the signing secret. */
    const subscribed = async (targetUrl: string, event = "response.created") => {
      const form = await api("POST", "/forms", {
        title: "Support",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true }
        ]
      })
      await api("PATCH", `/forms/${form.json.id}`, { status: "published" })
      const { json: full } = await api("GET", `/forms/${form.json.id}`)
      const sub = await api("POST", "/webhooks/subscribe", { formId: form.json.id, event, targetUrl, source: "test" })
      expect(sub.status).toBe(201)
      return { formId: form.json.id as number, fields: full.fields as Array<{ id: number }>, sub: sub.json }
    }

    const submit = async (formId: number, fields: Array<{ id: number }>, name = "Ada Lovelace") => {
      const reply = await api("POST", `/forms/${formId}/responses`, {
        values: { [fields[0]!.id]: name, [fields[1]!.id]: "ada@example.com" }
      })
      expect(reply.status).toBe(201)
      return reply.json as { id: number; submittedAt: string }
    }

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl: "https://forms.example.com/base",
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100, 150], timeoutMs: 3_000, pollIntervalMs: 200 }
      })
      key = await qforms.run(
        Effect.gen(function* () {
          const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
            name: "D",
            ownerEmail: "d@example.com"
          })
          return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
        })
      )
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("posts response.created as the spec's WebhookEvent, signed (Standard Webhooks)", async () => {
      const hook = await receiver([200])
      const { fields, formId, sub } = await subscribed(hook.url)
      expect(sub.secret).toMatch(/^whsec_/)
      const row = await submit(formId, fields)
      const [post] = await waitFor(() => (hook.received.length > 0 ? hook.received : undefined))
      const body = JSON.parse(post!.body)
      expect(body).toEqual({
        event: "response.created",
        form: { id: formId, title: "Support" },
        responseId: row.id,
        submittedAt: row.submittedAt,
        stage: null,
        respondent: { name: "Ada Lovelace", email: "ada@example.com" },
        answers: { Name: "Ada Lovelace", Email: "ada@example.com" },
        summary: "■ Name\nAda Lovelace\n\n■ Email\nada@example.com",
        link: `https://forms.example.com/base/app/responses/${row.id}`
      })
      expect(post!.headers["content-type"]).toBe("application/json")
      expect(post!.headers["user-agent"]).toMatch(/^qforms-webhooks\//)
      const verified = new Webhook(sub.secret).verify(post!.body, {
        "webhook-id": String(post!.headers["webhook-id"]),
        "webhook-timestamp": String(post!.headers["webhook-timestamp"]),
        "webhook-signature": String(post!.headers["webhook-signature"])
      })
      expect(verified).toEqual(body)
      const log = await logWhen(api, sub.id, (json) => json.deliveries[0]?.status === "succeeded")
      expect(log.deliveries[0]).toMatchObject({
        eventId: post!.headers["webhook-id"],
        event: "response.created",
        responseId: row.id
      })
      expect(log.deliveries[0].attempts).toHaveLength(1)
      expect(log.deliveries[0].attempts[0]).toMatchObject({ statusCode: 200, error: null })
      const listed = (await api("GET", "/webhooks")).json.find((s: { id: string }) => s.id === sub.id)
      expect(listed.lastSentAt).not.toBeNull()
      await hook.close()
    })

    it("a burst: attempts finishing together are recorded together, each one in its delivery's log", async () => {
      // Each event's first post gets 500, its second 200: retries and successes finish side by side.
      const seen = new Set<string>()
      const posts: Array<string> = []
      const server: Server = createServer((request, response) => {
        request.resume()
        request.on("end", () => {
          const id = String(request.headers["webhook-id"])
          posts.push(id)
          const first = !seen.has(id)
          seen.add(id)
          response.writeHead(first ? 500 : 200).end(first ? "try again" : "ok")
        })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/burst`
      const { fields, formId, sub } = await subscribed(url)
      const count = 40
      await Promise.all(Array.from({ length: count }, (_, i) => submit(formId, fields, `Burst ${i}`)))
      const log = await logWhen(
        api,
        sub.id,
        (json) => json.deliveries.length === count && json.deliveries.every((d) => d.status === "succeeded")
      )
      expect(posts).toHaveLength(2 * count)
      for (const delivery of log.deliveries) {
        expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 200])
        expect(delivery.nextAttemptAt).toBeNull()
        expect(posts.filter((id) => id === delivery.eventId)).toHaveLength(2)
      }
      const last = Math.max(...log.deliveries.flatMap((d) => d.attempts.map((a) => Date.parse(a.at))))
      const listed = (await api("GET", "/webhooks")).json.find((s: { id: string }) => s.id === sub.id)
      expect(Date.parse(listed.lastSentAt)).toBe(last)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    })

    it("retries 500, 500, then 200: three attempts with one webhook-id, then succeeded", async () => {
      const hook = await receiver([500, 500, 200])
      const { fields, formId, sub } = await subscribed(hook.url)
      await submit(formId, fields)
      await waitFor(() => (hook.received.length >= 3 ? true : undefined))
      const log = await logWhen(api, sub.id, (json) => json.deliveries[0]?.status === "succeeded")
      expect(log.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200])
      expect(new Set(hook.received.map((r) => r.headers["webhook-id"])).size).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(hook.received).toHaveLength(3)
      await hook.close()
    })

    it("a host that does not resolve (DNS failure) is retried on the schedule, and is never 'last sent'", async () => {
      // RFC 6761: names under .invalid never resolve (ENOTFOUND, or EAI_AGAIN without a resolver).
      const { fields, formId, sub } = await subscribed("http://hooks.qforms-nowhere.invalid/x")
      await submit(formId, fields)
      const log = await logWhen(api, sub.id, (json) => json.deliveries[0]?.status === "failed")
      // Every attempt of the schedule [0, 50, 100, 150] was made, each a resolution failure without an answer.
      expect(log.deliveries[0]!.attempts).toHaveLength(4)
      for (const attempt of log.deliveries[0]!.attempts) {
        expect(attempt.statusCode).toBeNull()
        expect(attempt.error).toMatch(/could not be resolved/)
      }
      const listed = (await api("GET", "/webhooks")).json.find((s: { id: string }) => s.id === sub.id)
      expect(listed.lastSentAt).toBeNull()
    })

    it("a 400 is final: exactly one attempt", async () => {
      const hook = await receiver([400])
      const { fields, formId, sub } = await subscribed(hook.url)
      await submit(formId, fields)
      const log = await logWhen(api, sub.id, (json) => json.deliveries[0]?.status === "failed")
      await new Promise((resolve) => setTimeout(resolve, 400))
      expect(hook.received).toHaveLength(1)
      expect(log.deliveries[0].attempts).toHaveLength(1)
      await hook.close()
    })

    it("a 410 disables the subscription; PATCH {disabled: false} enables it again", async () => {
      const hook = await receiver([410, 200])
      const { fields, formId, sub } = await subscribed(hook.url)
      await submit(formId, fields)
      const disabled = await waitFor(async () => {
        const found = (await api("GET", "/webhooks")).json.find((s: { id: string }) => s.id === sub.id)
        return found.disabled ? found : undefined
      })
      expect(disabled.disabledReason).toContain("410")
      await submit(formId, fields, "Not delivered")
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(hook.received).toHaveLength(1)
      const enabled = await api("PATCH", `/webhooks/subscribe/${sub.id}`, { disabled: false })
      expect(enabled.json).toMatchObject({ disabled: false, disabledReason: null })
      await submit(formId, fields, "Delivered")
      await waitFor(() => (hook.received.length === 2 ? true : undefined))
      expect(JSON.parse(hook.received[1]!.body).respondent.name).toBe("Delivered")
      await hook.close()
    })

    it("honours Retry-After on 429 within [1x, 2x] of the scheduled delay", async () => {
      const hook = await receiver([429, 200], { "retry-after": "0" })
      const { fields, formId, sub } = await subscribed(hook.url)
      await submit(formId, fields)
      const json = await logWhen(api, sub.id, (json) => json.deliveries[0]?.attempts.length >= 2)
      const [first, second] = json.deliveries[0].attempts
      // Retry-After: 0 is raised to the scheduled 50 ms (less 20% jitter).
      expect(new Date(second.at).getTime() - new Date(first.at).getTime()).toBeGreaterThanOrEqual(40)
      await hook.close()
    })

    it("retries a timeout, and refuses to follow a redirect", async () => {
      let calls = 0
      const slow = createServer((_request, response) => {
        calls++
        if (calls === 1) setTimeout(() => response.end("late"), 10_000)
        else response.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end()
      })
      await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve))
      const { port } = slow.address() as AddressInfo
      const { fields, formId, sub } = await subscribed(`http://127.0.0.1:${port}/slow`)
      await submit(formId, fields)
      const log = await logWhen(api, sub.id, (json) => json.deliveries[0]?.attempts.length >= 2)
      expect(log.deliveries[0].attempts[0].error).toMatch(/timed out/)
      expect(log.deliveries[0].attempts[1].statusCode).toBe(302)
      slow.closeAllConnections()
      await new Promise((resolve) => slow.close(resolve))
    })

    it("posts response.stage_changed with the new stage, and nothing when the stage does not change", async () => {
      const hook = await receiver([200])
      const { fields, formId } = await subscribed(hook.url, "response.stage_changed")
      const row = await submit(formId, fields)
      const { json } = await api("GET", `/forms/${formId}/stages`)
      const done = json.stages.find((s: { name: string }) => s.name === "Done")
      await api("PATCH", `/responses/${row.id}`, { stageId: done.id })
      await api("PATCH", `/responses/${row.id}`, { stageId: done.id })
      const [post] = await waitFor(() => (hook.received.length > 0 ? hook.received : undefined))
      expect(JSON.parse(post!.body)).toMatchObject({
        event: "response.stage_changed",
        responseId: row.id,
        stage: { id: done.id, name: "Done" }
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(hook.received).toHaveLength(1)
      await hook.close()
    })

    it("redelivers on request with the same webhook-id, and sends a signed test ping", async () => {
      const hook = await receiver([200])
      const { fields, formId, sub } = await subscribed(hook.url)
      await submit(formId, fields)
      const log = await logWhen(api, sub.id, (json) => json.deliveries[0]?.status === "succeeded")
      const retried = await api("POST", `/webhooks/deliveries/${log.deliveries[0].id}/retry`)
      expect(retried.status).toBe(200)
      await waitFor(() => (hook.received.length === 2 ? true : undefined))
      expect(hook.received[1]!.headers["webhook-id"]).toBe(hook.received[0]!.headers["webhook-id"])
      const ping = await api("POST", `/webhooks/subscribe/${sub.id}/test`)
      expect(ping.json).toMatchObject({ ok: true, statusCode: 200, error: null })
      const pinged = hook.received[2]!
      expect(JSON.parse(pinged.body)).toMatchObject({ event: "ping", subscriptionId: sub.id })
      expect(String(pinged.headers["webhook-id"])).toMatch(/^msg_test_/)
      new Webhook(sub.secret).verify(pinged.body, {
        "webhook-id": String(pinged.headers["webhook-id"]),
        "webhook-timestamp": String(pinged.headers["webhook-timestamp"]),
        "webhook-signature": String(pinged.headers["webhook-signature"])
      })
      expect((await api("POST", "/webhooks/deliveries/999999/retry")).status).toBe(404)
      await hook.close()
    })
  })
}

describe("webhook targets inside the network are refused (SSRF)", () => {
  let qforms: Qforms.Qforms
  let key: string
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await qforms.handler(
      new Request(`http://qforms.test/api${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    )
    const text = await response.text()
    return { status: response.status, json: text === "" ? undefined : JSON.parse(text) }
  }

  beforeAll(async () => {
    qforms = await Qforms.make({
      database: {},
      appUrl: "https://forms.example.com",
      delivery: { schedule: [0], pollIntervalMs: 200 }
    })
    key = await qforms.run(
      Effect.gen(function* () {
        const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
          name: "S",
          ownerEmail: "s@example.com"
        })
        return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
      })
    )
  })
  afterAll(() => qforms?.dispose())

  it("at subscribe: loopback, private, link-local, CGNAT and unique-local targets get 400", async () => {
    const form = (await api("POST", "/forms", { title: "T" })).json
    for (const targetUrl of [
      "http://127.0.0.1:8080/x",
      "http://localhost/x",
      "http://0.0.0.0/x",
      "http://[::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://10.1.2.3/x",
      "http://172.16.0.1/x",
      "http://192.168.1.1/x",
      "http://100.64.0.1/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[fc00::1]/x",
      "http://[fe80::1]/x",
      "http://2130706433/x",
      "http://0177.0.0.1/x",
      // Names that cannot be resolved now still get the checks that need no DNS.
      "http://LOCALHOST./x",
      "http://user@hooks.invalid/x",
      "ftp://hooks.invalid/x"
    ]) {
      const reply = await api("POST", "/webhooks/subscribe", { formId: form.id, event: "response.created", targetUrl })
      expect(reply.status, targetUrl).toBe(400)
      expect(reply.json.error, targetUrl).toMatch(/targetUrl/)
    }
  })

  it("at delivery: a target that turned internal is refused, not posted", async () => {
    const hook = await receiver([200])
    const created = await api("POST", "/forms", { title: "Later", fields: [{ type: "short_text", label: "Q" }] })
    await api("PATCH", `/forms/${created.json.id}`, { status: "published" })
    const { json: form } = await api("GET", `/forms/${created.json.id}`)
    // A name that did not resolve at subscribe time (accepted), pointed at loopback by the time of delivery.
    const sub = (
      await api("POST", "/webhooks/subscribe", {
        formId: form.id,
        event: "response.created",
        targetUrl: "https://hooks.invalid/x"
      })
    ).json
    await qforms.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`update webhook_subscriptions set target_url = ${hook.url} where id = ${sub.id}`
      })
    )
    await api("POST", `/forms/${form.id}/responses`, { values: { [form.fields[0].id]: "x" } })
    const log = await logWhen(api, sub.id, (json) => json.deliveries[0]?.status === "failed")
    expect(log.deliveries[0].attempts[0].error).toMatch(/loopback/)
    expect(hook.received).toHaveLength(0)
    await hook.close()
  })
})
