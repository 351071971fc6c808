/**
 * Case metrics (`GET /api/forms/{formId}/metrics`, `GET /api/metrics`):
 * cases worked through the API, their timeline moved to fixed moments, and
 * every figure against what those moments give by hand: open and closed cases
 * by stage and assignee, new and closed per day and week, time to a first
 * response and time in each stage; filters, the workspace-wide view, keys,
 * workspaces and bad input. On every database.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { api, createForm } from "@qforms/test-kit/PublicForms"
import { keysByRole } from "@qforms/test-kit/Seeds"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** A Monday, 09:00 UTC: the cases' submissions. */
const T0 = Date.parse("2026-01-05T09:00:00.000Z")
const at = (seconds: number) => new Date(T0 + seconds * 1000)

for (const target of databaseTargets) {
  describe(`case metrics on ${target.name}`, () => {
    let server: TestServer
    let a: { workspaceId: number; keys: Record<"owner" | "admin" | "member" | "viewer", string> }
    let b: typeof a
    let form: Awaited<ReturnType<typeof createForm>>
    let stages: Array<{ id: number; name: string; isClosed: boolean }>
    let ids: Array<number>
    let memberId: number

    const metrics = async (path: string, key = a.keys.owner) => {
      const reply = await api(server, key, "GET", path)
      expect(reply.status, reply.text).toBe(200)
      return reply.body
    }

    /** Moves a response's submission and its activities (in id order) to fixed moments. */
    const moveTimeline = (responseId: number, submitted: Date, activities: ReadonlyArray<Date>) =>
      server.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`update responses set submitted_at = ${submitted} where id = ${responseId}`
          const rows = yield* sql<{ id: number; type: string }>`
            select id, type from activities where response_id = ${responseId} and type <> 'created' order by id`
          expect(rows.length).toBe(activities.length)
          for (const [i, row] of rows.entries()) {
            yield* sql`update activities set created_at = ${activities[i]!} where id = ${row.id}`
          }
        })
      )

    beforeAll(async () => {
      server = await startTestServer(target)
      a = await server.run(keysByRole("metrics-a"))
      b = await server.run(keysByRole("metrics-b"))
      form = await createForm(server, a.keys.owner, {
        title: "Requests",
        fields: [{ type: "short_text", label: "What" }]
      })
      stages = (await api(server, a.keys.owner, "GET", `/forms/${form.id}/stages`)).body.stages
      const members = (await api(server, a.keys.owner, "GET", "/members")).body.members as Array<{
        accountId: number
        role: string
      }>
      memberId = members.find((m) => m.role === "member")!.accountId
      ids = []
      for (const what of ["one", "two", "three"]) {
        const created = await api(server, a.keys.owner, "POST", `/forms/${form.id}/responses`, {
          values: { [form.fields[0]!.id]: what }
        })
        expect(created.status, created.text).toBe(201)
        ids.push(created.body.id)
      }
      const [inProgress, done] = [stages[1]!, stages.find((s) => s.isClosed)!]
      const patch = async (id: number, body: object) =>
        expect((await api(server, a.keys.member, "PATCH", `/responses/${id}`, body)).status).toBe(200)
      // One: assigned after a minute, in progress after two, done after seven.
      await patch(ids[0]!, { assigneeId: memberId })
      await patch(ids[0]!, { stageId: inProgress.id })
      await patch(ids[0]!, { stageId: done.id })
      await moveTimeline(ids[0]!, at(0), [at(60), at(120), at(420)])
      // Two: a note after an hour, on Tuesday; assigned.
      expect(
        (await api(server, a.keys.member, "POST", `/responses/${ids[1]}/notes`, { body: "Called back" })).status
      ).toBe(201)
      await patch(ids[1]!, { assigneeId: memberId })
      await moveTimeline(ids[1]!, at(86_400), [at(86_400 + 3_600), at(86_400 + 7_200)])
      // Three: nothing yet, submitted the next Monday.
      await moveTimeline(ids[2]!, at(7 * 86_400), [])
    })
    afterAll(async () => {
      await server?.close()
    })

    it("counts open and closed cases by stage and assignee, and times the first response and each stage", async () => {
      const report = await metrics(`/forms/${form.id}/metrics`, a.keys.viewer)
      const done = stages.find((s) => s.isClosed)!
      expect(report).toMatchObject({ formId: form.id, interval: "day", cases: 3, open: 2, closed: 1 })
      expect(report.byStage).toEqual([
        { stageId: null, name: null, formId: form.id, closed: false, count: 2 },
        ...stages.map((s) => ({
          stageId: s.id,
          name: s.name,
          formId: form.id,
          closed: s.isClosed,
          count: s.id === done.id ? 1 : 0
        }))
      ])
      expect(report.byAssignee).toEqual([
        { accountId: null, name: null, open: 1 },
        { accountId: memberId, name: expect.any(String), open: 1 }
      ])
      // First responses after 60 s and 3,600 s; the third still waits.
      expect(report.firstResponse).toEqual({ responded: 2, waiting: 1, medianSeconds: 1830, p90Seconds: 3246 })
      const inProgress = report.timeInStage.find((s: { stageId: number }) => s.stageId === stages[1]!.id)
      expect(inProgress).toMatchObject({ current: 0, left: 1, medianSeconds: 300, p90Seconds: 300 })
      expect(report.timeInStage.find((s: { stageId: number }) => s.stageId === done.id)).toMatchObject({
        current: 1,
        left: 0,
        medianSeconds: null
      })
    })

    it("new and closed cases per day and per week, over the window asked", async () => {
      const days = await metrics(`/forms/${form.id}/metrics?from=2026-01-05T00:00:00.000Z&to=2026-01-12T23:59:59.999Z`)
      expect(days.window).toEqual({ from: "2026-01-05", to: "2026-01-12" })
      expect(days.newPerPeriod).toEqual([
        { period: "2026-01-05", count: 1 },
        { period: "2026-01-06", count: 1 },
        { period: "2026-01-07", count: 0 },
        { period: "2026-01-08", count: 0 },
        { period: "2026-01-09", count: 0 },
        { period: "2026-01-10", count: 0 },
        { period: "2026-01-11", count: 0 },
        { period: "2026-01-12", count: 1 }
      ])
      expect(days.closedPerPeriod.filter((p: { count: number }) => p.count > 0)).toEqual([
        { period: "2026-01-05", count: 1 }
      ])
      const weeks = await metrics(
        `/forms/${form.id}/metrics?interval=week&from=2026-01-01T00:00:00.000Z&to=2026-01-18T23:59:59.999Z`
      )
      expect(weeks.newPerPeriod).toEqual([
        { period: "2025-12-29", count: 0 },
        { period: "2026-01-05", count: 2 },
        { period: "2026-01-12", count: 1 }
      ])
      // Without from/to: the last 30 days (none of these cases).
      const recent = await metrics(`/forms/${form.id}/metrics`)
      expect(recent.newPerPeriod).toHaveLength(30)
      expect(recent.newPerPeriod.every((p: { count: number }) => p.count === 0)).toBe(true)
    })

    it("takes the list's filters, and across the workspace counts every form of it only", async () => {
      const assigned = await metrics(`/forms/${form.id}/metrics?assignee=${memberId}`)
      expect(assigned).toMatchObject({ cases: 2, open: 1, closed: 1 })
      expect(assigned.firstResponse).toMatchObject({ responded: 2, waiting: 0 })
      const unstaged = await metrics(`/forms/${form.id}/metrics?stage=none`)
      expect(unstaged).toMatchObject({ cases: 2, open: 2 })
      const other = await createForm(server, a.keys.owner, {
        title: "Other",
        fields: [{ type: "short_text", label: "X" }]
      })
      expect(
        (
          await api(server, a.keys.owner, "POST", `/forms/${other.id}/responses`, {
            values: { [other.fields[0]!.id]: "x" }
          })
        ).status
      ).toBe(201)
      const workspace = await metrics("/metrics", a.keys.viewer)
      expect(workspace).toMatchObject({ formId: null, cases: 4, open: 3, closed: 1 })
      expect(workspace.byStage.filter((s: { formId: number }) => s.formId === other.id)).toHaveLength(3)
      expect((await metrics("/metrics", b.keys.owner)).cases).toBe(0)
    })

    it("refuses another workspace, no key and bad input", async () => {
      for (const role of ["owner", "viewer"] as const) {
        const foreign = await api(server, b.keys[role], "GET", `/forms/${form.id}/metrics`)
        expect(foreign.status).toBe(404)
        expect(foreign.body).toMatchObject({ error: expect.any(String) })
      }
      expect((await fetch(`${server.url}/api/metrics`)).status).toBe(401)
      expect((await fetch(`${server.url}/api/forms/${form.id}/metrics`)).status).toBe(401)
      for (const path of [
        `/forms/${form.id}/metrics?interval=month`,
        `/forms/${form.id}/metrics?from=soon`,
        "/metrics?assignee=someone",
        "/forms/abc/metrics"
      ]) {
        const bad = await api(server, a.keys.owner, "GET", path)
        expect(bad.status, path).toBe(400)
        expect(bad.body, path).toMatchObject({ error: expect.any(String) })
      }
    })
  })
}
