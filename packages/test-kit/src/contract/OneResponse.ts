/**
 * The HTTP contract: one response.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import {
  ISO,
  expectStatus,
  expectError,
  expectField,
  expectStage,
  expectMember,
  expectResponseRow
} from "./Expectations.ts"

export const oneResponse = group("one response", { transport: false }, (c) => {
  const { api, createForm, publishedForm, submit, test } = c
  test("GET /responses/{id} → ResponseDetail with activities newest first", async () => {
    const form = await publishedForm("Detail")
    const response = await submit(form, "Dee")
    expectStatus(await api("PATCH", `/responses/${response.id}`, { body: { stageId: form.stages[1]!.id } }), 200)
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
    expect(detail.members.map((m: { accountId: number }) => m.accountId)).toContain(c.seed.a.ownerAccountId)
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
    expect(detail.activities[0].actor).toMatchObject({ accountId: c.seed.a.ownerAccountId })
    const times = detail.activities.map((a: { createdAt: string }) => Date.parse(a.createdAt))
    expect([...times].sort((x, y) => y - x)).toEqual(times)
  })

  test("PATCH /responses/{id} → {ok, formId, changes}; unchanged stage → changes []", async () => {
    const form = await publishedForm("Triage")
    const response = await submit(form, "Gus")
    const inProgress = form.stages[1]!.id
    const reply = await api("PATCH", `/responses/${response.id}`, {
      body: { stageId: inProgress, assigneeId: c.seed.a.memberAccountId, tags: ["vip", "billing"] }
    })
    expectStatus(reply, 200)
    expect(reply.body).toMatchObject({ ok: true, formId: form.formId })
    expect(reply.body.changes).toHaveLength(3)
    expect(reply.body.changes).toEqual(
      expect.arrayContaining([
        { field: "stageId", from: null, to: inProgress },
        { field: "assigneeId", from: null, to: c.seed.a.memberAccountId },
        { field: "tags", from: [], to: ["vip", "billing"] }
      ])
    )
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
    expect(cleared.body.changes).toEqual(
      expect.arrayContaining([
        { field: "stageId", from: inProgress, to: null },
        { field: "assigneeId", from: c.seed.a.memberAccountId, to: null }
      ])
    )
    expect(cleared.body.changes).toHaveLength(2)
    const detail = await api("GET", `/responses/${response.id}`)
    expect(detail.body.response).toMatchObject({ stageId: null, assigneeId: null, tags: ["vip", "billing"] })
    const types = detail.body.activities.map((a: { type: string }) => a.type) as Array<string>
    expect(types).toHaveLength(6)
    expect(types.at(-1)).toBe("created")
    expect([...types.slice(0, 2)].sort()).toEqual(["assigned", "stage_changed"])
    expect([...types].sort()).toEqual([
      "assigned",
      "assigned",
      "created",
      "stage_changed",
      "stage_changed",
      "tags_changed"
    ])
  })

  test("400 for a stage of another form, a non-member assignee, limits and wrong types; nothing changes", async () => {
    const form = await publishedForm("Refuse")
    const other = await createForm({ title: "Refuse other" })
    const otherStage = (await api("GET", `/forms/${other.id}/stages`)).body.stages[0].id as number
    const response = await submit(form, "Hal")
    const r = response.id
    expectError(await api("PATCH", `/responses/${r}`, { body: { stageId: otherStage } }), 400, "stage")
    expectError(await api("PATCH", `/responses/${r}`, { body: { stageId: 987654 } }), 400, "stage")
    expectError(
      await api("PATCH", `/responses/${r}`, { body: { assigneeId: c.seed.b.ownerAccountId } }),
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

  test("DELETE /responses/{id} → 204, then 404", async () => {
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

  test("404 for a response id that does not exist", async () => {
    expectError(await api("GET", "/responses/987654"), 404)
    expectError(await api("PATCH", "/responses/987654", { body: { tags: [] } }), 404)
    expectError(await api("DELETE", "/responses/987654"), 404)
  })
})
