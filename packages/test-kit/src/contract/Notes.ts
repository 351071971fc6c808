/**
 * The HTTP contract: notes.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { ISO, expectStatus, expectError } from "./Expectations.ts"

export const notes = group("notes", { transport: false }, (c) => {
  const { api, publishedForm, submit, test } = c
  test("POST /responses/{id}/notes → 201 Note", async () => {
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

  test("400 for an empty, too long, missing or non-string body; 404 for an absent response", async () => {
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
