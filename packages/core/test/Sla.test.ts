/**
 * SLAs per form (`forms/Sla.ts`, `cases/SlaScan.ts`, migration 0040): a real
 * qforms on a real HTTP server, PGlite always, PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set. The time-dependent parts (submission, first
 * response, resolution, the scan, the `due` filter) run through the services
 * under a fixed Clock standing in 2030, so the server's own scheduler (on the
 * real clock) never finds them due; the rest goes over HTTP.
 *
 * The workspace works 09:00–17:00 on weekdays in Europe/Berlin (CET in
 * December), Monday 2 December 2030 is a holiday. A response submitted on
 * Friday 29 November at 16:00 with targets of 120 minutes (first response),
 * 600 (resolution) and a warning 60 before: first response warned at Friday
 * 17:00, due Tuesday 10:00; resolution warned at Tuesday 17:00, due Wednesday
 * 10:00.
 */
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Actors from "../src/kernel/Actors.ts"
import { Responses } from "../src/cases/Responses.ts"
import { Stages } from "../src/forms/Stages.ts"
import { dueTimes, slaOf } from "../src/forms/Sla.ts"
import { SlaScan } from "../src/cases/SlaScan.ts"
import { RespondentEmails } from "../src/email/RespondentEmails.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { api, createForm } from "@qforms/test-kit/PublicForms"
import { keysByRole, type Role } from "@qforms/test-kit/Seeds"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** A clock standing at one moment. */
const fixedClock = (at: number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => at,
  currentTimeMillis: Effect.succeed(at),
  currentTimeNanosUnsafe: () => BigInt(at) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(at) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => BigInt(at) * 1_000_000n,
  monotonicTimeNanos: Effect.succeed(BigInt(at) * 1_000_000n),
  sleep: () => Effect.void
})

const at = (iso: string) => Date.parse(iso)
const SUBMITTED = at("2030-11-29T15:00:00Z") // Friday 16:00 CET

const nineToFive = [{ from: "09:00", to: "17:00" }]
const businessHours = {
  timeZone: "Europe/Berlin",
  week: { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive },
  holidays: ["2030-12-02"]
}
const sla = { firstResponseMinutes: 120, resolveMinutes: 600, warnBeforeMinutes: 60 }

describe("SLA due times and states", () => {
  it("warns only before a target longer than the warning, and reads the state at a moment", () => {
    const submitted = new Date("2030-11-29T15:00:00Z")
    expect(dueTimes(undefined, { firstResponseMinutes: 30, warnBeforeMinutes: 30 }, submitted)).toEqual({
      firstResponseDueAt: new Date("2030-11-29T15:30:00Z"),
      firstResponseWarnAt: null,
      resolveDueAt: null,
      resolveWarnAt: null
    })
    expect(dueTimes(undefined, null, submitted).firstResponseDueAt).toBeNull()
    const row = {
      first_response_due_at: new Date("2030-11-29T16:00:00Z"),
      first_response_warn_at: new Date("2030-11-29T15:30:00Z"),
      first_responded_at: null,
      resolve_due_at: null,
      resolve_warn_at: null,
      resolved_at: null
    }
    expect(slaOf(row, at("2030-11-29T15:00:00Z"))?.state).toBe("ok")
    expect(slaOf(row, at("2030-11-29T15:30:00Z"))?.state).toBe("warning")
    expect(slaOf(row, at("2030-11-29T16:00:00Z"))).toMatchObject({ state: "overdue", breached: true })
    expect(slaOf({ ...row, first_responded_at: new Date("2030-11-29T16:30:00Z") }, 0)).toMatchObject({
      state: "met",
      breached: true
    })
    expect(slaOf({ ...row, first_response_due_at: null }, 0)).toBeUndefined()
  })
})

