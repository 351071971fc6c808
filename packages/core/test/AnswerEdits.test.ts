/**
 * Answer edits end to end (`PATCH /api/responses/{id}` with `answers`): the
 * new answers checked as a submission's are (same messages), stored with the
 * score worked out again, the respondent and the search text; an activity on
 * the timeline and `response.updated` posted, signed and valid by the served
 * OpenAPI document, to a real receiver on loopback; nothing at all for an
 * edit that changes nothing or is refused; viewers 403, another workspace
 * 404. A real qforms with its worker; PGlite always, PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set.
 */
import { Effect, Result } from "effect"
import * as AnswerEdits from "../src/cases/AnswerEdits.ts"
import type { Field } from "../src/forms/Fields.ts"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Members } from "../src/identity/Members.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { apiOf } from "@qforms/test-kit/InProcessApi"
import { OpenApiValidator } from "@qforms/test-kit/OpenApiValidator"
import { receiver } from "@qforms/test-kit/Receiver"

describe("AnswerEdits.apply", () => {
  const field = (id: number, type: Field["type"], extra: Partial<Field> = {}): Field => ({
    id,
    type,
    label: `Q${id}`,
    required: false,
    position: id,
    options: null,
    ...extra
  })
  // Q1 "No" jumps to the end; Q2 required; Q3 a file; Q4 shown only for the hidden value ref=partner.
  const form = {
    fields: [
      field(1, "select", {
        required: true,
        options: { choices: ["Yes", "No"] },
        logic: [{ if: { field: 1, equals: "No" }, then: { jumpTo: "end" } }]
      }),
      field(2, "short_text", { required: true }),
      field(3, "file"),
      field(4, "short_text", { showIf: { field: "hidden:ref", equals: "partner" } })
    ],
    settings: {},
    hiddenFields: [{ name: "ref" }]
  }
  const file = { fileId: "file_1", name: "cv.pdf", size: 10, type: "application/pdf" }

  it("follows the form's logic as a submission does, keeping hidden values", () => {
    const stored = { "1": "No", "hidden:ref": "partner" }
    // Now asked: Q2 is required, Q4 (its hidden value kept) may be answered.
    const refused = AnswerEdits.apply(form, stored, { "1": "Yes" })
    expect(Result.isFailure(refused) && refused.failure.map((i) => [i.path, i.message])).toEqual([
      ["answers.2", '"Q2" is required']
    ])
    const edit = AnswerEdits.apply(form, stored, { "1": "Yes", "2": "Ada", "4": "Acme" })
    expect(Result.isSuccess(edit) && edit.success.values).toEqual({
      "1": "Yes",
      "2": "Ada",
      "4": "Acme",
      "hidden:ref": "partner"
    })
    // Back to "No": the answers the jump now skips are dropped, and named as changed.
    const back = AnswerEdits.apply(form, { "1": "Yes", "2": "Ada", "hidden:ref": "partner" }, { "1": "No" })
    expect(Result.isSuccess(back) && back.success.changed.map((f) => f.id)).toEqual([1, 2])
    expect(Result.isSuccess(back) && back.success.to).toEqual({ "1": "No", "2": null })
  })

  it("refuses file answers, and an edit that would drop one", () => {
    const stored = { "1": "Yes", "2": "Ada", "3": file }
    const named = AnswerEdits.apply(form, stored, { "3": null })
    expect(Result.isFailure(named) && named.failure[0]!.message).toBe(
      '"Q3": answers to file questions cannot be edited'
    )
    const dropped = AnswerEdits.apply(form, stored, { "1": "No" })
    expect(Result.isFailure(dropped) && dropped.failure[0]!.message).toMatch(/would skip a file question/)
    // Another answer leaves the file as it is.
    const kept = AnswerEdits.apply(form, stored, { "2": "Grace" })
    expect(Result.isSuccess(kept) && kept.success.values["3"]).toEqual(file)
  })

  it("refuses consent answers: only the respondent gives or withdraws consent", () => {
    const consent = { ...form, fields: [...form.fields, field(5, "legal", { label: "I agree" })] }
    const refused = AnswerEdits.apply(consent, { "1": "Yes", "2": "Ada", "5": true }, { "5": false })
    expect(Result.isFailure(refused) && refused.failure.map((i) => [i.path, i.message])).toEqual([
      ["answers.5", '"I agree": consent answers cannot be edited: only the respondent gives consent']
    ])
  })
})

