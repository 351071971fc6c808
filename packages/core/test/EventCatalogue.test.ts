/**
 * The event catalogue end to end: `GET /api/events/catalogue` and the OpenAPI
 * document's `webhooks` agree with what is posted; each event is written with
 * its change (none when the change fails) and posted, signed, to the
 * subscriptions that name it and whose filters take it. A real qforms with its
 * worker and real receivers on loopback; PGlite always, PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set.
 */
import { Effect } from "effect"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Members } from "../src/identity/Members.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { catalogue } from "../src/events/EventCatalogue.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { apiOf } from "@qforms/test-kit/InProcessApi"
import { OpenApiValidator } from "@qforms/test-kit/OpenApiValidator"
import { receiver } from "@qforms/test-kit/Receiver"

type Hook = Awaited<ReturnType<typeof receiver>>

/** Every event but the test ping, which is never subscribed to. */
const subscribable = catalogue.map((entry) => entry.name).filter((name) => name !== "ping")
/** What a form's own subscription may name: `form.deleted` reaches only workspace-wide ones. */
const formEvents = subscribable.filter((name) => name !== "form.deleted")

for (const target of databaseTargets) {
  describe(`event catalogue on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let keys: { owner: string; viewer: string; foreign: string }
    let mia: { accountId: number; name: string | null; email: string }
    let validator: OpenApiValidator
    const api = (method: string, path: string, body?: unknown, key = keys.owner) =>
      apiOf(qforms, key)(method, path, body)
    /** Waits until a subscription's log holds `count` deliveries, every one succeeded. */
    const delivered = (subscriptionId: string, count: number) =>
      waitFor(async () => {
        const log = await api("GET", `/webhooks/subscribe/${subscriptionId}/deliveries`)
        return log.json.deliveries.length === count &&
          log.json.deliveries.every((d: { status: string }) => d.status === "succeeded")
          ? true
          : undefined
      })

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl: "https://forms.example.com",
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100], timeoutMs: 3_000, pollIntervalMs: 100 }
      })
      const made = await qforms.run(
        Effect.gen(function* () {
          const workspaces = yield* Workspaces
          const apiKeys = yield* ApiKeys
          const members = yield* Members
          const { workspace, ownerAccountId } = yield* workspaces.create({ name: "E", ownerEmail: "e@example.com" })
          const member = yield* members.add(workspace.id, { email: "mia@example.com", name: "Mia", role: "member" })
          const viewer = yield* members.add(workspace.id, { email: "vic@example.com", role: "viewer" })
          const other = yield* workspaces.create({ name: "F", ownerEmail: "f@example.com" })
          return {
            keys: {
              owner: (yield* apiKeys.create(workspace.id, { accountId: ownerAccountId })).key,
              viewer: (yield* apiKeys.create(workspace.id, { accountId: viewer.accountId })).key,
              foreign: (yield* apiKeys.create(other.workspace.id, { accountId: other.ownerAccountId })).key
            },
            member
          }
        })
      )
      keys = made.keys
      mia = made.member
      validator = new OpenApiValidator((await api("GET", "/openapi.json")).json)
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("lists every event with its body's JSON Schema and an example; the document's webhooks take the examples", async () => {
      const listed = await api("GET", "/events/catalogue", undefined, keys.viewer)
      expect(listed.status).toBe(200)
      expect(
        validator.check({
          method: "GET",
          path: "/api/events/catalogue",
          status: 200,
          contentType: "application/json",
          text: JSON.stringify(listed.json)
        })
      ).toBeUndefined()
      const names = listed.json.events.map((e: { name: string }) => e.name)
      expect(names).toEqual(catalogue.map((entry) => entry.name))
      expect(new Set(names).size).toBe(names.length)
      expect(listed.json.events.filter((e: { spec: boolean }) => e.spec).map((e: { name: string }) => e.name)).toEqual([
        "response.created",
        "response.stage_changed"
      ])
      for (const event of listed.json.events) {
        expect(event.example.event).toBe(event.name)
        if (event.name !== "ping") expect(event.example.link).toMatch(/^https:\/\/forms\.example\.com\/app\//)
        expect(validator.checkWebhook(event.name, JSON.stringify(event.example)), event.name).toBeUndefined()
        expect(event.schema.type, event.name).toBe("object")
      }
      // The document's schema is not a rubber stamp: a wrong body is refused.
      expect(
        validator.checkWebhook("response.tagged", JSON.stringify({ ...listed.json.events[3].example, added: "vip" }))
      ).toMatch(/does not match/)
      expect((await apiOf(qforms, "")("GET", "/events/catalogue")).status).toBe(401)
    })

    it("posts each event with its change, signed, to the subscriptions that name it and whose filters take it", async () => {
      const form = await api("POST", "/forms", {
        title: "Support",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true }
        ]
      })
      const formId = form.json.id as number
      const { json: full } = await api("GET", `/forms/${formId}`)
      const stages = (await api("GET", `/forms/${formId}/stages`)).json.stages as Array<{ id: number; name: string }>
      const [everything, vip, staged] = [await receiver([200]), await receiver([200]), await receiver([200])]
      const subscribe = async (hook: Hook, body: Record<string, unknown>) => {
        const reply = await api("POST", "/webhooks/subscribe", { formId, targetUrl: hook.url, ...body })
        expect(reply.status, JSON.stringify(reply.json)).toBe(201)
        return reply.json as { id: string; secret: string; events: Array<string> }
      }
      const all = await subscribe(everything, {
        event: "response.created",
        events: formEvents
      })
      expect(all.events).toEqual(formEvents)
      const tagged = await subscribe(vip, {
        event: "response.tagged",
        events: ["response.created", "response.assigned", "note.created", "response.stage_changed", "response.deleted"],
        filters: { tags: ["VIP"] }
      })
      expect(tagged).toMatchObject({ event: "response.tagged", filters: { tags: ["vip"] } })
      await subscribe(staged, {
        event: "response.stage_changed",
        events: ["note.created", "response.deleted", "form.closed"],
        filters: { stageIds: [stages[1]!.id] }
      })

      expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const created = await api("POST", `/forms/${formId}/responses`, {
        values: { [full.fields[0].id]: "Ada Lovelace", [full.fields[1].id]: "ada@example.com" }
      })
      expect(created.status).toBe(201)
      const id = created.json.id as number
      expect((await api("PATCH", `/responses/${id}`, { assigneeId: mia.accountId })).status).toBe(200)
      // A change refused is no event: the assignee must be a member.
      expect((await api("PATCH", `/responses/${id}`, { assigneeId: 999_999, tags: ["lost"] })).status).toBe(400)
      expect((await api("PATCH", `/responses/${id}`, { tags: ["vip", "invoice"] })).status).toBe(200)
      const note = await api("POST", `/responses/${id}/notes`, { body: "Called back." })
      expect(note.status).toBe(201)
      expect((await api("PATCH", `/responses/${id}`, { stageId: stages[1]!.id })).status).toBe(200)
      expect((await api("DELETE", `/responses/${id}`)).status).toBe(204)
      expect((await api("PATCH", `/forms/${formId}`, { status: "closed" })).status).toBe(200)

      const bodies = async (hook: Hook, count: number) => {
        const posts = await waitFor(() => (hook.received.length >= count ? hook.received : undefined))
        return posts.map((post) => ({ post, body: JSON.parse(post.body) }))
      }
      const received = await bodies(everything, 8)
      const byEvent = Object.fromEntries(received.map(({ body }) => [body.event, body]))
      expect(received.map(({ body }) => body.event).sort()).toEqual(
        [
          "form.published",
          "response.created",
          "response.assigned",
          "response.tagged",
          "note.created",
          "response.stage_changed",
          "response.deleted",
          "form.closed"
        ].sort()
      )
      for (const { post, body } of received) {
        expect(validator.checkWebhook(body.event, post.body), body.event).toBeUndefined()
        const verified = new Webhook(all.secret).verify(post.body, {
          "webhook-id": String(post.headers["webhook-id"]),
          "webhook-timestamp": String(post.headers["webhook-timestamp"]),
          "webhook-signature": String(post.headers["webhook-signature"])
        })
        expect(verified).toEqual(body)
      }
      const owner = { id: expect.any(Number), name: null, email: "e@example.com" }
      expect(byEvent["form.published"]).toEqual({
        event: "form.published",
        form: { id: formId, title: "Support", publicId: form.json.publicId, status: "published" },
        previousStatus: "draft",
        link: `https://forms.example.com/app/forms/${formId}/responses`
      })
      expect(byEvent["response.assigned"]).toMatchObject({
        responseId: id,
        respondent: { name: "Ada Lovelace", email: "ada@example.com" },
        assignee: { id: mia.accountId, name: "Mia", email: "mia@example.com" },
        previousAssignee: null,
        link: `https://forms.example.com/app/responses/${id}`
      })
      expect(byEvent["response.tagged"]).toMatchObject({
        tags: ["vip", "invoice"],
        added: ["vip", "invoice"],
        removed: []
      })
      expect(byEvent["note.created"]).toMatchObject({
        form: { id: formId, title: "Support" },
        responseId: id,
        note: { id: expect.any(Number), body: "Called back.", author: owner }
      })
      expect(byEvent["response.stage_changed"]).toMatchObject({ stage: { id: stages[1]!.id, name: stages[1]!.name } })
      expect(byEvent["response.deleted"]).toEqual({
        event: "response.deleted",
        form: { id: formId, title: "Support" },
        responseId: id,
        deletedAt: expect.any(String),
        link: `https://forms.example.com/app/forms/${formId}/responses`
      })
      expect(byEvent["form.closed"]).toMatchObject({ form: { status: "closed" }, previousStatus: "published" })

      // The tag filter: nothing before the tag, everything named after it (the created and assigned events came
      // while the response had no tags).
      const vipEvents = (await bodies(vip, 4)).map(({ body }) => body.event).sort()
      expect(vipEvents).toEqual(["note.created", "response.deleted", "response.stage_changed", "response.tagged"])
      // The stage filter: the note came while the response had no stage; a form event is not about a response.
      const stagedEvents = (await bodies(staged, 2)).map(({ body }) => body.event).sort()
      expect(stagedEvents).toEqual(["response.deleted", "response.stage_changed"])
      // Nothing more arrives: the receivers' last events were the form's closing (only `everything`).
      await delivered(all.id, 8)
      expect(vip.received).toHaveLength(4)
      expect(staged.received).toHaveLength(2)
      for (const hook of [everything, vip, staged]) await hook.close()
    })

    it("refuses what a subscription cannot be: 400 naming the problem, 404 for another workspace's form", async () => {
      const form = await api("POST", "/forms", { title: "Other", fields: [] })
      const other = await api("POST", "/forms", { title: "Another", fields: [] })
      const foreignStage = (await api("GET", `/forms/${other.json.id}/stages`)).json.stages[0].id
      const base = { formId: form.json.id, event: "response.created", targetUrl: "http://127.0.0.1:9/hook" }
      for (const [body, message] of [
        [{ ...base, events: ["response.exploded"] }, /events/],
        [{ ...base, event: "webhook.test" }, /event/],
        [{ ...base, event: "ping" }, /event/],
        [{ ...base, events: ["ping"] }, /events/],
        [{ ...base, events: [] }, /events must name 1 to 20 events/],
        [{ ...base, event: "form.deleted" }, /form.deleted reaches only workspace-wide subscriptions/],
        [{ ...base, events: ["response.created", "form.deleted"] }, /form.deleted reaches only workspace-wide/],
        [{ ...base, filters: { formIds: [form.json.id] } }, /formIds/],
        [{ ...base, filters: { stageIds: [foreignStage] } }, /not every stage belongs to form/],
        [{ ...base, filters: { tags: [] } }, /filters.tags must name 1 to 50 tags/],
        [{ ...base, filters: { tags: ["x".repeat(31)] } }, /at most 30 characters/]
      ] as const) {
        const reply = await api("POST", "/webhooks/subscribe", body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(reply.json.error, JSON.stringify(body)).toMatch(message)
      }
      const foreign = await api(
        "POST",
        "/webhooks/subscribe",
        { ...base, filters: { stageIds: [foreignStage] } },
        keys.foreign
      )
      expect(foreign.status).toBe(404)
      // The contract's shape alone still works, and lists with its one event and no filters.
      const plain = await api("POST", "/webhooks/subscribe", base)
      expect(plain.status).toBe(201)
      expect(plain.json).toMatchObject({ event: "response.created", events: ["response.created"], filters: {} })
    })

    it("a workspace-wide subscription hears every form, or the forms it names, and their deletion", async () => {
      const make = async (title: string) => {
        const made = await api("POST", "/forms", {
          title,
          fields: [{ type: "short_text", label: "Name", required: true }]
        })
        expect(made.status).toBe(201)
        const { json } = await api("GET", `/forms/${made.json.id}`)
        return { id: made.json.id as number, publicId: json.publicId as string, field: json.fields[0].id as number }
      }
      const [a, b] = [await make("Alpha"), await make("Beta")]
      const [wideHook, namedHook, ownHook] = [await receiver([200]), await receiver([200]), await receiver([200])]
      const wide = await api("POST", "/webhooks/workspace-subscriptions", {
        event: "form.deleted",
        events: ["response.created", "form.published"],
        targetUrl: wideHook.url,
        source: "crm"
      })
      expect(wide.status, JSON.stringify(wide.json)).toBe(201)
      expect(wide.json).not.toHaveProperty("formId")
      expect(wide.json).toMatchObject({
        scope: "workspace",
        event: "form.deleted",
        events: ["form.deleted", "response.created", "form.published"],
        filters: {},
        source: "crm",
        secret: expect.stringMatching(/^whsec_/)
      })
      const named = await api("POST", "/webhooks/workspace-subscriptions", {
        event: "response.created",
        events: ["form.deleted"],
        filters: { formIds: [a.id, a.id] },
        targetUrl: namedHook.url
      })
      expect(named.status, JSON.stringify(named.json)).toBe(201)
      expect(named.json).toMatchObject({ scope: "workspace", filters: { formIds: [a.id] } })
      const own = await api("POST", "/webhooks/subscribe", {
        formId: a.id,
        event: "response.created",
        targetUrl: ownHook.url
      })
      expect(own.status).toBe(201)

      for (const form of [a, b]) {
        expect((await api("PATCH", `/forms/${form.id}`, { status: "published" })).status).toBe(200)
        const submitted = await api("POST", `/forms/${form.id}/responses`, { values: { [form.field]: "Ada" } })
        expect(submitted.status).toBe(201)
      }
      expect((await api("DELETE", `/forms/${a.id}`)).status).toBe(204)

      const posts = async (hook: Hook, count: number, secret: string) => {
        const received = await waitFor(() => (hook.received.length >= count ? hook.received : undefined))
        return received.map((post) => {
          expect(validator.checkWebhook(JSON.parse(post.body).event, post.body), post.body).toBeUndefined()
          return new Webhook(secret).verify(post.body, {
            "webhook-id": String(post.headers["webhook-id"]),
            "webhook-timestamp": String(post.headers["webhook-timestamp"]),
            "webhook-signature": String(post.headers["webhook-signature"])
          }) as { event: string; form: { id: number } }
        })
      }
      const heard = (bodies: ReadonlyArray<{ event: string; form: { id: number } }>) =>
        bodies.map((body) => `${body.event} ${body.form.id}`).sort()
      const wideBodies = await posts(wideHook, 5, wide.json.secret)
      expect(heard(wideBodies)).toEqual(
        [
          `form.deleted ${a.id}`,
          `form.published ${a.id}`,
          `form.published ${b.id}`,
          `response.created ${a.id}`,
          `response.created ${b.id}`
        ].sort()
      )
      expect(wideBodies.find((body) => body.event === "form.deleted")).toEqual({
        event: "form.deleted",
        form: { id: a.id, title: "Alpha", publicId: a.publicId, status: "published" },
        responses: 1,
        deletedAt: expect.any(String),
        link: "https://forms.example.com/app/"
      })
      expect(heard(await posts(namedHook, 2, named.json.secret))).toEqual(
        [`form.deleted ${a.id}`, `response.created ${a.id}`].sort()
      )
      // The form's own subscription heard its response, then went with the form.
      expect((await posts(ownHook, 1, own.json.secret)).map((body) => body.event)).toEqual(["response.created"])
      // The contract's list keeps the forms' own (this one went with its form); the workspace-wide ones have theirs.
      const listed = (await api("GET", "/webhooks")).json as Array<{ id: string; formId: number }>
      expect(listed.map((sub) => sub.id)).not.toContain(own.json.id)
      expect(listed.map((sub) => sub.id)).not.toContain(wide.json.id)
      const wideListed = await api("GET", "/webhooks/workspace-subscriptions", undefined, keys.viewer)
      expect(wideListed.status).toBe(200)
      expect(wideListed.json.map((sub: { id: string }) => sub.id)).toEqual([wide.json.id, named.json.id])
      expect(wideListed.json[1]).toMatchObject({
        scope: "workspace",
        filters: { formIds: [a.id] },
        targetUrl: expect.stringMatching(/…$/)
      })
      expect(
        validator.check({
          method: "GET",
          path: "/api/webhooks/workspace-subscriptions",
          status: 200,
          contentType: "application/json",
          text: JSON.stringify(wideListed.json)
        })
      ).toBeUndefined()
      const disabled = await api("PATCH", `/webhooks/subscribe/${named.json.id}`, { disabled: true })
      expect(disabled.json).toMatchObject({ id: named.json.id, scope: "workspace", disabled: true })
      // The log keeps what is left: the deleted form's events went with it (Beta's two, and the deletion).
      await delivered(wide.json.id, 3)
      expect(wideHook.received).toHaveLength(5)
      expect(namedHook.received).toHaveLength(2)
      expect(ownHook.received).toHaveLength(1)

      // A test of a workspace-wide subscription: its ping names no form; an example keeps the catalogue's form.
      const ping = await api("POST", `/webhooks/subscribe/${wide.json.id}/test`)
      expect(ping.json).toMatchObject({ ok: true })
      const example = await api("POST", `/webhooks/subscribe/${wide.json.id}/test?event=form.deleted`)
      expect(example.json).toMatchObject({ ok: true })
      const [pingBody, exampleBody] = wideHook.received.slice(5).map((post) => post.body)
      expect(JSON.parse(pingBody!)).toMatchObject({ event: "ping", subscriptionId: wide.json.id, form: null })
      expect(validator.checkWebhook("ping", pingBody!)).toBeUndefined()
      expect(JSON.parse(exampleBody!)).toMatchObject({ event: "form.deleted", form: { title: "Contact us" } })
      expect(validator.checkWebhook("form.deleted", exampleBody!)).toBeUndefined()

      // Refused: another workspace's form (404), a stage of no named form (400), viewers (403).
      const bStage = (await api("GET", `/forms/${b.id}/stages`)).json.stages[0].id as number
      const base = { event: "response.created", targetUrl: "http://127.0.0.1:9/hook" }
      const foreign = await api(
        "POST",
        "/webhooks/workspace-subscriptions",
        { ...base, filters: { formIds: [b.id] } },
        keys.foreign
      )
      expect(foreign.status).toBe(404)
      expect(foreign.json.error).toBe(`form ${b.id} not found`)
      const stray = await api("POST", "/webhooks/workspace-subscriptions", {
        ...base,
        filters: { formIds: [b.id], stageIds: [bStage + 1_000_000] }
      })
      expect(stray.status).toBe(400)
      expect(stray.json.error).toMatch(/filters.stageIds: stage \d+ belongs to none of filters.formIds/)
      const staged = await api("POST", "/webhooks/workspace-subscriptions", {
        ...base,
        filters: { stageIds: [bStage] }
      })
      expect(staged.status).toBe(201)
      expect((await api("POST", "/webhooks/workspace-subscriptions", base, keys.viewer)).status).toBe(403)
      for (const body of [
        { ...base, filters: { formIds: [] } },
        { targetUrl: base.targetUrl },
        { ...base, formId: b.id }
      ]) {
        const bad = await api("POST", "/webhooks/workspace-subscriptions", body)
        expect(bad.status, JSON.stringify(body)).toBe(400)
        expect(bad.json.error, JSON.stringify(body)).toEqual(expect.any(String))
      }
      for (const hook of [wideHook, namedHook, ownHook]) await hook.close()
    })

    it("a test posts a ping, or the example of a chosen event about the subscription's form, as it is posted", async () => {
      const form = await api("POST", "/forms", { title: "Tested", fields: [] })
      const { json: full } = await api("GET", `/forms/${form.json.id}`)
      const hook = await receiver([200])
      const sub = (
        await api("POST", "/webhooks/subscribe", {
          formId: form.json.id,
          event: "response.created",
          events: ["response.created", "note.created"],
          targetUrl: hook.url
        })
      ).json as { id: string; secret: string }
      const test = (query: Record<string, string> = {}, key = keys.owner) =>
        api("POST", `/webhooks/subscribe/${sub.id}/test?${new URLSearchParams(query)}`, undefined, key)
      const verified = (index: number) => {
        const post = hook.received[index]!
        expect(String(post.headers["webhook-id"])).toMatch(/^msg_test_/)
        new Webhook(sub.secret).verify(post.body, {
          "webhook-id": String(post.headers["webhook-id"]),
          "webhook-timestamp": String(post.headers["webhook-timestamp"]),
          "webhook-signature": String(post.headers["webhook-signature"])
        })
        return { text: post.body, json: JSON.parse(post.body) }
      }
      // No body: a ping naming the subscription and what it receives.
      expect((await test()).json).toMatchObject({ ok: true, statusCode: 200, error: null })
      const ping = verified(0)
      expect(ping.json).toMatchObject({
        event: "ping",
        subscriptionId: sub.id,
        form: { id: form.json.id, title: "Tested" },
        events: ["response.created", "note.created"]
      })
      expect(validator.checkWebhook("ping", ping.text)).toBeUndefined()
      // A chosen event: its example about this form, valid as that event, link included.
      expect((await test({ event: "response.tagged" })).json).toMatchObject({ ok: true })
      const tagged = verified(1)
      expect(tagged.json).toMatchObject({
        event: "response.tagged",
        form: { id: form.json.id, title: "Tested" },
        added: ["invoice"],
        link: expect.stringMatching(/^https:\/\/forms\.example\.com\/app\/responses\//)
      })
      expect(validator.checkWebhook("response.tagged", tagged.text)).toBeUndefined()
      expect((await test({ event: "form.closed" })).json).toMatchObject({ ok: true })
      const closed = verified(2)
      expect(closed.json.form).toEqual({
        id: form.json.id,
        title: "Tested",
        publicId: full.publicId,
        status: full.status
      })
      expect(validator.checkWebhook("form.closed", closed.text)).toBeUndefined()
      for (const name of subscribable) {
        expect((await test({ event: name })).json.ok, name).toBe(true)
      }
      await waitFor(() => (hook.received.length === 3 + catalogue.length - 1 ? true : undefined))
      for (let i = 3; i < hook.received.length; i++) {
        const { json, text } = verified(i)
        expect(validator.checkWebhook(json.event, text), json.event).toBeUndefined()
      }
      // Refused: an unknown event, a ping by name, viewers, another workspace.
      for (const body of [{ event: "response.exploded" }, { event: "ping" }, { event: "" }]) {
        const bad = await test(body)
        expect(bad.status, JSON.stringify(body)).toBe(400)
        expect(bad.json.error, JSON.stringify(body)).toMatch(/event/)
      }
      expect((await test({}, keys.viewer)).status).toBe(403)
      expect((await test({}, keys.foreign)).status).toBe(404)
      expect(hook.received).toHaveLength(3 + catalogue.length - 1)
      await hook.close()
    })
  })
}
