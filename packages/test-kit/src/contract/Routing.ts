/**
 * The HTTP contract: routing and request bodies.
 */
import { expect } from "vitest"
import { group, hookUrl } from "./Contract.ts"
import { expectError, softError } from "./Expectations.ts"

export const routing = group("routing and request bodies", { transport: true }, (c) => {
  const { api, createForm, publishedForm, submit, everything, test, transportTest } = c
  transportTest("unknown route → 404 {error}", async () => {
    expectError(await api("GET", "/nope"), 404)
    expectError(await api("POST", "/nope", { body: {} }), 404)
  })

  transportTest("wrong method → 405 {error} with an Allow header", async () => {
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

  test("a non-integer path id → 400 {error}", async () => {
    const cases: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["GET", "/forms/abc"],
      ["PATCH", "/forms/abc", { title: "x" }],
      ["DELETE", "/forms/1.5"],
      ["GET", "/forms/abc/responses"],
      ["GET", "/forms/abc/responses.csv"],
      ["GET", "/forms/abc/responses.xlsx"],
      ["GET", "/forms/abc/summary"],
      ["GET", "/forms/abc/summary.csv"],
      ["GET", "/forms/abc/metrics"],
      ["GET", "/forms/abc/digest"],
      ["PUT", "/forms/abc/digest", { frequency: "daily" }],
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

  transportTest("invalid JSON, a non-object body and a body of the wrong type → 400 {error}", async () => {
    expectError(await api("POST", "/forms", { raw: "{nope" }), 400)
    expectError(await api("POST", "/forms", { raw: "[]" }), 400)
    expectError(await api("POST", "/forms", { raw: '"title"' }), 400)
    const form = await publishedForm("Bad JSON")
    const response = await submit(form, "Json")
    expectError(await api("PATCH", `/responses/${response.id}`, { raw: '{"tags": [' }), 400)
    expectError(await api("POST", `/responses/${response.id}/notes`, { raw: "not json at all" }), 400)
    expectError(await api("POST", "/webhooks/subscribe", { raw: "{" }), 400)
  })

  transportTest("a body over 1 MiB → 413 {error}, and nothing is created", async () => {
    const before = (await api("GET", "/forms")).body.length as number
    const reply = await api("POST", "/forms", {
      body: { title: "Too big", description: "x".repeat(1024 * 1024 + 10) }
    })
    expectError(reply, 413)
    expect((await api("GET", "/forms")).body.length).toBe(before)
  })

  test("unknown body fields → 400 naming the field, on every endpoint with a body", async () => {
    const all = await everything()
    const f = all.form.formId
    const stages = (await api("GET", `/forms/${f}/stages`)).body.stages.map((s: { id: number }) => s.id)
    const cases: ReadonlyArray<readonly [string, string, object, string]> = [
      ["POST", "/forms", { title: "x", colour: "red" }, "colour"],
      ["PATCH", `/forms/${f}`, { title: "x", archived: true }, "archived"],
      ["POST", `/forms/${f}/stages`, { name: "x", order: 1 }, "order"],
      ["PATCH", `/stages/${all.stageId}`, { name: "x", position: 2 }, "position"],
      ["PUT", `/forms/${f}/stages/order`, { stageIds: stages, reverse: true }, "reverse"],
      [
        "POST",
        `/forms/${f}/responses`,
        {
          values: { [all.form.ids.name]: "X", [all.form.ids.email]: "x@example.com" },
          meta: 1
        },
        "meta"
      ],
      ["PATCH", `/responses/${all.responseId}`, { tags: ["x"], priority: 1 }, "priority"],
      ["POST", `/responses/${all.responseId}/notes`, { body: "x", pinned: true }, "pinned"],
      [
        "POST",
        "/webhooks/subscribe",
        {
          formId: f,
          event: "response.created",
          targetUrl: hookUrl(),
          headers: {}
        },
        "headers"
      ],
      [
        "POST",
        "/webhooks/workspace-subscriptions",
        { event: "form.deleted", targetUrl: hookUrl(), filters: { formIds: [f], forms: [] } },
        "forms"
      ],
      ["POST", "/webhooks/dead-letters/replay", { subscriptionId: all.subscriptionId, force: true }, "force"],
      ["POST", "/privacy/erasures", { email: "nobody-here@example.com", reason: "asked" }, "reason"],
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
