/**
 * The HTTP contract: forms.
 */
import { expect } from "vitest"
import { group, sleep, contactFields } from "./Contract.ts"
import { expectStatus, expectError, expectFormSummary, expectField } from "./Expectations.ts"

export const forms = group("forms", { transport: true }, (c) => {
  const { api, createForm, publishedForm, submit, everything, test, transportTest } = c
  test('POST /forms with {} → 201 draft titled "Untitled form"', async () => {
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

  transportTest(
    "POST /forms with title, description, folderId and fields → 201; GET /forms/{id} → FormWithFields",
    async () => {
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
      expect(
        full.body.fields.map((f: { label: string; type: string; required: boolean; position: number }) => [
          f.label,
          f.type,
          f.required,
          f.position
        ])
      ).toEqual([
        ["Name", "short_text", true, 0],
        ["Email", "email", true, 1],
        ["Plan", "select", false, 2],
        ["Message", "long_text", false, 3]
      ])
      expect(full.body.fields[2].options).toMatchObject({ choices: ["Free", "Pro"] })
    }
  )

  test("GET /forms → array of FormSummary, newest change first", async () => {
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

  test("PATCH /forms/{id} changes any subset → 200 Form after the change", async () => {
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

  test("PATCH /forms/{id} with fields replaces the questions; a question sent with its id keeps it", async () => {
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
    expect(fields.map((f) => [f.label, f.position])).toEqual([
      ["Work email", 0],
      ["Subscribe?", 1],
      ["Name", 2]
    ])
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

  transportTest(
    "DELETE /forms/{id} → 204, then GET/PATCH/DELETE → 404; its responses, stages and subscriptions go with it",
    async () => {
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
    }
  )

  test("404 for a form id that does not exist", async () => {
    expectError(await api("GET", "/forms/987654"), 404)
    expectError(await api("PATCH", "/forms/987654", { body: { title: "x" } }), 404)
    expectError(await api("DELETE", "/forms/987654"), 404)
  })

  test("400 for limits, wrong types, unknown statuses and bad questions", async () => {
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
    expectError(await api("POST", "/forms", { body: { fields: [{ type: "select", label: "Plan" }] } }), 400, "options")
    const max = await api("POST", "/forms", { body: { title: "x".repeat(200) } })
    expectStatus(max, 201)
    expect(max.body.title).toHaveLength(200)
    expect((await api("GET", `/forms/${form.id}`)).body.title).toBe("Limits")
  })
})
