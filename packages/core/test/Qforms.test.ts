import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import { Effect, Layer } from "effect"
import * as References from "effect/References"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Responses } from "../src/cases/Responses.ts"
import { Forms } from "../src/forms/Forms.ts"
import * as Actors from "../src/kernel/Actors.ts"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Members } from "../src/identity/Members.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { Webhooks } from "../src/deliveries/Webhooks.ts"
import * as Qforms from "../src/Qforms.ts"
import { waitFor } from "@qforms/test-kit/Conditions"
import { receiver } from "@qforms/test-kit/Receiver"

describe("Qforms.make", () => {
  let qforms: Qforms.Qforms
  let key: string
  let viewerAccountId: number
  let workspaceId: number
  beforeAll(async () => {
    qforms = await Qforms.make({
      database: {},
      // No appUrl (pages and the OpenAPI document follow each request), so no deliveries.
      delivery: { worker: false },
      resolveActor: ({ headers }) =>
        headers["x-host-user"] === "viewer" ? { workspaceId, accountId: viewerAccountId } : null
    })
    ;({ key, viewerAccountId, workspaceId } = await qforms.run(
      Effect.gen(function* () {
        const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
          name: "Q",
          ownerEmail: "q@example.com"
        })
        const viewer = yield* (yield* Members).add(workspace.id, { email: "v@example.com", role: "viewer" })
        const { key } = yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })
        return { key, viewerAccountId: viewer.accountId, workspaceId: workspace.id }
      })
    ))
  })
  afterAll(() => qforms.dispose())

  it("serves the API through the web handler", async () => {
    const created = await qforms.handler(
      new Request("http://host/api/forms", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "Web" })
      })
    )
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ title: "Web", status: "draft" })
    const missing = await qforms.handler(new Request("http://host/api/nope"))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: "no route GET /api/nope" })
  })

  it("serves the API through the native Node handler", async () => {
    const server = testHttpServer(qforms.nodeHandler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    const reply = await fetch(`http://127.0.0.1:${port}/api/forms`, { headers: { authorization: `Bearer ${key}` } })
    expect(reply.status).toBe(200)
    expect(((await reply.json()) as Array<{ title: string }>).map((f) => f.title)).toContain("Web")
    await new Promise((resolve) => server.close(resolve))
  })

  it("lets the host's identity bridge sign a member in, with that member's role", async () => {
    const read = await qforms.handler(new Request("http://host/api/forms", { headers: { "x-host-user": "viewer" } }))
    expect(read.status).toBe(200)
    const write = await qforms.handler(
      new Request("http://host/api/forms", {
        method: "POST",
        headers: { "x-host-user": "viewer", "content-type": "application/json" },
        body: "{}"
      })
    )
    expect(write.status).toBe(403)
    const nobody = await qforms.handler(new Request("http://host/api/forms"))
    expect(nobody.status).toBe(401)
  })

  it("names where it is mounted in the OpenAPI servers entry", async () => {
    const doc = (await (
      await qforms.handler(
        new Request("http://example.com/api/openapi.json", {
          headers: { "x-forwarded-prefix": "/forms-service", "x-forwarded-proto": "https" }
        })
      )
    ).json()) as { servers: Array<{ url: string }> }
    expect(doc.servers[0]!.url).toBe("https://example.com/forms-service")
    const hostile = (await (
      await qforms.handler(
        new Request("http://example.com/api/openapi.json", {
          headers: { "x-forwarded-prefix": '"><script>' }
        })
      )
    ).json()) as { servers: Array<{ url: string }> }
    expect(hostile.servers[0]!.url).toBe("http://example.com")
  })
})

