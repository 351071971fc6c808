/**
 * E-mail with respondents end to end: a real qforms (Qforms.make, with its
 * delivery worker) sending through a real SMTP server on loopback; opens,
 * clicks and raw MIME replies through its HTTP handler. On PGlite always, on
 * PostgreSQL too when QFORMS_TEST_DATABASE_URL is set.
 */
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { ImapFlow } from "imapflow"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { stripQuoted } from "../src/email/EmailReplies.ts"
import * as Qforms from "../src/Qforms.ts"
import { adversarialBodies, adversarialReplies } from "@qforms/test-kit/AdversarialMail"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"
import { waitFor } from "@qforms/test-kit/Conditions"
import { OpenApiValidator } from "@qforms/test-kit/OpenApiValidator"
import { receiver } from "@qforms/test-kit/Receiver"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { mime, replyWithPdf, tokenAddress } from "./support/InboundMail.ts"

const appUrl = "http://qforms.test"
const inboundSecret = "inbound-s3cret"

for (const target of databaseTargets) {
  describe(`respondent e-mails on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let api: Api
    let viewerApi: Api
    let otherApi: Api
    let ownerKey: string

    const inbound = async (raw: string | Uint8Array, secret: string | null = inboundSecret) => {
      const response = await qforms.handler(
        new Request(`${appUrl}/inbound/email`, {
          method: "POST",
          headers: {
            "content-type": "message/rfc822",
            ...(secret === null ? {} : { "x-qforms-inbound-secret": secret })
          },
          body: raw
        })
      )
      return { status: response.status, json: (await response.json()) as any }
    }

    /** A published form (Name, Email, Topic) with a closed and two open stages, and one response from Ada. */
    const caseWithResponse = async (confirmation?: { subject: string; body: string }, name = "Ada Lovelace") => {
      const form = await api("POST", "/forms", {
        title: "Support",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true },
          { type: "short_text", label: "Topic", required: false }
        ]
      })
      const formId = form.json.id as number
      const { json: full } = await api("GET", `/forms/${formId}`)
      const [nameField, email, topic] = full.fields as Array<{ id: number }>
      if (confirmation !== undefined) {
        const body = confirmation.body.replaceAll("NAME", String(nameField!.id))
        const subject = confirmation.subject.replaceAll("NAME", String(nameField!.id))
        const put = await api("PUT", `/forms/${formId}/confirmation`, { enabled: true, subject, body })
        expect(put.status).toBe(200)
      }
      await api("POST", `/forms/${formId}/stages`, { name: "Working", isClosed: false })
      const closed = await api("POST", `/forms/${formId}/stages`, { name: "Archived", isClosed: true })
      const {
        json: { stages }
      } = await api("GET", `/forms/${formId}/stages`)
      const open = stages.find((stage: { isClosed: boolean }) => !stage.isClosed)
      await api("PATCH", `/forms/${formId}`, { status: "published" })
      const before = smtp.received.length
      const submitted = await api("POST", `/forms/${formId}/responses`, {
        values: { [nameField!.id]: name, [email!.id]: "ada@example.com", [topic!.id]: "Billing" }
      })
      expect(submitted.status).toBe(201)
      return {
        formId,
        responseId: submitted.json.id as number,
        openStageId: open.id as number,
        closedStageId: closed.json.id as number,
        before
      }
    }

    /** Sends a case e-mail and waits for it at the SMTP server. */
    const sendFromCase = async (responseId: number, body: string, subject = "About your request") => {
      const before = smtp.received.length
      const sent = await api("POST", `/responses/${responseId}/emails`, { subject, body })
      expect(sent.status).toBe(201)
      const mail = await waitFor(() => smtp.received[before])
      return { item: sent.json, mail }
    }

    const hrefs = (html: string) => Array.from(html.matchAll(/href="([^"]+)"/g), (m) => m[1]!.replace(/&amp;/g, "&"))

    beforeAll(async () => {
      smtp = await smtpSink()
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl,
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { schedule: [0, 50, 100, 150], timeoutMs: 2_000, pollIntervalMs: 200, allowPrivateTargets: true },
        mail: {
          url: smtp.url,
          from: "Support <support@example.com>",
          inboundAddress: "reply+{token}@in.example.com",
          inboundSecret
        }
      })
      const mine = await workspace(qforms, "mail")
      const other = await workspace(qforms, "elsewhere")
      ownerKey = mine.owner
      api = apiOf(qforms, mine.owner)
      viewerApi = apiOf(qforms, mine.viewer)
      otherApi = apiOf(qforms, other.owner)
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
      await smtp?.close()
    })

    it("the confirmation: sent when a response with an address arrives, template filled, links tracked", async () => {
      const { before, responseId } = await caseWithResponse({
        subject: "Thanks, {{field:NAME}}",
        body: "Hi {{field:NAME}}, see [our FAQ](https://example.com/faq?a=1&b=2).\n\nYou sent:\n\n{{answers}}"
      })
      const mail = await waitFor(() => smtp.received[before])
      expect(mail.to).toEqual(["ada@example.com"])
      expect(mail.from).toBe("support@example.com")
      expect(mail.parsed.subject).toBe("Thanks, Ada Lovelace")
      expect(mail.parsed.text).toContain("Hi Ada Lovelace, see our FAQ (https://example.com/faq?a=1&b=2).")
      expect(mail.parsed.text).toContain("■ Topic\nBilling")
      expect(tokenAddress(mail)).toMatch(new RegExp(`^reply\\+${responseId}\\.[0-9a-f]{20}@in\\.example\\.com$`))
      const links = hrefs(String(mail.parsed.html))
      expect(links).toHaveLength(1)
      expect(links[0]).toMatch(/^http:\/\/qforms\.test\/t\/c\/\d+\.0\.[0-9a-f]{32}$/)
      expect(String(mail.parsed.html)).toMatch(/<img src="http:\/\/qforms\.test\/t\/o\/\d+\.[0-9a-f]{32}"/)
      const detail = await waitFor(async () => {
        const { json } = await api("GET", `/responses/${responseId}`)
        return json.emails[0]?.status === "sent" ? json : undefined
      })
      expect(detail.emails).toEqual([
        {
          id: expect.any(Number),
          to: "ada@example.com",
          subject: "Thanks, Ada Lovelace",
          text: expect.stringContaining("our FAQ (https://example.com/faq?a=1&b=2)"),
          sentAt: expect.any(String),
          status: "sent",
          openedAt: null,
          opens: 0,
          clicks: []
        }
      ])
      expect(detail.activities.map((a: { type: string }) => a.type)).toEqual(["email_sent", "created"])
      expect(detail.activities[0].payload).toMatchObject({ kind: "confirmation", to: "ada@example.com" })
    })

    it("the confirmation links and tracks only the owner's links: respondent text is literal, escaped, never a link", async () => {
      const hostile =
        "Ada [Reset your password](https://evil.example/login) https://evil.example/bare <b>urgent</b> **now**"
      const { before } = await caseWithResponse(
        {
          subject: "Thanks, {{field:NAME}}",
          body: "Hi **{{field:NAME}}**, see [our FAQ](https://example.com/faq).\n\n{{answers}}"
        },
        hostile
      )
      const mail = await waitFor(() => smtp.received[before])
      const html = String(mail.parsed.html)
      const links = hrefs(html)
      expect(links).toHaveLength(1)
      expect(links[0]).toMatch(/^http:\/\/qforms\.test\/t\/c\/\d+\.0\.[0-9a-f]{32}$/)
      expect(html).not.toMatch(/href="[^"]*evil/)
      expect(html).toContain(
        "Hi <strong>Ada [Reset your password](https://evil.example/login) https://evil.example/bare " +
          "&lt;b&gt;urgent&lt;/b&gt; **now**</strong>"
      )
      expect(html).not.toContain("<b>urgent</b>")
      expect(mail.parsed.text).toContain(`Hi ${hostile}, see our FAQ (https://example.com/faq).`)
      // The one tracked link leads to the owner's URL.
      const clicked = await qforms.handler(new Request(links[0]!, { redirect: "manual" }))
      expect(clicked.headers.get("location")).toBe("https://example.com/faq")
    })

    it("a member writes from the case: text and HTML, tracked links; a viewer may not; another workspace sees nothing", async () => {
      const { responseId } = await caseWithResponse()
      expect((await viewerApi("POST", `/responses/${responseId}/emails`, { subject: "x", body: "y" })).status).toBe(403)
      expect((await otherApi("POST", `/responses/${responseId}/emails`, { subject: "x", body: "y" })).status).toBe(404)
      const bad = await api("POST", `/responses/${responseId}/emails`, { subject: "", body: "y" })
      expect(bad.status).toBe(400)
      expect(bad.json.error).toMatch(/subject/)
      const { item, mail } = await sendFromCase(
        responseId,
        "Hello **Ada**,\n\nplease read https://example.com/guide and [the form](https://example.com/form).\n\nThanks"
      )
      expect(item).toMatchObject({
        to: "ada@example.com",
        subject: "About your request",
        status: "queued",
        opens: 0,
        clicks: []
      })
      expect(mail.parsed.subject).toBe("About your request")
      expect(mail.parsed.text).toBe(
        "Hello Ada,\n\nplease read https://example.com/guide and the form (https://example.com/form).\n\nThanks"
      )
      expect(String(mail.parsed.html)).toContain("<strong>Ada</strong>")
      expect(String(mail.parsed.html)).toContain("<p>Thanks</p>")
      const links = hrefs(String(mail.parsed.html))
      expect(links.map((l) => l.replace(/\.[0-9a-f]{32}$/, ""))).toEqual([
        `${appUrl}/t/c/${item.id}.0`,
        `${appUrl}/t/c/${item.id}.1`
      ])
      expect((await otherApi("GET", `/responses/${responseId}`)).status).toBe(404)
      const detail = (await api("GET", `/responses/${responseId}`)).json
      expect(detail.emails.map((e: { id: number }) => e.id)).toEqual([item.id])
    })

    it("opens and clicks are recorded; a click goes only to its recorded URL; a tampered token is 404", async () => {
      const { responseId } = await caseWithResponse()
      const { item, mail } = await sendFromCase(responseId, "See https://example.com/one and https://example.com/two")
      const [one, two] = hrefs(String(mail.parsed.html))
      const pixel = /<img src="([^"]+)"/.exec(String(mail.parsed.html))![1]!
      const get = (url: string) => qforms.handler(new Request(url, { redirect: "manual" }))
      const opened = await get(pixel)
      expect(opened.status).toBe(200)
      expect(opened.headers.get("content-type")).toBe("image/gif")
      expect((await opened.arrayBuffer()).byteLength).toBeGreaterThan(0)
      await get(pixel)
      const clicked = await get(`${two}?url=https://evil.example.com/`)
      expect(clicked.status).toBe(302)
      expect(clicked.headers.get("location")).toBe("https://example.com/two")
      expect((await get(one!)).headers.get("location")).toBe("https://example.com/one")
      // A link outside Latin-1 redirects in its ASCII form (punycode host, percent-encoded rest).
      const { mail: wide } = await sendFromCase(responseId, "Voir https://例え.jp/パス?q=ü")
      const [wideLink] = hrefs(String(wide.parsed.html))
      const redirected = await get(wideLink!)
      expect(redirected.status).toBe(302)
      expect(redirected.headers.get("location")).toBe("https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%BC")
      // Tampering: another MAC, another link index with the same MAC, another e-mail id, garbage.
      const [emailId, , mac] = one!.split("/t/c/")[1]!.split(".")
      const flipped = mac!.replace(/^./, (c) => (c === "0" ? "1" : "0"))
      for (const token of [
        `${emailId}.0.${flipped}`,
        `${emailId}.1.${mac}`,
        `${emailId}.7.${mac}`,
        `${Number(emailId) + 1}.0.${mac}`,
        "x",
        `${emailId}.0.${mac}extra`
      ]) {
        const response = await get(`${appUrl}/t/c/${token}`)
        expect(response.status, token).toBe(404)
        expect(response.headers.get("location")).toBeNull()
      }
      expect((await get(`${appUrl}/t/o/${emailId}.${flipped}`)).status).toBe(404)
      const detail = (await api("GET", `/responses/${responseId}`)).json
      const email = detail.emails.find((e: { id: number }) => e.id === item.id)
      expect(email.opens).toBe(2)
      expect(email.openedAt).not.toBeNull()
      expect(email.clicks.map((c: { url: string }) => c.url)).toEqual([
        "https://example.com/two",
        "https://example.com/one"
      ])
    })

    it("email.sent, email.opened (once, by the image or a link) and email.replied are posted to a subscription naming them", async () => {
      const { formId, responseId } = await caseWithResponse()
      const hook = await receiver([200])
      const subscribed = await api("POST", "/webhooks/subscribe", {
        formId,
        event: "email.sent",
        events: ["email.sent", "email.opened", "email.replied"],
        targetUrl: hook.url
      })
      expect(subscribed.status, JSON.stringify(subscribed.json)).toBe(201)
      const validator = new OpenApiValidator((await api("GET", "/openapi.json")).json)
      const posted = (name: string) =>
        hook.received.map((post) => JSON.parse(post.body)).filter((body: { event: string }) => body.event === name)
      const { item, mail } = await sendFromCase(responseId, "See https://example.com/one", "Your request")
      const email = { id: item.id, kind: "message", to: "ada@example.com", subject: "Your request" }
      const [sent] = await waitFor(() => (posted("email.sent").length > 0 ? posted("email.sent") : undefined))
      expect(sent).toMatchObject({
        form: { id: formId, title: "Support" },
        responseId,
        email,
        sentAt: expect.any(String)
      })
      // Opened: the image twice, then a link: one event, at the first.
      const pixel = /<img src="([^"]+)"/.exec(String(mail.parsed.html))![1]!
      const get = (url: string) => qforms.handler(new Request(url, { redirect: "manual" }))
      await get(pixel)
      await get(pixel)
      expect((await get(hrefs(String(mail.parsed.html))[0]!)).status).toBe(302)
      const raw = mime(
        {
          From: "Ada Lovelace <ada@example.com>",
          To: tokenAddress(mail),
          Subject: "Re: Your request",
          "Message-ID": "<events-1@example.com>",
          "In-Reply-To": String(mail.parsed.messageId),
          "Content-Type": "text/plain; charset=utf-8"
        },
        "Got it, thanks.\n\n> See https://example.com/one\n"
      )
      const reply = await inbound(raw)
      expect(reply.status).toBe(201)
      const [replied] = await waitFor(() => (posted("email.replied").length > 0 ? posted("email.replied") : undefined))
      expect(replied).toMatchObject({
        form: { id: formId },
        responseId,
        reply: {
          id: reply.json.replyId,
          from: "ada@example.com",
          subject: "Re: Your request",
          text: "Got it, thanks.",
          attachments: 0
        },
        reopened: false,
        link: `${appUrl}/app/responses/${responseId}`
      })
      await waitFor(() => (posted("email.opened").length > 0 ? true : undefined))
      const opened = posted("email.opened")
      expect(opened).toHaveLength(1)
      expect(opened[0]).toMatchObject({ responseId, email })
      for (const post of hook.received) {
        const body = JSON.parse(post.body) as { event: string }
        expect(validator.checkWebhook(body.event, post.body), body.event).toBeUndefined()
      }
      // Only what it names: the subscription heard nothing of the response itself.
      expect(hook.received.map((post) => JSON.parse(post.body).event).sort()).toEqual([
        "email.opened",
        "email.replied",
        "email.sent"
      ])
      // Gone with its deliveries: a later test counts on every delivery of this workspace being an e-mail's.
      expect((await api("DELETE", `/webhooks/subscribe/${subscribed.json.id}`)).status).toBe(204)
      await hook.close()
    })

    it("a plain reply: quote and signature cut, stored with an activity, the closed case reopened", async () => {
      const { closedStageId, openStageId, responseId } = await caseWithResponse()
      const { mail } = await sendFromCase(responseId, "How can we help?")
      expect((await api("PATCH", `/responses/${responseId}`, { stageId: closedStageId })).status).toBe(200)
      const raw = mime(
        {
          From: "Ada Lovelace <ada@example.com>",
          To: tokenAddress(mail),
          Subject: "Re: About your request",
          "Message-ID": "<reply-1@example.com>",
          "In-Reply-To": String(mail.parsed.messageId),
          "Content-Type": "text/plain; charset=utf-8"
        },
        "Thanks, that helps!\nI will send the form today.\n\n-- \nAda\nAnalytical Engines Ltd\n\nOn Mon, 1 Jun 2026 at 10:00, Support <support@example.com>\nwrote:\n> How can we help?\n"
      )
      expect((await inbound(raw, "wrong")).status).toBe(401)
      expect((await inbound(raw, null)).status).toBe(401)
      const reply = await inbound(raw)
      expect(reply.status).toBe(201)
      expect(reply.json).toMatchObject({ responseId, reopened: true })
      // Basic auth (the secret as the password) is accepted too; the case is open now, so nothing moves.
      const again = await qforms.handler(
        new Request(`${appUrl}/inbound/email`, {
          method: "POST",
          headers: { authorization: `Basic ${Buffer.from(`qforms:${inboundSecret}`).toString("base64")}` },
          body: raw.replace("reply-1@example.com", "reply-2@example.com")
        })
      )
      expect(again.status).toBe(201)
      expect(await again.json()).toMatchObject({ responseId, reopened: false })
      const detail = (await api("GET", `/responses/${responseId}`)).json
      expect(detail.replies).toHaveLength(2)
      expect(detail.replies[0]).toEqual({
        id: reply.json.replyId,
        from: "ada@example.com",
        subject: "Re: About your request",
        text: "Thanks, that helps!\nI will send the form today.",
        receivedAt: expect.any(String),
        files: []
      })
      expect(detail.response.stageId).toBe(openStageId)
      expect(detail.activities.slice(0, 3).map((a: { type: string }) => a.type)).toEqual([
        "email_reply",
        "stage_changed",
        "email_reply"
      ])
      expect((await otherApi("GET", `/responses/${responseId}`)).status).toBe(404)
    })

    it("an HTML-only reply, matched by In-Reply-To alone", async () => {
      const { responseId } = await caseWithResponse()
      const { mail } = await sendFromCase(responseId, "Any news?")
      const raw = mime(
        {
          From: "ada@example.com",
          To: "support@example.com",
          Subject: "Re: Any news",
          "In-Reply-To": String(mail.parsed.messageId),
          "Content-Type": "text/html; charset=utf-8"
        },
        '<html><body><p>Yes: <b>all done</b>.</p><div class="gmail_quote">On Tue, 2 Jun 2026, Support wrote:<blockquote>Any news?</blockquote></div></body></html>'
      )
      const reply = await inbound(raw)
      expect(reply.status).toBe(201)
      expect(reply.json).toMatchObject({ responseId, reopened: false })
      const detail = (await api("GET", `/responses/${responseId}`)).json
      expect(detail.replies[0].text).toMatch(/^Yes: all done\.$/i)
    })

    it("a reply with an attachment: stored as a file of the response, downloadable in its workspace only", async () => {
      const { responseId } = await caseWithResponse()
      const { mail } = await sendFromCase(responseId, "Please send the document.")
      const bytes = Buffer.from("%PDF-1.4\nhello attachment\n%%EOF\n")
      const raw = replyWithPdf("ada@example.com", mail, "Here it is.", bytes)
      const reply = await inbound(raw)
      expect(reply.status).toBe(201)
      const detail = (await api("GET", `/responses/${responseId}`)).json
      const [stored] = detail.replies
      expect(stored.text).toBe("Here it is.")
      expect(stored.files).toEqual([
        { fileId: expect.stringMatching(/^file_/), name: "report.pdf", size: bytes.length, type: "application/pdf" }
      ])
      const download = await qforms.handler(
        new Request(`${appUrl}/api/files/${stored.files[0].fileId}`, {
          headers: { authorization: `Bearer ${ownerKey}` }
        })
      )
      expect(download.status).toBe(200)
      expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes)
      expect((await otherApi("GET", `/files/${stored.files[0].fileId}`)).status).toBe(404)
    })

    it("an inbound-parse form post (SendGrid's email field, Mailgun's body-mime) is taken like a raw body", async () => {
      const { responseId } = await caseWithResponse()
      const { mail } = await sendFromCase(responseId, "Which day suits you?")
      for (const [field, text] of [
        ["email", "Monday."],
        ["body-mime", "Tuesday."]
      ] as const) {
        const form = new FormData()
        form.set("to", tokenAddress(mail))
        form.set(field, mime({ From: "ada@example.com", To: tokenAddress(mail), Subject: "Re: day" }, text))
        const response = await qforms.handler(
          new Request(`${appUrl}/inbound/email`, {
            method: "POST",
            headers: { "x-qforms-inbound-secret": inboundSecret },
            body: form
          })
        )
        expect(response.status, field).toBe(201)
      }
      const empty = new FormData()
      empty.set("subject", "nothing else")
      const refused = await qforms.handler(
        new Request(`${appUrl}/inbound/email`, {
          method: "POST",
          headers: { "x-qforms-inbound-secret": inboundSecret },
          body: empty
        })
      )
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as { error: string }).error).toMatch(/body-mime/)
      const detail = (await api("GET", `/responses/${responseId}`)).json
      expect(detail.replies.map((r: { text: string }) => r.text)).toEqual(["Monday.", "Tuesday."])
    })

    it("1 MiB hostile replies are answered within the parse budget, and the event loop never stalls a second", async () => {
      const { responseId } = await caseWithResponse()
      const { mail } = await sendFromCase(responseId, "Tell us more")
      // Built before the clock starts: only the server's work is measured.
      const replies = adversarialReplies(tokenAddress(mail), 1024 * 1024).map(({ name, raw }) => ({
        name,
        raw: Buffer.from(raw)
      }))
      let last = performance.now()
      let stall = 0
      const beat = setInterval(() => {
        const now = performance.now()
        stall = Math.max(stall, now - last)
        last = now
      }, 5)
      try {
        for (const { name, raw } of replies) {
          expect(raw.byteLength, name).toBeLessThanOrEqual(1024 * 1024)
          const started = performance.now()
          const reply = await inbound(raw)
          const took = performance.now() - started
          expect([201, 400], `${name}: ${JSON.stringify(reply.json)}`).toContain(reply.status)
          // Well under a second on an idle machine; bounded by the parse budget (5 s) plus the rest under load.
          expect(took, name).toBeLessThan(10_000)
        }
      } finally {
        clearInterval(beat)
      }
      // Only the linear quote cut runs on the event loop: tens of ms when idle, above a second seen on a loaded
      // CI machine (PGlite's statements run on this loop too); a quadratic cut of 1 MiB would stall for minutes.
      expect(stall).toBeLessThan(3_000)
      console.log(`hostile replies: longest event-loop stall ${Math.round(stall)} ms`)
      // The ones that parsed are stored, each cut to what stands above its quotes.
      const { json } = await api("GET", `/responses/${responseId}`)
      expect(json.replies.length).toBeGreaterThan(0)
    })

    it("a message over the inbound limit is 413 with {error}; NULs and 70,000 References are no 500", async () => {
      const { responseId } = await caseWithResponse()
      const { mail } = await sendFromCase(responseId, "Anything else?")
      const tooLarge = await inbound(
        mime({ From: "ada@example.com", To: tokenAddress(mail), Subject: "big" }, "x".repeat(1024 * 1024))
      )
      expect(tooLarge.status).toBe(413)
      expect(tooLarge.json.error).toMatch(/too large/)
      const nul = await inbound(
        mime(
          {
            From: "ada@example.com",
            To: tokenAddress(mail),
            Subject: "=?utf-8?q?nul=00here?=",
            "Message-ID": "<nul=00@example.com>",
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Transfer-Encoding": "quoted-printable"
          },
          "before=00after"
        )
      )
      expect(nul.status, JSON.stringify(nul.json)).toBe(201)
      const references = Array.from({ length: 70_000 }, (_, i) => `<r${i}@x>`).join(" ")
      const threaded = await inbound(
        mime(
          {
            From: "ada@example.com",
            To: "support@example.com",
            Subject: "Re: thread",
            References: `${references} ${String(mail.parsed.messageId)}`,
            "Content-Type": "text/plain"
          },
          "still here"
        )
      )
      expect(threaded.status, JSON.stringify(threaded.json)).toBe(201)
      expect(threaded.json.responseId).toBe(responseId)
      const { json } = await api("GET", `/responses/${responseId}`)
      expect(json.replies.map((r: { subject: string; text: string }) => [r.subject, r.text])).toEqual([
        ["nulhere", "beforeafter"],
        ["Re: thread", "still here"]
      ])
    })

    it("an e-mail's delivery is no webhook delivery: retrying it by the API or MCP is 404 and sends nothing twice", async () => {
      const { responseId } = await caseWithResponse()
      const { item } = await sendFromCase(responseId, "Once only")
      await waitFor(async () => {
        const { json } = await api("GET", `/responses/${responseId}`)
        return json.emails.find((e: { id: number; status: string }) => e.id === item.id && e.status === "sent")
      })
      const before = smtp.received.length
      const mcp = async (deliveryId: number) => {
        const response = await qforms.handler(
          new Request(`${appUrl}/mcp`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${ownerKey}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream"
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "tools/call",
              params: { name: "retry_delivery", arguments: { deliveryId } }
            })
          })
        )
        const text = await response.text()
        return { status: response.status, text }
      }
      // Its delivery id is not shown anywhere; no webhook exists here, so every delivery so far is an e-mail's.
      for (let deliveryId = 1; deliveryId <= 120; deliveryId++) {
        const retried = await api("POST", `/webhooks/deliveries/${deliveryId}/retry`)
        expect(retried.status, `delivery ${deliveryId}`).toBe(404)
        expect(retried.json.error).toMatch(/not found/)
        const called = await mcp(deliveryId)
        expect(called.status, called.text).toBe(200)
        expect(called.text, `delivery ${deliveryId}`).toMatch(/not found/)
        expect(called.text).not.toMatch(/internal/)
      }
      // A later e-mail arrives; nothing was sent again before it.
      await sendFromCase(responseId, "The next one")
      expect(smtp.received.slice(before).map((m) => m.parsed.text?.trim())).toEqual(["The next one"])
    })

    it("a forged or unknown token is refused and nothing is stored", async () => {
      const { responseId } = await caseWithResponse()
      const { mail } = await sendFromCase(responseId, "Hello")
      const genuine = tokenAddress(mail)
      const forged = genuine.replace(/\.([0-9a-f])/, (_, c: string) => `.${c === "0" ? "1" : "0"}`)
      const otherResponse = genuine.replace(`+${responseId}.`, `+${responseId + 1}.`)
      for (const to of [forged, otherResponse]) {
        const reply = await inbound(
          mime({ From: "mallory@example.com", To: to, Subject: "Re: x", "Content-Type": "text/plain" }, "hi")
        )
        expect(reply.status, to).toBe(404)
        expect(reply.json.error).toMatch(/forged/)
      }
      const unmatched = await inbound(
        mime({ From: "x@example.com", To: "support@example.com", Subject: "hello" }, "hi")
      )
      expect(unmatched.status).toBe(404)
      expect((await inbound("")).status).toBe(400)
      expect((await api("GET", `/responses/${responseId}`)).json.replies).toEqual([])
    })

    it("confirmation settings: defaults, validation, workspace scope", async () => {
      const form = await api("POST", "/forms", { title: "Settings" })
      const formId = form.json.id
      const read = await api("GET", `/forms/${formId}/confirmation`)
      expect(read.status).toBe(200)
      expect(read.json.enabled).toBe(false)
      expect(
        (await api("PUT", `/forms/${formId}/confirmation`, { enabled: true, subject: "a\nb", body: "x" })).status
      ).toBe(400)
      expect((await otherApi("GET", `/forms/${formId}/confirmation`)).status).toBe(404)
      expect(
        (await otherApi("PUT", `/forms/${formId}/confirmation`, { enabled: true, subject: "s", body: "b" })).status
      ).toBe(404)
      expect(
        (await viewerApi("PUT", `/forms/${formId}/confirmation`, { enabled: true, subject: "s", body: "b" })).status
      ).toBe(403)
    })

    it("the OpenAPI document describes the emails and replies items", async () => {
      const document = (await (await qforms.handler(new Request(`${appUrl}/api/openapi.json`))).json()) as {
        components: { schemas: Record<string, { properties: Record<string, unknown>; required?: Array<string> }> }
      }
      const { ResponseEmail, ResponseReply } = document.components.schemas
      expect(Object.keys(ResponseEmail!.properties).sort()).toEqual([
        "clicks",
        "id",
        "openedAt",
        "opens",
        "sentAt",
        "status",
        "subject",
        "text",
        "to"
      ])
      expect(Object.keys(ResponseReply!.properties).sort()).toEqual([
        "files",
        "from",
        "id",
        "receivedAt",
        "subject",
        "text"
      ])
      expect(JSON.stringify(document.components.schemas.ResponseDetail)).toContain("#/components/schemas/ResponseEmail")
    })

    it("tracking off for the workspace: no pixel, links untouched", async () => {
      const { responseId } = await caseWithResponse()
      expect((await viewerApi("PUT", "/email/settings", { tracking: false, reopenOnReply: true })).status).toBe(403)
      expect((await api("PUT", "/email/settings", { tracking: false, reopenOnReply: true })).status).toBe(200)
      const { mail } = await sendFromCase(responseId, "See https://example.com/plain")
      expect(hrefs(String(mail.parsed.html))).toEqual(["https://example.com/plain"])
      expect(String(mail.parsed.html)).not.toContain("<img")
      expect((await otherApi("GET", "/email/settings")).json).toEqual({ tracking: true, reopenOnReply: true })
      await api("PUT", "/email/settings", { tracking: true, reopenOnReply: true })
    })
  })
}

