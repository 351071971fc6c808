/**
 * The HTTP contract: roles.
 */
import { expect } from "vitest"
import { group, hookUrl } from "./Contract.ts"
import { expectStatus, softError } from "./Expectations.ts"

export const roles = group("roles", { transport: false }, (c) => {
  const { api, createForm, everything, test } = c
  test("a viewer key: every write → 403 {error}, and nothing changes", async () => {
    const all = await everything()
    const f = all.form.formId
    const r = all.responseId
    const stages = (await api("GET", `/forms/${f}/stages`)).body.stages.map((s: { id: number }) => s.id)
    const writes: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["POST", "/forms", { title: "Viewer form" }],
      ["PATCH", `/forms/${f}`, { title: "Viewer title" }],
      ["DELETE", `/forms/${f}`],
      [
        "POST",
        `/forms/${f}/responses`,
        { values: { [all.form.ids.name]: "V", [all.form.ids.email]: "v@example.com" } }
      ],
      ["PATCH", `/responses/${r}`, { tags: ["viewer"] }],
      ["PATCH", "/responses", { ids: [r], addTags: ["viewer"] }],
      ["DELETE", `/responses/${r}`],
      ["POST", `/responses/${r}/notes`, { body: "viewer note" }],
      ["POST", `/responses/${r}/status-link`],
      ["DELETE", `/responses/${r}/status-link`],
      ["POST", `/responses/${r}/merge`, { duplicateId: r }],
      ["DELETE", `/responses/${r}/merges/${r}`],
      ["POST", `/forms/${f}/stages`, { name: "Viewer stage" }],
      ["PATCH", `/stages/${all.stageId}`, { name: "Viewer stage" }],
      ["DELETE", `/stages/${all.stageId}`],
      ["PUT", `/forms/${f}/stages/order`, { stageIds: [...stages].reverse() }],
      ["PUT", `/forms/${f}/assignment-rules`, { rules: [] }],
      // A viewer keeps personal views, but shares none.
      ["POST", "/views", { name: "Viewer's shared view", shared: true }],
      ["PUT", `/forms/${f}/case-fields`, { fields: [] }],
      ["POST", "/webhooks/subscribe", { formId: f, event: "response.created", targetUrl: hookUrl("viewer") }],
      ["POST", "/webhooks/workspace-subscriptions", { event: "form.deleted", targetUrl: hookUrl("viewer") }],
      ["DELETE", `/webhooks/subscribe/${encodeURIComponent(all.subscriptionId)}`],
      ["POST", "/webhooks/dead-letters/replay", { subscriptionId: all.subscriptionId }],
      ["POST", "/privacy/erasures", { email: "ada@example.com" }],
      // Not a write, but as the erasure: owners and admins only.
      ["GET", "/privacy/export?email=ada@example.com"],
      ["POST", "/v1/forms/generate", { prompt: "A contact form" }]
    ]
    const formsBefore = (await api("GET", "/forms")).body.length as number
    for (const [method, path, body] of writes) {
      const reply = await api(method, path, { key: c.seed.keys.viewer, body })
      softError(`${method} ${path}`, reply, 403)
    }
    expect((await api("GET", "/forms")).body.length).toBe(formsBefore)
    expect((await api("GET", `/forms/${f}`)).body.title).toBe("Everything")
    const detail = await api("GET", `/responses/${r}`)
    expect(detail.body.response.tags).toEqual([])
    expect(detail.body.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
    expect((await api("GET", `/forms/${f}/responses`)).body.responses).toHaveLength(1)
    const after = await api("GET", `/forms/${f}/stages`)
    expect(after.body.stages.map((s: { id: number }) => s.id)).toEqual(stages)
    expect(after.body.stages.map((s: { name: string }) => s.name)).toContain("Custom")
    const hooks = (await api("GET", "/webhooks")).body.filter((s: { formId: number }) => s.formId === f)
    expect(hooks.map((s: { id: string }) => s.id)).toEqual([all.subscriptionId])
  })

  test("a viewer key reads everything", async () => {
    const all = await everything()
    const f = all.form.formId
    const reads: ReadonlyArray<string> = [
      "/forms",
      `/forms/${f}`,
      `/forms/${f}/responses`,
      `/forms/${f}/responses?flat=1`,
      `/forms/${f}/responses.csv`,
      `/forms/${f}/responses.xlsx`,
      `/forms/${f}/summary`,
      `/forms/${f}/summary.csv`,
      `/forms/${f}/metrics`,
      "/metrics",
      `/forms/${f}/digest`,
      `/forms/${f}/stages`,
      `/responses/${all.responseId}`,
      "/responses",
      `/responses?formId=${f}&assignee=me&open=true`,
      "/members",
      "/views",
      "/webhooks",
      "/events/catalogue",
      "/webhooks/dead-letters",
      `/webhooks/dead-letters?subscriptionId=${encodeURIComponent(all.subscriptionId)}`,
      "/webhooks/alerts"
    ]
    for (const path of reads) {
      const reply = await api("GET", path, { key: c.seed.keys.viewer })
      expect.soft(reply.status, `GET ${path} → ${reply.text.slice(0, 200)}`).toBe(200)
    }
    const form = await api("GET", `/forms/${f}`, { key: c.seed.keys.viewer })
    expect(form.body.title).toBe("Everything")
    const list = await api("GET", `/forms/${f}/responses`, { key: c.seed.keys.viewer })
    expect(list.body.responses.map((x: { id: number }) => x.id)).toEqual([all.responseId])
  })

  test("a member key writes", async () => {
    const created = await createForm({ title: "By a member" }, c.seed.keys.member)
    expect(created.title).toBe("By a member")
    const patched = await api("PATCH", `/forms/${created.id}`, {
      key: c.seed.keys.member,
      body: { status: "published" }
    })
    expectStatus(patched, 200)
    expect(patched.body.status).toBe("published")
  })
})
