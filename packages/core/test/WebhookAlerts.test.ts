/**
 * Webhook failure alerts and dead letters (`GET /api/webhooks/alerts`,
 * `GET /api/webhooks/dead-letters`, `POST /api/webhooks/dead-letters/replay`):
 * a real qforms with its delivery worker, real receivers on loopback (one
 * answering 500, one 410), the test kit's real SMTP server. Deliveries that
 * give up in a row raise one alert per incident (an e-mail to owners and
 * admins only, and an activity entry), then disable the subscription; a 410
 * disables and alerts; dead letters are listed per workspace and role and
 * replayed in bulk without re-enabling anything. On every database.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { api, createForm } from "@qforms/test-kit/PublicForms"
import { receiver } from "@qforms/test-kit/Receiver"
import { keysByRole, type Role, roles } from "@qforms/test-kit/Seeds"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { digestLanguages } from "../src/email/DigestEmail.ts"
import { Members } from "../src/identity/Members.ts"
import { alertCatalogue, alertMessage } from "../src/deliveries/WebhookAlerts.ts"
import { catalogueProblems } from "./support/Catalogues.ts"

describe("an alert's e-mail", () => {
  it("says what happened and escapes the form title", () => {
    const message = alertMessage(
      {
        kind: "failing",
        formTitle: "<b>Support</b>\r\nBcc: x@example.com",
        target: "https://h.example/…",
        failures: 3,
        reason: null
      },
      "https://forms.example.com/app/settings?tab=webhooks"
    )
    expect(message.subject).not.toMatch(/[\r\n]/)
    expect(message.subject).toContain("Webhook failing: https://h.example/…")
    expect(message.text).toContain("3 deliveries in a row")
    expect(message.html).toContain("&lt;b&gt;Support&lt;/b&gt;")
    expect(message.html).not.toContain("<b>Support")
    const disabled = alertMessage(
      {
        kind: "disabled",
        formTitle: "Support",
        target: "https://h.example/…",
        failures: 1,
        reason: "the receiver answered 410 Gone"
      },
      "https://forms.example.com/app/settings?tab=webhooks"
    )
    expect(disabled.subject).toContain("Webhook disabled")
    expect(disabled.text).toContain("410 Gone")
  })

  it("has every key in every language, each a well-formed ICU message of its language", () => {
    for (const language of digestLanguages) {
      expect(Object.keys(alertCatalogue[language]).sort()).toEqual(Object.keys(alertCatalogue.en).sort())
      expect(catalogueProblems(language, alertCatalogue[language], alertCatalogue.en)).toEqual([])
    }
  })

  it("is written in the reader's language, Arabic right to left, still escaped and on one subject line", () => {
    const alert = {
      kind: "failing" as const,
      formTitle: "<b>Support</b>\r\nBcc: x@example.com",
      target: "https://h.example/…",
      failures: 3,
      reason: null
    }
    const settings = "https://forms.example.com/app/settings?tab=webhooks"
    const de = alertMessage(alert, settings, "de")
    expect(de.subject).toMatch(
      /^Webhook schlägt fehl: https:\/\/h\.example\/… \(<b>Support<\/b> Bcc: x@example\.com\)$/
    )
    expect(de.text).toContain("3 Zustellungen in Folge an https://h.example/…")
    expect(de.text).toContain(`Webhook-Einstellungen: ${settings}`)
    expect(de.html).toContain('<html lang="de" dir="ltr">')
    expect(de.html).toContain("&lt;b&gt;Support&lt;/b&gt;")
    expect(de.html).not.toContain("<b>Support")
    const ar = alertMessage(
      { ...alert, kind: "disabled", failures: 4, reason: "4 deliveries in a row gave up" },
      settings,
      "ar"
    )
    expect(ar.subject).not.toMatch(/[\r\n]/)
    expect(ar.subject).toContain("عُطّل الويب هوك")
    // The reason qforms wrote is said in Arabic too (CLDR's "few" for 4), a host's own as it is.
    expect(ar.text).toContain("فشلت 4 عمليات تسليم متتالية")
    expect(ar.html).toContain('<html lang="ar" dir="rtl">')
    expect(ar.html).not.toContain("<b>Support")
    expect(
      alertMessage({ ...alert, kind: "disabled", reason: "the receiver answered 410 Gone" }, settings, "de").text
    ).toContain("Der Empfänger hat mit 410 Gone geantwortet")
    expect(alertMessage({ ...alert, kind: "disabled", reason: "some other reason" }, settings, "de").text).toContain(
      "deaktiviert: some other reason."
    )
    expect(alertMessage(alert, settings).html).toContain('<html lang="en" dir="ltr">')
  })
})

for (const target of databaseTargets) {
  describe(`webhook failure alerts and dead letters on ${target.name}`, () => {
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let server: TestServer
    let a: { workspaceId: number; keys: Record<Role, string> }
    let b: typeof a
    // The first four posts fail with 500, later ones are delivered.
    let failing: Awaited<ReturnType<typeof receiver>>
    let gone: Awaited<ReturnType<typeof receiver>>
    let form: Awaited<ReturnType<typeof createForm>>
    let subId: string
    let goneId: string

    const sql = <A>(run: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      server.run(Effect.flatMap(Effect.service(SqlClient.SqlClient), run).pipe(Effect.orDie))

    const submit = async (key: string, f: typeof form) => {
      const created = await api(server, key, "POST", `/forms/${f.id}/responses`, { values: { [f.fields[0]!.id]: "x" } })
      expect(created.status, created.text).toBe(201)
    }
    const subscription = async (id: string) => {
      const list = await api(server, a.keys.owner, "GET", "/webhooks")
      return (
        list.body as Array<{
          id: string
          consecutiveFailures: number
          disabled: boolean
          disabledReason: string | null
        }>
      ).find((s) => s.id === id)!
    }
    const failuresReach = (id: string, n: number) =>
      waitFor(async () => {
        const s = await subscription(id)
        return s.consecutiveFailures >= n ? s : undefined
      })
    const mailsTo = (subject: string) =>
      smtp.received
        .filter((m) => m.parsed.subject?.includes(subject))
        .flatMap((m) => m.to)
        .sort()
    const mailOf = (subject: string) => smtp.received.find((m) => m.parsed.subject === subject)
    const alertEmails = () =>
      sql(
        (sql) => sql<{ n: number }>`select count(*)::int as n from alert_emails where workspace_id = ${a.workspaceId}`
      ).then((rows) => rows[0]!.n)

    beforeAll(async () => {
      smtp = await smtpSink()
      server = await startTestServer(target, {
        appUrl: "http://forms.test",
        rateLimit: { requestsPerSecond: 1000, burst: 1000 },
        mail: { url: smtp.url, from: "qforms <forms@example.com>" },
        delivery: {
          worker: true,
          allowPrivateTargets: true,
          schedule: [0],
          timeoutMs: 2_000,
          pollIntervalMs: 100,
          alertAfterFailures: 2,
          disableAfterFailures: 4
        }
      })
      a = await server.run(keysByRole("alerts-a"))
      // Two more admins, one reading German and one Arabic; the owner and the first admin keep English.
      await server.run(
        Effect.gen(function* () {
          const members = yield* Members
          for (const language of ["de", "ar"]) {
            const email = `alerts-a-admin-${language}@example.com`
            yield* members.add(a.workspaceId, { email, role: "admin" })
            yield* (yield* SqlClient.SqlClient)`update accounts set language = ${language} where email = ${email}`
          }
        }).pipe(Effect.orDie)
      )
      b = await server.run(keysByRole("alerts-b"))
      failing = await receiver([500, 500, 500, 500, 200])
      gone = await receiver([410])
      form = await createForm(server, a.keys.owner, {
        title: "Support",
        fields: [{ type: "short_text", label: "Say" }]
      })
      const sub = await api(server, a.keys.admin, "POST", "/webhooks/subscribe", {
        formId: form.id,
        event: "response.created",
        targetUrl: failing.url
      })
      expect(sub.status, sub.text).toBe(201)
      subId = sub.body.id
    })
    afterAll(async () => {
      await server?.close()
      await smtp?.close()
      await failing?.close()
      await gone?.close()
    })

    it("alerts owners and admins once when deliveries keep failing, then disables and alerts again", async () => {
      const host = new URL(failing.url).host
      await submit(a.keys.owner, form)
      expect((await failuresReach(subId, 1)).disabled).toBe(false)
      expect(await alertEmails()).toBe(0)
      await submit(a.keys.owner, form)
      await failuresReach(subId, 2)
      // The alert and its e-mails commit with the failure that raised them: one to each owner and admin.
      expect(await alertEmails()).toBe(4)
      const failingMail = await waitFor(() => {
        const to = mailsTo(`Webhook failing: http://${host}/`)
        return to.length >= 2 ? to : undefined
      })
      expect(failingMail).toEqual(["alerts-a-admin@example.com", "alerts-a-owner@example.com"])
      // Each admin reading another language gets it in their own words, as received by the SMTP server.
      const german = await waitFor(() => mailOf(`Webhook schlägt fehl: http://${host}/… (Support)`))
      expect(german.to).toEqual(["alerts-a-admin-de@example.com"])
      expect(german.parsed.text).toContain(`2 Zustellungen in Folge an http://${host}/… (Formular „Support“)`)
      expect(german.parsed.text).toContain("Webhook-Einstellungen: http://forms.test/app/settings?tab=webhooks")
      expect(german.parsed.html).toContain('<html lang="de" dir="ltr">')
      const arabic = await waitFor(() => mailOf(`فشل الويب هوك: http://${host}/… (Support)`))
      expect(arabic.to).toEqual(["alerts-a-admin-ar@example.com"])
      expect(arabic.parsed.text).toContain(`فشلت عمليتا تسليم متتاليتان إلى http://${host}/… (النموذج «Support»)`)
      expect(arabic.parsed.html).toContain('<html lang="ar" dir="rtl">')
      expect(arabic.parsed.html).toContain("إعدادات Webhooks")
      // A third failure: the same incident, no new alert.
      await submit(a.keys.owner, form)
      expect((await failuresReach(subId, 3)).disabled).toBe(false)
      expect(await alertEmails()).toBe(4)
      // The fourth disables it, and that alerts once more.
      await submit(a.keys.owner, form)
      const disabled = await failuresReach(subId, 4)
      expect(disabled).toMatchObject({ disabled: true, disabledReason: "4 deliveries in a row gave up" })
      expect(await alertEmails()).toBe(8)
      const disabledMail = await waitFor(() => {
        const to = mailsTo(`Webhook disabled: http://${host}/`)
        return to.length >= 2 ? to : undefined
      })
      expect(disabledMail).toEqual(["alerts-a-admin@example.com", "alerts-a-owner@example.com"])
      const sent = smtp.received.find((m) => m.parsed.subject?.includes("Webhook disabled"))!
      expect(sent.parsed.text).toContain("4 deliveries in a row gave up")
      expect(sent.parsed.text).toContain("http://forms.test/app/settings?tab=webhooks")
      const germanDisabled = await waitFor(() => mailOf(`Webhook deaktiviert: http://${host}/… (Support)`))
      expect(germanDisabled.to).toEqual(["alerts-a-admin-de@example.com"])
      expect(germanDisabled.parsed.text).toContain("wurde deaktiviert: 4 Zustellungen in Folge wurden aufgegeben.")
      const arabicDisabled = await waitFor(() => mailOf(`عُطّل الويب هوك: http://${host}/… (Support)`))
      expect(arabicDisabled.to).toEqual(["alerts-a-admin-ar@example.com"])
      expect(arabicDisabled.parsed.text).toContain("فشلت 4 عمليات تسليم متتالية")
      // Nothing to members or viewers, nor to the other workspace.
      expect(smtp.received.flatMap((m) => m.to).filter((to) => /member|viewer|alerts-b/.test(to))).toEqual([])

      // The activity entries: every role of the workspace sees them, newest first; the other workspace none.
      for (const role of roles) {
        const alerts = await api(server, a.keys[role], "GET", "/webhooks/alerts")
        expect(alerts.status, alerts.text).toBe(200)
        expect(alerts.body.alerts.map((x: { kind: string }) => x.kind)).toEqual(["disabled", "failing"])
        expect(alerts.body.alerts[1]).toMatchObject({
          subscriptionId: subId,
          formId: form.id,
          formTitle: "Support",
          target: `http://${host}/…`,
          failures: 2,
          reason: null
        })
      }
      expect((await api(server, b.keys.owner, "GET", "/webhooks/alerts")).body.alerts).toEqual([])
      const paged = await api(server, a.keys.viewer, "GET", "/webhooks/alerts?limit=1")
      expect(paged.body.alerts).toHaveLength(1)
      const next = await api(server, a.keys.viewer, "GET", `/webhooks/alerts?limit=1&cursor=${paged.body.nextCursor}`)
      expect(next.body.alerts[0].kind).toBe("failing")
      expect(next.body.nextCursor).toBeNull()
    })

    it("a 410 disables the subscription and alerts its owners and admins", async () => {
      const sub = await api(server, a.keys.owner, "POST", "/webhooks/subscribe", {
        formId: form.id,
        event: "response.created",
        targetUrl: gone.url
      })
      goneId = sub.body.id
      // The failing subscription is disabled: only this one hears the response.
      await submit(a.keys.member, form)
      const disabled = await waitFor(async () => {
        const s = await subscription(goneId)
        return s.disabled ? s : undefined
      })
      expect(disabled.disabledReason).toContain("410")
      const host = new URL(gone.url).host
      const mail = await waitFor(() => {
        const to = mailsTo(`Webhook disabled: http://${host}/`)
        return to.length >= 2 ? to : undefined
      })
      expect(mail).toEqual(["alerts-a-admin@example.com", "alerts-a-owner@example.com"])
      const german = await waitFor(() => mailOf(`Webhook deaktiviert: http://${host}/… (Support)`))
      expect(german.parsed.text).toContain("deaktiviert: Der Empfänger hat mit 410 Gone geantwortet.")
      const alerts = await api(server, a.keys.member, "GET", "/webhooks/alerts")
      expect(alerts.body.alerts[0]).toMatchObject({ kind: "disabled", subscriptionId: goneId, failures: 1 })
      expect(alerts.body.alerts[0].reason).toContain("410")
    })

    it("lists dead letters per workspace to every role, by subscription, paged", async () => {
      for (const role of roles) {
        const all = await api(server, a.keys[role], "GET", "/webhooks/dead-letters")
        expect(all.status, all.text).toBe(200)
        expect(all.body.deliveries).toHaveLength(5)
        expect(all.body.deliveries.every((d: { status: string }) => d.status === "failed")).toBe(true)
      }
      const mine = await api(server, a.keys.viewer, "GET", `/webhooks/dead-letters?subscriptionId=${subId}`)
      expect(mine.body.deliveries).toHaveLength(4)
      expect(mine.body.deliveries[0]).toMatchObject({ subscriptionId: subId, formId: form.id, formTitle: "Support" })
      expect(mine.body.deliveries[0].attempts[0].statusCode).toBe(500)
      const page = await api(server, a.keys.owner, "GET", "/webhooks/dead-letters?limit=3")
      expect(page.body.deliveries).toHaveLength(3)
      const rest = await api(
        server,
        a.keys.owner,
        "GET",
        `/webhooks/dead-letters?limit=3&cursor=${page.body.nextCursor}`
      )
      expect(rest.body.deliveries).toHaveLength(2)
      expect(rest.body.nextCursor).toBeNull()
      // The other workspace sees none of them, and not the subscription.
      expect((await api(server, b.keys.owner, "GET", "/webhooks/dead-letters")).body.deliveries).toEqual([])
      const foreign = await api(server, b.keys.owner, "GET", `/webhooks/dead-letters?subscriptionId=${subId}`)
      expect(foreign.status).toBe(404)
      expect(foreign.body.error).toContain(subId)
    })

    it("replays in bulk for owners and admins only, and re-enables nothing", async () => {
      for (const role of ["member", "viewer"] as const) {
        const refused = await api(server, a.keys[role], "POST", "/webhooks/dead-letters/replay", {
          subscriptionId: subId
        })
        expect(refused.status, refused.text).toBe(403)
        expect(refused.body.error).toEqual(expect.any(String))
      }
      // A disabled subscription's dead letters wait until it is enabled again.
      const whileDisabled = await api(server, a.keys.admin, "POST", "/webhooks/dead-letters/replay", {
        subscriptionId: subId
      })
      expect(whileDisabled.status, whileDisabled.text).toBe(409)
      expect(whileDisabled.body.error).toContain("disabled")
      const dead = (await api(server, a.keys.owner, "GET", "/webhooks/dead-letters")).body.deliveries as Array<{
        id: number
        subscriptionId: string
      }>
      const named = await api(server, a.keys.owner, "POST", "/webhooks/dead-letters/replay", {
        deliveryIds: dead.map((d) => d.id)
      })
      expect(named.body).toEqual({ replayed: [], skipped: dead.map((d) => d.id), more: false })
      // Another workspace's owner replays none of them.
      const foreign = await api(server, b.keys.owner, "POST", "/webhooks/dead-letters/replay", {
        deliveryIds: dead.map((d) => d.id)
      })
      expect(foreign.body.replayed).toEqual([])
      expect((await subscription(subId)).disabled).toBe(true)

      // Enabled again: the count starts over; the replay delivers all four (the receiver answers 200 now).
      const enabled = await api(server, a.keys.admin, "PATCH", `/webhooks/subscribe/${subId}`, { disabled: false })
      expect(enabled.body).toMatchObject({ disabled: false, consecutiveFailures: 0 })
      const before = failing.received.length
      const replay = await api(server, a.keys.admin, "POST", "/webhooks/dead-letters/replay", { subscriptionId: subId })
      expect(replay.status, replay.text).toBe(200)
      expect(replay.body.replayed).toHaveLength(4)
      expect(replay.body).toMatchObject({ skipped: [], more: false })
      // Replayed deliveries are no dead letters while due, nor once delivered.
      expect(
        (await api(server, a.keys.owner, "GET", `/webhooks/dead-letters?subscriptionId=${subId}`)).body.deliveries
      ).toEqual([])
      const log = await waitFor(async () => {
        const reply = await api(server, a.keys.owner, "GET", `/webhooks/subscribe/${subId}/deliveries`)
        const deliveries = reply.body.deliveries as Array<{ status: string }>
        return deliveries.every((d) => d.status === "succeeded") ? deliveries : undefined
      })
      expect(log).toHaveLength(4)
      expect(failing.received.length - before).toBe(4)
      // Same webhook-id as the first attempts.
      const firstIds = failing.received
        .slice(0, 4)
        .map((r) => r.headers["webhook-id"])
        .sort()
      expect(
        failing.received
          .slice(before)
          .map((r) => r.headers["webhook-id"])
          .sort()
      ).toEqual(firstIds)
      // The 410 subscription stays disabled, its dead letter untouched; no new alert.
      expect((await subscription(goneId)).disabled).toBe(true)
      expect((await subscription(subId)).consecutiveFailures).toBe(0)
      const goneDead = await api(server, a.keys.owner, "GET", `/webhooks/dead-letters?subscriptionId=${goneId}`)
      expect(goneDead.body.deliveries).toHaveLength(1)
      expect((await api(server, a.keys.owner, "GET", "/webhooks/alerts")).body.alerts).toHaveLength(3)
    })

    it("a delivered delivery ends the incident: the next failures in a row alert again; a member's disabling alerts nobody", async () => {
      const flaky = await receiver([500, 500, 200, 500, 500])
      try {
        const sub = await api(server, a.keys.owner, "POST", "/webhooks/subscribe", {
          formId: form.id,
          event: "response.created",
          targetUrl: flaky.url
        })
        const id = sub.body.id as string
        const alertsOf = async () =>
          (
            (await api(server, a.keys.owner, "GET", "/webhooks/alerts")).body.alerts as Array<{
              subscriptionId: string
              kind: string
            }>
          ).filter((x) => x.subscriptionId === id)
        // One post at a time: each response's delivery is recorded before the next is made.
        const post = async (n: number) => {
          await submit(a.keys.owner, form)
          await waitFor(() => (flaky.received.length >= n ? true : undefined))
          await waitFor(async () => {
            const log = await api(server, a.keys.owner, "GET", `/webhooks/subscribe/${id}/deliveries`)
            return log.body.deliveries.every(
              (d: { status: string }) => d.status === "failed" || d.status === "succeeded"
            )
              ? true
              : undefined
          })
        }
        await post(1)
        await post(2)
        expect((await subscription(id)).consecutiveFailures).toBe(2)
        expect(await alertsOf()).toHaveLength(1)
        await post(3)
        expect((await subscription(id)).consecutiveFailures).toBe(0)
        await post(4)
        expect(await alertsOf()).toHaveLength(1)
        await post(5)
        expect((await subscription(id)).consecutiveFailures).toBe(2)
        expect((await alertsOf()).map((x) => x.kind)).toEqual(["failing", "failing"])
        // Disabled by a member: no alert.
        const off = await api(server, a.keys.admin, "PATCH", `/webhooks/subscribe/${id}`, { disabled: true })
        expect(off.body).toMatchObject({ disabled: true, disabledReason: "disabled by a member" })
        expect(await alertsOf()).toHaveLength(2)
      } finally {
        await flaky.close()
      }
    })

    it("answers bad input with 400 and an error", async () => {
      const bad: ReadonlyArray<unknown> = [
        {},
        { deliveryIds: [1], subscriptionId: subId },
        { deliveryIds: [] },
        { deliveryIds: ["x"] },
        { deliveryIds: Array.from({ length: 101 }, (_, i) => i + 1) },
        { subscriptionId: 5 }
      ]
      for (const body of bad) {
        const reply = await api(server, a.keys.owner, "POST", "/webhooks/dead-letters/replay", body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(reply.body.error).toEqual(expect.any(String))
      }
      for (const query of ["cursor=abc", "limit=0", "limit=500", "cursor=-1"]) {
        for (const path of ["/webhooks/dead-letters", "/webhooks/alerts"]) {
          const reply = await api(server, a.keys.owner, "GET", `${path}?${query}`)
          expect(reply.status, `${path}?${query}`).toBe(400)
          expect(reply.body.error).toEqual(expect.any(String))
        }
      }
      const unknown = await api(server, a.keys.owner, "POST", "/webhooks/dead-letters/replay", {
        subscriptionId: "sub_nope"
      })
      expect(unknown.status).toBe(404)
    })
  })
}
