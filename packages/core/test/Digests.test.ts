/**
 * Digest e-mails (`GET|PUT /api/forms/{formId}/digest`, `POST …/digest/send`,
 * the scheduler, `/digest/unsubscribe/{token}`): when a digest falls due in a
 * time zone (daylight saving included), its words in three languages, each
 * member's own choice over roles and two workspaces, a digest sent now and
 * the scheduler's digests received by a real SMTP server on loopback with
 * their figures checked by hand, sent once per period, quiet periods skipped,
 * and the one-click unsubscribe. On every database.
 */
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { api, createForm } from "@qforms/test-kit/PublicForms"
import { keysByRole, type Role, roles } from "@qforms/test-kit/Seeds"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { catalogue, type DigestContent, digestLanguages, render } from "../src/email/DigestEmail.ts"
import { nextAfter, previousBefore } from "../src/email/DigestSchedule.ts"
import { Digests } from "../src/insights/Digests.ts"

const appUrl = "http://forms.test"

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

describe("when a digest falls due", () => {
  const cases: ReadonlyArray<[string, Parameters<typeof nextAfter>[0], string, string]> = [
    [
      "daily, Berlin in winter",
      { frequency: "daily", hour: 8, timeZone: "Europe/Berlin" },
      "2026-11-27T07:30:00Z",
      "2026-11-28T07:00:00.000Z"
    ],
    [
      "daily, before the hour today",
      { frequency: "daily", hour: 8, timeZone: "Europe/Berlin" },
      "2026-11-27T06:59:00Z",
      "2026-11-27T07:00:00.000Z"
    ],
    [
      "daily, Berlin in summer",
      { frequency: "daily", hour: 8, timeZone: "Europe/Berlin" },
      "2026-07-01T12:00:00Z",
      "2026-07-02T06:00:00.000Z"
    ],
    [
      "the day clocks go forward in New York",
      { frequency: "daily", hour: 8, timeZone: "America/New_York" },
      "2026-03-07T20:00:00Z",
      "2026-03-08T12:00:00.000Z"
    ],
    [
      "an hour skipped by daylight saving: the hour after",
      { frequency: "daily", hour: 2, timeZone: "Europe/Berlin" },
      "2026-03-28T12:00:00Z",
      "2026-03-29T01:00:00.000Z"
    ],
    [
      "an hour repeated by daylight saving: the first",
      { frequency: "daily", hour: 2, timeZone: "Europe/Berlin" },
      "2026-10-24T12:00:00Z",
      "2026-10-25T00:00:00.000Z"
    ],
    [
      "half-hour zone",
      { frequency: "daily", hour: 0, timeZone: "Asia/Kolkata" },
      "2026-11-27T07:30:00Z",
      "2026-11-27T18:30:00.000Z"
    ],
    [
      "UTC+14",
      { frequency: "daily", hour: 23, timeZone: "Pacific/Kiritimati" },
      "2026-11-27T07:30:00Z",
      "2026-11-27T09:00:00.000Z"
    ],
    [
      "weekly: the next Monday",
      { frequency: "weekly", hour: 9, timeZone: "UTC" },
      "2026-11-27T07:30:00Z",
      "2026-11-30T09:00:00.000Z"
    ],
    [
      "weekly: exactly at the time, the week after",
      { frequency: "weekly", hour: 9, timeZone: "UTC" },
      "2026-11-30T09:00:00Z",
      "2026-12-07T09:00:00.000Z"
    ],
    [
      "weekly: Monday in Tokyo is Sunday in UTC",
      { frequency: "weekly", hour: 7, timeZone: "Asia/Tokyo" },
      "2026-11-27T07:30:00Z",
      "2026-11-29T22:00:00.000Z"
    ]
  ]
  it.each(cases)("%s", (_, schedule, after, expected) => {
    expect(nextAfter(schedule, new Date(after)).toISOString()).toBe(expected)
  })

  it("covers the period since the time before", () => {
    expect(
      previousBefore({ frequency: "weekly", hour: 9, timeZone: "UTC" }, new Date("2026-11-30T09:00:00Z")).toISOString()
    ).toBe("2026-11-23T09:00:00.000Z")
    // A day with the clocks put forward is 23 hours long.
    expect(
      previousBefore(
        { frequency: "daily", hour: 8, timeZone: "Europe/Berlin" },
        new Date("2026-03-29T06:00:00Z")
      ).toISOString()
    ).toBe("2026-03-28T07:00:00.000Z")
  })
})

