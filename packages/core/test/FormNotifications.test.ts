/**
 * Per-form notifications end to end: a real qforms (Qforms.make, with its
 * delivery worker), real receivers on loopback for each chat format, a real
 * SMTP server for e-mail. On PGlite always, on PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set.
 */
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DeliveryLog } from "../src/deliveries/Deliveries.ts"
import { discordEmbedLength, discordLimits, slackLimits, teamsMaxBytes } from "../src/deliveries/NotificationFormats.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"
import { waitFor } from "@qforms/test-kit/Conditions"
import { receiver } from "@qforms/test-kit/Receiver"
import { smtpSink } from "@qforms/test-kit/SmtpSink"

for (const target of databaseTargets) {
  describe(`form notifications on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let api: Api
    let viewerApi: Api
    let otherApi: Api

    /** A published form with these questions (Name and Email first); returns its id and questions. */
    const publishedForm = async (labels: ReadonlyArray<string> = [], title = "Support") => {
      const form = await api("POST", "/forms", {
        title,
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: false },
          ...labels.map((label) => ({ type: "long_text", label, required: false }))
        ]
      })
      expect(form.status).toBe(201)
      await api("PATCH", `/forms/${form.json.id}`, { status: "published" })
      const { json: full } = await api("GET", `/forms/${form.json.id}`)
      return {
        formId: form.json.id as number,
        fields: full.fields as Array<{ id: number; label: string; type: string }>
      }
    }

    const submit = async (formId: number, values: Record<string, unknown>) => {
      const reply = await api("POST", `/forms/${formId}/responses`, { values })
      expect(reply.status).toBe(201)
      return reply.json as { id: number; submittedAt: string }
    }

    const logWhen = (formId: number, channelId: string, ready: (log: DeliveryLog) => boolean) =>
      waitFor(async () => {
        const { json } = await api("GET", `/forms/${formId}/notifications/${channelId}/deliveries`)
        return ready(json) ? (json as DeliveryLog) : undefined
      })

    beforeAll(async () => {
      smtp = await smtpSink()
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl: "https://forms.example.com",
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100, 150], timeoutMs: 2_000, pollIntervalMs: 200 },
        mail: { url: smtp.url, from: "Forms <forms@example.com>" }
      })
      const mine = await workspace(qforms, "notify")
      const other = await workspace(qforms, "other")
      api = apiOf(qforms, mine.owner)
      viewerApi = apiOf(qforms, mine.viewer)
      otherApi = apiOf(qforms, other.owner)
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
      await smtp?.close()
    })

    it("settings: ids are assigned and kept, defaults filled, the list replaced", async () => {
      const { formId } = await publishedForm()
      expect(await api("GET", `/forms/${formId}/notifications`)).toEqual({ status: 200, json: { channels: [] } })
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [
          { type: "slack", url: "https://hooks.slack.com/services/T0/B0/x" },
          {
            type: "email",
            to: ["team@example.com"],
            events: ["response.created", "response.stage_changed"],
            enabled: false
          },
          { type: "url", url: "https://hooks.example.com/qforms" }
        ]
      })
      expect(put.status).toBe(200)
      const [slack, email, url] = put.json.channels
      expect(slack).toEqual({
        id: expect.stringMatching(/^ch_/),
        type: "slack",
        enabled: true,
        events: ["response.created"],
        url: "https://hooks.slack.com/services/T0/B0/x"
      })
      expect(email).toMatchObject({ type: "email", enabled: false, to: ["team@example.com"] })
      expect(email.events).toEqual(["response.created", "response.stage_changed"])
      expect(url.secret).toMatch(/^whsec_/)
      // Sent back as read (secret included): the same channels, same ids; one dropped.
      const again = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [url, { ...slack, enabled: false }]
      })
      expect(again.status).toBe(200)
      expect(again.json.channels.map((c: { id: string }) => c.id)).toEqual([url.id, slack.id])
      expect(again.json.channels[0].secret).toBe(url.secret)
      expect(again.json.channels[1].enabled).toBe(false)
      const read = await api("GET", `/forms/${formId}/notifications`)
      expect(read.json).toEqual(again.json)
      // A viewer reads the channels but not the signing secret, and cannot change them.
      const viewed = await viewerApi("GET", `/forms/${formId}/notifications`)
      expect(viewed.status).toBe(200)
      expect(viewed.json.channels[0].secret).toBeUndefined()
      expect((await viewerApi("PUT", `/forms/${formId}/notifications`, { channels: [] })).status).toBe(403)
    })

    it("receiver URLs (channels and webhooks) are whole for owners, masked to scheme and host for viewers", async () => {
      const { formId } = await publishedForm([], "Masked")
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [
          { type: "slack", url: "https://hooks.slack.com/services/T0/B0/token1" },
          { type: "url", url: "https://hooks.example.com/qforms?key=token2" },
          { type: "email", to: ["team@example.com"] }
        ]
      })
      expect(put.status).toBe(200)
      const sub = await api("POST", "/webhooks/subscribe", {
        formId,
        event: "response.created",
        targetUrl: "https://user-hooks.example.com:8443/in/token3"
      })
      expect(sub.status).toBe(201)

      const owner = await api("GET", `/forms/${formId}/notifications`)
      expect(owner.json.channels.map((c: { url?: string }) => c.url)).toEqual([
        "https://hooks.slack.com/services/T0/B0/token1",
        "https://hooks.example.com/qforms?key=token2",
        undefined
      ])
      const ownerHooks = (await api("GET", "/webhooks")).json.find((s: { id: string }) => s.id === sub.json.id)
      expect(ownerHooks.targetUrl).toBe("https://user-hooks.example.com:8443/in/token3")

      const viewed = await viewerApi("GET", `/forms/${formId}/notifications`)
      expect(viewed.json.channels.map((c: { url?: string }) => c.url)).toEqual([
        "https://hooks.slack.com/…",
        "https://hooks.example.com/…",
        undefined
      ])
      expect(viewed.json.channels[2].to).toEqual(["team@example.com"])
      const viewerHooks = await viewerApi("GET", "/webhooks")
      expect(viewerHooks.status).toBe(200)
      expect(viewerHooks.json.find((s: { id: string }) => s.id === sub.json.id).targetUrl).toBe(
        "https://user-hooks.example.com:8443/…"
      )
      expect(JSON.stringify([viewed.json, viewerHooks.json])).not.toMatch(/token[123]/)
    })

    it("bad settings get a 400 naming the problem", async () => {
      const { formId } = await publishedForm()
      const cases: Array<[unknown, RegExp]> = [
        [{ channels: [{ type: "slack", url: "not a url" }] }, /url/],
        [{ channels: [{ type: "pager", url: "https://x.example.com" }] }, /type|pager|Expected/],
        [
          { channels: [{ type: "slack", url: "https://x.example.com", events: ["response.deleted"] }] },
          /events|response.deleted|Expected/
        ],
        [{ channels: [{ type: "slack", url: "https://x.example.com", events: [] }] }, /at least one event/],
        [{ channels: [{ type: "email", to: [] }] }, /at least one address/],
        [{ channels: [{ type: "email", to: ["nobody"] }] }, /e-mail address/],
        [{ channels: [{ id: "ch_unknown", type: "slack", url: "https://x.example.com" }] }, /ch_unknown/],
        [{ channels: [{ type: "slack", url: "https://x.example.com", colour: "red" }] }, /colour/],
        [{}, /channels/]
      ]
      for (const [body, message] of cases) {
        const reply = await api("PUT", `/forms/${formId}/notifications`, body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(reply.json.error, JSON.stringify(body)).toMatch(message)
      }
      expect((await api("GET", `/forms/${formId}/notifications`)).json).toEqual({ channels: [] })
      expect((await api("GET", `/forms/999999/notifications`)).status).toBe(404)
      expect((await api("PUT", `/forms/999999/notifications`, { channels: [] })).status).toBe(404)
    })

    it("another workspace can neither read nor change a form's notifications nor its delivery log", async () => {
      const { formId } = await publishedForm()
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [{ type: "url", url: "https://hooks.example.com/a" }]
      })
      const channelId = put.json.channels[0].id
      expect((await otherApi("GET", `/forms/${formId}/notifications`)).status).toBe(404)
      expect((await otherApi("PUT", `/forms/${formId}/notifications`, { channels: [] })).status).toBe(404)
      expect((await otherApi("GET", `/forms/${formId}/notifications/${channelId}/deliveries`)).status).toBe(404)
      expect((await api("GET", `/forms/${formId}/notifications`)).json.channels).toHaveLength(1)
    })

    it("Slack, Discord, Teams and url channels: each format within its limits (40 questions, a 10 kB answer)", async () => {
      const labels = Array.from({ length: 38 }, (_, i) => `Question ${i + 1}`)
      const { fields, formId } = await publishedForm(labels, "Big form")
      const hooks = {
        slack: await receiver(),
        discord: await receiver(),
        teams: await receiver(),
        url: await receiver()
      }
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: (["slack", "discord", "teams", "url"] as const).map((type) => ({ type, url: hooks[type].url }))
      })
      expect(put.status).toBe(200)
      const long = "x".repeat(10_000)
      // A hostile name: every platform's mentions and links, which must reach no one as markup.
      const hostile = "Ada <!channel> @everyone <@U123> [x](http://evil) <http://evil|click> Lovelace"
      const slackSafe =
        "Ada &lt;!channel&gt; @everyone &lt;@U123&gt; [x](http://evil) &lt;http://evil|click&gt; Lovelace"
      const markdownSafe = String.raw`Ada \<\!channel\> \@everyone \<\@U123\> \[x\]\(http://evil\) \<http://evil\|click\> Lovelace`
      const values: Record<string, unknown> = { [fields[0]!.id]: hostile, [fields[1]!.id]: "ada@example.com" }
      for (const field of fields.slice(2))
        values[field.id] = field.label === "Question 1" ? long : `Answer to ${field.label}`
      const row = await submit(formId, values)
      const link = `https://forms.example.com/app/responses/${row.id}`
      await waitFor(() => (Object.values(hooks).every((hook) => hook.received.length === 1) ? true : undefined))

      const slack = JSON.parse(hooks.slack.received[0]!.body)
      expect(slack.text).toBe(`New response to Big form from ${slackSafe} &lt;ada@example.com&gt;`)
      expect(slack.blocks.length).toBeLessThanOrEqual(slackLimits.blocks)
      expect(slack.blocks[0]).toEqual({
        type: "header",
        text: { type: "plain_text", text: "New response to Big form", emoji: false }
      })
      const sections = slack.blocks.filter((b: { type: string }) => b.type === "section")
      const slackFields = sections.flatMap((s: { fields: Array<{ text: string }> }) => s.fields)
      expect(slackFields).toHaveLength(40)
      for (const section of sections) expect(section.fields.length).toBeLessThanOrEqual(10)
      for (const field of slackFields) expect(field.text.length).toBeLessThanOrEqual(slackLimits.fieldText)
      expect(slackFields[0].text).toBe(`*Name*\n${slackSafe}`)
      expect(slack.blocks[1].elements[0].text).toBe(`From *${slackSafe} &lt;ada@example.com&gt;*`)
      const longField = slackFields.find((f: { text: string }) => f.text.startsWith("*Question 1*"))
      expect(longField.text.endsWith("…")).toBe(true)
      expect(longField.text.length).toBeLessThan(600)
      expect(slack.blocks.at(-1)).toEqual({
        type: "actions",
        elements: [{ type: "button", text: { type: "plain_text", text: "Open response" }, url: link }]
      })

      const discord = JSON.parse(hooks.discord.received[0]!.body)
      expect(discord.allowed_mentions).toEqual({ parse: [] })
      const [embed] = discord.embeds
      expect(embed.url).toBe(link)
      expect(embed.title).toBe("New response to Big form")
      expect(embed.fields).toHaveLength(discordLimits.fields)
      expect(embed.fields.at(-1)).toMatchObject({ name: "More answers", value: "16 more in the response" })
      for (const field of embed.fields) {
        expect(field.value.length).toBeLessThanOrEqual(discordLimits.fieldValue)
        expect(field.value.length).toBeGreaterThan(0)
        expect(field.name.length).toBeLessThanOrEqual(discordLimits.fieldName)
      }
      expect(discordEmbedLength(embed)).toBeLessThanOrEqual(discordLimits.total)
      expect(embed.fields[0]).toMatchObject({ name: "Name", value: markdownSafe })
      expect(embed.description).toBe(String.raw`From **${markdownSafe} \<ada\@example.com\>**`)
      expect(embed.fields[2].value.endsWith("…")).toBe(true)
      expect(embed.timestamp).toBe(row.submittedAt)

      const teamsBody = hooks.teams.received[0]!.body
      expect(Buffer.byteLength(teamsBody)).toBeLessThanOrEqual(teamsMaxBytes)
      const teams = JSON.parse(teamsBody)
      expect(teams.type).toBe("message")
      const card = teams.attachments[0]
      expect(card.contentType).toBe("application/vnd.microsoft.card.adaptive")
      expect(card.content.type).toBe("AdaptiveCard")
      const factSet = card.content.body.find((b: { type: string }) => b.type === "FactSet")
      expect(factSet.facts).toHaveLength(40)
      expect(factSet.facts[0]).toEqual({ title: "Name", value: markdownSafe })
      expect(card.content.body[1].text).toBe(String.raw`From ${markdownSafe} \<ada\@example.com\>`)
      expect(factSet.facts[2].value.endsWith("…")).toBe(true)
      expect(card.content.actions).toEqual([{ type: "Action.OpenUrl", title: "Open response", url: link }])

      // `url`: the WebhookEvent, signed with the channel's secret.
      const urlPost = hooks.url.received[0]!
      const secret = put.json.channels[3].secret
      const verified = new Webhook(secret).verify(urlPost.body, {
        "webhook-id": String(urlPost.headers["webhook-id"]),
        "webhook-timestamp": String(urlPost.headers["webhook-timestamp"]),
        "webhook-signature": String(urlPost.headers["webhook-signature"])
      }) as Record<string, unknown>
      expect(verified).toMatchObject({
        event: "response.created",
        form: { id: formId, title: "Big form" },
        responseId: row.id,
        respondent: { name: hostile, email: "ada@example.com" },
        link
      })
      expect((verified.answers as Record<string, string>)["Question 1"]).toBe(long)

      for (const [index, channel] of put.json.channels.entries()) {
        const log = await logWhen(formId, channel.id, (l) => l.deliveries[0]?.status === "succeeded")
        expect(log.deliveries, `channel ${index}`).toHaveLength(1)
        expect(log.deliveries[0]).toMatchObject({ event: "response.created", responseId: row.id })
        expect(log.deliveries[0]!.attempts[0]).toMatchObject({ statusCode: 200, error: null })
      }
      // The webhooks API does not list channels.
      const subs = (await api("GET", "/webhooks")).json as Array<{ targetUrl: string }>
      expect(subs.some((s) => Object.values(hooks).some((hook) => hook.url === s.targetUrl))).toBe(false)
      for (const hook of Object.values(hooks)) await hook.close()
    })

    it("sheet: columns and row follow the question order, also after the questions are reordered", async () => {
      const { fields, formId } = await publishedForm(["Topic", "Details"])
      // Like a Google Apps Script web app: it runs the POST, then redirects to its output.
      const hook = await receiver([302], { location: "https://script.googleusercontent.com/macros/echo?x" })
      const put = await api("PUT", `/forms/${formId}/notifications`, { channels: [{ type: "sheet", url: hook.url }] })
      // Reorder: Details, Name, Topic, Email (ids kept, so the answers stay).
      const byLabel = new Map(fields.map((f) => [f.label, f]))
      const order = ["Details", "Name", "Topic", "Email"].map((label) => byLabel.get(label)!)
      const patched = await api("PATCH", `/forms/${formId}`, {
        fields: order.map((f) => ({ id: f.id, type: f.type, label: f.label, required: f.label === "Name" }))
      })
      expect(patched.status).toBe(200)
      const row = await submit(formId, {
        [byLabel.get("Name")!.id]: "Grace Hopper",
        [byLabel.get("Topic")!.id]: "Billing"
      })
      const [post] = await waitFor(() => (hook.received.length > 0 ? hook.received : undefined))
      expect(JSON.parse(post!.body)).toEqual({
        formId,
        responseId: row.id,
        submittedAt: row.submittedAt,
        columns: ["Details", "Name", "Topic", "Email"],
        row: ["", "Grace Hopper", "Billing", ""]
      })
      const log = await logWhen(formId, put.json.channels[0].id, (l) => l.deliveries[0]?.status === "succeeded")
      expect(log.deliveries[0]!.attempts).toHaveLength(1)
      expect(log.deliveries[0]!.attempts[0]!.statusCode).toBe(302)
      expect(hook.received).toHaveLength(1)
      await hook.close()
    })

    it("e-mail: through SMTP, with subject, text and HTML, the link, and Reply-To the respondent", async () => {
      const { fields, formId } = await publishedForm(["Message"], "Contact")
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [{ type: "email", to: ["team@example.com", "boss@example.com"] }]
      })
      expect(put.status).toBe(200)
      const before = smtp.received.length
      const row = await submit(formId, {
        [fields[0]!.id]: "Ada Lovelace",
        [fields[1]!.id]: "ada@example.com",
        [fields[2]!.id]: "Hello <b>there</b>\nSecond line"
      })
      const mail = await waitFor(() => smtp.received[before])
      expect(mail.to).toEqual(["team@example.com", "boss@example.com"])
      expect(mail.parsed.subject).toBe("New response to Contact from Ada Lovelace")
      expect(mail.parsed.from?.text).toBe('"Forms" <forms@example.com>')
      expect(mail.parsed.replyTo?.value[0]?.address).toBe("ada@example.com")
      const link = `https://forms.example.com/app/responses/${row.id}`
      expect(mail.parsed.text).toContain("■ Message\nHello <b>there</b>\nSecond line")
      expect(mail.parsed.text).toContain(link)
      expect(mail.parsed.html).toContain("Hello &lt;b&gt;there&lt;/b&gt;")
      expect(mail.parsed.html).toContain(`<a href="${link}">`)
      const log = await logWhen(formId, put.json.channels[0].id, (l) => l.deliveries[0]?.status === "succeeded")
      expect(log.deliveries[0]!.attempts[0]).toMatchObject({ statusCode: 250, error: null })
    })

    it("e-mail: a temporary SMTP refusal is retried, a permanent one is final", async () => {
      const { fields, formId } = await publishedForm([], "Retry mail")
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [{ type: "email", to: ["t@example.com"] }]
      })
      const channelId = put.json.channels[0].id
      smtp.reject(451)
      const first = await submit(formId, { [fields[0]!.id]: "One" })
      const retried = await logWhen(formId, channelId, (l) => l.deliveries[0]?.status === "succeeded")
      expect(retried.deliveries[0]!.responseId).toBe(first.id)
      expect(retried.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([451, 250])
      // The e-mail went out: retrying it would send it twice.
      const again = await api(
        "POST",
        `/forms/${formId}/notifications/${channelId}/deliveries/${retried.deliveries[0]!.id}/retry`
      )
      expect(again.status).toBe(409)
      expect(again.json.error).toMatch(/not sent twice/)
      smtp.reject(550)
      await submit(formId, { [fields[0]!.id]: "Two" })
      const failed = await logWhen(
        formId,
        channelId,
        (l) => l.deliveries.length === 2 && l.deliveries[0]!.status === "failed"
      )
      expect(failed.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([550])
    })

    it("failures are retried on the schedule; a failed delivery can be retried from the channel's log", async () => {
      const { fields, formId } = await publishedForm()
      const hook = await receiver([500, 503, 200, 400, 200])
      const put = await api("PUT", `/forms/${formId}/notifications`, { channels: [{ type: "discord", url: hook.url }] })
      const channelId = put.json.channels[0].id
      await submit(formId, { [fields[0]!.id]: "Ada" })
      const log = await logWhen(formId, channelId, (l) => l.deliveries[0]?.status === "succeeded")
      expect(log.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 503, 200])
      // A 400 is final; a member sends it again.
      await submit(formId, { [fields[0]!.id]: "Bob" })
      const failed = await logWhen(
        formId,
        channelId,
        (l) => l.deliveries.length === 2 && l.deliveries[0]!.status === "failed"
      )
      const deliveryId = failed.deliveries[0]!.id
      expect(
        (
          await api(
            "POST",
            `/forms/${formId}/notifications/${channelId}/deliveries/${log.deliveries[0]!.id + 1000}/retry`
          )
        ).status
      ).toBe(404)
      const retried = await api("POST", `/forms/${formId}/notifications/${channelId}/deliveries/${deliveryId}/retry`)
      expect(retried.status).toBe(200)
      const done = await logWhen(
        formId,
        channelId,
        (l) => l.deliveries[0]!.status === "succeeded" && l.deliveries[0]!.id === deliveryId
      )
      expect(done.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([400, 200])
      expect(hook.received).toHaveLength(5)
      await hook.close()
    })

    it("a 410 Gone is final and disables the channel", async () => {
      const { fields, formId } = await publishedForm()
      const hook = await receiver([410])
      const put = await api("PUT", `/forms/${formId}/notifications`, { channels: [{ type: "sheet", url: hook.url }] })
      const channelId = put.json.channels[0].id
      await submit(formId, { [fields[0]!.id]: "Ada" })
      const log = await logWhen(formId, channelId, (l) => l.deliveries[0]?.status === "failed")
      expect(log.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([410])
      expect((await api("GET", `/forms/${formId}/notifications`)).json.channels[0].enabled).toBe(false)
      await submit(formId, { [fields[0]!.id]: "Bob" })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(hook.received).toHaveLength(1)
      await hook.close()
    })

    it("disabled channels send nothing; a stage_changed channel sends only on stage changes", async () => {
      const { fields, formId } = await publishedForm()
      const on = await receiver()
      const off = await receiver()
      const stages = await receiver()
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [
          { type: "slack", url: off.url, enabled: false },
          { type: "teams", url: stages.url, events: ["response.stage_changed"] },
          { type: "slack", url: on.url }
        ]
      })
      const stage = await api("POST", `/forms/${formId}/stages`, { name: "Done", isClosed: true })
      expect(stage.status).toBe(201)
      const row = await submit(formId, { [fields[0]!.id]: "Ada" })
      await waitFor(() => (on.received.length === 1 ? true : undefined))
      expect((await api("PATCH", `/responses/${row.id}`, { stageId: stage.json.id })).status).toBe(200)
      const [moved] = await waitFor(() => (stages.received.length === 1 ? stages.received : undefined))
      const card = JSON.parse(moved!.body).attachments[0].content
      expect(card.body[0].text).toBe("Response to Support moved to Done")
      // Give the disabled channel every chance to (wrongly) receive something.
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(off.received).toHaveLength(0)
      expect(on.received).toHaveLength(1)
      expect(
        (await api("GET", `/forms/${formId}/notifications/${put.json.channels[0].id}/deliveries`)).json.deliveries
      ).toEqual([])
      for (const hook of [on, off, stages]) await hook.close()
    })
  })
}