for (const target of databaseTargets) {
  describe(`answer edits on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let keys: { owner: string; member: string; viewer: string; foreign: string }
    let validator: OpenApiValidator
    const api = (method: string, path: string, body?: unknown, key = keys.owner) =>
      apiOf(qforms, key)(method, path, body)

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl: "https://forms.example.com",
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100], timeoutMs: 3_000, pollIntervalMs: 100 }
      })
      keys = await qforms.run(
        Effect.gen(function* () {
          const workspaces = yield* Workspaces
          const apiKeys = yield* ApiKeys
          const members = yield* Members
          const { workspace, ownerAccountId } = yield* workspaces.create({ name: "E", ownerEmail: "e@example.com" })
          const member = yield* members.add(workspace.id, { email: "mia@example.com", name: "Mia", role: "member" })
          const viewer = yield* members.add(workspace.id, { email: "vic@example.com", role: "viewer" })
          const other = yield* workspaces.create({ name: "F", ownerEmail: "f@example.com" })
          return {
            owner: (yield* apiKeys.create(workspace.id, { accountId: ownerAccountId })).key,
            member: (yield* apiKeys.create(workspace.id, { accountId: member.accountId })).key,
            viewer: (yield* apiKeys.create(workspace.id, { accountId: viewer.accountId })).key,
            foreign: (yield* apiKeys.create(other.workspace.id, { accountId: other.ownerAccountId })).key
          }
        })
      )
      validator = new OpenApiValidator((await api("GET", "/openapi.json")).json)
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("stores checked answers with the score worked out again, writes an activity and posts response.updated", async () => {
      const form = await api("POST", "/forms", {
        title: "Quiz",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true },
          {
            type: "select",
            label: "Capital of France?",
            required: true,
            options: { choices: ["Paris", "Lyon"], points: { Paris: 2, Lyon: -1 } }
          },
          { type: "number", label: "Age", options: { min: 0 } },
          { type: "long_text", label: "Comment" },
          { type: "file", label: "CV" }
        ]
      })
      expect(form.status, JSON.stringify(form.json)).toBe(201)
      const formId = form.json.id as number
      const { json: full } = await api("GET", `/forms/${formId}`)
      const [name, email, capital, age, comment, cv] = (full.fields as Array<{ id: number }>).map((f) => String(f.id))
      expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const hook = await receiver([200])
      const sub = await api("POST", "/webhooks/subscribe", {
        formId,
        event: "response.updated",
        targetUrl: hook.url
      })
      expect(sub.status, JSON.stringify(sub.json)).toBe(201)
      const created = await api("POST", `/forms/${formId}/responses`, {
        values: { [name!]: "Ada", [email!]: "ada@example.com", [capital!]: "Lyon", [age!]: 36, [comment!]: "zebra" }
      })
      expect(created.status, JSON.stringify(created.json)).toBe(201)
      const id = created.json.id as number
      expect(created.json.values["var:score"]).toBe(-1)

      // A member edits: the answer, the score, the respondent and the search text follow.
      const edited = await api(
        "PATCH",
        `/responses/${id}`,
        { answers: { [capital!]: "Paris", [email!]: " grace@example.com ", [comment!]: null } },
        keys.member
      )
      expect(edited.status, JSON.stringify(edited.json)).toBe(200)
      expect(edited.json).toEqual({
        ok: true,
        formId,
        changes: [
          {
            field: "answers",
            from: { [email!]: "ada@example.com", [capital!]: "Lyon", [comment!]: "zebra" },
            to: { [email!]: "grace@example.com", [capital!]: "Paris", [comment!]: null }
          }
        ]
      })
      const detail = (await api("GET", `/responses/${id}`)).json
      expect(detail.response.values).toEqual({
        [name!]: "Ada",
        [email!]: "grace@example.com",
        [capital!]: "Paris",
        [age!]: 36,
        "var:score": 2
      })
      expect(detail.response.email).toBe("grace@example.com")
      const activity = detail.activities.find((a: { type: string }) => a.type === "answers_changed")
      expect(activity).toMatchObject({
        actor: { type: "member", name: "Mia", via: "api_key" },
        payload: {
          questions: ["Email", "Capital of France?", "Comment"],
          from: { [capital!]: "Lyon" },
          to: { [capital!]: "Paris", [comment!]: null }
        }
      })
      const search = async (q: string) =>
        (await api("GET", `/forms/${formId}/responses?q=${q}`)).json.responses.map((r: { id: number }) => r.id)
      expect(await search("grace")).toEqual([id])
      expect(await search("zebra")).toEqual([])

      // The event: the response as it is now and what changed, signed, valid by the served document.
      const [post] = await waitFor(() => (hook.received.length >= 1 ? hook.received : undefined))
      expect(validator.checkWebhook("response.updated", post!.body)).toBeUndefined()
      const body = new Webhook(sub.json.secret).verify(post!.body, {
        "webhook-id": String(post!.headers["webhook-id"]),
        "webhook-timestamp": String(post!.headers["webhook-timestamp"]),
        "webhook-signature": String(post!.headers["webhook-signature"])
      })
      expect(body).toMatchObject({
        event: "response.updated",
        form: { id: formId, title: "Quiz" },
        responseId: id,
        respondent: { name: "Ada", email: "grace@example.com" },
        answers: { "Capital of France?": "Paris", Email: "grace@example.com" },
        changes: [
          { questionId: Number(email), question: "Email", from: "ada@example.com", to: "grace@example.com" },
          { questionId: Number(capital), question: "Capital of France?", from: "Lyon", to: "Paris" },
          { questionId: Number(comment), question: "Comment", from: "zebra", to: null }
        ],
        link: `https://forms.example.com/app/responses/${id}`
      })

      // Refused, with a submission's messages; nothing is stored.
      const submitted = await api("POST", `/forms/${formId}/responses`, {
        values: { [name!]: "Bo", [email!]: "bo@example.com", [capital!]: "Paris", [age!]: "old" }
      })
      expect(submitted.status).toBe(400)
      for (const [answers, message] of [
        [{ "999999": "x" }, /^unknown question 999999$/],
        [{ [name!]: null }, /^"Name" is required$/],
        [{ [email!]: "" }, /^"Email" is required$/],
        [{ [age!]: "old" }, new RegExp(`^${submitted.json.error}$`)],
        [{ [age!]: -1 }, /"Age"/],
        [{ [capital!]: "Rome" }, /"Capital of France\?"/],
        [{ [cv!]: { fileId: "file_x" } }, /answers to file questions cannot be edited/]
      ] as const) {
        const refused = await api("PATCH", `/responses/${id}`, { answers, tags: ["refused"] })
        expect(refused.status, JSON.stringify(answers)).toBe(400)
        expect(refused.json.error, JSON.stringify(answers)).toMatch(message)
      }
      expect((await api("PATCH", `/responses/${id}`, { answers: [] })).status).toBe(400)
      expect((await api("PATCH", `/responses/${id}`, { answers: { [age!]: 1 } }, keys.viewer)).status).toBe(403)
      expect((await api("PATCH", `/responses/${id}`, { answers: { [age!]: 1 } }, keys.foreign)).status).toBe(404)
      const after = (await api("GET", `/responses/${id}`)).json
      expect(after.response.values).toEqual(detail.response.values)
      expect(after.response.tags).toEqual([])
      expect(after.activities).toHaveLength(detail.activities.length)

      // An edit that changes nothing (the same answers, as typed or as stored) writes nothing.
      const same = await api("PATCH", `/responses/${id}`, { answers: { [email!]: "grace@example.com ", [age!]: 36 } })
      expect(same.status).toBe(200)
      expect(same.json.changes).toEqual([])
      expect((await api("PATCH", `/responses/${id}`, { answers: {} })).json.changes).toEqual([])
      expect((await api("GET", `/responses/${id}`)).json.activities).toHaveLength(detail.activities.length)
      // A later change's event is the next one the receiver gets: none came between.
      expect((await api("PATCH", `/responses/${id}`, { answers: { [age!]: 37 } })).status).toBe(200)
      const posts = await waitFor(() => (hook.received.length >= 2 ? hook.received : undefined))
      expect(JSON.parse(posts[1]!.body).changes).toEqual([
        { questionId: Number(age), question: "Age", from: "36", to: "37" }
      ])
      const log = await waitFor(async () => {
        const reply = await api("GET", `/webhooks/subscribe/${sub.json.id}/deliveries`)
        return reply.json.deliveries.every((d: { status: string }) => d.status === "succeeded")
          ? reply.json.deliveries
          : undefined
      })
      expect(log).toHaveLength(2)
      await hook.close()
    })
  })
}