describe("the digest's words", () => {
  const content: DigestContent = {
    form: { id: 7, title: "Support <script>alert(1)</script>\r\nBcc: x@example.com" },
    frequency: "daily",
    periodStart: new Date("2026-11-26T07:00:00Z"),
    periodEnd: new Date("2026-11-27T07:00:00Z"),
    timeZone: "Europe/Berlin",
    responses: 2,
    previous: 1,
    views: 10,
    completionRate: 40,
    open: 3,
    unassigned: 1,
    waiting: 2,
    byStage: [
      { name: "New", count: 2 },
      { name: "", count: 1 }
    ],
    top: [{ question: "Topic", answer: "Billing", kind: "choice", percent: 66.7, answered: 3 }]
  }
  const links = {
    inbox: `${appUrl}/app/forms/7/responses`,
    summary: `${appUrl}/app/forms/7/responses?view=summary`,
    unsubscribe: `${appUrl}/digest/unsubscribe/t`
  }

  it("has every key in every language", () => {
    for (const language of digestLanguages)
      expect(Object.keys(catalogue[language]).sort()).toEqual(Object.keys(catalogue.en).sort())
  })

  it("says the figures in English, German and Arabic, with their plurals", () => {
    const en = render(content, "en", links)
    expect(en.subject).toBe("Support <script>alert(1)</script> Bcc: x@example.com: 2 new responses (daily digest)")
    expect(en.text).toContain("2 new responses · 1 in the period before · 10 page views · completion rate 40%")
    expect(en.text).toContain("Cases: 3 open cases · 1 not assigned · 2 waiting for a first response")
    expect(en.text).toContain("  No stage: 1")
    expect(en.text).toContain("  Topic: Billing (66.7% of 3 answers)")
    expect(en.text).toContain(`Unsubscribe: ${links.unsubscribe}`)
    expect(en.html).not.toContain("<script>")
    expect(en.html).toContain("Support &lt;script&gt;")
    expect(en.html).toContain(`<a href="${links.unsubscribe}">Unsubscribe</a>`)
    const de = render({ ...content, responses: 1 }, "de", links)
    expect(de.subject).toContain(": 1 neue Antwort (tägliche Übersicht)")
    expect(de.text).toContain("Topic: Billing (66,7 % von 3 Antworten)")
    const ar = render({ ...content, responses: 2, frequency: "weekly" }, "ar", links)
    expect(ar.subject).toContain("ردّان جديدان")
    expect(ar.subject).toContain("الأسبوعي")
    expect(ar.html).toContain('dir="rtl"')
    const none = render({ ...content, responses: 0, open: 0 }, "en", links)
    expect(none.text).toContain("No new responses")
    expect(none.text).toContain("Cases: No open cases\n")
  })
})

