/**
 * The MCP endpoint end to end: the official SDK's `Client` over Streamable
 * HTTP against a real qforms (`Qforms.make`, with its delivery worker) on an
 * ephemeral loopback port, a real webhook receiver, on PGlite always and on
 * PostgreSQL when QFORMS_TEST_DATABASE_URL is set.
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Members } from "../src/identity/Members.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import type { HostIdentity } from "../src/web/Identity.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { png } from "@qforms/test-kit/Pictures"
import { listenFirst, testHttpServer } from "@qforms/test-kit/Loopback"
import { waitFor } from "@qforms/test-kit/Conditions"
import { receiver } from "@qforms/test-kit/Receiver"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

/** A loopback HTTP server for a running qforms. */
const listen = async (qforms: Qforms.Qforms) => {
  const server: Server = testHttpServer()
  server.on("request", qforms.nodeHandler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const textOf = (result: Json): string => result.content.map((c: { text: string }) => c.text).join("\n")

for (const target of databaseTargets) {
  describe(`MCP endpoint on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let http: { readonly url: string; readonly close: () => Promise<void> }
    let cleanup: () => Promise<void>
    let database: ReturnType<typeof target.options>["database"]
    let seed: {
      readonly a: { readonly workspaceId: number; readonly ownerAccountId: number; readonly viewerAccountId: number }
      readonly keys: { readonly owner: string; readonly viewer: string; readonly other: string }
    }
    /** Who the host says is signed in, by the `x-host-user` header (for the identity bridge). */
    const hostUsers = new Map<string, HostIdentity>()
    const clients: Array<Client> = []

    const connect = async (headers: Record<string, string>, url = `${http.url}/mcp`, fetchImpl?: typeof fetch) => {
      const client = new Client({ name: "qforms-test", version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers },
          ...(fetchImpl === undefined ? {} : { fetch: fetchImpl })
        })
      )
      clients.push(client)
      return client
    }
    const as = (key: string) => connect({ authorization: `Bearer ${key}` })

    /** A call that must succeed: its structured result, checked against the JSON text beside it. */
    const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> => {
      const result: Json = await client.callTool({ name, arguments: args })
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`)
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent)
      return result.structuredContent
    }
    /** A call that must be a tool error: its text. */
    const refused = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> => {
      const result: Json = await client.callTool({ name, arguments: args })
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toBeUndefined()
      return textOf(result)
    }

    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${http.url}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${seed.keys.owner}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return { status: response.status, json: text === "" ? undefined : JSON.parse(text) }
    }

    beforeAll(async () => {
      const options = target.options()
      database = options.database
      cleanup = options.cleanup
      const loopback = await listenFirst()
      qforms = await Qforms.make({
        database,
        appUrl: loopback.url,
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100], timeoutMs: 1_000, pollIntervalMs: 100 },
        oauth: { authorizationServers: ["https://id.example.com"], scopes: ["qforms"] },
        // The host's bridge: its session header, or an access token its identity provider issued (`at_<user>`).
        resolveActor: ({ headers }) =>
          hostUsers.get(headers["x-host-user"] ?? /^Bearer at_(\S+)$/.exec(headers.authorization ?? "")?.[1] ?? "")
      })
      loopback.serve(qforms)
      http = loopback
      seed = await qforms.run(
        Effect.gen(function* () {
          const workspaces = yield* Workspaces
          const keys = yield* ApiKeys
          const a = yield* workspaces.create({ name: "A", ownerEmail: "owner-a@example.com", ownerName: "Owner A" })
          const viewer = yield* (yield* Members).add(a.workspace.id, {
            email: "viewer-a@example.com",
            name: "Viewer A",
            role: "viewer"
          })
          const b = yield* workspaces.create({ name: "B", ownerEmail: "owner-b@example.com", ownerName: "Owner B" })
          return {
            a: { workspaceId: a.workspace.id, ownerAccountId: a.ownerAccountId, viewerAccountId: viewer.accountId },
            keys: {
              owner: (yield* keys.create(a.workspace.id, { accountId: a.ownerAccountId })).key,
              viewer: (yield* keys.create(a.workspace.id, { accountId: viewer.accountId })).key,
              other: (yield* keys.create(b.workspace.id, { accountId: b.ownerAccountId })).key
            }
          }
        })
      )
      hostUsers.set("viewer-a", { workspaceId: seed.a.workspaceId, accountId: seed.a.viewerAccountId })
    })

    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()))
      await http?.close()
      await qforms?.dispose()
      await cleanup?.()
    })

    /** A published form with two questions, made through MCP. */
    const publishedForm = async (client: Client, title: string) => {
      const created = await call(client, "create_form", {
        title,
        description: "Tell us what went wrong",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true },
          { type: "long_text", label: "Problem" }
        ]
      })
      expect(created).toMatchObject({ title, status: "draft", responseCount: 0 })
      expect(await call(client, "update_form", { formId: created.id, status: "published" })).toMatchObject({
        status: "published"
      })
      const form = await call(client, "get_form", { formId: created.id })
      expect(form.fields.map((f: Json) => f.label)).toEqual(["Name", "Email", "Problem"])
      return form
    }

    it("lists the tools, each with a description and JSON Schemas from the API's Schemas", async () => {
      const client = await as(seed.keys.owner)
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name).sort()).toEqual([
        "add_note",
        "create_form",
        "delete_view",
        "draft_translation",
        "erase_person",
        "export_person",
        "generate_form",
        "get_assignment_rules",
        "get_case_fields",
        "get_case_metrics",
        "get_delivery_log",
        "get_form",
        "get_form_summary",
        "get_response",
        "get_translation",
        "get_workspace_settings",
        "issue_status_link",
        "list_audit_log",
        "list_dead_letters",
        "list_event_catalogue",
        "list_forms",
        "list_images",
        "list_members",
        "list_responses",
        "list_stages",
        "list_translations",
        "list_views",
        "list_webhooks",
        "list_workspace_responses",
        "merge_responses",
        "replay_dead_letters",
        "retry_delivery",
        "revoke_status_link",
        "save_view",
        "set_assignment_rules",
        "set_case_fields",
        "set_member_away",
        "set_translation",
        "unmerge_responses",
        "update_form",
        "update_response",
        "update_responses",
        "update_workspace_settings"
      ])
      for (const tool of tools) {
        expect(tool.description!.length).toBeGreaterThan(60)
        expect(tool.inputSchema.type).toBe("object")
        expect(tool.outputSchema?.type).toBe("object")
      }
      const byName = new Map(tools.map((t) => [t.name, t]))
      // Straight from ResponseListQuery, plus the form: every filter of the HTTP list.
      expect(Object.keys(byName.get("list_responses")!.inputSchema.properties!).sort()).toEqual([
        "assignee",
        "cursor",
        "due",
        "field",
        "flat",
        "formId",
        "from",
        "limit",
        "q",
        "stage",
        "status",
        "tag",
        "to"
      ])
      expect(byName.get("update_response")!.inputSchema).toMatchObject({
        required: ["responseId"],
        additionalProperties: false,
        properties: { tags: { type: "array", maxItems: 50 } }
      })
      expect(byName.get("create_form")!.inputSchema.properties).toHaveProperty("fields")
      // Form logic comes from the same Schemas: hidden fields, and each question's jumps and showIf.
      expect(byName.get("create_form")!.inputSchema.properties).toHaveProperty("hiddenFields")
      expect(byName.get("update_form")!.inputSchema.properties).toHaveProperty("hiddenFields")
      expect(JSON.stringify(byName.get("update_form")!.inputSchema)).toContain("jumpTo")
      expect(JSON.stringify(byName.get("update_form")!.inputSchema)).toContain("showIf")
      // A form's retention (privacy/Retention.ts) is a setting of the same Schema: days and action.
      expect(JSON.stringify(byName.get("update_form")!.inputSchema)).toContain('"anonymise"')
      expect(JSON.stringify(byName.get("update_form")!.inputSchema)).toContain("retention")
      expect(byName.get("list_forms")!.annotations).toMatchObject({ readOnlyHint: true })
      expect(byName.get("update_response")!.annotations).toMatchObject({ readOnlyHint: false })
      expect(client.getServerVersion()?.name).toBe("qforms")
      expect(client.getInstructions()).toContain("list_forms")
    })

    it("builds a form, takes a response, and triages it: stage (webhook delivered), assignee, tags, note", async () => {
      const client = await as(seed.keys.owner)
      const form = await publishedForm(client, "Support")
      const hook = await receiver()
      const subscribed = await api("POST", "/webhooks/subscribe", {
        formId: form.id,
        event: "response.stage_changed",
        targetUrl: hook.url,
        source: "test"
      })
      expect(subscribed.status).toBe(201)
      const [name, email, problem] = form.fields.map((f: Json) => f.id)
      for (const [who, at] of [
        ["Ada Lovelace", "ada@example.com"],
        ["Grace Hopper", "grace@example.com"]
      ]) {
        const submitted = await api("POST", `/forms/${form.id}/responses`, {
          values: { [name]: who, [email]: at, [problem]: "The printer is on fire" }
        })
        expect(submitted.status).toBe(201)
      }

      const page = await call(client, "list_responses", { formId: form.id, stage: "none", limit: 1, flat: true })
      expect(page.responses).toHaveLength(1)
      expect(page.responses[0]).toMatchObject({ name: "Grace Hopper", answers: { Problem: "The printer is on fire" } })
      expect(page.nextCursor).not.toBeNull()
      const next = await call(client, "list_responses", {
        formId: form.id,
        stage: "none",
        limit: 1,
        cursor: page.nextCursor
      })
      expect(next.responses.map((r: Json) => r.name)).toEqual(["Ada Lovelace"])
      expect(next.nextCursor).toBeNull()
      const found = await call(client, "list_responses", { formId: form.id, q: "ada@example" })
      expect(found.responses.map((r: Json) => r.name)).toEqual(["Ada Lovelace"])
      const ada = found.responses[0]
      // Across forms: the same response, with its form named; `stage` without `formId` is a tool error.
      const across = await call(client, "list_workspace_responses", { q: "ada@example", limit: 100 })
      expect(across.responses.map((r: Json) => [r.id, r.formId, r.formTitle])).toEqual([[ada.id, form.id, form.title]])
      expect(across.nextCursor).toBeNull()
      const acrossPage = await call(client, "list_workspace_responses", { formId: form.id, limit: 1 })
      expect(acrossPage.responses).toHaveLength(1)
      expect(acrossPage.nextCursor).not.toBeNull()
      expect((await call(client, "list_workspace_responses", { assignee: "me", open: true })).responses).toEqual([])
      expect(await refused(client, "list_workspace_responses", { stage: "none" })).toMatch(/stage: needs formId/)

      const { stages } = await call(client, "list_stages", { formId: form.id })
      const inProgress = stages.find((s: Json) => s.name === "In progress")
      expect(inProgress).toBeDefined()
      const { members } = await call(client, "list_members")
      expect(members.map((m: Json) => m.accountId)).toContain(seed.a.ownerAccountId)

      const updated = await call(client, "update_response", {
        responseId: ada.id,
        stageId: inProgress.id,
        assigneeId: seed.a.ownerAccountId,
        tags: ["urgent", " hardware "]
      })
      expect(updated).toMatchObject({ ok: true, formId: form.id })
      expect(updated.changes.map((c: Json) => c.field).sort()).toEqual(["assigneeId", "stageId", "tags"])
      const [post] = await waitFor(() => (hook.received.length > 0 ? hook.received : undefined))
      expect(JSON.parse(post!.body)).toMatchObject({
        event: "response.stage_changed",
        form: { id: form.id, title: "Support" },
        responseId: ada.id,
        stage: { id: inProgress.id, name: "In progress" }
      })

      const bulk = await call(client, "update_responses", {
        filter: { formId: form.id, tag: "urgent" },
        addTags: ["escalated"]
      })
      expect(bulk).toMatchObject({ ok: true, matched: 1, changed: 1, responses: [{ id: ada.id, formId: form.id }] })
      expect(bulk.responses[0].changes).toEqual([
        { field: "tags", from: ["urgent", "hardware"], to: ["urgent", "hardware", "escalated"] }
      ])
      const undone = await call(client, "update_responses", { ids: [ada.id], removeTags: ["ESCALATED"] })
      expect(undone).toMatchObject({ matched: 1, changed: 1 })
      expect(await refused(client, "update_responses", { addTags: ["x"] })).toMatch(/either ids or filter/)

      const note = await call(client, "add_note", { responseId: ada.id, body: "Printer fire: sent to facilities." })
      expect(note).toMatchObject({
        responseId: ada.id,
        type: "note",
        payload: { body: "Printer fire: sent to facilities." }
      })

      const detail = await call(client, "get_response", { responseId: ada.id })
      expect(detail.response).toMatchObject({
        stageId: inProgress.id,
        assigneeId: seed.a.ownerAccountId,
        tags: ["urgent", "hardware"]
      })
      const byType = new Map(detail.activities.map((a: Json) => [a.type, a]))
      for (const type of ["stage_changed", "assigned", "tags_changed", "note"]) {
        expect(byType.get(type)).toMatchObject({
          actor: { type: "member", accountId: seed.a.ownerAccountId, via: "mcp" }
        })
      }
      // The same change seen through the HTTP API.
      expect((await api("GET", `/responses/${ada.id}`)).json.response.stageId).toBe(inProgress.id)
      // Answers too, checked as a submission's are.
      const { tools } = await client.listTools()
      expect(tools.find((t) => t.name === "update_response")!.inputSchema.properties).toHaveProperty("answers")
      const corrected = await call(client, "update_response", {
        responseId: ada.id,
        answers: { [problem]: "The printer is smoking" }
      })
      expect(corrected.changes).toEqual([
        {
          field: "answers",
          from: { [problem]: "The printer is on fire" },
          to: { [problem]: "The printer is smoking" }
        }
      ])
      expect(await refused(client, "update_response", { responseId: ada.id, answers: { [email]: "nope" } })).toMatch(
        /"Email" must be an email address/
      )

      const events = await call(client, "list_event_catalogue")
      expect(events.events.map((e: { name: string }) => e.name)).toContain("note.created")
      const { webhooks } = await call(client, "list_webhooks")
      expect(webhooks.map((w: Json) => w.id)).toContain(subscribed.json.id)
      const log = await waitFor(async () => {
        const value = await call(client, "get_delivery_log", { subscriptionId: subscribed.json.id })
        return value.deliveries[0]?.status === "succeeded" ? value : undefined
      })
      expect(log.deliveries[0]).toMatchObject({ event: "response.stage_changed", responseId: ada.id })
      const retried = await call(client, "retry_delivery", { deliveryId: log.deliveries[0].id })
      expect(retried.id).toBe(log.deliveries[0].id)
      await waitFor(() => (hook.received.length === 2 ? true : undefined))
      expect(hook.received[1]!.headers["webhook-id"]).toBe(post!.headers["webhook-id"])
      // Delivered: no dead letter, and nothing to replay.
      const dead = await call(client, "list_dead_letters", { subscriptionId: subscribed.json.id })
      expect(dead).toEqual({ deliveries: [], nextCursor: null })
      expect(await call(client, "replay_dead_letters", { deliveryIds: [log.deliveries[0].id] })).toEqual({
        replayed: [],
        skipped: [log.deliveries[0].id],
        more: false
      })
      await hook.close()
    })

    it("generates a form from a description", async () => {
      const client = await as(seed.keys.owner)
      const form = await call(client, "generate_form", {
        prompt: "an RSVP: ask for name, email and attending yes or no"
      })
      expect(form.status).toBe("draft")
      expect(form.fields.map((f: Json) => f.type)).toEqual(expect.arrayContaining(["email", "yes_no"]))
    })

    it("offers each form as a resource with its questions, and the triage prompt", async () => {
      const client = await as(seed.keys.owner)
      const form = await publishedForm(client, "Resource form")
      const { resources } = await client.listResources()
      expect(resources).toContainEqual(
        expect.objectContaining({
          uri: `qforms://forms/${form.id}`,
          title: "Resource form",
          mimeType: "application/json"
        })
      )
      const { resourceTemplates } = await client.listResourceTemplates()
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["qforms://forms/{id}"])
      const read = await client.readResource({ uri: `qforms://forms/${form.id}` })
      expect(JSON.parse((read.contents[0] as Json).text)).toEqual(form)
      await expect(client.readResource({ uri: "qforms://forms/999999" })).rejects.toThrow(/not found/)
      await expect(client.readResource({ uri: "qforms://elsewhere/1" })).rejects.toThrow(/qforms:\/\/forms\/\{id\}/)

      const { prompts } = await client.listPrompts()
      expect(prompts.map((p) => p.name)).toEqual(["triage_new_responses"])
      const prompt = await client.getPrompt({ name: "triage_new_responses", arguments: { formId: String(form.id) } })
      const text = (prompt.messages[0]!.content as Json).text as string
      expect(text).toContain(`"Resource form" (formId ${form.id}`)
      for (const tool of [
        "list_stages",
        "list_members",
        "list_responses",
        "get_response",
        "update_response",
        "add_note"
      ]) {
        expect(text).toContain(tool)
      }
      await expect(client.getPrompt({ name: "triage_new_responses", arguments: { formId: "abc" } })).rejects.toThrow(
        /formId/
      )
      // The official client prefixes "MCP error <code>: " once; the server's text carries no prefix of its own.
      // Called one at a time: a rejection created before it is awaited is an unhandled rejection.
      for (const attempt of [
        () => client.readResource({ uri: "qforms://forms/999999" }),
        () => client.getPrompt({ name: "nope" }),
        () => client.getPrompt({ name: "triage_new_responses", arguments: { formId: "abc" } })
      ]) {
        const error: unknown = await attempt().then(
          () => undefined,
          (e: unknown) => e
        )
        const message = error instanceof Error ? error.message : String(error)
        expect(message).toMatch(/^MCP error -?\d+: /)
        expect(message.match(/MCP error/g), message).toHaveLength(1)
      }
    })

    it("a viewer's key reads, and every write is answered as a tool error", async () => {
      const owner = await as(seed.keys.owner)
      const form = await publishedForm(owner, "Viewer form")
      const response = await api("POST", `/forms/${form.id}/responses`, {
        values: { [form.fields[0].id]: "Vera", [form.fields[1].id]: "vera@example.com" }
      })
      const viewer = await as(seed.keys.viewer)
      expect((await call(viewer, "list_forms")).forms.map((f: Json) => f.id)).toContain(form.id)
      expect((await call(viewer, "get_response", { responseId: response.json.id })).response.name).toBe("Vera")
      const stageId = (await call(viewer, "list_stages", { formId: form.id })).stages[1].id
      const writes: Array<[string, Record<string, unknown>]> = [
        ["create_form", { title: "Nope" }],
        ["update_form", { formId: form.id, title: "Nope" }],
        ["generate_form", { prompt: "ask for name and email" }],
        ["update_response", { responseId: response.json.id, stageId }],
        ["update_responses", { ids: [response.json.id], stageId }],
        ["add_note", { responseId: response.json.id, body: "Nope" }],
        ["issue_status_link", { responseId: response.json.id }],
        ["revoke_status_link", { responseId: response.json.id }],
        ["merge_responses", { responseId: response.json.id, duplicateId: response.json.id + 1 }],
        ["unmerge_responses", { responseId: response.json.id, duplicateId: response.json.id + 1 }],
        ["retry_delivery", { deliveryId: 1 }],
        ["replay_dead_letters", { deliveryIds: [1] }],
        ["update_workspace_settings", { theme: { font: "serif" } }],
        ["set_assignment_rules", { formId: form.id, rules: [] }],
        ["set_case_fields", { formId: form.id, fields: [] }]
      ]
      for (const [name, args] of writes) {
        expect(await refused(viewer, name, args)).toBe("this key belongs to a viewer, who can only read")
      }
      // Saved views: a viewer keeps personal ones (as over HTTP), but makes no shared one.
      expect(await refused(viewer, "save_view", { name: "Nope", shared: true })).toBe(
        "this key belongs to a viewer, who can only read"
      )
      const own = await call(viewer, "save_view", { name: "Vera's open cases", filter: { open: "true" } })
      expect(own.shared).toBe(false)
      expect(await refused(viewer, "save_view", { id: own.id, shared: true })).toBe(
        "this key belongs to a viewer, who can only read"
      )
      expect(await call(viewer, "delete_view", { id: own.id })).toEqual({ deleted: true })
      const after = await call(owner, "get_response", { responseId: response.json.id })
      expect(after.response.stageId).toBeNull()
      expect(after.activities.map((a: Json) => a.type)).toEqual(["created"])
      expect((await call(owner, "get_form", { formId: form.id })).title).toBe("Viewer form")
    })

    it("gets and replaces a form's assignment rules, checked as over HTTP, and marks a member away", async () => {
      const owner = await as(seed.keys.owner)
      const form = await publishedForm(owner, "Assignment form")
      const { members } = await call(owner, "list_members")
      const me = members.find((m: Json) => m.role === "owner")
      const rules = [
        { kind: "byAnswer", fieldId: form.fields[2].id, equals: "Billing", assigneeId: me.accountId },
        { kind: "roundRobin", memberIds: [me.accountId] }
      ]
      expect(await call(owner, "set_assignment_rules", { formId: form.id, rules })).toEqual({ rules })
      expect(await call(owner, "get_assignment_rules", { formId: form.id })).toEqual({ rules })
      expect(
        await refused(owner, "set_assignment_rules", {
          formId: form.id,
          rules: [{ kind: "leastOpen", memberIds: [999_999] }]
        })
      ).toMatch(/not members of this workspace: 999999/)
      const fields = [{ key: "priority", label: "Priority", type: "select", options: ["low", "high"] }]
      expect(await call(owner, "set_case_fields", { formId: form.id, fields })).toEqual({ fields })
      expect(await call(owner, "get_case_fields", { formId: form.id })).toEqual({ fields })
      expect(
        await refused(owner, "set_case_fields", { formId: form.id, fields: [{ ...fields[0], type: "text" }] })
      ).toMatch(/only a select has options/)
      const submitted = await api("POST", `/forms/${form.id}/responses`, {
        values: { [form.fields[0].id]: "Cas", [form.fields[1].id]: "cas@example.com" }
      })
      const responseId = submitted.json.id as number
      expect((await call(owner, "update_response", { responseId, caseFields: { priority: "high" } })).changes).toEqual([
        { field: "caseFields", from: { priority: null }, to: { priority: "high" } }
      ])
      expect(await refused(owner, "update_response", { responseId, caseFields: { priority: "x" } })).toMatch(
        /caseFields\.priority/
      )
      expect(await call(owner, "set_member_away", { accountId: me.accountId, away: true })).toMatchObject({
        away: true
      })
      expect(await call(owner, "set_member_away", { accountId: me.accountId, away: false })).toMatchObject({
        away: false
      })
    })

    it("reads and replaces the workspace's settings, checked as over HTTP, and lists its images; another workspace sees its own", async () => {
      const owner = await as(seed.keys.owner)
      const viewer = await as(seed.keys.viewer)
      const other = await as(seed.keys.other)
      const upload = new FormData()
      upload.append("file", new Blob([png(40, 10)], { type: "image/png" }), "mcp-logo.png")
      const uploaded = await fetch(`${http.url}/api/images`, {
        method: "POST",
        headers: { authorization: `Bearer ${seed.keys.owner}` },
        body: upload
      })
      expect(uploaded.status).toBe(201)
      const image = (await uploaded.json()) as { id: string }
      const listed = await call(viewer, "list_images")
      expect(listed.data.map((i: Json) => [i.id, i.name, i.width, i.height])).toContainEqual([
        image.id,
        "mcp-logo.png",
        40,
        10
      ])
      expect((await call(other, "list_images")).data.map((i: Json) => i.id)).not.toContain(image.id)
      const theme = { font: "rounded", radius: 6, logo: image.id, logoAlt: "MCP Club" }
      expect(await call(owner, "update_workspace_settings", { theme })).toEqual({ theme })
      expect(await call(viewer, "get_workspace_settings")).toEqual({ theme })
      expect(await call(other, "get_workspace_settings")).toEqual({})
      // Checked as over HTTP: contrast, unknown keys, another workspace's image.
      expect(
        await refused(owner, "update_workspace_settings", { theme: { background: "#ffffff", text: "#777777" } })
      ).toContain("theme: text (#777777 on #ffffff) has a contrast of 4.47:1; WCAG AA needs 4.5:1")
      expect(await refused(owner, "update_workspace_settings", { colour: "red" })).toContain("colour")
      expect(await refused(other, "update_workspace_settings", { theme: { logo: image.id } })).toBe(
        `theme.logo: no image ${image.id} in this workspace (upload images with POST /api/images)`
      )
      expect(await call(owner, "get_workspace_settings")).toEqual({ theme })
      expect(await call(owner, "update_workspace_settings", {})).toEqual({})
      // The change through MCP is in the audit log, as done through MCP; only owners and admins read it.
      const audited = await call(owner, "list_audit_log", { action: "workspace.settings_changed", limit: 1 })
      expect(audited.entries[0]).toMatchObject({
        surface: "mcp",
        actor: { kind: "api_key" },
        details: { keys: ["theme"] }
      })
      expect(await refused(viewer, "list_audit_log")).toBe("only an owner or admin can manage the workspace")
      expect(
        (await call(other, "list_audit_log", { surface: "mcp" })).entries.map((e: Json) => e.details)
      ).not.toContainEqual({ keys: ["theme"] })
    })

    it("exports a person's data (owners and admins): answers with their questions, files listed without bytes; audited without the address", async () => {
      const owner = await as(seed.keys.owner)
      const form = await publishedForm(owner, "Export form")
      const response = await api("POST", `/forms/${form.id}/responses`, {
        values: { [form.fields[0].id]: "Xenia", [form.fields[1].id]: "xenia@example.com", [form.fields[2].id]: "Lost" }
      })
      expect(response.status).toBe(201)
      const data = await call(owner, "export_person", { email: "XENIA@example.com" })
      expect(data).toMatchObject({ email: "XENIA@example.com", files: [], emailsSent: [], emailReplies: [] })
      expect(data.responses).toHaveLength(1)
      expect(data.responses[0]).toMatchObject({ id: response.json.id, formTitle: "Export form", status: "submitted" })
      expect(data.responses[0].answers.map((a: Json) => [a.question, a.value])).toEqual([
        ["Name", "Xenia"],
        ["Email", "xenia@example.com"],
        ["Problem", "Lost"]
      ])
      const viewer = await as(seed.keys.viewer)
      expect(await refused(viewer, "export_person", { email: "xenia@example.com" })).toBe(
        "only an owner or admin can manage the workspace"
      )
      expect(await refused(owner, "export_person", { email: "xenia@example.com", contactId: 1 })).toContain(
        "exactly one of email and contactId"
      )
      const other = await as(seed.keys.other)
      expect((await call(other, "export_person", { email: "xenia@example.com" })).responses).toEqual([])
      const audited = await call(owner, "list_audit_log", { action: "privacy.export", limit: 1 })
      expect(audited.entries[0]).toMatchObject({ surface: "mcp", details: { format: "json", responses: 1 } })
      expect(JSON.stringify(audited.entries[0])).not.toMatch(/xenia/i)
    })

    it("translates a form: reads what a translation lacks, sets it, refuses what the form does not have; a viewer reads only, another workspace nothing", async () => {
      const owner = await as(seed.keys.owner)
      const viewer = await as(seed.keys.viewer)
      const other = await as(seed.keys.other)
      const form = await publishedForm(owner, "Form to translate")
      const [name, email, problem] = form.fields.map((f: Json) => String(f.id))
      expect(await call(owner, "list_translations", { formId: form.id })).toEqual({ language: "en", translations: [] })
      expect(await refused(owner, "get_translation", { formId: form.id, language: "de" })).toBe(
        `form ${form.id} has no translation into de`
      )
      const first = await call(owner, "set_translation", {
        formId: form.id,
        language: "de",
        translation: { title: "Zu übersetzendes Formular", fields: { [name]: { label: "Name" } }, status: "draft" }
      })
      expect(first).toMatchObject({ language: "de", name: "Deutsch", status: "draft", translated: 2, total: 5 })
      expect(first.missing).toEqual([
        { path: ["description"], source: "Tell us what went wrong" },
        { path: ["fields", email, "label"], source: "Email" },
        { path: ["fields", problem, "label"], source: "Problem" }
      ])
      const done = await call(owner, "set_translation", {
        formId: form.id,
        language: "de",
        translation: {
          title: "Zu übersetzendes Formular",
          description: "Sagen Sie uns, was schiefging",
          fields: { [name]: { label: "Name" }, [email]: { label: "E-Mail" }, [problem]: { label: "Anliegen" } }
        }
      })
      expect(done).toMatchObject({ status: "ready", translated: 5, total: 5, missing: [] })
      expect((await call(viewer, "get_translation", { formId: form.id, language: "de" })).translation.title).toBe(
        "Zu übersetzendes Formular"
      )
      expect(
        await refused(owner, "set_translation", {
          formId: form.id,
          language: "de",
          translation: { fields: { "999999": { label: "x" } } }
        })
      ).toContain("translations.de.fields.999999: no question 999999 in this form")
      expect(
        await refused(owner, "set_translation", { formId: form.id, language: "de_AT", translation: {} })
      ).toContain("a language must be a tag such as de, pt-BR or zh-Hans")
      expect(
        await refused(viewer, "set_translation", { formId: form.id, language: "fr", translation: { title: "x" } })
      ).toBe("this key belongs to a viewer, who can only read")
      expect(await refused(other, "list_translations", { formId: form.id })).toBe(`form ${form.id} not found`)
      expect(await refused(other, "get_translation", { formId: form.id, language: "de" })).toBe(
        `form ${form.id} not found`
      )
    })

    it("summarizes a form's answers for a viewer, with the list's filters; another workspace is refused", async () => {
      const owner = await as(seed.keys.owner)
      const viewer = await as(seed.keys.viewer)
      const other = await as(seed.keys.other)
      const form = await publishedForm(owner, "Summary form")
      for (const [name, problem] of [
        ["Ann", "The invoice is wrong"],
        ["Bob", "Invoice missing"]
      ] as const) {
        const created = await api("POST", `/forms/${form.id}/responses`, {
          values: {
            [form.fields[0].id]: name,
            [form.fields[1].id]: `${name.toLowerCase()}@example.com`,
            [form.fields[2].id]: problem
          }
        })
        expect(created.status).toBe(201)
      }
      const report = await call(viewer, "get_form_summary", { formId: form.id, texts: 1 })
      expect(report).toMatchObject({ form: { id: form.id }, computedFrom: "tallies", totals: { responses: 2 } })
      const problem = report.questions.find((q: Json) => q.label === "Problem")
      expect(problem).toMatchObject({ kind: "texts", answered: 2 })
      expect(problem.words[0]).toEqual({ word: "invoice", count: 2 })
      expect(problem.latest).toHaveLength(1)
      const searched = await call(viewer, "get_form_summary", { formId: form.id, q: "ann@" })
      expect(searched).toMatchObject({ computedFrom: "responses", totals: { responses: 1 } })
      expect(await refused(viewer, "get_form_summary", { formId: form.id, texts: 99 })).toMatch(/texts/)
      expect(await refused(other, "get_form_summary", { formId: form.id })).toBe(`form ${form.id} not found`)
      const metrics = await call(viewer, "get_case_metrics", { formId: form.id, interval: "week" })
      expect(metrics).toMatchObject({ formId: form.id, interval: "week", cases: 2, open: 2, closed: 0 })
      expect(metrics.firstResponse).toMatchObject({ responded: 0, waiting: 2 })
      const workspace = await call(viewer, "get_case_metrics", {})
      expect(workspace.formId).toBeNull()
      expect(workspace.cases).toBeGreaterThanOrEqual(2)
      expect(await refused(viewer, "get_case_metrics", { stage: "none" })).toMatch(/formId/)
      expect(await refused(other, "get_case_metrics", { formId: form.id })).toBe(`form ${form.id} not found`)
    })

    it("a key of another workspace sees none of the first workspace's forms or responses", async () => {
      const owner = await as(seed.keys.owner)
      const form = await publishedForm(owner, "Private form")
      const response = await api("POST", `/forms/${form.id}/responses`, {
        values: { [form.fields[0].id]: "Priv", [form.fields[1].id]: "priv@example.com" }
      })
      const other = await as(seed.keys.other)
      expect((await call(other, "list_forms")).forms).toEqual([])
      expect((await other.listResources()).resources).toEqual([])
      expect(await refused(other, "get_form", { formId: form.id })).toMatch(/not found/)
      expect(await refused(other, "list_responses", { formId: form.id })).toMatch(/not found/)
      expect(await refused(other, "get_response", { responseId: response.json.id })).toMatch(/not found/)
      expect(await refused(other, "update_response", { responseId: response.json.id, tags: ["x"] })).toMatch(
        /not found/
      )
      expect(await refused(other, "add_note", { responseId: response.json.id, body: "x" })).toMatch(/not found/)
      expect(await refused(other, "issue_status_link", { responseId: response.json.id })).toMatch(/not found/)
      expect(await refused(other, "get_case_fields", { formId: form.id })).toMatch(/not found/)
      expect(await refused(other, "set_case_fields", { formId: form.id, fields: [] })).toMatch(/not found/)
      const issued = await call(owner, "issue_status_link", { responseId: response.json.id })
      expect(issued.url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/)
      expect(await call(owner, "revoke_status_link", { responseId: response.json.id })).toEqual({ revoked: true })
      // A duplicate merged and the merge undone, by the owner; the other workspace reaches neither.
      const duplicate = await api("POST", `/forms/${form.id}/responses`, {
        values: { [form.fields[0].id]: "Priv again", [form.fields[1].id]: "priv@example.com" }
      })
      const pair = { responseId: response.json.id, duplicateId: duplicate.json.id }
      expect(await refused(other, "merge_responses", pair)).toMatch(/not found/)
      const merged = await call(owner, "merge_responses", pair)
      expect(merged).toMatchObject({ keptId: response.json.id, duplicateId: duplicate.json.id, undoneAt: null })
      expect((await call(owner, "get_response", { responseId: duplicate.json.id })).response.mergedInto).toBe(
        response.json.id
      )
      expect(await refused(other, "unmerge_responses", pair)).toMatch(/not found/)
      expect((await call(owner, "unmerge_responses", pair)).undoneAt).not.toBe(null)
      expect((await call(owner, "get_response", { responseId: duplicate.json.id })).response.mergedInto ?? null).toBe(
        null
      )
      expect(await refused(other, "update_form", { formId: form.id, title: "Mine" })).toMatch(/not found/)
      // A saved view of this workspace, used through its tools; the other workspace reaches none of it.
      const view = await call(owner, "save_view", {
        name: "Private view",
        shared: true,
        filter: { formId: form.id, open: "true" },
        sort: "oldest"
      })
      expect(view).toMatchObject({ name: "Private view", shared: true, sort: "oldest", canChange: true })
      expect((await call(owner, "list_views")).views.map((v: Json) => v.id)).toContain(view.id)
      expect((await call(owner, "save_view", { id: view.id, name: "Private, renamed" })).name).toBe("Private, renamed")
      const listed = await call(owner, "list_workspace_responses", { view: view.id })
      expect(listed.responses.map((r: Json) => r.id)).toEqual([response.json.id, duplicate.json.id])
      expect((await call(other, "list_views")).views).toEqual([])
      expect(await refused(other, "save_view", { id: view.id, name: "Mine" })).toMatch(/not found/)
      expect(await refused(other, "delete_view", { id: view.id })).toMatch(/not found/)
      expect(await refused(other, "list_workspace_responses", { view: view.id })).toMatch(/not found/)
      expect(await refused(owner, "save_view", { filter: { tag: "x" } })).toMatch(/needs a name/)
      expect(await call(owner, "delete_view", { id: view.id })).toEqual({ deleted: true })
      await expect(other.readResource({ uri: `qforms://forms/${form.id}` })).rejects.toThrow(/not found/)
      expect((await call(other, "list_members")).members.map((m: Json) => m.email)).toEqual(["owner-b@example.com"])
      expect((await call(owner, "get_form", { formId: form.id })).title).toBe("Private form")
    })

    it("POSTs of two workspaces at once, with the same JSON-RPC ids, each get their own caller's answers", async () => {
      // The process keeps its SDK servers between POSTs (one POST at a time each): an answer must never carry
      // another POST's actor or reach another POST's transport.
      const owner = await as(seed.keys.owner)
      const form = await publishedForm(owner, "Only for A")
      const post = (key: string, id: number) =>
        fetch(`${http.url}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${key}`,
            "mcp-protocol-version": "2025-06-18"
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params: { name: "get_form", arguments: { formId: form.id } }
          })
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as Json }))
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => post(i % 2 === 0 ? seed.keys.owner : seed.keys.other, 1 + (i % 3)))
        )
        answers.forEach((answer, i) => {
          expect(answer.status).toBe(200)
          expect(answer.body.id).toBe(1 + (i % 3))
          if (i % 2 === 0) expect(answer.body.result.structuredContent.title).toBe("Only for A")
          else {
            expect(answer.body.result.isError).toBe(true)
            expect(answer.body.result.content[0].text).toMatch(/not found/)
          }
        })
      }
    })

    it("bad arguments are tool errors naming the field, and the endpoint keeps answering", async () => {
      const client = await as(seed.keys.owner)
      expect(await refused(client, "get_form", { formId: "seven" })).toMatch(/^invalid arguments: formId/)
      expect(await refused(client, "get_form", {})).toBe("invalid arguments: formId: is required")
      expect(await refused(client, "get_form", { formId: 0 })).toMatch(/formId.*must be an id/)
      expect(await refused(client, "list_forms", { extra: 1 })).toBe("invalid arguments: extra: unknown field")
      expect(await refused(client, "create_form", { title: "x".repeat(201) })).toMatch(/title/)
      expect(await refused(client, "create_form", { fields: [{ type: "hologram", label: "?" }] })).toMatch(/fields\.0/)
      expect(await refused(client, "list_responses", { formId: 1, from: "yesterday" })).toMatch(/from.*ISO 8601/)
      expect(await refused(client, "add_note", { responseId: 1, body: "   " })).toMatch(/body/)
      expect(await refused(client, "update_response", { responseId: 2147483647, tags: [] })).toMatch(
        /response 2147483647 not found/
      )
      expect(await refused(client, "no_such_tool")).toMatch(/^unknown tool no_such_tool/)
      expect((await call(client, "list_forms")).forms.length).toBeGreaterThan(0)
    })

    it("answers 401 with WWW-Authenticate without a key or with a wrong one; GET and DELETE 405; bad JSON-RPC 4xx", async () => {
      const initialize = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } }
      })
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
      for (const authorization of [undefined, "Bearer qk_live_wrong", `Basic ${seed.keys.owner}`]) {
        const reply = await fetch(`${http.url}/mcp`, {
          method: "POST",
          headers: authorization === undefined ? headers : { ...headers, authorization },
          body: initialize
        })
        expect(reply.status).toBe(401)
        expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer realm="qforms", error="invalid_token"/)
        expect(((await reply.json()) as Json).error).toMatch(/API key/)
      }
      await expect(connect({})).rejects.toThrow(/missing API key/)
      for (const method of ["GET", "DELETE"]) {
        const reply = await fetch(`${http.url}/mcp`, {
          method,
          headers: { authorization: `Bearer ${seed.keys.owner}` }
        })
        expect(reply.status).toBe(405)
        expect(reply.headers.get("allow")).toBe("POST")
      }
      const owner = { ...headers, authorization: `Bearer ${seed.keys.owner}` }
      const malformed = await fetch(`${http.url}/mcp`, { method: "POST", headers: owner, body: '{"jsonrpc": ' })
      expect(malformed.status).toBe(400)
      expect(((await malformed.json()) as Json).error.code).toBe(-32700)
      const plain = await fetch(`${http.url}/mcp`, {
        method: "POST",
        headers: { ...owner, accept: "application/json" },
        body: initialize
      })
      expect(plain.status).toBe(406)
      expect(((await plain.json()) as Json).error.message).toMatch(/text\/event-stream/)
      const ok = await fetch(`${http.url}/mcp`, {
        method: "POST",
        headers: { ...headers, authorization: `Bearer ${seed.keys.owner}` },
        body: initialize
      })
      expect(ok.status).toBe(200)
      expect(ok.headers.get("mcp-session-id")).toBeNull()
      expect(((await ok.json()) as Json).result.serverInfo.name).toBe("qforms")
    })

    it("counts every call of a JSON-RPC batch against the key's rate limit, not one per POST", async () => {
      const limited = await Qforms.make({
        database: {},
        rateLimit: { requestsPerSecond: 0.001, burst: 10 },
        delivery: { worker: false }
      })
      const limitedHttp = await listen(limited)
      try {
        const key = await limited.run(
          Effect.gen(function* () {
            const { ownerAccountId, workspace } = yield* (yield* Workspaces).create({
              name: "Limited",
              ownerEmail: "limited@example.com"
            })
            return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
          })
        )
        const post = (body: unknown) =>
          fetch(`${limitedHttp.url}/mcp`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              authorization: `Bearer ${key}`,
              "mcp-protocol-version": "2025-03-26"
            },
            body: JSON.stringify(body)
          })
        const call = (id: number) => ({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "list_forms", arguments: {} }
        })
        // A batch larger than the whole burst can never pass: refused, naming the batch.
        const tooMany = await post(Array.from({ length: 11 }, (_, i) => call(i + 1)))
        expect(tooMany.status, `${JSON.stringify([...tooMany.headers])} ${await tooMany.clone().text()}`).toBe(429)
        expect(((await tooMany.json()) as Json).error).toMatch(
          /this batch counts as 11 requests.*at most 10 calls at once/
        )
        // A batch of 9 calls takes 9 of the 10 tokens: one single call is left, then 429.
        const batch = await post(Array.from({ length: 9 }, (_, i) => call(i + 1)))
        expect(batch.status, await batch.clone().text()).toBe(200)
        expect(batch.headers.get("ratelimit")).toMatch(/r=1;/)
        expect(((await batch.json()) as Json).length).toBe(9)
        expect((await post(call(10))).status).toBe(200)
        const refused = await post(call(11))
        expect(refused.status).toBe(429)
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      } finally {
        await limitedHttp.close()
        await limited.dispose()
      }
    })

    it("signs an assistant in through the host's identity bridge, with that member's role", async () => {
      const client = await connect({ "x-host-user": "viewer-a" })
      expect((await call(client, "list_members")).members.length).toBeGreaterThan(1)
      expect(await refused(client, "create_form", { title: "Nope" })).toBe(
        "this key belongs to a viewer, who can only read"
      )
    })

    it("OAuth 2.1: the 401 names the protected resource metadata, which names the authorization server; its tokens work", async () => {
      const anonymous = await fetch(`${http.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      })
      expect(anonymous.status).toBe(401)
      const challenge = anonymous.headers.get("www-authenticate") ?? ""
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
      expect(metadataUrl).toBe(`${http.url}/.well-known/oauth-protected-resource`)
      for (const url of [metadataUrl!, `${metadataUrl}/mcp`]) {
        const metadata = await fetch(url)
        expect(metadata.status).toBe(200)
        expect(await metadata.json()).toEqual({
          resource: `${http.url}/mcp`,
          authorization_servers: ["https://id.example.com"],
          bearer_methods_supported: ["header"],
          scopes_supported: ["qforms"],
          resource_name: "qforms"
        })
      }
      const post = await fetch(metadataUrl!, { method: "POST" })
      expect(post.status).toBe(405)
      // An access token of the host's identity provider: the bridge maps it to the viewer.
      const client = await connect({ authorization: "Bearer at_viewer-a" })
      expect((await call(client, "list_forms")).forms.length).toBeGreaterThan(0)
      expect(await refused(client, "create_form", { title: "Nope" })).toBe(
        "this key belongs to a viewer, who can only read"
      )
      // A token the bridge does not know is refused like a wrong key, and the API takes the same tokens.
      await expect(connect({ authorization: "Bearer at_nobody" })).rejects.toThrow(/API key/)
      const viaApi = await fetch(`${http.url}/api/members`, { headers: { authorization: "Bearer at_viewer-a" } })
      expect(viaApi.status).toBe(200)
    })

    // Two processes need one shared database: PostgreSQL only (PGlite is in this process).
    if (target.name === "postgres") {
      it("is stateless: one client's requests alternate between two server processes on one database", async () => {
        const second = await Qforms.make({ database, delivery: { worker: false } })
        const secondHttp = await listen(second)
        try {
          let turn = 0
          const hosts: Array<string> = []
          const roundRobin: typeof fetch = (input, init) => {
            const url = new URL(String(input instanceof Request ? input.url : input))
            const base = new URL(turn++ % 2 === 0 ? http.url : secondHttp.url)
            url.host = base.host
            hosts.push(url.host)
            return fetch(url, init)
          }
          const client = await connect({ authorization: `Bearer ${seed.keys.owner}` }, `${http.url}/mcp`, roundRobin)
          const created = await call(client, "create_form", { title: "Across processes" })
          expect((await call(client, "get_form", { formId: created.id })).title).toBe("Across processes")
          expect((await call(client, "list_forms")).forms.map((f: Json) => f.id)).toContain(created.id)
          expect(new Set(hosts).size).toBe(2)
        } finally {
          await secondHttp.close()
          await second.dispose()
        }
      })
    }
  })
}