describe("form notifications without e-mail, on a server that refuses private targets", () => {
  let qforms: Qforms.Qforms
  let api: Api
  beforeAll(async () => {
    qforms = await Qforms.make({
      database: {},
      rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
      delivery: { worker: false }
    })
    api = apiOf(qforms, (await workspace(qforms, "plain")).owner)
  })
  afterAll(() => qforms?.dispose())

  it("an e-mail channel gets 409 when e-mail is not configured; chat URLs must be https and public", async () => {
    const form = await api("POST", "/forms", { title: "F" })
    const formId = form.json.id
    const email = await api("PUT", `/forms/${formId}/notifications`, {
      channels: [{ type: "email", to: ["a@example.com"] }]
    })
    expect(email).toEqual({ status: 409, json: { error: "e-mail is not configured" } })
    const http = await api("PUT", `/forms/${formId}/notifications`, {
      channels: [{ type: "slack", url: "http://hooks.example.com/x" }]
    })
    expect(http.status).toBe(400)
    expect(http.json.error).toMatch(/channels\.0\.url: a slack URL must be https/)
    const local = await api("PUT", `/forms/${formId}/notifications`, {
      channels: [{ type: "url", url: "http://127.0.0.1:9/x" }]
    })
    expect(local.status).toBe(400)
    expect(local.json.error).toMatch(/channels\.0\.url is a loopback address/)
    // Not a Slack host, but https: allowed.
    const other = await api("PUT", `/forms/${formId}/notifications`, {
      channels: [{ type: "slack", url: "https://8.8.8.8/hook" }]
    })
    expect(other.status).toBe(200)
  })
})