for (const target of databaseTargets) {
  describe(`SLAs on ${target.name}`, () => {
    let server: TestServer
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let a: { workspaceId: number; keys: Record<Role, string> }
    let b: { workspaceId: number; keys: Record<Role, string> }
    let owner: Actors.Actor
    let form: Awaited<ReturnType<typeof createForm>>
    let stages: ReadonlyArray<{ id: number; name: string; isClosed: boolean }>

    const query = <A extends object>(text: string, ...params: Array<unknown>) =>
      server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text, params as Array<never>))) as Promise<
        ReadonlyArray<A>
      >
    /** Runs an effect on the server's services with the clock standing at `time`. */
    const runAt = <A, E>(time: number, effect: Effect.Effect<A, E, Responses | SlaScan | RespondentEmails | Stages>) =>
      server.run(effect.pipe(Effect.provideService(Clock.Clock, fixedClock(time))))
    const submit = (time: number, email: string, formId = form.id, fieldId = form.fields[0]!.id, actor = owner) =>
      runAt(
        time,
        Effect.flatMap(Responses, (responses) =>
          responses.submit(actor, formId, { values: { [String(fieldId)]: email } }, "api")
        )
      )
    const scan = (time: number) =>
      runAt(
        time,
        Effect.flatMap(SlaScan, (scanner) => scanner.runDue)
      )
    const detail = (time: number, id: number) =>
      runAt(
        time,
        Effect.flatMap(Responses, (responses) => responses.get(owner, id))
      )
    const moveTo = (time: number, id: number, stageName: string, actor = owner) =>
      runAt(
        time,
        Effect.flatMap(Responses, (responses) =>
          responses.update(actor, id, { stageId: stages.find((s) => s.name === stageName)!.id })
        )
      )
    const listDue = (time: number, due: "overdue" | "today" | "week", actor = owner, formId = form.id) =>
      runAt(
        time,
        Effect.flatMap(Responses, (responses) => responses.list(actor, formId, { due }))
      ).then((list) => list.responses.map((row) => row.id).sort((x, y) => x - y))
    const slaEvents = (responseId: number) =>
      query<{ type: string; target: string; workspace_id: number }>(
        `select type, payload -> 'sla' ->> 'target' as target, workspace_id from events
         where response_id = $1 and type like 'response.sla_%' order by seq`,
        responseId
      )

    beforeAll(async () => {
      smtp = await smtpSink()
      server = await startTestServer(target, {
        appUrl: "http://forms.test",
        mail: { url: smtp.url, from: "Support <support@example.com>" }
      })
      a = await server.run(keysByRole("sla-a"))
      b = await server.run(keysByRole("sla-b"))
      const [row] = await query<{ account_id: number }>(
        "select account_id from members where workspace_id = $1 and role = 'owner'",
        a.workspaceId
      )
      owner = Actors.member({
        workspaceId: a.workspaceId,
        accountId: row!.account_id,
        role: "owner",
        name: "Owner",
        via: "session"
      })
      const put = await api(server, a.keys.admin, "PUT", "/workspace/settings", { businessHours })
      expect(put.status, put.text).toBe(200)
      form = await createForm(server, a.keys.owner, {
        title: "Support",
        fields: [{ type: "email", label: "Email", required: true }]
      })
      const patched = await api(server, a.keys.owner, "PATCH", `/forms/${form.id}`, { settings: { sla } })
      expect(patched.status, patched.text).toBe(200)
      stages = (await api(server, a.keys.owner, "GET", `/forms/${form.id}/stages`)).body.stages
    })

    afterAll(async () => {
      await server?.close()
      await smtp?.close()
    })

    it("refuses bad business hours and SLA targets with a 400 naming the problem", async () => {
      const bad = async (body: unknown, expected: string) => {
        const reply = await api(server, a.keys.owner, "PUT", "/workspace/settings", body)
        expect(reply.status, reply.text).toBe(400)
        expect(reply.body.error).toContain(expected)
      }
      await bad({ businessHours: { ...businessHours, timeZone: "Mars/Olympus" } }, 'unknown time zone "Mars/Olympus"')
      await bad(
        {
          businessHours: {
            timeZone: "UTC",
            week: {
              mon: [
                { from: "09:00", to: "13:00" },
                { from: "12:00", to: "17:00" }
              ]
            }
          }
        },
        "intervals overlap"
      )
      await bad(
        { businessHours: { timeZone: "UTC", week: { mon: [{ from: "17:00", to: "09:00" }] } } },
        "an interval must end after it starts"
      )
      const badSla = await api(server, a.keys.owner, "PATCH", `/forms/${form.id}`, {
        settings: { sla: { firstResponseMinutes: 0 } }
      })
      expect(badSla.status, badSla.text).toBe(400)
      expect(badSla.body.error).toContain("sla.firstResponseMinutes must be a whole number of minutes from 1")
      // Members read the settings; the business hours are still the ones set.
      const read = await api(server, a.keys.viewer, "GET", "/workspace/settings")
      expect(read.body.businessHours).toEqual(businessHours)
      const unknown = await api(server, a.keys.owner, "GET", `/forms/${form.id}/responses?due=later`)
      expect(unknown.status, unknown.text).toBe(400)
    })

    it("sets the due times at submission across the weekend and the holiday", async () => {
      const row = await submit(SUBMITTED, "due@example.com")
      expect(row.sla).toEqual({
        firstResponseDueAt: "2030-12-03T09:00:00.000Z",
        firstRespondedAt: null,
        resolveDueAt: "2030-12-04T09:00:00.000Z",
        resolvedAt: null,
        state: "ok",
        breached: false
      })
      const [stored] = await query<{ first_response_warn_at: Date; resolve_warn_at: Date }>(
        "select first_response_warn_at, resolve_warn_at from responses where id = $1",
        row.id
      )
      expect(new Date(stored!.first_response_warn_at).toISOString()).toBe("2030-11-29T16:00:00.000Z")
      // 540 business minutes: one hour on Friday, eight on Tuesday: the end of Tuesday's hours.
      expect(new Date(stored!.resolve_warn_at).toISOString()).toBe("2030-12-03T16:00:00.000Z")
      // Over HTTP too, in the list and the detail (the real clock is years before the due times).
      const list = await api(server, a.keys.viewer, "GET", `/forms/${form.id}/responses`)
      expect(list.body.responses.find((r: { id: number }) => r.id === row.id).sla.state).toBe("ok")
      const shown = await api(server, a.keys.member, "GET", `/responses/${row.id}`)
      expect(shown.body.response.sla.firstResponseDueAt).toBe("2030-12-03T09:00:00.000Z")
      // The state moves with the clock.
      expect((await detail(at("2030-11-29T16:30:00Z"), row.id)).response.sla?.state).toBe("warning")
      expect((await detail(at("2030-12-03T09:00:00Z"), row.id)).response.sla?.state).toBe("overdue")
    })

    it("records the warning, then the breach, once each even when the scan runs twice or at once", async () => {
      const row = await submit(SUBMITTED, "scan@example.com")
      expect(await scan(at("2030-11-29T15:30:00Z"))).toBe(0)
      await Promise.all([scan(at("2030-11-29T16:30:00Z")), scan(at("2030-11-29T16:30:00Z"))])
      await scan(at("2030-11-29T16:31:00Z"))
      expect((await slaEvents(row.id)).map((e) => [e.type, e.target])).toEqual([
        ["response.sla_warning", "firstResponse"]
      ])
      // Tuesday 11:00: the first response is overdue; the resolution's warning (Tuesday 17:00) is not due yet.
      await Promise.all([scan(at("2030-12-03T10:00:00Z")), scan(at("2030-12-03T10:00:00Z"))])
      await scan(at("2030-12-03T10:00:00Z"))
      // Wednesday 11:00: both moments of the resolution have passed: only the breach is sent.
      await Promise.all([scan(at("2030-12-04T10:00:00Z")), scan(at("2030-12-04T10:00:00Z"))])
      await scan(at("2030-12-05T10:00:00Z"))
      const events = await slaEvents(row.id)
      expect(events.map((e) => [e.type, e.target])).toEqual([
        ["response.sla_warning", "firstResponse"],
        ["response.sla_breached", "firstResponse"],
        ["response.sla_breached", "resolve"]
      ])
      expect(events.every((e) => e.workspace_id === a.workspaceId)).toBe(true)
      const shown = await detail(at("2030-12-05T10:00:00Z"), row.id)
      expect(shown.activities.filter((x) => x.type.startsWith("sla_")).map((x) => [x.type, x.payload.target])).toEqual(
        expect.arrayContaining([
          ["sla_warning", "firstResponse"],
          ["sla_breached", "firstResponse"],
          ["sla_breached", "resolve"]
        ])
      )
      expect(shown.response.sla).toMatchObject({ state: "overdue", breached: true })
    })

    it("takes a member's e-mail or stage change as the first response, a closed stage as the resolution", async () => {
      const mailed = await submit(SUBMITTED, "mailed@example.com")
      await runAt(
        at("2030-11-29T15:30:00Z"),
        Effect.flatMap(RespondentEmails, (emails) =>
          emails.send(owner, mailed.id, { subject: "Your question", body: "We are on it." })
        )
      )
      const moved = await submit(SUBMITTED, "moved@example.com")
      await moveTo(at("2030-11-29T15:40:00Z"), moved.id, "In progress")
      // The system's stage change (a reply reopening a case) is no first response.
      const untouched = await submit(SUBMITTED, "untouched@example.com")
      await moveTo(at("2030-11-29T15:40:00Z"), untouched.id, "In progress", Actors.system(a.workspaceId))
      await scan(at("2030-12-03T10:00:00Z"))
      expect(await slaEvents(mailed.id)).toEqual([])
      expect(await slaEvents(moved.id)).toEqual([])
      expect((await slaEvents(untouched.id)).map((e) => e.type)).toEqual(["response.sla_breached"])
      const mailedNow = (await detail(at("2030-12-03T10:00:00Z"), mailed.id)).response.sla
      expect(mailedNow).toMatchObject({ firstRespondedAt: "2030-11-29T15:30:00.000Z", state: "ok", breached: false })

      // Done (closed) resolves it; back to an open stage reopens it, with the same due time.
      await moveTo(at("2030-12-03T12:00:00Z"), moved.id, "Done")
      expect((await detail(at("2030-12-05T10:00:00Z"), moved.id)).response.sla).toMatchObject({
        firstRespondedAt: "2030-11-29T15:40:00.000Z",
        resolvedAt: "2030-12-03T12:00:00.000Z",
        state: "met",
        breached: false
      })
      await scan(at("2030-12-05T10:00:00Z"))
      expect(await slaEvents(moved.id)).toEqual([])
      await moveTo(at("2030-12-05T11:00:00Z"), moved.id, "New")
      expect((await detail(at("2030-12-05T11:00:00Z"), moved.id)).response.sla).toMatchObject({
        resolvedAt: null,
        state: "overdue",
        breached: true
      })
      await scan(at("2030-12-05T11:00:00Z"))
      expect((await slaEvents(moved.id)).map((e) => [e.type, e.target])).toEqual([["response.sla_breached", "resolve"]])
    })

    it("a stage that becomes closed resolves the cases in it, and one that opens again reopens them", async () => {
      const fresh = await createForm(server, a.keys.owner, {
        title: "Closing stages",
        fields: [{ type: "email", label: "Email", required: true }]
      })
      const patched = await api(server, a.keys.owner, "PATCH", `/forms/${fresh.id}`, { settings: { sla } })
      expect(patched.status, patched.text).toBe(200)
      const freshStages: ReadonlyArray<{ id: number; name: string }> = (
        await api(server, a.keys.owner, "GET", `/forms/${fresh.id}/stages`)
      ).body.stages
      const waiting = freshStages.find((s) => s.name === "In progress")!
      const inStage = await submit(SUBMITTED, "staged@example.com", fresh.id, fresh.fields[0]!.id)
      const elsewhere = await submit(SUBMITTED, "elsewhere@example.com", fresh.id, fresh.fields[0]!.id)
      await runAt(
        at("2030-11-29T15:40:00Z"),
        Effect.flatMap(Responses, (responses) => responses.update(owner, inStage.id, { stageId: waiting.id }))
      )
      const setClosed = (time: number, isClosed: boolean) =>
        runAt(
          time,
          Effect.flatMap(Stages, (all) => all.update(owner, waiting.id, { isClosed }))
        )
      await setClosed(at("2030-12-02T09:00:00Z"), true)
      expect((await detail(at("2030-12-02T10:00:00Z"), inStage.id)).response.sla).toMatchObject({
        resolvedAt: "2030-12-02T09:00:00.000Z",
        state: "met"
      })
      expect((await detail(at("2030-12-02T10:00:00Z"), elsewhere.id)).response.sla).toMatchObject({ resolvedAt: null })
      // Saved again as closed: the moment it was resolved stays.
      await setClosed(at("2030-12-02T11:00:00Z"), true)
      expect((await detail(at("2030-12-02T11:00:00Z"), inStage.id)).response.sla).toMatchObject({
        resolvedAt: "2030-12-02T09:00:00.000Z"
      })
      await setClosed(at("2030-12-05T11:00:00Z"), false)
      expect((await detail(at("2030-12-05T11:00:00Z"), inStage.id)).response.sla).toMatchObject({
        resolvedAt: null,
        state: "overdue"
      })
    })

    it("filters the list by due=overdue, today and week in the workspace's time zone", async () => {
      const fresh = await createForm(server, a.keys.owner, {
        title: "Filter",
        fields: [{ type: "email", label: "Email", required: true }]
      })
      await api(server, a.keys.owner, "PATCH", `/forms/${fresh.id}`, { settings: { sla } })
      const freshStages = (await api(server, a.keys.owner, "GET", `/forms/${fresh.id}/stages`)).body
        .stages as ReadonlyArray<{
        id: number
        name: string
      }>
      const pending = await submit(SUBMITTED, "pending@example.com", fresh.id, fresh.fields[0]!.id)
      const answered = await submit(SUBMITTED, "answered@example.com", fresh.id, fresh.fields[0]!.id)
      const done = await submit(SUBMITTED, "done@example.com", fresh.id, fresh.fields[0]!.id)
      await runAt(
        at("2030-11-29T15:30:00Z"),
        Effect.flatMap(Responses, (responses) =>
          Effect.all([
            responses.update(owner, answered.id, { stageId: freshStages.find((s) => s.name === "In progress")!.id }),
            responses.update(owner, done.id, { stageId: freshStages.find((s) => s.name === "Done")!.id })
          ])
        )
      )
      // Tuesday 09:30 CET: the pending first response is due at 10:00 today; the answered case's resolution
      // tomorrow (this week); the done case is due for nothing.
      const tuesday = at("2030-12-03T08:30:00Z")
      expect(await listDue(tuesday, "overdue", owner, fresh.id)).toEqual([])
      expect(await listDue(tuesday, "today", owner, fresh.id)).toEqual([pending.id])
      expect(await listDue(tuesday, "week", owner, fresh.id)).toEqual([pending.id, answered.id])
      // Tuesday 11:00: the pending case is overdue.
      const later = at("2030-12-03T10:00:00Z")
      expect(await listDue(later, "overdue", owner, fresh.id)).toEqual([pending.id])
      expect(await listDue(later, "today", owner, fresh.id)).toEqual([])
      expect(await listDue(later, "week", owner, fresh.id)).toEqual([answered.id])
      // A bulk change by the same filter takes the same cases, and its stage change resolves them.
      const doneStage = freshStages.find((s) => s.name === "Done")!.id
      const bulk = await runAt(
        later,
        Effect.flatMap(Responses, (responses) =>
          responses.updateMany(owner, { filter: { formId: fresh.id, due: "overdue" }, stageId: doneStage })
        )
      )
      expect(bulk).toMatchObject({ matched: 1, changed: 1, responses: [{ id: pending.id }] })
      expect((await detail(later, pending.id)).response.sla).toMatchObject({
        firstRespondedAt: "2030-12-03T10:00:00.000Z",
        resolvedAt: "2030-12-03T10:00:00.000Z",
        state: "met"
      })
      expect(await listDue(later, "overdue", owner, fresh.id)).toEqual([])
      // Monday 9 December (next week): everything left is overdue, nothing due this week.
      expect(await listDue(at("2030-12-09T08:00:00Z"), "week", owner, fresh.id)).toEqual([])
      // Over HTTP on the real clock, years before: nothing overdue, and the value is checked.
      const overdue = await api(server, a.keys.viewer, "GET", `/forms/${fresh.id}/responses?due=overdue`)
      expect(overdue.status, overdue.text).toBe(200)
      expect(overdue.body.responses).toEqual([])
    })

    it("keeps workspaces apart: another workspace's form has no SLA, its lists and scans see none of these", async () => {
      const other = await createForm(server, b.keys.owner, {
        title: "Elsewhere",
        fields: [{ type: "email", label: "Email", required: true }]
      })
      const [row] = await query<{ account_id: number }>(
        "select account_id from members where workspace_id = $1 and role = 'owner'",
        b.workspaceId
      )
      const otherOwner = Actors.member({
        workspaceId: b.workspaceId,
        accountId: row!.account_id,
        role: "owner",
        name: null,
        via: "session"
      })
      const response = await submit(SUBMITTED, "b@example.com", other.id, other.fields[0]!.id, otherOwner)
      expect(response.sla).toBeUndefined()
      expect(await listDue(at("2030-12-09T08:00:00Z"), "overdue", otherOwner, other.id)).toEqual([])
      await scan(at("2031-01-01T00:00:00Z"))
      const [count] = await query<{ n: number }>(
        "select count(*)::int as n from events where workspace_id = $1 and type like 'response.sla_%'",
        b.workspaceId
      )
      expect(count!.n).toBe(0)
      // Workspace B cannot list A's form with the filter.
      const foreign = await api(server, b.keys.owner, "GET", `/forms/${form.id}/responses?due=overdue`)
      expect(foreign.status).toBe(404)
      // B's business hours are its own (none): A's do not show there.
      expect((await api(server, b.keys.owner, "GET", "/workspace/settings")).body.businessHours).toBeUndefined()
    })
  })
}
