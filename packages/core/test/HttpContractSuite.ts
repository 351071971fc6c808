/**
 * The HTTP contract: every endpoint of `form-response-api.md` section 4 and
 * its extensions, against a real server on an ephemeral loopback port, with
 * plain `fetch`. Written once, run by `Http.test.ts` on PGlite always and on
 * PostgreSQL when QFORMS_TEST_DATABASE_URL is set.
 *
 * Workspaces, members and API keys are seeded through the services; every
 * other record (forms, questions, stages, responses, notes, subscriptions) is
 * made through the API itself.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys, generate as generateKey } from "../src/domain/ApiKeys.ts"
import { Members } from "../src/domain/Members.ts"
import { Sessions } from "../src/domain/Sessions.ts"
import { Workspaces } from "../src/domain/Workspaces.ts"
import type { DatabaseTarget } from "./support/Databases.ts"
import { type StartServer, startTestServer, type TestServer, type TestServerOptions } from "./support/TestServer.ts"

// ---------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------

/** Workspace A (owner, viewer, member) and workspace B (owner), with their keys. */
const seedWorkspaces = Effect.gen(function*() {
  const workspaces = yield* Workspaces
  const members = yield* Members
  const keys = yield* ApiKeys
  const a = yield* workspaces.create({ name: "Workspace A", ownerEmail: "owner-a@example.com", ownerName: "Owner A" })
  const viewer = yield* members.add(a.workspace.id, { email: "viewer-a@example.com", name: "Viewer A", role: "viewer" })
  const member = yield* members.add(a.workspace.id, { email: "member-a@example.com", name: "Member A", role: "member" })
  const b = yield* workspaces.create({ name: "Workspace B", ownerEmail: "owner-b@example.com", ownerName: "Owner B" })
  const ownerKey = yield* keys.create(a.workspace.id, { accountId: a.ownerAccountId, name: "owner" })
  const viewerKey = yield* keys.create(a.workspace.id, { accountId: viewer.accountId, name: "viewer" })
  const memberKey = yield* keys.create(a.workspace.id, { accountId: member.accountId, name: "member" })
  const otherKey = yield* keys.create(b.workspace.id, { accountId: b.ownerAccountId, name: "other workspace" })
  const revoked = yield* keys.create(a.workspace.id, { accountId: a.ownerAccountId, name: "revoked" })
  yield* keys.revoke(a.workspace.id, revoked.apiKey.id)
  return {
    a: {
      workspaceId: a.workspace.id,
      ownerAccountId: a.ownerAccountId,
      viewerAccountId: viewer.accountId,
      memberAccountId: member.accountId
    },
    b: { workspaceId: b.workspace.id, ownerAccountId: b.ownerAccountId },
    keys: {
      owner: ownerKey.key,
      viewer: viewerKey.key,
      member: memberKey.key,
      other: otherKey.key,
      revoked: revoked.key
    }
  }
})
type Seed = Effect.Success<typeof seedWorkspaces>

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

/** What came back: status, headers, raw text, and the parsed body when it is JSON. */
interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any
}

interface RequestOptions {
  /** The bearer key; `null` sends no Authorization header. Defaults to A's owner key. */
  readonly key?: string | null | undefined
  /** Sent as JSON. */
  readonly body?: unknown
  /** Sent as is, with `Content-Type: application/json` unless `headers` say otherwise. */
  readonly raw?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** One request and the answer to it, as received (see {@link ContractSuiteOptions.onReply}). */
export interface Exchange {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** Options of {@link httpContractSuite}. */
export interface ContractSuiteOptions {
  /**
   * Sees every answer the suite receives (e.g. to check it against the OpenAPI
   * document); throwing fails the test that made the request.
   */
  readonly onReply?: ((exchange: Exchange) => void) | undefined
}

/** `fetch`, with the answer shown to `onReply` first. */
const send = async (url: string, init: RequestInit = {}, onReply?: ContractSuiteOptions["onReply"]): Promise<Response> => {
  const response = await fetch(url, init)
  if (onReply !== undefined) {
    const text = await response.clone().text()
    onReply({ method: init.method ?? "GET", url, status: response.status, headers: response.headers, text })
  }
  return response
}

const request = async (
  baseUrl: string,
  defaultKey: string,
  method: string,
  path: string,
  options: RequestOptions = {},
  onReply?: ContractSuiteOptions["onReply"]
): Promise<Reply> => {
  const headers: Record<string, string> = {}
  const key = options.key === undefined ? defaultKey : options.key
  if (key !== null) headers["authorization"] = `Bearer ${key}`
  let payload: string | undefined
  if (options.raw !== undefined) {
    payload = options.raw
    headers["content-type"] = "application/json"
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body)
    headers["content-type"] = "application/json"
  }
  Object.assign(headers, options.headers ?? {})
  const response = await send(`${baseUrl}/api${path}`, { method, headers, body: payload ?? null }, onReply)
  const text = await response.text()
  const contentType = response.headers.get("content-type") ?? ""
  let body: unknown = undefined
  if (contentType.includes("json") && text !== "") {
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
  }
  return { status: response.status, headers: response.headers, text, body }
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** Asserts a status, with the body in the failure message. */
const expectStatus = (reply: Reply, status: number) => expect(reply.status, `body: ${reply.text.slice(0, 500)}`).toBe(status)

/**
 * Asserts an error reply: the status, a JSON `{error}` body (plus `details`
 * only on a 400) and, when given, that the message names each of `names`.
 */
const expectError = (reply: Reply, status: number, ...names: ReadonlyArray<string>) => {
  expectStatus(reply, status)
  expect(reply.headers.get("content-type") ?? "", `content-type of ${reply.text.slice(0, 200)}`).toMatch(
    /application\/(problem\+)?json/
  )
  expect(reply.body, reply.text.slice(0, 500)).toBeTypeOf("object")
  expect(reply.body).not.toBeNull()
  expect(typeof reply.body.error, reply.text.slice(0, 500)).toBe("string")
  expect(reply.body.error.length).toBeGreaterThan(0)
  const extra = Object.keys(reply.body).filter((k) => k !== "error" && !(status === 400 && k === "details"))
  expect(extra, `unexpected keys in ${reply.text.slice(0, 300)}`).toEqual([])
  if (reply.body.details !== undefined) {
    expect(Array.isArray(reply.body.details)).toBe(true)
    for (const detail of reply.body.details) {
      expect(detail).toMatchObject({ path: expect.any(String), message: expect.any(String) })
    }
  }
  for (const name of names) {
    expect(reply.body.error.toLowerCase(), `the error should name "${name}"`).toContain(name.toLowerCase())
  }
}

/**
 * Like {@link expectError}, for requests checked in a loop: a wrong status is
 * recorded (soft) and the loop goes on, so one run lists every failing request.
 */
const softError = (label: string, reply: Reply, status: number, ...names: ReadonlyArray<string>) => {
  expect.soft(reply.status, `${label} → ${reply.text.slice(0, 200)}`).toBe(status)
  if (reply.status === status) expectError(reply, status, ...names)
}

const expectFormSummary = (form: unknown) => {
  expect(form).toMatchObject({
    id: expect.any(Number),
    publicId: expect.any(String),
    title: expect.any(String),
    status: expect.stringMatching(/^(draft|published|closed)$/),
    responseCount: expect.any(Number),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO)
  })
  const f = form as { id: number; description: unknown; folderId: unknown; responseCount: number }
  expect(Number.isInteger(f.id)).toBe(true)
  expect(Number.isInteger(f.responseCount)).toBe(true)
  expect(f.description === null || typeof f.description === "string").toBe(true)
  expect(f.folderId === null || Number.isInteger(f.folderId)).toBe(true)
}

const expectField = (field: unknown) => {
  expect(field).toMatchObject({
    id: expect.any(Number),
    type: expect.any(String),
    label: expect.any(String),
    required: expect.any(Boolean),
    position: expect.any(Number)
  })
  const options = (field as { options: unknown }).options
  expect(options === null || (typeof options === "object" && !Array.isArray(options))).toBe(true)
}

const expectStage = (stage: unknown) => {
  expect(stage).toMatchObject({ id: expect.any(Number), name: expect.any(String), isClosed: expect.any(Boolean) })
  const color = (stage as { color: unknown }).color
  expect(color === null || typeof color === "string").toBe(true)
}

const expectMember = (member: unknown) => {
  expect(member).toMatchObject({
    accountId: expect.any(Number),
    email: expect.any(String),
    role: expect.stringMatching(/^(owner|admin|member|viewer)$/)
  })
  const name = (member as { name: unknown }).name
  expect(name === null || typeof name === "string").toBe(true)
}

const expectResponseRow = (row: unknown, flat = false) => {
  expect(row).toMatchObject({
    id: expect.any(Number),
    submittedAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO),
    tags: expect.any(Array),
    source: expect.any(String),
    values: expect.any(Object)
  })
  const r = row as Record<string, unknown>
  for (const key of ["name", "email"]) expect(r[key] === null || typeof r[key] === "string").toBe(true)
  for (const key of ["stageId", "assigneeId"]) expect(r[key] === null || Number.isInteger(r[key])).toBe(true)
  if (flat) {
    expect(r["answers"]).toBeTypeOf("object")
    for (const value of Object.values(r["answers"] as object)) expect(value).toBeTypeOf("string")
    expect(r["summary"]).toBeTypeOf("string")
  } else {
    expect(r).not.toHaveProperty("answers")
    expect(r).not.toHaveProperty("summary")
  }
}

/** RFC 4180 parser (accepts CRLF or LF between records, strips a leading BOM). */
const parseCsv = (input: string): Array<Array<string>> => {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let cell = ""
  let quoted = false
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === "\"") {
        if (text[i + 1] === "\"") {
          cell += "\""
          i += 2
          continue
        }
        quoted = false
        i++
        continue
      }
      cell += c
      i++
      continue
    }
    if (c === "\"" && cell === "") {
      quoted = true
      i++
    } else if (c === ",") {
      row.push(cell)
      cell = ""
      i++
    } else if (c === "\r" || c === "\n") {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ""
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1
    } else {
      cell += c
      i++
    }
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const contactFields = [
  { type: "short_text", label: "Name", required: true },
  { type: "email", label: "Email", required: true },
  { type: "select", label: "Plan", required: false, options: { choices: ["Free", "Pro"] } },
  { type: "long_text", label: "Message" }
]

const hookUrl = (suffix = "x") => `https://hooks.example.com/${suffix}`

// ---------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------

/**
 * The contract, run against one database and one way of serving qforms
 * (`start`: the core routes directly by default; the standalone and every
 * adapter pass their own, mounted under a prefix).
 */
