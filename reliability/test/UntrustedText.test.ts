/**
 * Scenario 10, untrusted text: hostile 1 MiB e-mail replies (long runs of `>`
 * lines, one long line, many signature markers, deeply nested quotes,
 * quote-header look-alikes, a huge header line, costly HTML) are posted to
 * the real standalone's `POST /inbound/email` while `/healthz` is polled
 * without pause. Each reply must be answered (no 5xx), and `/healthz` must
 * never wait more than a second: parsing runs off the event loop, under a
 * time budget, and the quoted-history cut is linear.
 */
import { afterAll, describe, expect, it } from "vitest"
import { adversarialReplies } from "@qforms/test-kit/AdversarialMail"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import {
  call,
  type ProcessDatabase,
  percentile,
  publishedForm,
  record,
  round,
  type ServerProcess,
  startFresh,
  targets,
  waitUntil
} from "./support/Harness.ts"

const secret = "reliability-inbound-secret"

describe("untrusted text: hostile 1 MiB replies against a live /healthz", () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  let smtp: Awaited<ReturnType<typeof smtpSink>> | undefined
  afterAll(async () => {
    await server?.stop()
    await db?.cleanup()
    await smtp?.close()
  })

  it("answers every hostile reply without a 5xx while /healthz keeps answering within a second", async () => {
    smtp = await smtpSink()
    db = targets[0]!.make()
    const started = await startFresh(db, {
      QFORMS_SMTP_URL: smtp.url,
      // E-mail needs an absolute appUrl; the server listens on a port chosen at start, and no link is followed here.
      APP_URL: "http://127.0.0.1",
      QFORMS_MAIL_FROM: "Forms <forms@example.com>",
      QFORMS_INBOUND_ADDRESS: "reply+{token}@in.example.com",
      QFORMS_INBOUND_SECRET: secret
    })
    server = started.server
    const { url, key } = started
    const form = await publishedForm(url, key)
    const submitted = await call(url, "POST", `/api/forms/${form.formId}/responses`, {
      key,
      body: { values: { [form.nameId]: "Ada", [form.emailId]: "ada@example.com" } }
    })
    expect(submitted.status).toBe(201)
    const sent = await call(url, "POST", `/api/responses/${submitted.body.id}/emails`, {
      key,
      body: { subject: "Your request", body: "Anything to add?" }
    })
    expect(sent.status).toBe(201)
    const mail = await waitUntil("the e-mail at the SMTP sink", () => smtp!.received[0])
    const replyTo = mail.parsed.replyTo?.value[0]?.address ?? ""
    expect(replyTo).toMatch(/^reply\+/)

    // /healthz polled back to back for the whole run.
    const health: Array<number> = []
    let polling = true
    const poller = (async () => {
      while (polling) {
        const answer = await call(url, "GET", "/healthz", { timeoutMs: 30_000 })
        health.push(answer.status === 200 ? answer.ms : Number.POSITIVE_INFINITY)
      }
    })()

    const posts: Array<{
      readonly name: string
      readonly status: number
      readonly ms: number
      readonly error: string
    }> = []
    for (const { name, raw } of adversarialReplies(replyTo, 1024 * 1024)) {
      const startedAt = performance.now()
      const response = await fetch(`${url}/inbound/email`, {
        method: "POST",
        headers: { "content-type": "message/rfc822", "x-qforms-inbound-secret": secret },
        body: raw,
        signal: AbortSignal.timeout(60_000)
      })
      const body = (await response.json()) as { readonly error?: string }
      posts.push({ name, status: response.status, ms: performance.now() - startedAt, error: body.error ?? "" })
    }
    polling = false
    await poller

    const maxHealth = Math.max(...health)
    record({
      scenario: "10 untrusted text",
      target: db.name,
      figures: {
        "hostile replies posted (1 MiB each)": posts.length,
        "answered 201 / 400": `${posts.filter((p) => p.status === 201).length} / ${posts.filter((p) => p.status === 400).length}`,
        "answered ≥ 500": posts.filter((p) => p.status >= 500).length,
        "slowest reply (ms)": round(Math.max(...posts.map((p) => p.ms))),
        "/healthz probes": health.length,
        "/healthz p50 (ms)": round(percentile(health, 50)),
        "/healthz max (ms)": round(maxHealth)
      },
      notes: posts.map(
        (p) => `${p.name}: ${p.status} in ${round(p.ms)} ms${p.error === "" ? "" : ` (${p.error.slice(0, 120)})`}`
      )
    })
    for (const post of posts) expect([201, 400], `${post.name}: ${post.error}`).toContain(post.status)
    expect(health.length).toBeGreaterThan(posts.length)
    expect(maxHealth).toBeLessThan(1_000)
  })
})
