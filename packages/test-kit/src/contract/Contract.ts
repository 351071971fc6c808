/**
 * What the HTTP contract's groups share: the seeded workspaces and keys, the
 * common fixtures (a published contact form, a response, a subscription) and
 * {@link group}, the way a concern of the contract declares its tests.
 * Requests are in `Requests.ts`, assertions on answers in `Expectations.ts`;
 * the suite itself (`HttpContract.ts`) runs the groups against one server.
 *
 * Workspaces, members and API keys are seeded through the services; every
 * other record (forms, questions, stages, responses, notes, subscriptions) is
 * made through the API itself.
 */
import { Effect } from "effect"
import { ApiKeys, Members, Workspaces } from "@qforms/core"
import { expectStatus } from "./Expectations.ts"
import { type ContractSuiteOptions, type Reply, type RequestOptions, request } from "./Requests.ts"
import type { DatabaseTarget } from "../Databases.ts"
import type { StartServer, TestServer } from "../TestServer.ts"

// ---------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------

/** Workspace A (owner, viewer, member) and workspace B (owner), with their keys. */
export const seedWorkspaces = Effect.gen(function* () {
  const workspaces = yield* Workspaces.Workspaces
  const members = yield* Members.Members
  const keys = yield* ApiKeys.ApiKeys
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
export type Seed = Effect.Success<typeof seedWorkspaces>

/** A pause where the contract needs time to pass (timestamps that must differ, a Retry-After to run out); never to wait for a condition. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const contactFields = [
  { type: "short_text", label: "Name", required: true },
  { type: "email", label: "Email", required: true },
  { type: "select", label: "Plan", required: false, options: { choices: ["Free", "Pro"] } },
  { type: "long_text", label: "Message" }
]

export const hookUrl = (suffix = "x") => `https://hooks.example.com/${suffix}`

// ---------------------------------------------------------------------------
// The context of a group
// ---------------------------------------------------------------------------

/** A test of the contract: its name, body and timeout, as vitest's `it` takes them. */
type TestOf = (name: string, fn: () => Promise<void>, timeout?: number) => void

/** What a group's tests run against: the suite's server and seed (set before any test runs), and the helpers on them. */
export interface Contract {
  /** The database the suite runs on, and how it starts a server (a group may start its own, e.g. with other limits). */
  readonly target: DatabaseTarget
  readonly start: StartServer
  readonly settings: ContractSuiteOptions
  /** The suite's server; read it inside tests and hooks, not while registering them. */
  readonly server: TestServer
  /** The workspaces and keys seeded on {@link server}; read it inside tests and hooks. */
  readonly seed: Seed
  /** A request to `/api{path}` with the owner's key of workspace A unless `options.key` says otherwise. */
  readonly api: (method: string, path: string, options?: RequestOptions) => Promise<Reply>
  /** POST /forms, asserting 201. */
  readonly createForm: (
    body?: object,
    key?: string
  ) => Promise<{ id: number; title: string; publicId: string; fields: Array<{ id: number }> }>
  /** A published form with the contact questions, its question ids and stages. */
  readonly publishedForm: (title?: string) => Promise<Published>
  /** A response to `form` through the API, with a name and an e-mail derived from `name`. */
  readonly submit: (
    form: Published,
    name: string,
    extra?: Record<string, unknown>
  ) => Promise<{ id: number; submittedAt: string }>
  /** A webhook subscription of `formId` (to `response.created` unless `event` says otherwise), asserting 201. */
  readonly subscribe: (formId: number, event?: string, extra?: object) => Promise<{ id: string; secret?: string }>
  /** A published form with one response, a custom stage and a subscription: one of everything. */
  readonly everything: () => Promise<{ form: Published; responseId: number; stageId: number; subscriptionId: string }>
  /** A test of the rules: same whoever serves qforms, so a smoke run leaves it out. */
  readonly test: TestOf
  /**
   * A test whose answer depends on how a request reaches core and how the
   * answer leaves it (prefixes, headers, bodies of every kind, streams): the
   * smoke that adapters and the standalone run keeps it. Only in a group
   * declared `{ transport: true }`.
   */
  readonly transportTest: TestOf
}

/** A published form with the contact questions: its id, title, question ids and stages. */
export interface Published {
  readonly formId: number
  readonly title: string
  readonly ids: { readonly name: number; readonly email: number; readonly plan: number; readonly message: number }
  readonly stages: Array<{ id: number; name: string; isClosed: boolean }>
}

/** One concern of the contract: a describe block of its own, registered by the suite with the shared context. */
export interface ContractGroup {
  readonly name: string
  /** Whether it holds transport tests: a smoke run declares only such groups (vitest refuses an empty one). */
  readonly transport: boolean
  readonly register: (c: Contract) => void
}

/**
 * Declares a concern of the contract.
 *
 * @example
 * ```ts
 * export const notes = group("notes", { transport: false }, (c) => {
 *   c.test("POST /responses/{id}/notes → 201", async () => {
 *     const form = await c.publishedForm()
 *     const response = await c.submit(form, "Ada")
 *     expectStatus(await c.api("POST", `/responses/${response.id}/notes`, { body: { body: "hi" } }), 201)
 *   })
 * })
 * ```
 */
export const group = (
  name: string,
  options: { readonly transport: boolean },
  register: (c: Contract) => void
): ContractGroup => ({ name, transport: options.transport, register })

/**
 * The context of one run: `server()` and `seed()` give what the suite's
 * `beforeAll` made; `test` and `transportTest` register (or, in a smoke run,
 * skip) tests of the group being declared.
 */
export const makeContract = (
  target: DatabaseTarget,
  start: StartServer,
  settings: ContractSuiteOptions,
  server: () => TestServer,
  seed: () => Seed,
  tests: { readonly test: TestOf; readonly transportTest: TestOf }
): Contract => {
  const api = (method: string, path: string, options?: RequestOptions) =>
    request(server().url, seed().keys.owner, method, path, options, settings.onReply)

  /** POST /forms, asserting 201. */
  const createForm = async (body: object = { title: "Contact", fields: contactFields }, key?: string) => {
    const reply = await api("POST", "/forms", { body, key })
    expectStatus(reply, 201)
    return reply.body as { id: number; title: string; publicId: string; fields: Array<{ id: number }> }
  }

  /** A published form with the contact questions, its question ids and stages. */
  const publishedForm = async (title = "Contact"): Promise<Published> => {
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

  return {
    target,
    start,
    settings,
    get server() {
      return server()
    },
    get seed() {
      return seed()
    },
    api,
    createForm,
    publishedForm,
    submit,
    subscribe,
    everything,
    ...tests
  }
}