for (const target of databaseTargets) {
  describe(`digest e-mails on ${target.name}`, () => {
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let server: TestServer
    let quiet: TestServer
    let a: { workspaceId: number; keys: Record<Role, string> }
    let b: typeof a
    let q: typeof a
    let quietForm: Awaited<ReturnType<typeof createForm>>
    let form: Awaited<ReturnType<typeof createForm>>
    let calm: Awaited<ReturnType<typeof createForm>>

    const sql = <A>(run: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      server.run(Effect.flatMap(Effect.service(SqlClient.SqlClient), run).pipe(Effect.orDie))

    const runDueAt = (at: number) =>
      server.run(
        Effect.flatMap(Effect.service(Digests), (digests) => digests.runDue).pipe(
          Effect.provideService(Clock.Clock, fixedClock(at)),
          Effect.orDie
        )
      )

    const submit = async (topic: string, score: number) => {
      const created = await api(server, a.keys.owner, "POST", `/forms/${form.id}/responses`, {
        values: { [form.fields[0]!.id]: topic, [form.fields[1]!.id]: score }
      })
      expect(created.status, created.text).toBe(201)
      return created.body.id as number
    }

    beforeAll(async () => {
      smtp = await smtpSink()
      server = await startTestServer(target, {
        appUrl,
        mail: { url: smtp.url, from: "qforms <forms@example.com>" },
        delivery: { worker: true, pollIntervalMs: 200 }
      })
      quiet = await startTestServer(target)
      a = await server.run(keysByRole("digest-a"))
      b = await server.run(keysByRole("digest-b"))
      form = await createForm(server, a.keys.owner, {
        title: "Requests",
        fields: [
          { type: "select", label: "Topic", options: { choices: ["Billing", "Sales"] } },
          { type: "nps", label: "Recommend" }
        ]
      })
      calm = await createForm(server, a.keys.owner, { title: "Calm", fields: [{ type: "short_text", label: "Say" }] })
      q = await quiet.run(keysByRole("digest-q"))
      quietForm = await createForm(quiet, q.keys.owner, {
        title: "Quiet",
        fields: [{ type: "short_text", label: "Say" }]
      })
    })
    afterAll(async () => {
      await server?.close()
      await quiet?.close()
      await smtp?.close()
    })

    it("lets every role choose its own digest, in its own workspace only, and refuses bad choices", async () => {
      for (const role of roles) {
        const set = await api(server, a.keys[role], "PUT", `/forms/${calm.id}/digest`, {
          frequency: "daily",
          hour: roles.indexOf(role) + 6,
          timeZone: "Europe/Berlin"
        })
        expect(set.status, set.text).toBe(200)
        expect(set.body).toMatchObject({
          formId: calm.id,
          frequency: "daily",
          hour: roles.indexOf(role) + 6,
          timeZone: "Europe/Berlin",
          email: `digest-a-${role}@example.com`,
          mailConfigured: true
        })
        expect(Date.parse(set.body.nextAt)).toBeGreaterThan(Date.now())
      }
      // Each member sees their own.
      expect((await api(server, a.keys.viewer, "GET", `/forms/${calm.id}/digest`)).body.hour).toBe(9)
      expect((await api(server, a.keys.member, "GET", `/forms/${calm.id}/digest`)).body.hour).toBe(8)
      const off = await api(server, a.keys.viewer, "PUT", `/forms/${calm.id}/digest`, { frequency: "off" })
      expect(off.body).toMatchObject({ frequency: "off", nextAt: null })
      expect((await api(server, a.keys.member, "GET", `/forms/${calm.id}/digest`)).body.frequency).toBe("daily")
      // Another workspace's form does not exist for b, whatever the call.
      for (const [method, path, body] of [
        ["GET", `/forms/${calm.id}/digest`, undefined],
        ["PUT", `/forms/${calm.id}/digest`, { frequency: "daily" }],
        ["POST", `/forms/${calm.id}/digest/send`, undefined]
      ] as const) {
        const reply = await api(server, b.keys.owner, method, path, body)
        expect(reply.status, reply.text).toBe(404)
        expect(reply.body.error).toContain(`form ${calm.id} not found`)
      }
      for (const bad of [
        { frequency: "hourly" },
        { frequency: "daily", hour: 24 },
        { frequency: "daily", hour: 1.5 },
        { frequency: "daily", timeZone: "Mars/Olympus" },
        { frequency: "daily", timeZone: "x".repeat(100) },
        { frequency: "daily", extra: true },
        {}
      ]) {
        const reply = await api(server, a.keys.member, "PUT", `/forms/${calm.id}/digest`, bad)
        expect(reply.status, JSON.stringify(bad)).toBe(400)
        expect(typeof reply.body.error).toBe("string")
      }
      // Every role may have its digest sent now.
      for (const role of roles) {
        const sent = await api(server, a.keys[role], "POST", `/forms/${calm.id}/digest/send`)
        expect(sent.status, sent.text).toBe(202)
        expect(sent.body.to).toBe(`digest-a-${role}@example.com`)
      }
      // Without e-mail, a digest cannot be sent now (409), and the choice says so.
      const noMail = await api(quiet, q.keys.owner, "POST", `/forms/${quietForm.id}/digest/send`)
      expect(noMail.status).toBe(409)
      expect(noMail.body.error).toBe("e-mail is not configured")
      expect((await api(quiet, q.keys.owner, "GET", `/forms/${quietForm.id}/digest`)).body.mailConfigured).toBe(false)
    })

    it("sends a digest now through the outbox, with its figures, and unsubscribes in one click", async () => {
      const before = smtp.received.length
      await submit("Billing", 10)
      await submit("Billing", 9)
      await submit("Sales", 3)
      expect((await api(server, a.keys.member, "PUT", `/forms/${form.id}/digest`, { frequency: "daily" })).status).toBe(
        200
      )
      const sent = await api(server, a.keys.member, "POST", `/forms/${form.id}/digest/send`)
      expect(sent.status, sent.text).toBe(202)
      expect(sent.body.to).toBe("digest-a-member@example.com")
      expect(Date.parse(sent.body.periodEnd) - Date.parse(sent.body.periodStart)).toBe(86_400_000)
      const mail = await waitFor(() =>
        smtp.received
          .slice(before)
          .find((m) => m.to.includes("digest-a-member@example.com") && m.parsed.subject?.startsWith("Requests:"))
      )
      expect(mail.parsed.subject).toBe("Requests: 3 new responses (daily digest)")
      const text = mail.parsed.text ?? ""
      expect(text).toContain("3 new responses · 0 in the period before · 0 page views")
      expect(text).toContain("Cases: 3 open cases · 3 not assigned · 3 waiting for a first response")
      expect(text).toContain("  Topic: Billing (66.7% of 3 answers)")
      // NPS: two promoters, one detractor of three.
      expect(text).toContain("  Recommend: NPS 33.3 (3 answers)")
      expect(text).toContain(`Open the responses: ${appUrl}/app/forms/${form.id}/responses`)
      // The raw headers, as a mail provider reads them (RFC 8058).
      const unsubscribe = /^List-Unsubscribe:\s*<(http:\/\/forms\.test\/digest\/unsubscribe\/[^>]+)>$/im.exec(
        mail.raw
      )?.[1]
      expect(unsubscribe).toBeDefined()
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im)
      expect(text).toContain(`Unsubscribe: ${unsubscribe}`)
      const stored = await waitFor(async () => {
        const rows = await sql(
          (sql) => sql<{ status: string }>`select status from digest_emails where form_id = ${form.id}`
        )
        return rows[0]?.status === "sent" ? rows : undefined
      })
      expect(stored.length).toBe(1)

      const path = new URL(unsubscribe!).pathname
      // Opening the link (a mail scanner does) changes nothing: it asks.
      const page = await fetch(`${server.url}${path}`, { headers: { "accept-language": "de" } })
      expect(page.status).toBe(200)
      const pageText = await page.text()
      expect(pageText).toContain("Die Übersichten von Requests abbestellen?")
      expect(pageText).toContain('<form method="post">')
      expect((await api(server, a.keys.member, "GET", `/forms/${form.id}/digest`)).body.frequency).toBe("daily")
      // The mail provider's one-click POST (RFC 8058).
      const done = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click"
      })
      expect(done.status).toBe(200)
      expect(await done.text()).toContain("You will get no more digest e-mails of Requests.")
      expect((await api(server, a.keys.member, "GET", `/forms/${form.id}/digest`)).body.frequency).toBe("off")
      // Again is fine; a changed link is not.
      expect((await fetch(`${server.url}${path}`, { method: "POST" })).status).toBe(200)
      for (const forged of [`${path}x`, `${path.slice(0, -3)}AAA`, "/digest/unsubscribe/not-a-token"]) {
        const reply = await fetch(`${server.url}${forged}`, { method: "POST" })
        expect(reply.status, forged).toBe(404)
        expect(await reply.text()).toContain("This unsubscribe link is not valid.")
      }
      // An over-long one is refused by the router before it is read.
      expect((await fetch(`${server.url}/digest/unsubscribe/${"a".repeat(600)}`, { method: "POST" })).status).toBe(400)
    })

    it("makes each due digest once, for the period that ended, in the member's language, and skips a quiet one", async () => {
      const before = smtp.received.length
      // A moment well after now, so the running scheduler (on the real clock) leaves these alone.
      const due = nextAfter(
        { frequency: "daily", hour: 8, timeZone: "UTC" },
        new Date(Date.now() + 3 * 86_400_000)
      ).getTime()
      const inPeriod = await submit("Sales", 7)
      const earlier = await submit("Sales", 8)
      await sql((sql) => sql`update responses set submitted_at = ${new Date(due - 3_600_000)} where id = ${inPeriod}`)
      await sql(
        (sql) => sql`update responses set submitted_at = ${new Date(due - 30 * 3_600_000)} where id = ${earlier}`
      )
      for (const [role, formId] of [
        ["admin", form.id],
        ["viewer", form.id]
      ] as const) {
        const set = await api(server, a.keys[role], "PUT", `/forms/${formId}/digest`, {
          frequency: "daily",
          hour: 8,
          timeZone: "UTC"
        })
        expect(set.status).toBe(200)
      }
      await sql((sql) => sql`update accounts set language = 'de' where email = 'digest-a-viewer@example.com'`)
      await sql(
        (sql) =>
          sql`update digest_subscriptions set next_at = ${new Date(due)} where form_id in (${form.id}, ${calm.id})`
      )

      // Not yet due.
      expect(await runDueAt(due - 1)).toEqual({ due: 0, queued: 0 })
      // Due: the admin's and the viewer's of Requests, and three of Calm, which had a quiet day (no responses,
      // no open cases): nothing sent for it.
      expect(await runDueAt(due + 60_000)).toEqual({ due: 5, queued: 2 })
      expect(await runDueAt(due + 120_000)).toEqual({ due: 0, queued: 0 })
      // Queued at the scheduler's (future) time: the worker, on the real clock, sends them once that is now.
      await sql(
        (sql) => sql`update deliveries set next_attempt_at = now() where digest_id is not null and status = 'pending'`
      )
      const next = await sql(
        (sql) =>
          sql<{ form_id: number; hour: number; next_at: Date }>`
          select form_id, hour, next_at from digest_subscriptions where form_id in (${form.id}, ${calm.id})`
      )
      // Each moved on to its next time after now: a day later at 08:00 UTC, and Calm's at their Berlin hours.
      for (const row of next) {
        expect(new Date(row.next_at).toISOString()).toBe(
          row.form_id === form.id
            ? new Date(due + 86_400_000).toISOString()
            : nextAfter(
                { frequency: "daily", hour: row.hour, timeZone: "Europe/Berlin" },
                new Date(due + 60_000)
              ).toISOString()
        )
      }

      const admin = await waitFor(() =>
        smtp.received
          .slice(before)
          .find((m) => m.to.includes("digest-a-admin@example.com") && m.parsed.subject?.startsWith("Requests:"))
      )
      expect(admin.parsed.subject).toBe("Requests: 1 new response (daily digest)")
      // The period before held the other one; the three of the earlier test are older still. Open cases: all five.
      expect(admin.parsed.text).toContain("1 new response · 1 in the period before")
      expect(admin.parsed.text).toContain("Cases: 5 open cases · 5 not assigned · 5 waiting for a first response")
      expect(admin.parsed.text).toContain("  Topic: Sales (100% of 1 answer)")
      expect(admin.parsed.text).toContain("  Recommend: NPS 0 (1 answer)")
      const viewer = await waitFor(() =>
        smtp.received
          .slice(before)
          .find((m) => m.to.includes("digest-a-viewer@example.com") && m.parsed.subject?.startsWith("Requests:"))
      )
      expect(viewer.parsed.subject).toBe("Requests: 1 neue Antwort (tägliche Übersicht)")
      expect(viewer.parsed.text).toContain("Fälle: 5 offene Fälle")
      // One digest per member for the period that ended; Calm's quiet day made none.
      const rows = await sql(
        (sql) =>
          sql<{ form_id: number; email: string; period_start: Date; period_end: Date }>`
            select g.form_id, a.email, g.period_start, g.period_end
            from digest_emails g join accounts a on a.id = g.account_id
            where g.period_end = ${new Date(due)} order by a.email`
      )
      expect(
        rows.map((row) => [
          row.form_id,
          row.email,
          new Date(row.period_start).getTime(),
          new Date(row.period_end).getTime()
        ])
      ).toEqual([
        [form.id, "digest-a-admin@example.com", due - 86_400_000, due],
        [form.id, "digest-a-viewer@example.com", due - 86_400_000, due]
      ])
    })

    it("ends a member's digests when they leave the workspace", async () => {
      const members = (await api(server, a.keys.owner, "GET", "/members")).body.members as Array<{
        accountId: number
        role: string
      }>
      const admin = members.find((m) => m.role === "admin")!
      const before = await sql(
        (sql) =>
          sql<{ n: number }>`select count(*)::int as n from digest_subscriptions where account_id = ${admin.accountId}`
      )
      expect(before[0]!.n).toBe(2)
      expect((await api(server, a.keys.owner, "DELETE", `/members/${admin.accountId}`)).status).toBe(204)
      const after = await sql(
        (sql) =>
          sql<{ n: number }>`select count(*)::int as n from digest_subscriptions where account_id = ${admin.accountId}`
      )
      expect(after[0]!.n).toBe(0)
    })
  })
}