describe("respondent e-mails without e-mail configured", () => {
  let qforms: Qforms.Qforms
  let api: Api
  beforeAll(async () => {
    qforms = await Qforms.make({
      database: {},
      rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
      delivery: { worker: false }
    })
    api = apiOf(qforms, (await workspace(qforms, "nomail")).owner)
  })
  afterAll(() => qforms?.dispose())

  it("sending answers 409 and queues nothing; a confirmation is not queued; inbound is 404", async () => {
    const form = await api("POST", "/forms", {
      title: "F",
      fields: [{ type: "email", label: "Email", required: true }]
    })
    const formId = form.json.id
    const fieldId = (await api("GET", `/forms/${formId}`)).json.fields[0].id
    // Switching the confirmation on would send nothing: refused like e-mails from the case; off is fine.
    expect(
      await api("PUT", `/forms/${formId}/confirmation`, { enabled: true, subject: "Thanks", body: "{{answers}}" })
    ).toEqual({ status: 409, json: { error: "e-mail is not configured" } })
    expect(
      (await api("PUT", `/forms/${formId}/confirmation`, { enabled: false, subject: "Thanks", body: "{{answers}}" }))
        .status
    ).toBe(200)
    expect((await api("GET", `/forms/${formId}/confirmation`)).json.enabled).toBe(false)
    await api("PATCH", `/forms/${formId}`, { status: "published" })
    const submitted = await api("POST", `/forms/${formId}/responses`, { values: { [fieldId]: "ada@example.com" } })
    expect(submitted.status).toBe(201)
    const sent = await api("POST", `/responses/${submitted.json.id}/emails`, { subject: "Hi", body: "Hello" })
    expect(sent).toEqual({ status: 409, json: { error: "e-mail is not configured" } })
    const detail = (await api("GET", `/responses/${submitted.json.id}`)).json
    expect(detail.emails).toEqual([])
    expect(detail.activities.map((a: { type: string }) => a.type)).toEqual(["created"])
    const response = await qforms.handler(
      new Request("http://x.test/inbound/email", { method: "POST", body: "From: a@b.c\r\n\r\nhi" })
    )
    expect(response.status).toBe(404)
  })
})