describe("Qforms.make options", () => {
  it.each([
    [
      { rateLimit: { requestsPerSecond: 0, burst: 100 } },
      "rateLimit.requestsPerSecond: Expected a number greater than 0"
    ],
    [
      { rateLimit: { requestsPerSecond: -1, burst: 100 } },
      "rateLimit.requestsPerSecond: Expected a number greater than 0"
    ],
    [{ rateLimit: { requestsPerSecond: Number.NaN, burst: 100 } }, "rateLimit.requestsPerSecond"],
    [{ rateLimit: { requestsPerSecond: 20, burst: 0 } }, "rateLimit.burst: Expected a whole number of 1 or more"],
    [{ uploadRateLimit: { requestsPerSecond: Infinity, burst: 1 } }, "uploadRateLimit.requestsPerSecond"],
    [{ uploads: { maxBytesPerForm: 0 } }, "uploads.maxBytesPerForm"],
    [{ uploads: { maxBytesPerWorkspace: 1.5 } }, "uploads.maxBytesPerWorkspace"],
    [{ maxBodyBytes: 0 }, "maxBodyBytes: Expected a whole number of 1 or more"],
    [{ database: { url: "postgres://x", maxConnections: 0 } }, "database.maxConnections"],
    [{ delivery: { timeoutMs: -5 } }, "delivery.timeoutMs"],
    [{ delivery: { maxInFlight: 0 } }, "delivery.maxInFlight"],
    [
      { publicPage: { submissionRateLimit: { requestsPerSecond: 0, burst: 10 } } },
      "publicPage.submissionRateLimit.requestsPerSecond"
    ],
    [{ publicPage: { minSubmitSeconds: -1 } }, "publicPage.minSubmitSeconds: Expected a number of 0 or more"],
    [{ publicPage: { trustedProxyHops: 1.5 } }, "publicPage.trustedProxyHops"],
    [{ partialResponses: { maxAgeDays: 0 } }, "partialResponses.maxAgeDays: Expected a number greater than 0"],
    [
      { partialResponses: { newPerAddressPerHour: -1 } },
      "partialResponses.newPerAddressPerHour: Expected a whole number of 0 or more"
    ],
    [{ partialResponses: { newPerAddressPerHour: 2.5 } }, "partialResponses.newPerAddressPerHour"],
    [{ logLevel: "loud" }, "logLevel: Expected a log level"],
    [{ appUrl: "forms.example.com" }, "appUrl: Expected an absolute http(s) URL"],
    [{ appUrl: "ftp://forms.example.com" }, "appUrl: Expected an absolute http(s) URL"],
    [{ appUrl: "https://forms.example.com/x?next=1" }, "appUrl: Expected an absolute http(s) URL"],
    [{}, "appUrl is required for deliveries"],
    [{ delivery: { worker: true } }, "appUrl is required for deliveries"],
    [
      { delivery: { worker: false }, mail: { url: "smtp://127.0.0.1:2525", from: "f@example.com" } },
      "mail needs appUrl"
    ]
  ])("%j is refused before anything opens", async (options, message) => {
    // A database directory that cannot be created: refusing must come first.
    await expect(
      Qforms.make({ database: { dataDir: "/proc/qforms-never-created" }, ...options } as Qforms.QformsOptions)
    ).rejects.toThrow(message)
  })

  it.each([
    ["debug", "Debug"],
    ["WARNING", "Warn"],
    ["off", "None"],
    ["Info", "Info"]
  ])("takes the log level %s as %s", async (logLevel, level) => {
    const qforms = await Qforms.make({ database: {}, logLevel, delivery: { worker: false } })
    try {
      expect(
        await qforms.run(
          Effect.gen(function* () {
            return yield* References.MinimumLogLevel
          })
        )
      ).toBe(level)
    } finally {
      await qforms.dispose()
    }
  })
})

describe("Qforms.layer", () => {
  it("runs everything make runs in an Effect program: a submission's webhook is delivered by its worker", async () => {
    const hook = await receiver()
    try {
      const program = Effect.gen(function* () {
        const { workspace } = yield* (yield* Workspaces).create({ name: "L", ownerEmail: "l@example.com" })
        const actor = Actors.system(workspace.id)
        const forms = yield* Forms
        const form = yield* forms.create(actor, {
          title: "Layer",
          fields: [{ type: "email", label: "Email", required: true, options: null }]
        })
        yield* forms.update(actor, form.id, { status: "published" })
        const [question] = yield* forms.fields(workspace.id, form.id)
        yield* (yield* Webhooks).subscribe(actor, { formId: form.id, event: "response.created", targetUrl: hook.url })
        yield* (yield* Responses).submit(
          actor,
          form.id,
          { values: { [String(question!.id)]: "ada@example.com" } },
          "api"
        )
        // The worker of the layer, not this program, posts it: wait for the receiver.
        yield* Effect.promise(() => waitFor(() => hook.received[0]))
      })
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const context = yield* Layer.build(
              Qforms.layerServices({
                database: {},
                appUrl: "http://127.0.0.1:1/forms",
                delivery: { allowPrivateTargets: true, pollIntervalMs: 50 },
                logLevel: "Error"
              })
            )
            yield* program.pipe(Effect.provideContext(context))
          })
        )
      )
      const body = JSON.parse(hook.received[0]!.body) as { event: string; link: string }
      expect(body.event).toBe("response.created")
      expect(body.link).toMatch(/^http:\/\/127\.0\.0\.1:1\/forms\/app\/responses\/\d+$/)
      expect(hook.received[0]!.headers["webhook-signature"]).toMatch(/^v1,/)
    } finally {
      await hook.close()
    }
  })

  it("refuses, like make, options that cannot work", () => {
    expect(() => Qforms.layer({ database: {} })).toThrow(/appUrl is required for deliveries/)
  })
})
