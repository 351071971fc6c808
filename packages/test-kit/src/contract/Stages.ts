/**
 * The HTTP contract: stages.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { expectStatus, expectError, expectStage } from "./Expectations.ts"

export const stages = group("stages", { transport: false }, (c) => {
  const { api, createForm, publishedForm, submit, test } = c
  test("GET /forms/{formId}/stages → {stages}, the defaults of a new form", async () => {
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

  test("POST /forms/{formId}/stages → 201 Stage; PATCH /stages/{id} → 200; DELETE → 204, then 404", async () => {
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

  test("deleting a stage puts its cases back to no stage", async () => {
    const form = await publishedForm("Stage delete")
    const stage = await api("POST", `/forms/${form.formId}/stages`, { body: { name: "Temporary" } })
    const response = await submit(form, "Stan")
    const patched = await api("PATCH", `/responses/${response.id}`, { body: { stageId: stage.body.id } })
    expectStatus(patched, 200)
    expectStatus(await api("DELETE", `/stages/${stage.body.id}`), 204)
    const detail = await api("GET", `/responses/${response.id}`)
    expect(detail.body.response.stageId).toBeNull()
  })

  test("PUT /forms/{formId}/stages/order → 200 {stages} in the new order; not every stage once → 400", async () => {
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
    for (const stageIds of [
      [order[0], order[1]],
      [order[0], order[1], order[1]],
      [order[0], order[1], order[2], order[2]],
      [order[0], order[1], otherStage],
      []
    ]) {
      expectError(await api("PUT", `/forms/${form.id}/stages/order`, { body: { stageIds } }), 400, "stageIds")
    }
    expectError(await api("PUT", `/forms/${form.id}/stages/order`, { body: {} }), 400, "stageIds")
    expectError(await api("PUT", `/forms/${form.id}/stages/order`, { body: { stageIds: "1,2,3" } }), 400, "stageIds")
    expectError(await api("PUT", "/forms/987654/stages/order", { body: { stageIds: order } }), 404)
    const unchanged = await api("GET", `/forms/${form.id}/stages`)
    expect(unchanged.body.stages.map((s: { id: number }) => s.id)).toEqual(order)
  })

  test("400 for a missing name, a bad color or a wrong type; 404 for an absent form", async () => {
    const form = await createForm({ title: "Stage input" })
    expectError(await api("POST", `/forms/${form.id}/stages`, { body: {} }), 400, "name")
    expectError(await api("POST", `/forms/${form.id}/stages`, { body: { name: "" } }), 400, "name")
    expectError(await api("POST", `/forms/${form.id}/stages`, { body: { name: "X", color: "red" } }), 400, "color")
    expectError(
      await api("POST", `/forms/${form.id}/stages`, { body: { name: "X", isClosed: "yes" } }),
      400,
      "isClosed"
    )
    const stage = (await api("GET", `/forms/${form.id}/stages`)).body.stages[0].id as number
    expectError(await api("PATCH", `/stages/${stage}`, { body: { color: "#12345" } }), 400, "color")
    expectError(await api("POST", "/forms/987654/stages", { body: { name: "X" } }), 404)
    expectError(await api("GET", "/forms/987654/stages"), 404)
    expectError(await api("PATCH", "/stages/987654", { body: { name: "X" } }), 404)
    expectError(await api("DELETE", "/stages/987654"), 404)
    expect((await api("GET", `/forms/${form.id}/stages`)).body.stages).toHaveLength(3)
  })
})