/** hoodiecrow-imap (CommonJS, untyped): an in-memory IMAP server for one user, `testuser`/`testpass`. */
interface ImapServer {
  readonly server: { address: () => AddressInfo }
  listen: (port: number, host: string, done: () => void) => void
  close: (done: () => void) => void
}
const hoodiecrow = createRequire(import.meta.url)("hoodiecrow-imap") as (options: object) => ImapServer

describe("replies fetched from an IMAP mailbox (QFORMS_IMAP_URL)", () => {
  let imap: ImapServer
  let imapUrl: string
  let smtp: Awaited<ReturnType<typeof smtpSink>>
  let qforms: Qforms.Qforms
  let api: Api

  const mailbox = async <A>(use: (client: ImapFlow) => Promise<A>) => {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port: imap.server.address().port,
      secure: false,
      auth: { user: "testuser", pass: "testpass" },
      logger: false
    })
    await client.connect()
    try {
      return await use(client)
    } finally {
      await client.logout()
    }
  }

  beforeAll(async () => {
    imap = hoodiecrow({
      plugins: ["ID", "UNSELECT", "ENABLE", "LITERALPLUS", "UIDPLUS", "SPECIAL-USE", "IDLE"],
      storage: { INBOX: { messages: [] } }
    })
    await new Promise<void>((resolve) => imap.listen(0, "127.0.0.1", resolve))
    imapUrl = `imap://testuser:testpass@127.0.0.1:${imap.server.address().port}/INBOX`
    smtp = await smtpSink()
    qforms = await Qforms.make({
      database: {},
      appUrl,
      rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
      delivery: { schedule: [0, 50], timeoutMs: 2_000, pollIntervalMs: 200 },
      mail: {
        url: smtp.url,
        from: "Support <support@example.com>",
        inboundAddress: "reply+{token}@in.example.com",
        inboundMaxBytes: 900_000,
        imap: { url: imapUrl, intervalMs: 100 }
      }
    })
    api = apiOf(qforms, (await workspace(qforms, "imap")).owner)
  })

  afterAll(async () => {
    await qforms?.dispose()
    await smtp?.close()
    await new Promise<void>((resolve) => (imap ? imap.close(resolve) : resolve()))
  })

  it("a reply in the mailbox is stored like an inbound post; every message taken is marked seen", async () => {
    const form = await api("POST", "/forms", {
      title: "Imap",
      fields: [{ type: "email", label: "Email", required: true }]
    })
    const fieldId = (await api("GET", `/forms/${form.json.id}`)).json.fields[0].id
    await api("PATCH", `/forms/${form.json.id}`, { status: "published" })
    const responseId = (
      await api("POST", `/forms/${form.json.id}/responses`, { values: { [fieldId]: "ada@example.com" } })
    ).json.id
    expect(
      (await api("POST", `/responses/${responseId}/emails`, { subject: "Question", body: "Which plan?" })).status
    ).toBe(201)
    const sent = await waitFor(() => smtp.received[0])
    await mailbox(async (client) => {
      await client.append(
        "INBOX",
        mime(
          { From: "ada@example.com", To: tokenAddress(sent), Subject: "Re: Question" },
          "The big one.\n\n> Which plan?"
        )
      )
      await client.append(
        "INBOX",
        mime({ From: "spam@example.com", To: "support@example.com", Subject: "Offer" }, "Buy now")
      )
    })
    const detail = await waitFor(async () => {
      const { json } = await api("GET", `/responses/${responseId}`)
      return json.replies.length > 0 ? json : undefined
    })
    expect(detail.replies).toEqual([
      expect.objectContaining({ from: "ada@example.com", subject: "Re: Question", text: "The big one." })
    ])
    const unseen = await waitFor(() =>
      mailbox(async (client) => {
        const lock = await client.getMailboxLock("INBOX")
        try {
          const left = await client.search({ seen: false }, { uid: true })
          return left !== false && left !== undefined && left.length === 0 ? left : undefined
        } finally {
          lock.release()
        }
      })
    )
    expect(unseen).toEqual([])
    // Taken once: later polls find nothing new.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await api("GET", `/responses/${responseId}`)).json.replies).toHaveLength(1)
  })

  it("no poison message: NULs and 70,000 References are stored, one over the size limit is skipped; all marked seen", async () => {
    const form = await api("POST", "/forms", {
      title: "Poison",
      fields: [{ type: "email", label: "Email", required: true }]
    })
    const fieldId = (await api("GET", `/forms/${form.json.id}`)).json.fields[0].id
    await api("PATCH", `/forms/${form.json.id}`, { status: "published" })
    const responseId = (
      await api("POST", `/forms/${form.json.id}/responses`, { values: { [fieldId]: "bob@example.com" } })
    ).json.id
    const before = smtp.received.length
    expect(
      (await api("POST", `/responses/${responseId}/emails`, { subject: "Question", body: "Which size?" })).status
    ).toBe(201)
    const sent = await waitFor(() => smtp.received[before])
    const to = tokenAddress(sent)
    const references = Array.from({ length: 70_000 }, (_, i) => `<r${i}@x>`).join(" ")
    await mailbox(async (client) => {
      await client.append(
        "INBOX",
        mime(
          {
            From: "bob@example.com",
            To: to,
            Subject: "Re: nul",
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Transfer-Encoding": "quoted-printable"
          },
          "Small=00."
        )
      )
      await client.append(
        "INBOX",
        mime(
          {
            From: "bob@example.com",
            To: "support@example.com",
            Subject: "Re: thread",
            References: `${references} ${String(sent.parsed.messageId)}`
          },
          "Medium."
        )
      )
      await client.append("INBOX", mime({ From: "bob@example.com", To: to, Subject: "Re: big" }, "x".repeat(1_000_000)))
    })
    const unseen = await waitFor(() =>
      mailbox(async (client) => {
        const lock = await client.getMailboxLock("INBOX")
        try {
          const left = await client.search({ seen: false }, { uid: true })
          return left !== false && left !== undefined && left.length === 0 ? left : undefined
        } finally {
          lock.release()
        }
      })
    )
    expect(unseen).toEqual([])
    const { json } = await api("GET", `/responses/${responseId}`)
    expect(json.replies.map((r: { subject: string; text: string }) => [r.subject, r.text])).toEqual([
      ["Re: nul", "Small."],
      ["Re: thread", "Medium."]
    ])
  })
})

