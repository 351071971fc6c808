/**
 * Bulk changes of cases (`PATCH /responses`, issue #28) end to end on a real
 * qforms with its delivery worker and a real webhook receiver: by ids and by
 * the list's filters (one form or the whole workspace), one activity and one
 * event per changed case, all or nothing when any case refuses the change,
 * the requests that are refused, viewers and other workspaces, and two bulk
 * changes over the same cases at once. On PGlite always, on PostgreSQL too
 * when QFORMS_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"
import { waitFor } from "@qforms/test-kit/Conditions"
import { receiver } from "@qforms/test-kit/Receiver"

for (const target of databaseTargets) {
  describe(`bulk changes of responses on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let api: Api
    let viewer: Api
    let other: Api

    interface Form {
      readonly id: number
      readonly nameField: number
      readonly stages: ReadonlyArray<{ readonly id: number; readonly name: string }>
    }

    const publishedForm = async (as: Api, title: string): Promise<Form> => {
      const created = await as("POST", "/forms", { title, fields: [{ type: "short_text", label: "Name" }] })
      expect(created.status).toBe(201)
      const id = created.json.id as number
      expect((await as("PATCH", `/forms/${id}`, { status: "published" })).status).toBe(200)
      const { json: form } = await as("GET", `/forms/${id}`)
      const { json: stages } = await as("GET", `/forms/${id}/stages`)
      return { id, nameField: form.fields[0].id, stages: stages.stages }
    }

    const submit = async (as: Api, form: Form, name: string) => {
      const reply = await as("POST", `/forms/${form.id}/responses`, { values: { [form.nameField]: name } })
      expect(reply.status).toBe(201)
      return reply.json.id as number
    }

    const detail = async (id: number) => (await api("GET", `/responses/${id}`)).json
    const snapshot = async (ids: ReadonlyArray<number>) =>
      Promise.all(
        ids.map(async (id) => {
          const { response, activities } = await detail(id)
          return { stageId: response.stageId, assigneeId: response.assigneeId, tags: response.tags, activities }
        })
      )

    let ownerAccountId: number
    let memberAccountId: number

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl: "https://forms.example.com",
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100], timeoutMs: 2_000, pollIntervalMs: 50 }
      })
      const mine = await workspace(qforms, "bulk")
      api = apiOf(qforms, mine.owner)
      viewer = apiOf(qforms, mine.viewer)
      other = apiOf(qforms, (await workspace(qforms, "bulk-other")).owner)
      const { json: members } = await api("GET", "/members")
      ownerAccountId = members.members.find((m: { role: string }) => m.role === "owner").accountId
      const added = await api("POST", "/members", { email: "bulk-member@example.com", role: "member" })
      expect(added.status).toBe(201)
      memberAccountId = added.json.accountId
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("changes every named case in one call, with one activity and one event per change of each case", async () => {
      const form = await publishedForm(api, "Bulk by ids")
      const hook = await receiver([200])
      try {
        const subscribed = await api("POST", "/webhooks/workspace-subscriptions", {
          event: "response.stage_changed",
          events: ["response.assigned", "response.tagged"],
          filters: { formIds: [form.id] },
          targetUrl: hook.url
        })
        expect(subscribed.status, JSON.stringify(subscribed.json)).toBe(201)
        const ids = [await submit(api, form, "Ada"), await submit(api, form, "Grace"), await submit(api, form, "Linus")]
        const inProgress = form.stages[1]!
        // Linus is already in progress and assigned: only his tags change.
        expect(
          (await api("PATCH", `/responses/${ids[2]}`, { stageId: inProgress.id, assigneeId: ownerAccountId })).status
        ).toBe(200)

        const reply = await api("PATCH", "/responses", {
          ids: [ids[2], ids[0], ids[1], ids[0]],
          stageId: inProgress.id,
          assigneeId: ownerAccountId,
          addTags: ["billing", " urgent "]
        })
        expect(reply.status, JSON.stringify(reply.json)).toBe(200)
        expect(reply.json).toMatchObject({ ok: true, matched: 3, changed: 3 })
        expect(reply.json.responses.map((r: { id: number }) => r.id)).toEqual([...ids].sort((a, b) => a - b))
        const byId = new Map(reply.json.responses.map((r: { id: number; changes: unknown }) => [r.id, r.changes]))
        expect(byId.get(ids[0]!)).toEqual([
          { field: "stageId", from: null, to: inProgress.id },
          { field: "assigneeId", from: null, to: ownerAccountId },
          { field: "tags", from: [], to: ["billing", "urgent"] }
        ])
        expect(byId.get(ids[2]!)).toEqual([{ field: "tags", from: [], to: ["billing", "urgent"] }])

        for (const id of ids) {
          const { response, activities } = await detail(id)
          expect(response).toMatchObject({
            stageId: inProgress.id,
            assigneeId: ownerAccountId,
            tags: ["billing", "urgent"]
          })
          expect(activities.filter((a: { type: string }) => a.type === "tags_changed")).toHaveLength(1)
        }
        // 2 stage changes, 2 assignments and 3 taggings by the bulk call, 1 + 1 by the single PATCH before it.
        const posts = await waitFor(() => (hook.received.length >= 9 ? hook.received : undefined))
        const events = posts.map((p) => JSON.parse(p.body) as { event: string; responseId: number })
        const count = (event: string) => events.filter((e) => e.event === event).length
        expect([count("response.stage_changed"), count("response.assigned"), count("response.tagged")]).toEqual([
          3, 3, 3
        ])
        expect(
          events
            .filter((e) => e.event === "response.tagged")
            .map((e) => e.responseId)
            .sort()
        ).toEqual([...ids].sort())

        // The same call again changes nothing and says so.
        const again = await api("PATCH", "/responses", { ids, stageId: inProgress.id, addTags: ["urgent"] })
        expect(again.json).toEqual({ ok: true, matched: 3, changed: 0, responses: [] })
      } finally {
        await hook.close()
      }
    })

    it("applies to what the list's filters match, in one form or across the workspace", async () => {
      const a = await publishedForm(api, "Bulk filter A")
      const b = await publishedForm(api, "Bulk filter B")
      const [a1, a2, a3] = [await submit(api, a, "Mia"), await submit(api, a, "Noah"), await submit(api, a, "Olga")]
      const b1 = await submit(api, b, "Pia")
      await api("PATCH", "/responses", { ids: [a1, a2, b1], addTags: ["vip", "old"] })

      const tagged = await api("PATCH", "/responses", {
        filter: { formId: a.id, tag: "vip" },
        addTags: ["VIP", "Priority"],
        removeTags: ["OLD"]
      })
      expect(tagged.status, JSON.stringify(tagged.json)).toBe(200)
      expect(tagged.json).toMatchObject({ matched: 2, changed: 2 })
      expect((await detail(a1)).response.tags).toEqual(["vip", "Priority"])
      expect((await detail(a3)).response.tags).toEqual([])
      expect((await detail(b1)).response.tags).toEqual(["vip", "old"])

      // No formId: every form of the workspace; the text search as the list has it.
      const assigned = await api("PATCH", "/responses", { filter: { tag: "vip" }, assigneeId: memberAccountId })
      expect(assigned.json).toMatchObject({ matched: 3, changed: 3 })
      expect((await detail(b1)).response.assigneeId).toBe(memberAccountId)
      const searched = await api("PATCH", "/responses", { filter: { q: "olga" }, assigneeId: memberAccountId })
      expect(searched.json.responses.map((r: { id: number }) => r.id)).toEqual([a3])
      const listed = await api("GET", `/forms/${a.id}/responses?assignee=${memberAccountId}`)
      expect(listed.json.responses).toHaveLength(3)
      // Unassigning by the assignee filter, and a filter that matches nothing.
      const cleared = await api("PATCH", "/responses", {
        filter: { formId: a.id, assignee: memberAccountId },
        assigneeId: null
      })
      expect(cleared.json).toMatchObject({ matched: 3, changed: 3 })
      const none = await api("PATCH", "/responses", { filter: { formId: a.id, q: "nobody-here" }, addTags: ["x"] })
      expect(none.json).toEqual({ ok: true, matched: 0, changed: 0, responses: [] })
    })

    it("changes nothing when any one case refuses the change", async () => {
      const a = await publishedForm(api, "Bulk atomic A")
      const b = await publishedForm(api, "Bulk atomic B")
      const ids = [await submit(api, a, "Quinn"), await submit(api, a, "Rosa"), await submit(api, b, "Sven")]
      const before = await snapshot(ids)

      const otherForm = await api("PATCH", "/responses", { ids, stageId: a.stages[1]!.id, addTags: ["moved"] })
      expect(otherForm.status).toBe(400)
      expect(otherForm.json.error).toContain(`stage ${a.stages[1]!.id} belongs to form ${a.id}`)
      expect(otherForm.json.error).toContain(`responses ${ids[2]} are of other forms`)

      const missing = await api("PATCH", "/responses", { ids: [...ids, 2_000_000_000], addTags: ["moved"] })
      expect(missing.status).toBe(404)
      expect(missing.json.error).toBe("ids: response 2000000000 not found; nothing was changed")

      // Rosa carries 50 tags: one more is refused, and the others do not get it either.
      const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`)
      expect((await api("PATCH", `/responses/${ids[1]}`, { tags: fifty })).status).toBe(200)
      const beforeFull = await snapshot(ids)
      const full = await api("PATCH", "/responses", { ids, assigneeId: ownerAccountId, addTags: ["one-more"] })
      expect(full.status).toBe(400)
      expect(full.json.error).toContain(`response ${ids[1]} would carry 51 tags`)

      const stranger = await api("PATCH", "/responses", { ids, assigneeId: 2_000_000_000 })
      expect(stranger.status).toBe(400)
      expect(stranger.json.error).toContain("is not a member of this workspace")

      expect((await snapshot(ids))[0]).toEqual(before[0])
      expect((await snapshot(ids))[2]).toEqual(before[2])
      expect(await snapshot(ids)).toEqual(beforeFull)
    })

    it("refuses a request without a target, without a change, or with too much, naming the problem", async () => {
      const form = await publishedForm(api, "Bulk refusals")
      const id = await submit(api, form, "Tove")
      const cases: ReadonlyArray<readonly [unknown, RegExp]> = [
        [{ addTags: ["x"] }, /either ids or filter/],
        [{ ids: [id], filter: {}, addTags: ["x"] }, /either ids or filter/],
        [{ ids: [id] }, /name a change/],
        [{ ids: [id], addTags: [] }, /name a change/],
        [{ ids: [], addTags: ["x"] }, /at least one response/],
        [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1), addTags: ["x"] }, /at most 1000 ids/],
        [{ ids: [id], addTags: ["x".repeat(31)] }, /at most 30 characters/],
        [{ ids: [id], addTags: ["Billing"], removeTags: ["billing"] }, /also in removeTags/],
        [{ ids: [id], stageId: 2_000_000_000 }, /stage 2000000000 not found/],
        [{ filter: { stage: "open" }, addTags: ["x"] }, /stage/],
        [{ filter: { from: "yesterday" }, addTags: ["x"] }, /ISO 8601/],
        [{ ids: ["1"], addTags: ["x"] }, /ids/]
      ]
      for (const [body, message] of cases) {
        const reply = await api("PATCH", "/responses", body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(reply.json.error, JSON.stringify(body)).toMatch(message)
      }
      expect((await detail(id)).response.tags).toEqual([])
    })

    it("is a write: a viewer is refused; another workspace's cases do not exist for the caller", async () => {
      const form = await publishedForm(api, "Bulk roles")
      const id = await submit(api, form, "Ulla")
      const refused = await viewer("PATCH", "/responses", { ids: [id], addTags: ["viewer"] })
      expect(refused.status).toBe(403)
      expect(refused.json.error).toMatch(/viewer/)

      const stranger = await other("PATCH", "/responses", { ids: [id], addTags: ["stranger"] })
      expect(stranger.status).toBe(404)
      expect(stranger.json.error).toContain(`response ${id} not found`)
      const theirs = await publishedForm(other, "Theirs")
      const theirId = await submit(other, theirs, "Vic")
      const everything = await other("PATCH", "/responses", { filter: {}, addTags: ["mine"] })
      expect(everything.json).toMatchObject({ matched: 1, changed: 1, responses: [{ id: theirId }] })
      const byForm = await other("PATCH", "/responses", { filter: { formId: form.id }, addTags: ["mine"] })
      expect(byForm.json).toMatchObject({ matched: 0, changed: 0 })
      expect((await detail(id)).response.tags).toEqual([])
    })

    it("two bulk changes over the same cases at once both apply, neither deadlocks", async () => {
      const form = await publishedForm(api, "Bulk concurrent")
      const ids: Array<number> = []
      for (let i = 0; i < 12; i++) ids.push(await submit(api, form, `Person ${i}`))
      const replies = await Promise.all([
        api("PATCH", "/responses", { ids, addTags: ["first"] }),
        api("PATCH", "/responses", { ids: [...ids].reverse(), addTags: ["second"] }),
        api("PATCH", "/responses", { filter: { formId: form.id }, addTags: ["third"] })
      ])
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200])
      expect(replies.map((r) => r.json.changed)).toEqual([12, 12, 12])
      for (const id of ids) {
        expect([...(await detail(id)).response.tags].sort()).toEqual(["first", "second", "third"])
      }
      const { json: list } = await api("GET", `/forms/${form.id}/responses?tag=third`)
      expect(list.responses).toHaveLength(12)
    })
  })
}