export const httpContractSuite = (
  target: DatabaseTarget,
  start: StartServer = startTestServer,
  via = "core",
  settings: ContractSuiteOptions = {}
) =>
  describe(`HTTP contract via ${via} on ${target.name}`, () => {
    let server: TestServer
    let seed: Seed

    beforeAll(async () => {
      // A generous limit: this suite sends hundreds of requests with one key; 429 has its own server below.
      server = await start(target, {
        rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 1000, burst: 1000 } }
      })
      seed = await server.run(seedWorkspaces)
    }, 120_000)

    afterAll(async () => {
      await server?.close()
    })

    const api = (method: string, path: string, options?: RequestOptions) =>
      request(server.url, seed.keys.owner, method, path, options, settings.onReply)

    /** POST /forms, asserting 201. */
    const createForm = async (body: object = { title: "Contact", fields: contactFields }, key?: string) => {
      const reply = await api("POST", "/forms", { body, key })
      expectStatus(reply, 201)
      return reply.body as { id: number; title: string; publicId: string; fields: Array<{ id: number }> }
    }

    /** A published form with the contact questions, its question ids and stages. */
    const publishedForm = async (title = "Contact") => {
      const created = await createForm({ title, fields: contactFields })
      const published = await api("PATCH", `/forms/${created.id}`, { body: { status: "published" } })
      expectStatus(published, 200)
      const [name, email, plan, message] = created.fields
      const stages = await api("GET", `/forms/${created.id}/stages`)
      expectStatus(stages, 200)
      return {
        formId: created.id,
        title,
        ids: { name: name!.id, email: email!.id, plan: plan!.id, message: message!.id },
        stages: stages.body.stages as Array<{ id: number; name: string; isClosed: boolean }>
      }
    }
    type Published = Awaited<ReturnType<typeof publishedForm>>

    const submit = async (form: Published, name: string, extra: Record<string, unknown> = {}) => {
      const reply = await api("POST", `/forms/${form.formId}/responses`, {
        body: { values: { [form.ids.name]: name, [form.ids.email]: `${name.toLowerCase()}@example.com`, ...extra } }
      })
      expectStatus(reply, 201)
      return reply.body as { id: number; submittedAt: string }
    }

    const subscribe = async (formId: number, event = "response.created", extra: object = {}) => {
      const reply = await api("POST", "/webhooks/subscribe", {
        body: { formId, event, targetUrl: hookUrl(String(formId)), ...extra }
      })
      expectStatus(reply, 201)
      return reply.body as { id: string; secret?: string }
    }

    /** A published form with one response, a custom stage and a subscription: one of everything. */
    const everything = async () => {
      const form = await publishedForm("Everything")
      const response = await submit(form, "Ada")
      const stage = await api("POST", `/forms/${form.formId}/stages`, { body: { name: "Custom" } })
      expectStatus(stage, 201)
      const subscription = await subscribe(form.formId)
      return { form, responseId: response.id, stageId: stage.body.id as number, subscriptionId: subscription.id }
    }

    // -------------------------------------------------------------------------
    describe("public documents", () => {
      it("GET /api/openapi.json needs no key and describes API 1.0.0 in OpenAPI 3.1", async () => {
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
          ["DELETE", "/webhooks/subscribe/{}"],
          ["POST", "/v1/forms/generate"]
        ]
        const missing = expected.filter(([method, path]) => !documented.get(path)?.has(method))
        expect(missing).toEqual([])
        const schemes = Object.values((reply.body.components?.securitySchemes ?? {}) as Record<string, { scheme?: string }>)
        expect(schemes.some((s) => s.scheme?.toLowerCase() === "bearer")).toBe(true)
      })

      it("GET /api/docs needs no key and is an HTML page", async () => {
        const reply = await api("GET", "/docs", { key: null })
        expectStatus(reply, 200)
        expect(reply.headers.get("content-type")).toMatch(/^text\/html/)
        expect(reply.text).toMatch(/<html/i)
      })
    })

    // -------------------------------------------------------------------------
    describe("authentication", () => {
      const badCredentials = (): ReadonlyArray<readonly [string, Record<string, string>]> => [
        ["missing header", {}],
        ["malformed key", { authorization: "Bearer qk_live_short" }],
        ["wrong key", { authorization: `Bearer ${generateKey()}` }],
        ["revoked key", { authorization: `Bearer ${seed.keys.revoked}` }]
      ]

      for (const kind of ["missing header", "malformed key", "wrong key", "revoked key"]) {
        it(`401 {error} with WWW-Authenticate: Bearer for a ${kind}`, async () => {
          const [, headers] = badCredentials().find(([label]) => label === kind)!
          const reply = await api("GET", "/forms", { key: null, headers })
          expectError(reply, 401)
          expect(reply.headers.get("www-authenticate") ?? "").toMatch(/^Bearer/)
        })
      }

      it("every endpoint answers 401 to a bad key, before looking at the request, and changes nothing", async () => {
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
          ["POST", `/forms/${f}/responses`, { values: { [all.form.ids.name]: "X", [all.form.ids.email]: "x@example.com" } }],
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
          ["DELETE", `/webhooks/subscribe/${all.subscriptionId}`],
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
      })
    })

    // -------------------------------------------------------------------------
    describe("routing and request bodies", () => {
      it("unknown route → 404 {error}", async () => {
        expectError(await api("GET", "/nope"), 404)
        expectError(await api("POST", "/nope", { body: {} }), 404)
      })

      it("wrong method → 405 {error} with an Allow header", async () => {
        const put = await api("PUT", "/forms", { body: {} })
        expectError(put, 405)
        const allow = (put.headers.get("allow") ?? "").toUpperCase()
        expect(allow).toContain("GET")
        expect(allow).toContain("POST")
        const form = await createForm({ title: "Methods" })
        const post = await api("POST", `/forms/${form.id}`, { body: {} })
        expectError(post, 405)
        const allowed = (post.headers.get("allow") ?? "").toUpperCase()
        for (const method of ["GET", "PATCH", "DELETE"]) expect(allowed).toContain(method)
        const members = await api("DELETE", "/members")
        expectError(members, 405)
        expect((members.headers.get("allow") ?? "").toUpperCase()).toContain("GET")
      })

      it("a non-integer path id → 400 {error}", async () => {
        const cases: ReadonlyArray<readonly [string, string, unknown?]> = [
          ["GET", "/forms/abc"],
          ["PATCH", "/forms/abc", { title: "x" }],
          ["DELETE", "/forms/1.5"],
          ["GET", "/forms/abc/responses"],
          ["GET", "/forms/abc/responses.csv"],
          ["GET", "/forms/abc/stages"],
          ["POST", "/forms/abc/stages", { name: "x" }],
          ["GET", "/responses/abc"],
          ["DELETE", "/responses/-1x"],
          ["POST", "/responses/abc/notes", { body: "x" }],
          ["PATCH", "/stages/abc", { name: "x" }]
        ]
        for (const [method, path, body] of cases) {
          const reply = await api(method, path, { body })
          softError(`${method} ${path}`, reply, 400)
        }
      })

      it("invalid JSON, a non-object body and a body of the wrong type → 400 {error}", async () => {
        expectError(await api("POST", "/forms", { raw: "{nope" }), 400)
        expectError(await api("POST", "/forms", { raw: "[]" }), 400)
        expectError(await api("POST", "/forms", { raw: "\"title\"" }), 400)
        const form = await publishedForm("Bad JSON")
        const response = await submit(form, "Json")
        expectError(await api("PATCH", `/responses/${response.id}`, { raw: "{\"tags\": [" }), 400)
        expectError(await api("POST", `/responses/${response.id}/notes`, { raw: "not json at all" }), 400)
        expectError(await api("POST", "/webhooks/subscribe", { raw: "{" }), 400)
      })

      it("a body over 1 MiB → 413 {error}, and nothing is created", async () => {
        const before = (await api("GET", "/forms")).body.length as number
        const reply = await api("POST", "/forms", {
          body: { title: "Too big", description: "x".repeat(1024 * 1024 + 10) }
        })
        expectError(reply, 413)
        expect((await api("GET", "/forms")).body.length).toBe(before)
      })

      it("unknown body fields → 400 naming the field, on every endpoint with a body", async () => {
        const all = await everything()
        const f = all.form.formId
        const stages = (await api("GET", `/forms/${f}/stages`)).body.stages.map((s: { id: number }) => s.id)
        const cases: ReadonlyArray<readonly [string, string, object, string]> = [
          ["POST", "/forms", { title: "x", colour: "red" }, "colour"],
          ["PATCH", `/forms/${f}`, { title: "x", archived: true }, "archived"],
          ["POST", `/forms/${f}/stages`, { name: "x", order: 1 }, "order"],
          ["PATCH", `/stages/${all.stageId}`, { name: "x", position: 2 }, "position"],
          ["PUT", `/forms/${f}/stages/order`, { stageIds: stages, reverse: true }, "reverse"],
          ["POST", `/forms/${f}/responses`, {
            values: { [all.form.ids.name]: "X", [all.form.ids.email]: "x@example.com" },
            meta: 1
          }, "meta"],
          ["PATCH", `/responses/${all.responseId}`, { tags: ["x"], priority: 1 }, "priority"],
          ["POST", `/responses/${all.responseId}/notes`, { body: "x", pinned: true }, "pinned"],
          ["POST", "/webhooks/subscribe", {
            formId: f,
            event: "response.created",
            targetUrl: hookUrl(),
            headers: {}
          }, "headers"],
          ["POST", "/v1/forms/generate", { prompt: "A contact form", model: "gpt" }, "model"]
        ]
        for (const [method, path, body, field] of cases) {
          const reply = await api(method, path, { body })
          softError(`${method} ${path}`, reply, 400, field)
        }
        // Nothing was changed by the refused requests.
        expect((await api("GET", `/forms/${f}`)).body.title).toBe("Everything")
        const detail = await api("GET", `/responses/${all.responseId}`)
        expect(detail.body.response.tags).toEqual([])
        expect(detail.body.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
      })
    })

    // -------------------------------------------------------------------------
    describe("forms", () => {
      it("POST /forms with {} → 201 draft titled \"Untitled form\"", async () => {
        const reply = await api("POST", "/forms", { body: {} })
        expectStatus(reply, 201)
        expectFormSummary(reply.body)
        expect(reply.body).toMatchObject({
          title: "Untitled form",
          status: "draft",
          description: null,
          folderId: null,
          responseCount: 0
        })
        expect(reply.body.publicId.length).toBeGreaterThan(0)
      })

      it("POST /forms with title, description, folderId and fields → 201; GET /forms/{id} → FormWithFields", async () => {
        const reply = await api("POST", "/forms", {
          body: { title: "Contact us", description: "Say hello", folderId: 7, fields: contactFields }
        })
        expectStatus(reply, 201)
        expectFormSummary(reply.body)
        expect(reply.body).toMatchObject({
          title: "Contact us",
          description: "Say hello",
          folderId: 7,
          status: "draft",
          responseCount: 0
        })
        const full = await api("GET", `/forms/${reply.body.id}`)
        expectStatus(full, 200)
        // Extension: the created form lists its questions with their ids (the keys of the answers to submit).
        expect(reply.body.fields).toEqual(full.body.fields)
        expect(full.body).toMatchObject({
          id: reply.body.id,
          publicId: reply.body.publicId,
          title: "Contact us",
          description: "Say hello",
          status: "draft"
        })
        full.body.fields.forEach(expectField)
        expect(full.body.fields.map((f: { label: string; type: string; required: boolean; position: number }) => [
          f.label,
          f.type,
          f.required,
          f.position
        ])).toEqual([
          ["Name", "short_text", true, 0],
          ["Email", "email", true, 1],
          ["Plan", "select", false, 2],
          ["Message", "long_text", false, 3]
        ])
        expect(full.body.fields[2].options).toMatchObject({ choices: ["Free", "Pro"] })
      })

      it("GET /forms → array of FormSummary, newest change first", async () => {
        const first = await createForm({ title: "List first" })
        const second = await createForm({ title: "List second" })
        let list = await api("GET", "/forms")
        expectStatus(list, 200)
        expect(Array.isArray(list.body)).toBe(true)
        list.body.forEach(expectFormSummary)
        let ids = list.body.map((f: { id: number }) => f.id)
        expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id))
        await sleep(5)
        expectStatus(await api("PATCH", `/forms/${first.id}`, { body: { description: "changed" } }), 200)
        list = await api("GET", "/forms")
        ids = list.body.map((f: { id: number }) => f.id)
        expect(ids[0]).toBe(first.id)
        expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id))
        const updatedAts = list.body.map((f: { updatedAt: string }) => Date.parse(f.updatedAt))
        expect([...updatedAts].sort((x, y) => y - x)).toEqual(updatedAts)
      })

      it("PATCH /forms/{id} changes any subset → 200 Form after the change", async () => {
        const form = await createForm({ title: "Before", description: "Kept" })
        const title = await api("PATCH", `/forms/${form.id}`, { body: { title: "After" } })
        expectStatus(title, 200)
        expectFormSummary(title.body)
        expect(title.body).toMatchObject({ id: form.id, title: "After", description: "Kept", status: "draft" })
        const several = await api("PATCH", `/forms/${form.id}`, {
          body: { description: null, status: "published", folderId: 3 }
        })
        expectStatus(several, 200)
        expect(several.body).toMatchObject({ title: "After", description: null, status: "published", folderId: 3 })
        const closed = await api("PATCH", `/forms/${form.id}`, { body: { status: "closed", folderId: null } })
        expectStatus(closed, 200)
        expect(closed.body).toMatchObject({ status: "closed", folderId: null })
        const empty = await api("PATCH", `/forms/${form.id}`, { body: {} })
        expectStatus(empty, 200)
        expect(empty.body).toMatchObject({ title: "After", status: "closed" })
        expect((await api("GET", `/forms/${form.id}`)).body).toMatchObject({ title: "After", status: "closed" })
      })

      it("PATCH /forms/{id} with fields replaces the questions; a question sent with its id keeps it", async () => {
        const form = await publishedForm("Replace")
        await submit(form, "Ada")
        const reply = await api("PATCH", `/forms/${form.formId}`, {
          body: {
            fields: [
              { id: form.ids.email, type: "email", label: "Work email", required: true },
              { type: "yes_no", label: "Subscribe?" },
              { id: form.ids.name, type: "short_text", label: "Name", required: true }
            ]
          }
        })
        expectStatus(reply, 200)
        expectFormSummary(reply.body)
        const full = await api("GET", `/forms/${form.formId}`)
        const fields = full.body.fields as Array<{ id: number; label: string; position: number }>
        expect(fields.map((f) => [f.label, f.position])).toEqual([["Work email", 0], ["Subscribe?", 1], ["Name", 2]])
        expect(fields[0]!.id).toBe(form.ids.email)
        expect(fields[2]!.id).toBe(form.ids.name)
        expect([form.ids.name, form.ids.email, form.ids.plan, form.ids.message]).not.toContain(fields[1]!.id)
        const flat = await api("GET", `/forms/${form.formId}/responses?flat=1`)
        expect(flat.body.responses[0].answers).toEqual({ "Work email": "ada@example.com", Name: "Ada" })
        // A question id of another form is refused.
        const other = await publishedForm("Replace other")
        const bad = await api("PATCH", `/forms/${form.formId}`, {
          body: { fields: [{ id: other.ids.name, type: "short_text", label: "Stolen" }] }
        })
        expectError(bad, 400, "fields")
        expect((await api("GET", `/forms/${form.formId}`)).body.fields).toHaveLength(3)
      })

      it("DELETE /forms/{id} → 204, then GET/PATCH/DELETE → 404; its responses, stages and subscriptions go with it", async () => {
        const all = await everything()
        const f = all.form.formId
        const reply = await api("DELETE", `/forms/${f}`)
        expectStatus(reply, 204)
        expect(reply.text).toBe("")
        expectError(await api("GET", `/forms/${f}`), 404)
        expectError(await api("PATCH", `/forms/${f}`, { body: { title: "Gone" } }), 404)
        expectError(await api("DELETE", `/forms/${f}`), 404)
        expectError(await api("GET", `/forms/${f}/responses`), 404)
        expectError(await api("GET", `/forms/${f}/stages`), 404)
        expectError(await api("GET", `/responses/${all.responseId}`), 404)
        expectError(await api("PATCH", `/stages/${all.stageId}`, { body: { name: "Gone" } }), 404)
        const hooks = await api("GET", "/webhooks")
        expect(hooks.body.map((s: { id: string }) => s.id)).not.toContain(all.subscriptionId)
        expect((await api("GET", "/forms")).body.map((x: { id: number }) => x.id)).not.toContain(f)
      })

      it("404 for a form id that does not exist", async () => {
        expectError(await api("GET", "/forms/987654"), 404)
        expectError(await api("PATCH", "/forms/987654", { body: { title: "x" } }), 404)
        expectError(await api("DELETE", "/forms/987654"), 404)
      })

      it("400 for limits, wrong types, unknown statuses and bad questions", async () => {
        const form = await createForm({ title: "Limits" })
        expectError(await api("POST", "/forms", { body: { title: "x".repeat(201) } }), 400, "title")
        expectError(await api("PATCH", `/forms/${form.id}`, { body: { title: "x".repeat(201) } }), 400, "title")
        expectError(await api("POST", "/forms", { body: { title: 123 } }), 400, "title")
        expectError(await api("POST", "/forms", { body: { description: 5 } }), 400, "description")
        expectError(await api("POST", "/forms", { body: { folderId: "seven" } }), 400, "folderId")
        expectError(await api("PATCH", `/forms/${form.id}`, { body: { status: "archived" } }), 400, "status")
        expectError(await api("PATCH", `/forms/${form.id}`, { body: { folderId: 1.5 } }), 400, "folderId")
        expectError(await api("POST", "/forms", { body: { fields: "Name" } }), 400, "fields")
        expectError(
          await api("POST", "/forms", { body: { fields: [{ type: "colour_picker", label: "Colour" }] } }),
          400,
          "fields"
        )
        expectError(await api("POST", "/forms", { body: { fields: [{ type: "short_text" }] } }), 400, "label")
        expectError(
          await api("POST", "/forms", { body: { fields: [{ type: "select", label: "Plan" }] } }),
          400,
          "options"
        )
        const max = await api("POST", "/forms", { body: { title: "x".repeat(200) } })
        expectStatus(max, 201)
        expect(max.body.title).toHaveLength(200)
        expect((await api("GET", `/forms/${form.id}`)).body.title).toBe("Limits")
      })
    })

    // -------------------------------------------------------------------------
    describe("stages", () => {
      it("GET /forms/{formId}/stages → {stages}, the defaults of a new form", async () => {
        const form = await createForm({ title: "Stages" })
        const reply = await api("GET", `/forms/${form.id}/stages`)
        expectStatus(reply, 200)
        reply.body.stages.forEach(expectStage)
        expect(reply.body.stages.map((s: { name: string; isClosed: boolean }) => [s.name, s.isClosed])).toEqual([
          ["New", false],
          ["In progress", false],
          ["Done", true]
        ])
      })

      it("POST /forms/{formId}/stages → 201 Stage; PATCH /stages/{id} → 200; DELETE → 204, then 404", async () => {
        const form = await createForm({ title: "Stage lifecycle" })
        const created = await api("POST", `/forms/${form.id}/stages`, {
          body: { name: "Waiting", color: "#123abc", isClosed: false }
        })
        expectStatus(created, 201)
        expectStage(created.body)
        expect(created.body).toMatchObject({ name: "Waiting", color: "#123abc", isClosed: false })
        const plain = await api("POST", `/forms/${form.id}/stages`, { body: { name: "Plain", color: null } })
        expectStatus(plain, 201)
        expect(plain.body).toMatchObject({ name: "Plain", color: null, isClosed: false })
        const list = await api("GET", `/forms/${form.id}/stages`)
        expect(list.body.stages.map((s: { name: string }) => s.name)).toEqual([
          "New",
          "In progress",
          "Done",
          "Waiting",
          "Plain"
        ])
        const patched = await api("PATCH", `/stages/${created.body.id}`, { body: { name: "On hold", isClosed: true } })
        expectStatus(patched, 200)
        expectStage(patched.body)
        expect(patched.body).toMatchObject({ id: created.body.id, name: "On hold", color: "#123abc", isClosed: true })
        const recolored = await api("PATCH", `/stages/${created.body.id}`, { body: { color: null } })
        expectStatus(recolored, 200)
        expect(recolored.body).toMatchObject({ name: "On hold", color: null, isClosed: true })
        const deleted = await api("DELETE", `/stages/${created.body.id}`)
        expectStatus(deleted, 204)
        expect(deleted.text).toBe("")
        expectError(await api("DELETE", `/stages/${created.body.id}`), 404)
        expectError(await api("PATCH", `/stages/${created.body.id}`, { body: { name: "x" } }), 404)
        const after = await api("GET", `/forms/${form.id}/stages`)
        expect(after.body.stages.map((s: { id: number }) => s.id)).not.toContain(created.body.id)
      })

      it("deleting a stage puts its cases back to no stage", async () => {
        const form = await publishedForm("Stage delete")
        const stage = await api("POST", `/forms/${form.formId}/stages`, { body: { name: "Temporary" } })
        const response = await submit(form, "Stan")
        const patched = await api("PATCH", `/responses/${response.id}`, { body: { stageId: stage.body.id } })
        expectStatus(patched, 200)
        expectStatus(await api("DELETE", `/stages/${stage.body.id}`), 204)
        const detail = await api("GET", `/responses/${response.id}`)
        expect(detail.body.response.stageId).toBeNull()
      })

      it("PUT /forms/{formId}/stages/order → 200 {stages} in the new order; not every stage once → 400", async () => {
        const form = await createForm({ title: "Reorder" })
        const stages = (await api("GET", `/forms/${form.id}/stages`)).body.stages as Array<{ id: number; name: string }>
        const order = [stages[2]!.id, stages[0]!.id, stages[1]!.id]
        const reply = await api("PUT", `/forms/${form.id}/stages/order`, { body: { stageIds: order } })
        expectStatus(reply, 200)
        reply.body.stages.forEach(expectStage)
        expect(reply.body.stages.map((s: { id: number }) => s.id)).toEqual(order)
        const list = await api("GET", `/forms/${form.id}/stages`)
        expect(list.body.stages.map((s: { name: string }) => s.name)).toEqual(["Done", "New", "In progress"])
        const other = await createForm({ title: "Reorder other" })
        const otherStage = (await api("GET", `/forms/${other.id}/stages`)).body.stages[0].id as number
        for (
          const stageIds of [
            [order[0], order[1]],
            [order[0], order[1], order[1]],
            [order[0], order[1], order[2], order[2]],
            [order[0], order[1], otherStage],
            []
          ]
        ) {
          expectError(await api("PUT", `/forms/${form.id}/stages/order`, { body: { stageIds } }), 400, "stageIds")
        }
        expectError(await api("PUT", `/forms/${form.id}/stages/order`, { body: {} }), 400, "stageIds")
        expectError(await api("PUT", `/forms/${form.id}/stages/order`, { body: { stageIds: "1,2,3" } }), 400, "stageIds")
        expectError(await api("PUT", "/forms/987654/stages/order", { body: { stageIds: order } }), 404)
        const unchanged = await api("GET", `/forms/${form.id}/stages`)
        expect(unchanged.body.stages.map((s: { id: number }) => s.id)).toEqual(order)
      })

      it("400 for a missing name, a bad color or a wrong type; 404 for an absent form", async () => {
        const form = await createForm({ title: "Stage input" })
        expectError(await api("POST", `/forms/${form.id}/stages`, { body: {} }), 400, "name")
        expectError(await api("POST", `/forms/${form.id}/stages`, { body: { name: "" } }), 400, "name")
        expectError(await api("POST", `/forms/${form.id}/stages`, { body: { name: "X", color: "red" } }), 400, "color")
        expectError(await api("POST", `/forms/${form.id}/stages`, { body: { name: "X", isClosed: "yes" } }), 400, "isClosed")
        const stage = (await api("GET", `/forms/${form.id}/stages`)).body.stages[0].id as number
        expectError(await api("PATCH", `/stages/${stage}`, { body: { color: "#12345" } }), 400, "color")
        expectError(await api("POST", "/forms/987654/stages", { body: { name: "X" } }), 404)
        expectError(await api("GET", "/forms/987654/stages"), 404)
        expectError(await api("PATCH", "/stages/987654", { body: { name: "X" } }), 404)
        expectError(await api("DELETE", "/stages/987654"), 404)
        expect((await api("GET", `/forms/${form.id}/stages`)).body.stages).toHaveLength(3)
      })
    })

    // -------------------------------------------------------------------------
    describe("public form page", () => {
      const page = async (path: string, init?: RequestInit) => {
        const response = await send(`${server.url}${path}`, init, settings.onReply)
        return { status: response.status, headers: response.headers, text: await response.text() }
      }
      const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? ""
      const step = (publicId: string, html: string, answer: string | undefined, multipart = false) => {
        const pairs: Array<[string, string]> = [["token", field(html, "token")], ["at", field(html, "at")], ["website", ""]]
        if (answer !== undefined) pairs.push(["a", answer])
        pairs.push(["move", field(html, "at") === "welcome" ? "start" : "next"])
        if (multipart) {
          const body = new FormData()
          for (const [k, v] of pairs) body.append(k, v)
          return page(`/f/${publicId}`, { method: "POST", body })
        }
        return page(`/f/${publicId}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(pairs).toString()
        })
      }

      it("GET /f/{publicId} → the welcome page (HTML, nonce CSP); unknown → a 404 page", async () => {
        const form = await publishedForm("Public")
        const publicId = (await api("GET", `/forms/${form.formId}`)).body.publicId as string
        const welcome = await page(`/f/${publicId}`)
        expect(welcome.status).toBe(200)
        expect(welcome.headers.get("content-type")).toContain("text/html")
        expect(welcome.headers.get("content-security-policy")).toMatch(/script-src 'nonce-[^']+'/)
        expect(welcome.text).toContain("Public")
        const unknown = await page("/f/no-such-form")
        expect(unknown.status).toBe(404)
        expect(unknown.headers.get("content-type")).toContain("text/html")
      })

      it("POST /f/{publicId} steps (url-encoded and multipart) → the next question, a message when invalid, then thanks", async () => {
        const form = await publishedForm("Steps")
        const publicId = (await api("GET", `/forms/${form.formId}`)).body.publicId as string
        let current = await page(`/f/${publicId}`)
        current = await step(publicId, current.text, undefined)
        expect(current.status).toBe(200)
        expect(field(current.text, "at")).toBe(String(form.ids.name))
        current = await step(publicId, current.text, "Ada", true)
        expect(field(current.text, "at")).toBe(String(form.ids.email))
        const invalid = await step(publicId, current.text, "not-an-email")
        expect(invalid.status).toBe(400)
        expect(invalid.text).toContain("must be an email address")
        current = await step(publicId, invalid.text, "ada@example.com", true)
        current = await step(publicId, current.text, "Pro")
        current = await step(publicId, current.text, "Hello")
        expect(current.status).toBe(200)
        expect(current.text).toContain("Thank you!")
        const list = await api("GET", `/forms/${form.formId}/responses`)
        expect(list.body.responses[0]).toMatchObject({
          source: "form",
          values: { [form.ids.name]: "Ada", [form.ids.email]: "ada@example.com", [form.ids.plan]: "Pro" }
        })
      })

      it("POST /f/{publicId}/responses (JSON) → 201 {id}; 400 with details; 404 for an unknown form", async () => {
        const form = await publishedForm("Public JSON")
        const publicId = (await api("GET", `/forms/${form.formId}`)).body.publicId as string
        const post = (path: string, body: unknown) =>
          send(`${server.url}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body)
          }, settings.onReply).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }))
        const created = await post(`/f/${publicId}/responses`, {
          values: { [form.ids.name]: "Grace", [form.ids.email]: "grace@example.com" }
        })
        expect(created.status).toBe(201)
        expect(created.body).toEqual({ id: expect.any(Number) })
        const detail = await api("GET", `/responses/${created.body.id}`)
        expect(detail.body.response.source).toBe("form")
        const invalid = await post(`/f/${publicId}/responses`, { values: { [form.ids.email]: "nope" } })
        expect(invalid.status).toBe(400)
        expect(invalid.body.details).toHaveLength(2)
        expect((await post("/f/no-such-form/responses", { values: {} })).status).toBe(404)
      })
    })

    describe("submitting responses", () => {
      it("POST /forms/{formId}/responses → 201 ResponseRow with source \"api\"", async () => {
        const form = await publishedForm("Submit")
        const reply = await api("POST", `/forms/${form.formId}/responses`, {
          body: {
            values: {
              [form.ids.name]: "Ada Lovelace",
              [form.ids.email]: "ada@example.com",
              [form.ids.plan]: "Pro"
            }
          }
        })
        expectStatus(reply, 201)
        expectResponseRow(reply.body)
        expect(reply.body).toMatchObject({
          name: "Ada Lovelace",
          email: "ada@example.com",
          stageId: null,
          assigneeId: null,
          tags: [],
          source: "api",
          values: { [form.ids.name]: "Ada Lovelace", [form.ids.email]: "ada@example.com", [form.ids.plan]: "Pro" }
        })
        const summary = await api("GET", `/forms/${form.formId}`)
        expectStatus(summary, 200)
        const listed = (await api("GET", "/forms")).body.find((f: { id: number }) => f.id === form.formId)
        expect(listed.responseCount).toBe(1)
      })

      it("409 {error} when the form is a draft or closed", async () => {
        const draft = await createForm({ title: "Draft", fields: contactFields })
        const fields = (await api("GET", `/forms/${draft.id}`)).body.fields as Array<{ id: number }>
        const values = { [fields[0]!.id]: "Ada", [fields[1]!.id]: "ada@example.com" }
        expectError(await api("POST", `/forms/${draft.id}/responses`, { body: { values } }), 409)
        expectStatus(await api("PATCH", `/forms/${draft.id}`, { body: { status: "closed" } }), 200)
        expectError(await api("POST", `/forms/${draft.id}/responses`, { body: { values } }), 409)
        expect((await api("GET", `/forms/${draft.id}/responses`)).body.responses).toEqual([])
      })

      it("400 with details per question for invalid answers", async () => {
        const form = await publishedForm("Invalid answers")
        const reply = await api("POST", `/forms/${form.formId}/responses`, {
          body: { values: { [form.ids.email]: "not an email", [form.ids.plan]: "Enterprise" } }
        })
        expectError(reply, 400)
        const details = reply.body.details as Array<{ path: string; message: string }>
        expect(Array.isArray(details)).toBe(true)
        const pathFor = (id: number) => details.find((d) => new RegExp(`(^|\\D)${id}$`).test(d.path))
        expect(pathFor(form.ids.name), JSON.stringify(details)).toBeDefined()
        expect(pathFor(form.ids.email), JSON.stringify(details)).toBeDefined()
        expect(pathFor(form.ids.plan), JSON.stringify(details)).toBeDefined()
        expect(pathFor(form.ids.message)).toBeUndefined()
        expect(pathFor(form.ids.name)!.message).toContain("Name")
        expect(pathFor(form.ids.email)!.message).toContain("Email")
        const unknown = await api("POST", `/forms/${form.formId}/responses`, {
          body: { values: { [form.ids.name]: "A", [form.ids.email]: "a@example.com", "999999": "x" } }
        })
        expectError(unknown, 400)
        expect(unknown.body.details.some((d: { path: string }) => d.path.endsWith("999999"))).toBe(true)
        expectError(await api("POST", `/forms/${form.formId}/responses`, { body: {} }), 400, "values")
        expectError(await api("POST", `/forms/${form.formId}/responses`, { body: { values: "x" } }), 400, "values")
        expect((await api("GET", `/forms/${form.formId}/responses`)).body.responses).toEqual([])
      })

      it("404 for an absent form", async () => {
        expectError(await api("POST", "/forms/987654/responses", { body: { values: {} } }), 404)
      })
    })

    // -------------------------------------------------------------------------
    describe("listing responses", () => {
      /** Ivy (stage New, tag billing), Jon (nothing), Kim (assigned to the owner, tags urgent+billing), in that order. */
      const threeCases = async () => {
        const form = await publishedForm("Filters")
        const newStage = form.stages[0]!
        const ivy = await submit(form, "Ivy", { [form.ids.message]: "The invoice is wrong" })
        await sleep(5)
        const jon = await submit(form, "Jon", { [form.ids.message]: "All good" })
        await sleep(5)
        const kim = await submit(form, "Kim", { [form.ids.message]: "Please call me" })
        expectStatus(
          await api("PATCH", `/responses/${ivy.id}`, { body: { stageId: newStage.id, tags: ["billing"] } }),
          200
        )
        expectStatus(
          await api("PATCH", `/responses/${kim.id}`, {
            body: { assigneeId: seed.a.ownerAccountId, tags: ["urgent", "billing"] }
          }),
          200
        )
        return { form, newStage, ivy, jon, kim }
      }

      const ids = async (formId: number, query: string) => {
        const reply = await api("GET", `/forms/${formId}/responses${query}`)
        expectStatus(reply, 200)
        return (reply.body.responses as Array<{ id: number }>).map((r) => r.id)
      }

      it("GET /forms/{formId}/responses → ResponseList, newest first", async () => {
        const { form, ivy, jon, kim } = await threeCases()
        const reply = await api("GET", `/forms/${form.formId}/responses`)
        expectStatus(reply, 200)
        const list = reply.body
        expect(list.form).toEqual({ id: form.formId, title: "Filters" })
        list.fields.forEach(expectField)
        expect(list.fields.map((f: { label: string }) => f.label)).toEqual(["Name", "Email", "Plan", "Message"])
        list.stages.forEach(expectStage)
        expect(list.stages.map((s: { name: string }) => s.name)).toEqual(["New", "In progress", "Done"])
        list.members.forEach(expectMember)
        expect(list.members.map((m: { accountId: number }) => m.accountId)).toEqual(
          expect.arrayContaining([seed.a.ownerAccountId, seed.a.viewerAccountId, seed.a.memberAccountId])
        )
        expect(list.members.map((m: { accountId: number }) => m.accountId)).not.toContain(seed.b.ownerAccountId)
        expect([...list.allTags].sort()).toEqual(["billing", "urgent"])
        list.responses.forEach((r: unknown) => expectResponseRow(r))
        expect(list.responses.map((r: { id: number }) => r.id)).toEqual([kim.id, jon.id, ivy.id])
        expect(list.responses[0]).toMatchObject({
          name: "Kim",
          email: "kim@example.com",
          assigneeId: seed.a.ownerAccountId,
          source: "api"
        })
        expect([...list.responses[0].tags].sort()).toEqual(["billing", "urgent"])
      })

      it("filters by q, stage, assignee, tag, from and to", async () => {
        const { form, newStage, ivy, jon, kim } = await threeCases()
        const f = form.formId
        expect(await ids(f, "?q=INVOICE")).toEqual([ivy.id])
        expect(await ids(f, "?q=jon%40example")).toEqual([jon.id])
        expect(await ids(f, "?q=urgent")).toEqual([kim.id])
        expect(await ids(f, "?q=kim")).toEqual([kim.id])
        expect(await ids(f, "?q=nothing-matches-this")).toEqual([])
        expect(await ids(f, `?stage=${newStage.id}`)).toEqual([ivy.id])
        expect(await ids(f, "?stage=none")).toEqual([kim.id, jon.id])
        expect(await ids(f, `?assignee=${seed.a.ownerAccountId}`)).toEqual([kim.id])
        expect(await ids(f, "?assignee=none")).toEqual([jon.id, ivy.id])
        expect(await ids(f, "?tag=billing")).toEqual([kim.id, ivy.id])
        expect(await ids(f, "?tag=urgent")).toEqual([kim.id])
        expect(await ids(f, `?from=${encodeURIComponent(jon.submittedAt)}`)).toEqual([kim.id, jon.id])
        expect(await ids(f, `?to=${encodeURIComponent(jon.submittedAt)}`)).toEqual([jon.id, ivy.id])
        expect(
          await ids(f, `?from=${encodeURIComponent(jon.submittedAt)}&to=${encodeURIComponent(jon.submittedAt)}`)
        ).toEqual([jon.id])
        expect(await ids(f, `?tag=billing&stage=none`)).toEqual([kim.id])
        expect(await ids(f, "?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z")).toEqual([])
      })

      it("flat=1 adds answers keyed by label and a summary of \"■ \" blocks", async () => {
        const { form, kim } = await threeCases()
        const reply = await api("GET", `/forms/${form.formId}/responses?flat=1`)
        expectStatus(reply, 200)
        reply.body.responses.forEach((r: unknown) => expectResponseRow(r, true))
        const first = reply.body.responses[0]
        expect(first.id).toBe(kim.id)
        expect(first.answers).toEqual({ Name: "Kim", Email: "kim@example.com", Message: "Please call me" })
        const blocks = (first.summary as string).split("\n\n")
        expect(blocks.length).toBe(3)
        for (const block of blocks) expect(block.startsWith("■ ")).toBe(true)
        expect(blocks[0]).toBe("■ Name\nKim")
        expect(blocks[2]).toBe("■ Message\nPlease call me")
      })

      it("limit and cursor page through the list; nextCursor is null on the last page", async () => {
        const { form, ivy, jon, kim } = await threeCases()
        const page1 = await api("GET", `/forms/${form.formId}/responses?limit=2`)
        expectStatus(page1, 200)
        expect(page1.body.responses.map((r: { id: number }) => r.id)).toEqual([kim.id, jon.id])
        expect(page1.body.nextCursor).toBeTypeOf("string")
        const page2 = await api(
          "GET",
          `/forms/${form.formId}/responses?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`
        )
        expectStatus(page2, 200)
        expect(page2.body.responses.map((r: { id: number }) => r.id)).toEqual([ivy.id])
        expect(page2.body.nextCursor).toBeNull()
        const exact = await api("GET", `/forms/${form.formId}/responses?limit=3`)
        expect(exact.body.responses).toHaveLength(3)
        expect(exact.body.nextCursor).toBeNull()
        const max = await api("GET", `/forms/${form.formId}/responses?limit=1000`)
        expectStatus(max, 200)
        expect(max.body.responses).toHaveLength(3)
        expect(max.body.nextCursor).toBeNull()
        // Filters and flat apply to pages too.
        const filtered = await api("GET", `/forms/${form.formId}/responses?tag=billing&limit=1&flat=1`)
        expect(filtered.body.responses.map((r: { id: number }) => r.id)).toEqual([kim.id])
        expectResponseRow(filtered.body.responses[0], true)
        const rest = await api(
          "GET",
          `/forms/${form.formId}/responses?tag=billing&limit=1&cursor=${encodeURIComponent(filtered.body.nextCursor)}`
        )
        expect(rest.body.responses.map((r: { id: number }) => r.id)).toEqual([ivy.id])
      })

      it("a whole list longer than a page is one JSON document: the rows of the paged list, byte for byte, and the CSV too", async () => {
        const form = await publishedForm("Long list")
        // 1203 rows: the whole list is streamed in several pages of rows.
        await server.run(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`
            insert into responses (workspace_id, form_id, submitted_at, updated_at, name, email, tags, source,
              answers, search_text)
            select f.workspace_id, f.id, timestamptz '2026-01-01' + (g / 3) * interval '1 second', now(), 'P' || g,
              'p' || g || '@example.com', case when g % 2 = 0 then array['even'] else '{}'::text[] end, 'import',
              jsonb_build_object(${String(form.ids.name)}::text, 'P "' || g || '"', ${String(form.ids.message)}::text,
                E'line 1\nline ' || g),
              ''
            from forms f, generate_series(1, 1203) g where f.id = ${form.formId}`
        }))
        let ids: Array<number> = []
        for (const query of ["flat=1", "tag=even"]) {
          const whole = await api("GET", `/forms/${form.formId}/responses?${query}`)
          expectStatus(whole, 200)
          const paged: Array<unknown> = []
          let cursor: string | null = null
          do {
            const page: Awaited<ReturnType<typeof api>> = await api(
              "GET",
              `/forms/${form.formId}/responses?${query}&limit=500${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
            )
            expectStatus(page, 200)
            paged.push(...page.body.responses)
            cursor = page.body.nextCursor
          } while (cursor !== null)
          expect(paged).toHaveLength(query === "flat=1" ? 1203 : 601)
          if (query === "flat=1") ids = (paged as Array<{ id: number }>).map((row) => row.id)
          const { responses: _rows, nextCursor: _next, ...head } = whole.body
          expect(whole.text).toBe(JSON.stringify({ ...head, responses: paged, nextCursor: null }))
        }
        const csv = await send(`${server.url}/api/forms/${form.formId}/responses.csv`, {
          headers: { authorization: `Bearer ${seed.keys.owner}` }
        }, settings.onReply)
        expect(csv.status).toBe(200)
        const records = (await csv.text()).split("\r\n").filter((line) => line !== "").slice(1) // after the header
        expect(records.map((record) => Number(record.split(",")[0]))).toEqual(ids)
      })

      it("invalid filter values → 400 naming the parameter", async () => {
        const form = await publishedForm("Bad filters")
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["from=yesterday", "from"],
          ["to=yesterday", "to"],
          ["stage=abc", "stage"],
          ["assignee=x", "assignee"],
          ["flat=2", "flat"],
          ["flat=true", "flat"],
          ["limit=0", "limit"],
          ["limit=1001", "limit"],
          ["limit=abc", "limit"],
          ["cursor=garbage", "cursor"]
        ]
        for (const [query, name] of cases) {
          const reply = await api("GET", `/forms/${form.formId}/responses?${query}`)
          softError(`?${query}`, reply, 400, name)
        }
      })

      it("404 for an absent form", async () => {
        expectError(await api("GET", "/forms/987654/responses"), 404)
      })
    })

    // -------------------------------------------------------------------------
    describe("one response", () => {
      it("GET /responses/{id} → ResponseDetail with activities newest first", async () => {
        const form = await publishedForm("Detail")
        const response = await submit(form, "Dee")
        expectStatus(
          await api("PATCH", `/responses/${response.id}`, { body: { stageId: form.stages[1]!.id } }),
          200
        )
        const note = await api("POST", `/responses/${response.id}/notes`, { body: { body: "Called back." } })
        expectStatus(note, 201)
        const reply = await api("GET", `/responses/${response.id}`)
        expectStatus(reply, 200)
        const detail = reply.body
        expectResponseRow(detail.response)
        expect(detail.response).toMatchObject({ id: response.id, name: "Dee", stageId: form.stages[1]!.id })
        expect(detail.form).toBeTypeOf("object")
        expect(detail.form.id).toBe(form.formId)
        detail.fields.forEach(expectField)
        expect(detail.fields.map((f: { id: number }) => f.id)).toEqual([
          form.ids.name,
          form.ids.email,
          form.ids.plan,
          form.ids.message
        ])
        detail.stages.forEach(expectStage)
        expect(detail.stages).toHaveLength(3)
        detail.members.forEach(expectMember)
        expect(detail.members.map((m: { accountId: number }) => m.accountId)).toContain(seed.a.ownerAccountId)
        expect(detail.emails).toEqual([])
        expect(detail.replies).toEqual([])
        for (const activity of detail.activities) {
          expect(activity).toMatchObject({
            id: expect.any(Number),
            type: expect.any(String),
            actor: expect.any(Object),
            payload: expect.any(Object),
            createdAt: expect.stringMatching(ISO)
          })
        }
        expect(detail.activities.map((a: { type: string }) => a.type)).toEqual(["note", "stage_changed", "created"])
        expect(detail.activities[0]).toMatchObject({ id: note.body.id, payload: { body: "Called back." } })
        expect(detail.activities[0].actor).toMatchObject({ accountId: seed.a.ownerAccountId })
        const times = detail.activities.map((a: { createdAt: string }) => Date.parse(a.createdAt))
        expect([...times].sort((x, y) => y - x)).toEqual(times)
      })

      it("PATCH /responses/{id} → {ok, formId, changes}; unchanged stage → changes []", async () => {
        const form = await publishedForm("Triage")
        const response = await submit(form, "Gus")
        const inProgress = form.stages[1]!.id
        const reply = await api("PATCH", `/responses/${response.id}`, {
          body: { stageId: inProgress, assigneeId: seed.a.memberAccountId, tags: ["vip", "billing"] }
        })
        expectStatus(reply, 200)
        expect(reply.body).toMatchObject({ ok: true, formId: form.formId })
        expect(reply.body.changes).toHaveLength(3)
        expect(reply.body.changes).toEqual(expect.arrayContaining([
          { field: "stageId", from: null, to: inProgress },
          { field: "assigneeId", from: null, to: seed.a.memberAccountId },
          { field: "tags", from: [], to: ["vip", "billing"] }
        ]))
        const again = await api("PATCH", `/responses/${response.id}`, { body: { stageId: inProgress } })
        expectStatus(again, 200)
        expect(again.body).toEqual({ ok: true, formId: form.formId, changes: [] })
        const empty = await api("PATCH", `/responses/${response.id}`, { body: {} })
        expectStatus(empty, 200)
        expect(empty.body).toMatchObject({ ok: true, formId: form.formId, changes: [] })
        const cleared = await api("PATCH", `/responses/${response.id}`, {
          body: { stageId: null, assigneeId: null }
        })
        expectStatus(cleared, 200)
        expect(cleared.body.changes).toEqual(expect.arrayContaining([
          { field: "stageId", from: inProgress, to: null },
          { field: "assigneeId", from: seed.a.memberAccountId, to: null }
        ]))
        expect(cleared.body.changes).toHaveLength(2)
        const detail = await api("GET", `/responses/${response.id}`)
        expect(detail.body.response).toMatchObject({ stageId: null, assigneeId: null, tags: ["vip", "billing"] })
        const types = detail.body.activities.map((a: { type: string }) => a.type) as Array<string>
        expect(types).toHaveLength(6)
        expect(types.at(-1)).toBe("created")
        expect([...types.slice(0, 2)].sort()).toEqual(["assigned", "stage_changed"])
        expect([...types].sort()).toEqual(["assigned", "assigned", "created", "stage_changed", "stage_changed", "tags_changed"])
      })

      it("400 for a stage of another form, a non-member assignee, limits and wrong types; nothing changes", async () => {
        const form = await publishedForm("Refuse")
        const other = await createForm({ title: "Refuse other" })
        const otherStage = (await api("GET", `/forms/${other.id}/stages`)).body.stages[0].id as number
        const response = await submit(form, "Hal")
        const r = response.id
        expectError(await api("PATCH", `/responses/${r}`, { body: { stageId: otherStage } }), 400, "stage")
        expectError(await api("PATCH", `/responses/${r}`, { body: { stageId: 987654 } }), 400, "stage")
        expectError(
          await api("PATCH", `/responses/${r}`, { body: { assigneeId: seed.b.ownerAccountId } }),
          400,
          "assignee"
        )
        expectError(await api("PATCH", `/responses/${r}`, { body: { tags: ["x".repeat(31)] } }), 400, "tags")
        expectError(await api("PATCH", `/responses/${r}`, { body: { tags: "vip" } }), 400, "tags")
        expectError(await api("PATCH", `/responses/${r}`, { body: { tags: [1] } }), 400, "tags")
        expectError(await api("PATCH", `/responses/${r}`, { body: { stageId: "abc" } }), 400, "stageId")
        expectError(await api("PATCH", `/responses/${r}`, { body: { assigneeId: "me" } }), 400, "assigneeId")
        const detail = await api("GET", `/responses/${r}`)
        expect(detail.body.response).toMatchObject({ stageId: null, assigneeId: null, tags: [] })
        expect(detail.body.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
        const max = await api("PATCH", `/responses/${r}`, { body: { tags: ["x".repeat(30)] } })
        expectStatus(max, 200)
        expect(max.body.changes).toEqual([{ field: "tags", from: [], to: ["x".repeat(30)] }])
      })

      it("DELETE /responses/{id} → 204, then 404", async () => {
        const form = await publishedForm("Delete response")
        const response = await submit(form, "Lu")
        const reply = await api("DELETE", `/responses/${response.id}`)
        expectStatus(reply, 204)
        expect(reply.text).toBe("")
        expectError(await api("GET", `/responses/${response.id}`), 404)
        expectError(await api("DELETE", `/responses/${response.id}`), 404)
        expectError(await api("PATCH", `/responses/${response.id}`, { body: { tags: [] } }), 404)
        expectError(await api("POST", `/responses/${response.id}/notes`, { body: { body: "x" } }), 404)
        expect((await api("GET", `/forms/${form.formId}/responses`)).body.responses).toEqual([])
        const listed = (await api("GET", "/forms")).body.find((f: { id: number }) => f.id === form.formId)
        expect(listed.responseCount).toBe(0)
      })

      it("404 for a response id that does not exist", async () => {
        expectError(await api("GET", "/responses/987654"), 404)
        expectError(await api("PATCH", "/responses/987654", { body: { tags: [] } }), 404)
        expectError(await api("DELETE", "/responses/987654"), 404)
      })
    })

    // -------------------------------------------------------------------------
    describe("notes", () => {
      it("POST /responses/{id}/notes → 201 Note", async () => {
        const form = await publishedForm("Notes")
        const response = await submit(form, "Mo")
        const reply = await api("POST", `/responses/${response.id}/notes`, { body: { body: "Sent the refund." } })
        expectStatus(reply, 201)
        expect(reply.body).toMatchObject({
          id: expect.any(Number),
          responseId: response.id,
          type: "note",
          payload: { body: "Sent the refund." },
          createdAt: expect.stringMatching(ISO)
        })
        const max = await api("POST", `/responses/${response.id}/notes`, { body: { body: "y".repeat(5000) } })
        expectStatus(max, 201)
        expect(max.body.payload.body).toHaveLength(5000)
        const detail = await api("GET", `/responses/${response.id}`)
        expect(detail.body.activities.slice(0, 2).map((a: { id: number }) => a.id)).toEqual([max.body.id, reply.body.id])
      })

      it("400 for an empty, too long, missing or non-string body; 404 for an absent response", async () => {
        const form = await publishedForm("Bad notes")
        const response = await submit(form, "Ned")
        const path = `/responses/${response.id}/notes`
        expectError(await api("POST", path, { body: { body: "" } }), 400, "body")
        expectError(await api("POST", path, { body: { body: "x".repeat(5001) } }), 400, "body")
        expectError(await api("POST", path, { body: {} }), 400, "body")
        expectError(await api("POST", path, { body: { body: 42 } }), 400, "body")
        expectError(await api("POST", "/responses/987654/notes", { body: { body: "x" } }), 404)
        const detail = await api("GET", `/responses/${response.id}`)
        expect(detail.body.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
      })
    })

    // -------------------------------------------------------------------------
    describe("members", () => {
      it("GET /members → {members} of this workspace only", async () => {
        const reply = await api("GET", "/members")
        expectStatus(reply, 200)
        const members = reply.body.members as Array<{ accountId: number }>
        members.forEach(expectMember)
        expect(members).toHaveLength(3)
        expect(members).toEqual(expect.arrayContaining([
          { accountId: seed.a.ownerAccountId, name: "Owner A", email: "owner-a@example.com", role: "owner" },
          { accountId: seed.a.viewerAccountId, name: "Viewer A", email: "viewer-a@example.com", role: "viewer" },
          { accountId: seed.a.memberAccountId, name: "Member A", email: "member-a@example.com", role: "member" }
        ]))
        const other = await api("GET", "/members", { key: seed.keys.other })
        expectStatus(other, 200)
        expect(other.body.members).toEqual([
          { accountId: seed.b.ownerAccountId, name: "Owner B", email: "owner-b@example.com", role: "owner" }
        ])
      })
    })

    // -------------------------------------------------------------------------
    describe("webhook subscriptions", () => {
      it("POST /webhooks/subscribe → 201 Subscription (with a whsec_ secret, only here); listed by GET /webhooks", async () => {
        const form = await publishedForm("Hooks")
        const reply = await api("POST", "/webhooks/subscribe", {
          body: { formId: form.formId, event: "response.created", targetUrl: hookUrl("created"), source: "zapier" }
        })
        expectStatus(reply, 201)
        expect(reply.body).toMatchObject({
          id: expect.any(String),
          formId: form.formId,
          formTitle: "Hooks",
          event: "response.created",
          targetUrl: hookUrl("created"),
          source: "zapier",
          lastSentAt: null,
          createdAt: expect.stringMatching(ISO)
        })
        expect(reply.body.secret).toMatch(/^whsec_/)
        const stage = await api("POST", "/webhooks/subscribe", {
          body: { formId: form.formId, event: "response.stage_changed", targetUrl: hookUrl("stage") }
        })
        expectStatus(stage, 201)
        expect(stage.body).toMatchObject({ event: "response.stage_changed", formTitle: "Hooks", lastSentAt: null })
        expect(stage.body.source).toBeTypeOf("string")
        expect(stage.body.id).not.toBe(reply.body.id)
        const list = await api("GET", "/webhooks")
        expectStatus(list, 200)
        expect(Array.isArray(list.body)).toBe(true)
        const listed = list.body.find((s: { id: string }) => s.id === reply.body.id)
        const { secret: _secret, ...withoutSecret } = reply.body
        expect(listed).toMatchObject(withoutSecret)
        for (const subscription of list.body) expect(subscription).not.toHaveProperty("secret")
        expect(list.body.map((s: { id: string }) => s.id)).toContain(stage.body.id)
        const other = await api("GET", "/webhooks", { key: seed.keys.other })
        expectStatus(other, 200)
        expect(other.body.map((s: { id: string }) => s.id)).not.toContain(reply.body.id)
      })

      it("DELETE /webhooks/subscribe/{id} → 204, again → 404", async () => {
        const form = await publishedForm("Unsubscribe")
        const subscription = await subscribe(form.formId)
        const reply = await api("DELETE", `/webhooks/subscribe/${encodeURIComponent(subscription.id)}`)
        expectStatus(reply, 204)
        expect(reply.text).toBe("")
        expectError(await api("DELETE", `/webhooks/subscribe/${encodeURIComponent(subscription.id)}`), 404)
        expect((await api("GET", "/webhooks")).body.map((s: { id: string }) => s.id)).not.toContain(subscription.id)
        expectError(await api("DELETE", "/webhooks/subscribe/no-such-subscription"), 404)
        expectError(await api("DELETE", "/webhooks/subscribe/987654"), 404)
      })

      it("400 for an unknown event, a malformed URL, limits, missing fields and wrong types", async () => {
        const form = await publishedForm("Bad hooks")
        const valid = { formId: form.formId, event: "response.created", targetUrl: hookUrl() }
        const cases: ReadonlyArray<readonly [object, string]> = [
          [{ ...valid, event: "response.deleted" }, "event"],
          [{ ...valid, targetUrl: "not a url" }, "targetUrl"],
          [{ ...valid, targetUrl: "ftp://x.example" }, "targetUrl"],
          [{ ...valid, targetUrl: hookUrl("a".repeat(2001 - hookUrl("").length)) }, "targetUrl"],
          [{ ...valid, source: "s".repeat(41) }, "source"],
          [{ event: valid.event, targetUrl: valid.targetUrl }, "formId"],
          [{ formId: valid.formId, targetUrl: valid.targetUrl }, "event"],
          [{ formId: valid.formId, event: valid.event }, "targetUrl"],
          [{ ...valid, formId: "x" }, "formId"],
          [{ ...valid, targetUrl: 5 }, "targetUrl"],
          [{ ...valid, source: 5 }, "source"]
        ]
        expect(hookUrl("a".repeat(2001 - hookUrl("").length))).toHaveLength(2001)
        for (const [body, name] of cases) {
          const reply = await api("POST", "/webhooks/subscribe", { body })
          softError(`${JSON.stringify(body).slice(0, 120)}`, reply, 400, name)
        }
        expect((await api("GET", "/webhooks")).body.filter((s: { formId: number }) => s.formId === form.formId))
          .toEqual([])
        // At the limits.
        const longUrl = hookUrl("a".repeat(2000 - hookUrl("").length))
        const atLimits = await api("POST", "/webhooks/subscribe", {
          body: { ...valid, targetUrl: longUrl, source: "s".repeat(40) }
        })
        expectStatus(atLimits, 201)
        expect(atLimits.body).toMatchObject({ targetUrl: longUrl, source: "s".repeat(40) })
      })

      it("404 for a form that does not exist", async () => {
        expectError(
          await api("POST", "/webhooks/subscribe", {
            body: { formId: 987654, event: "response.created", targetUrl: hookUrl() }
          }),
          404
        )
      })
    })

    // -------------------------------------------------------------------------
    describe("form generation", () => {
      it("POST /v1/forms/generate validates first: missing prompt, prompt over 4000, wrong types → 400", async () => {
        expectError(await api("POST", "/v1/forms/generate", { body: {} }), 400, "prompt")
        expectError(await api("POST", "/v1/forms/generate", { body: { prompt: "p".repeat(4001) } }), 400, "prompt")
        expectError(await api("POST", "/v1/forms/generate", { body: { prompt: 42 } }), 400, "prompt")
        expectError(
          await api("POST", "/v1/forms/generate", { body: { prompt: "A contact form", publish: "yes" } }),
          400,
          "publish"
        )
      })

      it("a valid prompt → 201 FormWithFields, or 502 {error} while no generator is configured", async () => {
        const before = (await api("GET", "/forms")).body.length as number
        const reply = await api("POST", "/v1/forms/generate", {
          body: { prompt: "A contact form with name and email", publish: true }
        })
        expect([201, 502], reply.text.slice(0, 300)).toContain(reply.status)
        if (reply.status === 201) {
          expect(reply.body).toMatchObject({
            id: expect.any(Number),
            publicId: expect.any(String),
            title: expect.any(String),
            status: "published"
          })
          reply.body.fields.forEach(expectField)
          expect(reply.body.fields.length).toBeGreaterThan(0)
        } else {
          expectError(reply, 502)
          expect((await api("GET", "/forms")).body.length).toBe(before)
        }
        const atLimit = await api("POST", "/v1/forms/generate", { body: { prompt: "p".repeat(4000) } })
        expect([201, 502], atLimit.text.slice(0, 300)).toContain(atLimit.status)
        if (atLimit.status === 201) expect(atLimit.body.status).toBe("draft")
        else expectError(atLimit, 502)
      })
    })

    // -------------------------------------------------------------------------
    describe("MCP endpoint", () => {
      const clients: Array<Client> = []
      afterAll(async () => {
        await Promise.all(clients.map((client) => client.close()))
      })
      const connect = async (key: string) => {
        const client = new Client({ name: "contract-suite", version: "1.0.0" })
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } }
        }))
        clients.push(client)
        return client
      }
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const structured = (result: any) => {
        expect(result.isError, JSON.stringify(result.content)).toBe(false)
        expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent)
        return result.structuredContent
      }

      it("an MCP client builds a form, reads a response and moves it to a stage; the API sees the same", async () => {
        const client = await connect(seed.keys.owner)
        const { tools } = await client.listTools()
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["create_form", "list_responses", "update_response"]))
        const created = structured(await client.callTool({
          name: "create_form",
          arguments: { title: "Via MCP", fields: contactFields }
        }))
        expectFormSummary(created)
        structured(await client.callTool({ name: "update_form", arguments: { formId: created.id, status: "published" } }))
        const full = await api("GET", `/forms/${created.id}`)
        expectStatus(full, 200)
        expect(full.body.title).toBe("Via MCP")
        const [name, email] = full.body.fields as Array<{ id: number }>
        const submitted = await api("POST", `/forms/${created.id}/responses`, {
          body: { values: { [name!.id]: "Mia", [email!.id]: "mia@example.com" } }
        })
        expectStatus(submitted, 201)
        const list = structured(await client.callTool({ name: "list_responses", arguments: { formId: created.id } }))
        expect(list.responses.map((r: { id: number }) => r.id)).toEqual([submitted.body.id])
        const stage = list.stages[1] as { id: number }
        const updated = structured(await client.callTool({
          name: "update_response",
          arguments: { responseId: submitted.body.id, stageId: stage.id }
        }))
        expect(updated).toMatchObject({ ok: true, formId: created.id, changes: [{ field: "stageId", from: null, to: stage.id }] })
        const detail = await api("GET", `/responses/${submitted.body.id}`)
        expect(detail.body.response.stageId).toBe(stage.id)
        expect(detail.body.activities.find((a: { type: string }) => a.type === "stage_changed").actor.via).toBe("mcp")
        const read = await client.readResource({ uri: `qforms://forms/${created.id}` })
        expect(JSON.parse((read.contents[0] as { text: string }).text).fields).toEqual(full.body.fields)
      })

      it("a viewer's writes are tool errors; no key → 401 with WWW-Authenticate; GET → 405", async () => {
        const viewer = await connect(seed.keys.viewer)
        const refused = await viewer.callTool({ name: "create_form", arguments: { title: "Nope" } })
        expect(refused.isError).toBe(true)
        expect(JSON.stringify(refused.content)).toContain("viewer")
        const anonymous = await send(`${server.url}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
        }, settings.onReply)
        expect(anonymous.status).toBe(401)
        expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer /)
        const get = await send(`${server.url}/mcp`, { headers: { authorization: `Bearer ${seed.keys.owner}` } }, settings.onReply)
        expect(get.status).toBe(405)
        expect(get.headers.get("allow")).toBe("POST")
      })
    })

    // -------------------------------------------------------------------------
    describe("CSV export", () => {
      it("GET /forms/{formId}/responses.csv → text/csv, labels as header, RFC 4180 quoting, formula cells prefixed", async () => {
        const created = await createForm({
          title: "Export",
          fields: [
            { type: "short_text", label: "Name", required: true },
            { type: "email", label: "Email", required: true },
            { type: "long_text", label: "Comment, \"quoted\"" },
            { type: "short_text", label: "Formula" }
          ]
        })
        expectStatus(await api("PATCH", `/forms/${created.id}`, { body: { status: "published" } }), 200)
        const [name, email, comment, formula] = (await api("GET", `/forms/${created.id}`)).body.fields as Array<
          { id: number }
        >
        const send = async (who: string, values: Record<string, string>) => {
          const reply = await api("POST", `/forms/${created.id}/responses`, {
            body: {
              values: {
                [name!.id]: who,
                [email!.id]: `${who.toLowerCase()}@example.com`,
                ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v]))
              }
            }
          })
          expectStatus(reply, 201)
          return reply.body as { id: number }
        }
        const tricky = "He said \"hi\", then left\nSecond line"
        const eq = await send("Eve", { [comment!.id]: tricky, [formula!.id]: "=1+1" })
        await send("Pat", { [formula!.id]: "+1" })
        await send("Max", { [formula!.id]: "-1" })
        await send("Ann", { [formula!.id]: "@SUM(A1)" })
        expectStatus(await api("PATCH", `/responses/${eq.id}`, { body: { tags: ["csv"] } }), 200)

        const reply = await api("GET", `/forms/${created.id}/responses.csv`)
        expectStatus(reply, 200)
        expect(reply.headers.get("content-type")).toMatch(/^text\/csv/)
        expect(reply.text).toContain("\"He said \"\"hi\"\", then left\nSecond line\"")
        expect(reply.text).toContain("\"Comment, \"\"quoted\"\"\"")
        const rows = parseCsv(reply.text)
        const header = rows[0]!
        for (const label of ["Name", "Email", "Comment, \"quoted\"", "Formula"]) expect(header).toContain(label)
        expect(header.length).toBeGreaterThan(4)
        const data = rows.slice(1).filter((row) => row.some((cell) => cell !== ""))
        expect(data).toHaveLength(4)
        for (const row of data) expect(row).toHaveLength(header.length)
        const column = (label: string) => header.indexOf(label)
        expect(data.map((row) => row[column("Formula")]).sort()).toEqual(["'+1", "'-1", "'=1+1", "'@SUM(A1)"].sort())
        const eve = data.find((row) => row[column("Name")] === "Eve")!
        expect(eve[column("Comment, \"quoted\"")]).toBe(tricky)
        expect(eve[column("Email")]).toBe("eve@example.com")
        // Same filters as the list.
        const tagged = await api("GET", `/forms/${created.id}/responses.csv?tag=csv`)
        expectStatus(tagged, 200)
        const taggedRows = parseCsv(tagged.text).slice(1).filter((row) => row.some((cell) => cell !== ""))
        expect(taggedRows.map((row) => row[column("Name")])).toEqual(["Eve"])
        const searched = await api("GET", `/forms/${created.id}/responses.csv?q=pat`)
        const searchedRows = parseCsv(searched.text).slice(1).filter((row) => row.some((cell) => cell !== ""))
        expect(searchedRows.map((row) => row[column("Name")])).toEqual(["Pat"])
      })

      it("400 for invalid filters, 404 for an absent form", async () => {
        const form = await publishedForm("Export errors")
        expectError(await api("GET", `/forms/${form.formId}/responses.csv?from=yesterday`), 400, "from")
        expectError(await api("GET", `/forms/${form.formId}/responses.csv?stage=abc`), 400, "stage")
        expectError(await api("GET", "/forms/987654/responses.csv"), 404)
      })
    })

    // -------------------------------------------------------------------------
    describe("workspaces", () => {
      it("a key of another workspace gets 404 for every resource kind that is not its own, and changes nothing", async () => {
        const all = await everything()
        const f = all.form.formId
        const r = all.responseId
        const stages = (await api("GET", `/forms/${f}/stages`)).body.stages.map((s: { id: number }) => s.id)
        const attempts: ReadonlyArray<readonly [string, string, unknown?]> = [
          ["GET", `/forms/${f}`],
          ["PATCH", `/forms/${f}`, { title: "Stolen" }],
          ["DELETE", `/forms/${f}`],
          ["GET", `/forms/${f}/responses`],
          ["GET", `/forms/${f}/responses.csv`],
          ["GET", `/forms/${f}/stages`],
          ["POST", `/forms/${f}/responses`, { values: { [all.form.ids.name]: "X", [all.form.ids.email]: "x@example.com" } }],
          ["POST", `/forms/${f}/stages`, { name: "Stolen" }],
          ["PUT", `/forms/${f}/stages/order`, { stageIds: [...stages].reverse() }],
          ["GET", `/responses/${r}`],
          ["PATCH", `/responses/${r}`, { tags: ["stolen"] }],
          ["DELETE", `/responses/${r}`],
          ["POST", `/responses/${r}/notes`, { body: "stolen" }],
          ["PATCH", `/stages/${all.stageId}`, { name: "Stolen" }],
          ["DELETE", `/stages/${all.stageId}`],
          ["DELETE", `/webhooks/subscribe/${encodeURIComponent(all.subscriptionId)}`],
          ["POST", "/webhooks/subscribe", { formId: f, event: "response.created", targetUrl: hookUrl("stolen") }]
        ]
        for (const [method, path, body] of attempts) {
          const reply = await api(method, path, { key: seed.keys.other, body })
          softError(`${method} ${path}`, reply, 404)
          expect(reply.text).not.toContain("Everything")
        }
        const forms = await api("GET", "/forms", { key: seed.keys.other })
        expectStatus(forms, 200)
        expect(forms.body.map((x: { id: number }) => x.id)).not.toContain(f)
        const hooks = await api("GET", "/webhooks", { key: seed.keys.other })
        expect(hooks.body.map((x: { id: string }) => x.id)).not.toContain(all.subscriptionId)
        // Still there, unchanged, for its own workspace.
        const form = await api("GET", `/forms/${f}`)
        expect(form.body.title).toBe("Everything")
        const detail = await api("GET", `/responses/${r}`)
        expectStatus(detail, 200)
        expect(detail.body.response.tags).toEqual([])
        expect(detail.body.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
        const after = await api("GET", `/forms/${f}/stages`)
        expect(after.body.stages.map((s: { id: number }) => s.id)).toEqual(stages)
        expect(after.body.stages.map((s: { name: string }) => s.name)).toEqual(["New", "In progress", "Done", "Custom"])
        expect((await api("GET", `/forms/${f}/responses`)).body.responses).toHaveLength(1)
        expect((await api("GET", "/webhooks")).body.map((x: { id: string }) => x.id)).toContain(all.subscriptionId)
      })
    })

    // -------------------------------------------------------------------------
    describe("roles", () => {
      it("a viewer key: every write → 403 {error}, and nothing changes", async () => {
        const all = await everything()
        const f = all.form.formId
        const r = all.responseId
        const stages = (await api("GET", `/forms/${f}/stages`)).body.stages.map((s: { id: number }) => s.id)
        const writes: ReadonlyArray<readonly [string, string, unknown?]> = [
          ["POST", "/forms", { title: "Viewer form" }],
          ["PATCH", `/forms/${f}`, { title: "Viewer title" }],
          ["DELETE", `/forms/${f}`],
          ["POST", `/forms/${f}/responses`, { values: { [all.form.ids.name]: "V", [all.form.ids.email]: "v@example.com" } }],
          ["PATCH", `/responses/${r}`, { tags: ["viewer"] }],
          ["DELETE", `/responses/${r}`],
          ["POST", `/responses/${r}/notes`, { body: "viewer note" }],
          ["POST", `/forms/${f}/stages`, { name: "Viewer stage" }],
          ["PATCH", `/stages/${all.stageId}`, { name: "Viewer stage" }],
          ["DELETE", `/stages/${all.stageId}`],
          ["PUT", `/forms/${f}/stages/order`, { stageIds: [...stages].reverse() }],
          ["POST", "/webhooks/subscribe", { formId: f, event: "response.created", targetUrl: hookUrl("viewer") }],
          ["DELETE", `/webhooks/subscribe/${encodeURIComponent(all.subscriptionId)}`],
          ["POST", "/v1/forms/generate", { prompt: "A contact form" }]
        ]
        const formsBefore = (await api("GET", "/forms")).body.length as number
        for (const [method, path, body] of writes) {
          const reply = await api(method, path, { key: seed.keys.viewer, body })
          softError(`${method} ${path}`, reply, 403)
        }
        expect((await api("GET", "/forms")).body.length).toBe(formsBefore)
        expect((await api("GET", `/forms/${f}`)).body.title).toBe("Everything")
        const detail = await api("GET", `/responses/${r}`)
        expect(detail.body.response.tags).toEqual([])
        expect(detail.body.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
        expect((await api("GET", `/forms/${f}/responses`)).body.responses).toHaveLength(1)
        const after = await api("GET", `/forms/${f}/stages`)
        expect(after.body.stages.map((s: { id: number }) => s.id)).toEqual(stages)
        expect(after.body.stages.map((s: { name: string }) => s.name)).toContain("Custom")
        const hooks = (await api("GET", "/webhooks")).body.filter((s: { formId: number }) => s.formId === f)
        expect(hooks.map((s: { id: string }) => s.id)).toEqual([all.subscriptionId])
      })

      it("a viewer key reads everything", async () => {
        const all = await everything()
        const f = all.form.formId
        const reads: ReadonlyArray<string> = [
          "/forms",
          `/forms/${f}`,
          `/forms/${f}/responses`,
          `/forms/${f}/responses?flat=1`,
          `/forms/${f}/responses.csv`,
          `/forms/${f}/stages`,
          `/responses/${all.responseId}`,
          "/members",
          "/webhooks"
        ]
        for (const path of reads) {
          const reply = await api("GET", path, { key: seed.keys.viewer })
          expect.soft(reply.status, `GET ${path} → ${reply.text.slice(0, 200)}`).toBe(200)
        }
        const form = await api("GET", `/forms/${f}`, { key: seed.keys.viewer })
        expect(form.body.title).toBe("Everything")
        const list = await api("GET", `/forms/${f}/responses`, { key: seed.keys.viewer })
        expect(list.body.responses.map((x: { id: number }) => x.id)).toEqual([all.responseId])
      })

      it("a member key writes", async () => {
        const created = await createForm({ title: "By a member" }, seed.keys.member)
        expect(created.title).toBe("By a member")
        const patched = await api("PATCH", `/forms/${created.id}`, {
          key: seed.keys.member,
          body: { status: "published" }
        })
        expectStatus(patched, 200)
        expect(patched.body.status).toBe("published")
      })
    })

    // -------------------------------------------------------------------------
    describe("uploaded files (public upload, submission, download)", () => {
      const pdf = "%PDF-1.7\n% qforms contract suite\n%%EOF\n"

      it("a file uploaded to the public route submits as the answer and downloads with the key, byte for byte", async () => {
        const created = await createForm({
          title: "With a file",
          fields: [{ type: "short_text", label: "Name", required: true }, { type: "file", label: "CV", options: { accept: [".pdf"] } }]
        })
        expectStatus(await api("PATCH", `/forms/${created.id}`, { body: { status: "published" } }), 200)
        const [name, cv] = (await api("GET", `/forms/${created.id}`)).body.fields as Array<{ id: number }>
        const post = (content: string, filename: string) => {
          const data = new FormData()
          data.append("file", new Blob([content], { type: "application/pdf" }), filename)
          return send(`${server.url}/f/${created.publicId}/uploads?fieldId=${cv!.id}`, { method: "POST", body: data }, settings.onReply)
        }
        const uploaded = await post(pdf, "cv.pdf")
        const file = await uploaded.json() as { fileId: string; name: string; size: number; type: string }
        expect(uploaded.status, JSON.stringify(file)).toBe(201)
        expect(file).toMatchObject({ name: "cv.pdf", size: Buffer.byteLength(pdf), type: "application/pdf" })
        const refused = await post("not a pdf at all", "fake.pdf")
        expect(refused.status).toBe(415)
        expect(typeof ((await refused.json()) as { error?: unknown }).error).toBe("string")
        const submitted = await api("POST", `/forms/${created.id}/responses`, {
          body: { values: { [name!.id]: "Ada", [cv!.id]: { fileId: file.fileId } } }
        })
        expectStatus(submitted, 201)
        expect(submitted.body.values[String(cv!.id)]).toEqual(file)
        const download = await send(`${server.url}/api/files/${file.fileId}`, {
          headers: { authorization: `Bearer ${seed.keys.owner}` }
        }, settings.onReply)
        expect(download.status).toBe(200)
        expect(download.headers.get("content-disposition")).toContain("attachment")
        expect(await download.text()).toBe(pdf)
        expectError(await api("GET", `/files/${file.fileId}`, { key: seed.keys.other }), 404)
      })
    })

    // -------------------------------------------------------------------------
    describe("JSON bodies only as application/json", () => {
      it("a JSON route refuses a body without Content-Type or of another type with 415 {error}, whatever the key, and changes nothing", async () => {
        const form = await publishedForm("Content types")
        const before = (await api("GET", "/forms")).body.length as number
        const send = (method: string, path: string, body: string | Uint8Array, contentType?: string) =>
          fetch(`${server.url}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${seed.keys.owner}`,
              accept: "application/json, text/event-stream",
              ...(contentType === undefined ? {} : { "content-type": contentType })
            },
            body
          })
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["POST", "/api/forms", JSON.stringify({ title: "Forged" })],
          ["PATCH", `/api/forms/${form.formId}`, JSON.stringify({ title: "Forged" })],
          ["POST", "/api/members", JSON.stringify({ email: "forged@example.com", role: "owner" })],
          ["POST", `/api/forms/${form.formId}/responses`, JSON.stringify({ values: { [form.ids.name]: "X", [form.ids.email]: "x@example.com" } })],
          ["POST", "/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })]
        ]
        for (const [method, path, body] of cases) {
          // No Content-Type at all (a typeless blob), text/plain, a form, and JSON under another name.
          for (const type of [undefined, "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "text/json", "application/jsonp"]) {
            const response = await send(method, path, type === undefined ? new TextEncoder().encode(body) : body, type)
            const text = await response.text()
            expect.soft(response.status, `${method} ${path} as ${type ?? "(none)"}: ${text.slice(0, 200)}`).toBe(415)
            expect.soft(text, `${method} ${path} as ${type ?? "(none)"}`).toMatch(/"error":"unsupported content type/)
          }
        }
        // A payload endpoint sent no body and no type is refused too (it would be read as JSON).
        const empty = await fetch(`${server.url}/api/forms`, { method: "POST", headers: { authorization: `Bearer ${seed.keys.owner}` } })
        expect(empty.status).toBe(415)
        expect((await api("GET", "/forms")).body.length).toBe(before)
        expect((await api("GET", `/forms/${form.formId}`)).body.title).toBe("Content types")
        expect((await api("GET", "/members")).body.members.map((m: { email: string }) => m.email)).not.toContain("forged@example.com")
        expect((await api("GET", `/forms/${form.formId}/responses`)).body.responses).toEqual([])
        // JSON with parameters is JSON; a write without a body needs no type.
        const charset = await send("PATCH", `/api/forms/${form.formId}`, JSON.stringify({ title: "Renamed" }), "Application/JSON; charset=utf-8")
        expect(charset.status).toBe(200)
        const subscription = await subscribe(form.formId)
        const removed = await fetch(`${server.url}/api/webhooks/subscribe/${subscription.id}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${seed.keys.owner}` }
        })
        expect(removed.status).toBe(204)
      })
    })

    // -------------------------------------------------------------------------
    describe("cross-site writes (CSRF)", () => {
      let site: TestServer
      let ids: { workspaceId: number; ownerId: number; ownerKey: string; session: string; csrfToken: string; formId: number }
      const origin = () => new URL(site.url).origin

      beforeAll(async () => {
        // The host's sign-in is its own cookie, `host_user=<account id>`: what a bridge typically reads.
        site = await start(target, {
          app: true,
          resolveActor: ({ headers }) => {
            const id = /(?:^|;\s*)host_user=(\d+)/.exec(headers["cookie"] ?? "")?.[1]
            return id === undefined ? null : { workspaceId: ids.workspaceId, accountId: Number(id) }
          }
        })
        ids = await site.run(Effect.gen(function*() {
          const { ownerAccountId, workspace } = yield* (yield* Workspaces).create({ name: "Site", ownerEmail: "site-owner@example.com" })
          const sessions = yield* Sessions
          yield* sessions.setPassword("site-owner@example.com", "a long enough password")
          const signedIn = yield* sessions.signIn({ email: "site-owner@example.com", password: "a long enough password" })
          if (signedIn._tag !== "Opened") return yield* Effect.die("the site's owner is a member of one workspace")
          const opened = signedIn.opened
          const session = yield* sessions.resolve(opened.id)
          const key = yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId, name: "site" })
          return {
            workspaceId: workspace.id,
            ownerId: ownerAccountId,
            ownerKey: key.key,
            session: opened.id,
            csrfToken: session!.csrfToken
          }
        })).then(async (seeded) => {
          const form = await request(site.url, seeded.ownerKey, "POST", "/forms", { body: { title: "Site form" } })
          expectStatus(form, 201)
          return { ...seeded, formId: form.body.id as number }
        })
      }, 120_000)

      afterAll(async () => {
        await site?.close()
      })

      /** The credentials of each way a browser or a client signs in. */
      const kinds = () => ({
        session: { cookie: `qforms_session=${ids.session}`, "x-csrf-token": ids.csrfToken },
        bridge: { cookie: `host_user=${ids.ownerId}` },
        bearer: { authorization: `Bearer ${ids.ownerKey}` }
      })
      const crossSite: ReadonlyArray<readonly [string, Record<string, string>]> = [
        ["Origin of another site", { origin: "https://evil.example" }],
        ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }],
        ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
        ["Origin: null", { origin: "null" }]
      ]
      const write = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
        fetch(`${site.url}${path}`, {
          method,
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      const memberEmails = async () => {
        const reply = await request(site.url, ids.ownerKey, "GET", "/members")
        return (reply.body.members as Array<{ email: string }>).map((m) => m.email)
      }

      /** The ways a browser signs in here: the bridge only where the server takes a `resolveActor` (not the standalone). */
      const browserKinds = async () => {
        const bridged = await fetch(`${site.url}/app/session`, { headers: { cookie: kinds().bridge.cookie } })
        await bridged.text()
        return bridged.status === 200 ? ["session", "bridge"] as const : ["session"] as const
      }

      it("a cookie or bridge write from another site is refused with 403 {error} and changes nothing, on the API, /mcp and the application", async () => {
        for (const kind of await browserKinds()) {
          const credentials = kinds()[kind]
          for (const [label, headers] of crossSite) {
            const what = `${kind}, ${label}`
            const added = await write("POST", "/api/members", { ...credentials, ...headers }, { email: "intruder@example.com", role: "owner" })
            expect.soft(added.status, `${what}: POST /api/members ${await added.clone().text()}`).toBe(403)
            expect.soft(await added.text(), what).toMatch(/"error":"cross-site request refused/)
            const renamed = await write("PATCH", `/api/forms/${ids.formId}`, { ...credentials, ...headers }, { title: "Forged" })
            expect.soft(renamed.status, `${what}: PATCH /api/forms`).toBe(403)
            const removed = await write("DELETE", `/api/forms/${ids.formId}`, { ...credentials, ...headers })
            expect.soft(removed.status, `${what}: DELETE /api/forms`).toBe(403)
            const mcp = await write("POST", "/mcp", { ...credentials, ...headers }, {
              jsonrpc: "2.0",
              id: 1,
              method: "tools/call",
              params: { name: "update_form", arguments: { formId: ids.formId, title: "Forged" } }
            })
            expect.soft(mcp.status, `${what}: POST /mcp`).toBe(403)
          }
        }
        for (const [label, headers] of crossSite) {
          const password = await write("POST", "/app/password", { ...kinds().session, ...headers }, {
            currentPassword: "a long enough password",
            newPassword: "a password the attacker chose"
          })
          expect.soft(password.status, `POST /app/password, ${label}`).toBe(403)
          const signOut = await fetch(`${site.url}/app/sign-out`, { method: "POST", redirect: "manual", headers: { ...kinds().session, ...headers } })
          expect.soft(signOut.status, `POST /app/sign-out, ${label}`).toBe(403)
        }
        expect(await memberEmails()).not.toContain("intruder@example.com")
        const form = await request(site.url, ids.ownerKey, "GET", `/forms/${ids.formId}`)
        expect(form.body.title).toBe("Site form")
        // The session survived: still signed in with the old password.
        const session = await fetch(`${site.url}/app/session`, { headers: { cookie: kinds().session.cookie } })
        expect(session.status).toBe(200)
      })

      it("the same writes from this site's own pages work, and bearer keys work from anywhere", async () => {
        const own = [
          ["Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin", origin: origin() }],
          ["Origin of this site", { origin: origin() }],
          ["no browser headers", {}]
        ] as const
        let n = 0
        for (const kind of await browserKinds()) {
          for (const [label, headers] of own) {
            const email = `same-${n++}@example.com`
            const added = await write("POST", "/api/members", { ...kinds()[kind], ...headers }, { email, role: "viewer" })
            expect.soft(added.status, `${kind}, ${label}: ${await added.text()}`).toBe(201)
          }
        }
        for (const [label, headers] of crossSite) {
          const email = `bearer-${n++}@example.com`
          const added = await write("POST", "/api/members", { ...kinds().bearer, ...headers }, { email, role: "viewer" })
          expect.soft(added.status, `bearer, ${label}: ${await added.text()}`).toBe(201)
        }
        expect((await memberEmails()).filter((email) => /^(same|bearer)-/.test(email))).toHaveLength(n)
      })
    })

    // -------------------------------------------------------------------------
    describe("rate limiting", () => {
      let limited: TestServer
      let limitedSeed: Seed
      const options: TestServerOptions = { rateLimit: { requestsPerSecond: 1, burst: 3 } }

      beforeAll(async () => {
        limited = await start(target, options)
        limitedSeed = await limited.run(seedWorkspaces)
      }, 120_000)

      afterAll(async () => {
        await limited?.close()
      })

      it("an exhausted key gets 429 {error} with Retry-After and RateLimit headers; other keys are not affected", async () => {
        const call = (key: string) => request(limited.url, key, "GET", "/members", {}, settings.onReply)
        for (let i = 0; i < 3; i++) expectStatus(await call(limitedSeed.keys.owner), 200)
        let throttled: Reply | undefined
        for (let i = 0; i < 10 && throttled === undefined; i++) {
          const reply = await call(limitedSeed.keys.owner)
          if (reply.status === 429) throttled = reply
          else expectStatus(reply, 200)
        }
        expect(throttled, "no 429 after the burst of 3").toBeDefined()
        expectError(throttled!, 429)
        const retryAfter = throttled!.headers.get("retry-after") ?? ""
        expect(retryAfter).toMatch(/^\d+$/)
        expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
        expect(throttled!.headers.get("ratelimit-policy") ?? "").not.toBe("")
        expect(throttled!.headers.get("ratelimit") ?? "").not.toBe("")
        // Per key: another key of the same workspace still has its own bucket.
        expectStatus(await call(limitedSeed.keys.viewer), 200)
        // After Retry-After, the key works again.
        await sleep(Number(retryAfter) * 1000 + 50)
        expectStatus(await call(limitedSeed.keys.owner), 200)
      }, 30_000)
    })
  })
