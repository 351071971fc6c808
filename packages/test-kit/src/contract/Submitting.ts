/**
 * The HTTP contract: submitting responses.
 */
import { expect } from "vitest"
import { group, contactFields } from "./Contract.ts"
import { expectStatus, expectError, expectResponseRow } from "./Expectations.ts"

export const submitting = group("submitting responses", { transport: true }, (c) => {
  const { api, createForm, publishedForm, test, transportTest } = c
  transportTest('POST /forms/{formId}/responses → 201 ResponseRow with source "api"', async () => {
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

  test("409 {error} when the form is a draft or closed", async () => {
    const draft = await createForm({ title: "Draft", fields: contactFields })
    const fields = (await api("GET", `/forms/${draft.id}`)).body.fields as Array<{ id: number }>
    const values = { [fields[0]!.id]: "Ada", [fields[1]!.id]: "ada@example.com" }
    expectError(await api("POST", `/forms/${draft.id}/responses`, { body: { values } }), 409)
    expectStatus(await api("PATCH", `/forms/${draft.id}`, { body: { status: "closed" } }), 200)
    expectError(await api("POST", `/forms/${draft.id}/responses`, { body: { values } }), 409)
    expect((await api("GET", `/forms/${draft.id}/responses`)).body.responses).toEqual([])
  })

  test("400 with details per question for invalid answers", async () => {
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

  test("404 for an absent form", async () => {
    expectError(await api("POST", "/forms/987654/responses", { body: { values: {} } }), 404)
  })
})
