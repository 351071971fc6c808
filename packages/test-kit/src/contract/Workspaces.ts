/**
 * The HTTP contract: workspaces.
 */
import { expect } from "vitest"
import { group, hookUrl } from "./Contract.ts"
import { expectStatus, softError } from "./Expectations.ts"

export const workspaces = group("workspaces", { transport: false }, (c) => {
  const { api, everything, test } = c
  test("a key of another workspace gets 404 for every resource kind that is not its own, and changes nothing", async () => {
    const all = await everything()
    const f = all.form.formId
    const r = all.responseId
    const stages = (await api("GET", `/forms/${f}/stages`)).body.stages.map((s: { id: number }) => s.id)
    const attempts: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["GET", `/forms/${f}`],
      ["PATCH", `/forms/${f}`, { title: "Stolen" }],
      ["DELETE", `/forms/${f}`],
      ["GET", `/forms/${f}/responses`],
      ["GET", `/forms/${f}/responses.csv`],
      ["GET", `/forms/${f}/responses.xlsx`],
      ["GET", `/forms/${f}/summary`],
      ["GET", `/forms/${f}/summary.csv`],
      ["GET", `/forms/${f}/metrics`],
      ["GET", `/forms/${f}/digest`],
      ["PUT", `/forms/${f}/digest`, { frequency: "daily" }],
      ["POST", `/forms/${f}/digest/send`],
      ["GET", `/forms/${f}/stages`],
      [
        "POST",
        `/forms/${f}/responses`,
        { values: { [all.form.ids.name]: "X", [all.form.ids.email]: "x@example.com" } }
      ],
      ["POST", `/forms/${f}/stages`, { name: "Stolen" }],
      ["PUT", `/forms/${f}/stages/order`, { stageIds: [...stages].reverse() }],
      ["GET", `/forms/${f}/case-fields`],
      ["PUT", `/forms/${f}/case-fields`, { fields: [{ key: "stolen", label: "Stolen", type: "text" }] }],
      ["GET", `/responses/${r}`],
      ["GET", `/responses?formId=${f}`],
      ["PATCH", `/responses/${r}`, { tags: ["stolen"] }],
      ["PATCH", "/responses", { ids: [r], addTags: ["stolen"] }],
      ["DELETE", `/responses/${r}`],
      ["POST", `/responses/${r}/notes`, { body: "stolen" }],
      ["POST", `/responses/${r}/merge`, { duplicateId: r }],
      ["DELETE", `/responses/${r}/merges/${r}`],
      ["PATCH", `/stages/${all.stageId}`, { name: "Stolen" }],
      ["DELETE", `/stages/${all.stageId}`],
      ["DELETE", `/webhooks/subscribe/${encodeURIComponent(all.subscriptionId)}`],
      ["GET", `/webhooks/dead-letters?subscriptionId=${encodeURIComponent(all.subscriptionId)}`],
      ["POST", "/webhooks/dead-letters/replay", { subscriptionId: all.subscriptionId }],
      ["POST", "/webhooks/subscribe", { formId: f, event: "response.created", targetUrl: hookUrl("stolen") }],
      [
        "POST",
        "/webhooks/workspace-subscriptions",
        { event: "form.deleted", filters: { formIds: [f] }, targetUrl: hookUrl("stolen") }
      ]
    ]
    for (const [method, path, body] of attempts) {
      const reply = await api(method, path, { key: c.seed.keys.other, body })
      softError(`${method} ${path}`, reply, 404)
      expect(reply.text).not.toContain("Everything")
    }
    // A bulk change by filter from the other workspace matches none of this workspace's responses.
    const bulk = await api("PATCH", "/responses", {
      key: c.seed.keys.other,
      body: { filter: { formId: f }, addTags: ["stolen"] }
    })
    expectStatus(bulk, 200)
    expect(bulk.body).toMatchObject({ matched: 0, changed: 0 })
    // Erasing the respondent's address from the other workspace erases nothing here.
    const erased = await api("POST", "/privacy/erasures", {
      key: c.seed.keys.other,
      body: { email: "ada@example.com" }
    })
    expectStatus(erased, 201)
    expect(erased.body.responses.ids).not.toContain(r)
    const forms = await api("GET", "/forms", { key: c.seed.keys.other })
    expectStatus(forms, 200)
    expect(forms.body.map((x: { id: number }) => x.id)).not.toContain(f)
    const hooks = await api("GET", "/webhooks", { key: c.seed.keys.other })
    expect(hooks.body.map((x: { id: string }) => x.id)).not.toContain(all.subscriptionId)
    // Still there, unchanged, for its own workspace.
    const form = await api("GET", `/forms/${f}`)
    expect(form.body.title).toBe("Everything")
    const detail = await api("GET", `/responses/${r}`)
    expectStatus(detail, 200)
    expect(detail.body.response.tags).toEqual([])
    expect(detail.body.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
    const after = await api("GET", `/forms/${f}/stages`)
    expect(after.body.stages.map((s: { id: number }) => s.id)).toEqual(stages)
    expect(after.body.stages.map((s: { name: string }) => s.name)).toEqual(["New", "In progress", "Done", "Custom"])
    expect((await api("GET", `/forms/${f}/responses`)).body.responses).toHaveLength(1)
    expect((await api("GET", "/webhooks")).body.map((x: { id: string }) => x.id)).toContain(all.subscriptionId)
  })

  test("a key of another workspace gets 404 for a saved view, shared or not, and changes nothing", async () => {
    const names = ["Contract shared view", "Contract personal view"]
    for (const [i, name] of names.entries()) {
      const made = await api("POST", "/views", { body: { name: `${name} ${Date.now()}`, shared: i === 0 } })
      expectStatus(made, 201)
      const id = made.body.id as number
      const attempts: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["GET", `/views/${id}`],
        ["PATCH", `/views/${id}`, { name: "Stolen" }],
        ["DELETE", `/views/${id}`],
        ["GET", `/responses?view=${id}`]
      ]
      for (const [method, path, body] of attempts) {
        const reply = await api(method, path, { key: c.seed.keys.other, body })
        softError(`${method} ${path}`, reply, 404)
      }
      const theirs = await api("GET", "/views", { key: c.seed.keys.other })
      expectStatus(theirs, 200)
      expect(theirs.body.views.map((v: { id: number }) => v.id)).not.toContain(id)
      const still = await api("GET", `/views/${id}`)
      expectStatus(still, 200)
      expect(still.body.name).toBe(made.body.name)
      expectStatus(await api("DELETE", `/views/${id}`), 204)
    }
  })
})