describe("stripQuoted on hostile text", () => {
  const MiB = 1024 * 1024
  it.each(adversarialBodies(MiB).map(({ body, name }) => [name, body] as const))(
    "1 MiB of %s in well under a second",
    (_, body) => {
      // CPU time, not wall time: the machine is shared. Tens of ms when idle (it was hours for the quote lines).
      const started = process.cpuUsage()
      stripQuoted(body)
      const used = process.cpuUsage(started)
      expect((used.user + used.system) / 1_000).toBeLessThan(500)
    }
  )

  it("is linear: four times the input takes about four times the time, not sixteen", () => {
    // The best of several runs in CPU time, and a ratio of 4 against 16, so that a loaded machine
    // (other test files, the collector) cannot make a linear parser look quadratic.
    const fastest = (body: string) => {
      let best = Infinity
      for (let run = 0; run < 7; run++) {
        const started = process.cpuUsage()
        stripQuoted(body)
        const used = process.cpuUsage(started)
        best = Math.min(best, (used.user + used.system) / 1_000)
      }
      return best
    }
    for (const { body, name } of adversarialBodies(MiB)) {
      const quarter = fastest(body.slice(body.length * 0.75))
      const full = fastest(body)
      expect(full / Math.max(quarter, 0.5), name).toBeLessThan(8)
    }
  })
})

describe("stripQuoted", () => {
  it.each([
    ["Thanks!\n\nOn Mon, 1 Jan 2026 at 10:00, Forms <f@example.com> wrote:\n> Hello", "Thanks!"],
    ["Yes.\n\n-----Original Message-----\nFrom: Forms\nSent: Monday", "Yes."],
    ["Ok\n\nFrom: Forms <f@example.com>\nSent: Monday\nSubject: x", "Ok"],
    ["Fine\n\nSent from my iPhone", "Fine"],
    ["Merci\n\nLe lun. 1 juin 2026 à 10:00, Forms <f@example.com> a écrit :\n> Bonjour", "Merci"],
    ["Top\n> quoted\n> more", "Top"],
    ["Inline > not a quote\nsecond line", "Inline > not a quote\nsecond line"],
    ["Hi\n-- \nAda", "Hi"]
  ])("%j", (input, expected) => {
    expect(stripQuoted(input)).toBe(expected)
  })
})
