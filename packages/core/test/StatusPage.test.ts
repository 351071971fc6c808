/**
 * The respondent's status page end to end: a real qforms (Qforms.make, with
 * its delivery worker and a real SMTP server on loopback), status links issued
 * and revoked through the API, the page and its replies through the HTTP
 * handler. On PGlite always, on PostgreSQL too when QFORMS_TEST_DATABASE_URL
 * is set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"
import { waitFor } from "@qforms/test-kit/Conditions"
import { smtpSink } from "@qforms/test-kit/SmtpSink"

const appUrl = "http://qforms.test"
const inboundMaxBytes = 64 * 1024

for (const target of databaseTargets) {
  describe(`status page on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let api: Api
    let viewerApi: Api
    let otherApi: Api

    const get = async (path: string) => {
      const response = await qforms.handler(new Request(`${appUrl}${path}`))
      return { status: response.status, headers: response.headers, text: await response.text() }
    }
    const post = async (path: string, body: URLSearchParams | FormData, headers: Record<string, string> = {}) => {
      const response = await qforms.handler(
        new Request(`${appUrl}${path}`, {
          method: "POST",
          headers: { "sec-fetch-site": "same-origin", ...headers },
          body
        })
      )
      return { status: response.status, headers: response.headers, text: await response.text() }
    }
    const pathOf = (url: string) => new URL(url).pathname

    /** A published form with an e-mail question and a response from `email`; its status link's path. */
    const caseOf = async (api: Api, title: string, email: string, confirmation?: string) => {
      const form = await api("POST", "/forms", {
        title,
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true }
        ]
      })
      const formId = form.json.id as number
      const { json: full } = await api("GET", `/forms/${formId}`)
      const [name, address] = full.fields as Array<{ id: number }>
      if (confirmation !== undefined) {
        const put = await api("PUT", `/forms/${formId}/confirmation`, {
          enabled: true,
          subject: "Thanks",
          body: confirmation
        })
        expect(put.status).toBe(200)
      }
      await api("PATCH", `/forms/${formId}`, { status: "published" })
      const submitted = await api("POST", `/forms/${formId}/responses`, {
        values: { [name!.id]: "Ada", [address!.id]: email }
      })
      expect(submitted.status).toBe(201)
      const responseId = submitted.json.id as number
      return { formId, responseId }
    }
    const linkOf = async (api: Api, responseId: number) => {
      const issued = await api("POST", `/responses/${responseId}/status-link`)
      expect(issued.status).toBe(201)
      expect(issued.json.url).toMatch(/^http:\/\/qforms\.test\/s\/[A-Za-z0-9_-]{43}$/)
      return pathOf(issued.json.url)
    }

    beforeAll(async () => {
      smtp = await smtpSink()
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl,
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        publicPage: { submissionRateLimit: { requestsPerSecond: 1_000, burst: 1_000 } },
        delivery: { schedule: [0, 50, 100, 150], timeoutMs: 2_000, pollIntervalMs: 200, allowPrivateTargets: true },
        mail: { url: smtp.url, from: "Support <support@example.com>", inboundMaxBytes }
      })
      const mine = await workspace(qforms, "status")
      const other = await workspace(qforms, "status-elsewhere")
      api = apiOf(qforms, mine.owner)
      viewerApi = apiOf(qforms, mine.viewer)
      otherApi = apiOf(qforms, other.owner)
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
      await smtp?.close()
    })

    it("a link opens the page with the page's headers; a new link or a revocation ends the old one; unknown is 404", async () => {
      const { responseId } = await caseOf(api, "Visa request", "ada@example.com")
      const first = await linkOf(api, responseId)
      const page = await get(first)
      expect(page.status).toBe(200)
      expect(page.text).toContain("Visa request")
      expect(page.text).toContain("Received")
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
      expect(page.headers.get("cache-control")).toBe("no-store")
      expect(page.headers.get("referrer-policy")).toBe("no-referrer")

      const second = await linkOf(api, responseId)
      expect(second).not.toBe(first)
      const replaced = await get(first)
      expect(replaced.status).toBe(404)
      expect((await get(second)).status).toBe(200)

      expect((await api("DELETE", `/responses/${responseId}/status-link`)).status).toBe(204)
      // Each is on the case's timeline (newest first); a second revocation, with no live link, is not.
      expect((await api("DELETE", `/responses/${responseId}/status-link`)).status).toBe(204)
      const timeline = (await api("GET", `/responses/${responseId}`)).json.activities as Array<{
        type: string
        payload: object
        actor: { type: string }
      }>
      expect(timeline.filter((a) => a.type.startsWith("status_link")).map((a) => [a.type, a.payload])).toEqual([
        ["status_link_revoked", {}],
        ["status_link_issued", { replaced: true }],
        ["status_link_issued", { replaced: false }]
      ])
      expect(timeline.find((a) => a.type === "status_link_revoked")?.actor.type).toBe("member")
      const revoked = await get(second)
      const unknown = await get(`/s/${"A".repeat(43)}`)
      const malformed = await get("/s/short")
      expect([revoked.status, unknown.status, malformed.status]).toEqual([404, 404, 404])
      // No hint whether a link ever existed: the same page.
      expect(revoked.text.replace(/nonce-?="?[^"\s;]+/g, "")).toBe(unknown.text.replace(/nonce-?="?[^"\s;]+/g, ""))
      // A revoked link's reply is refused too, and nothing is stored.
      const refused = await post(second, new URLSearchParams({ text: "still there?" }))
      expect(refused.status).toBe(404)
      expect((await api("GET", `/responses/${responseId}`)).json.replies).toEqual([])
    })

    it("only the team of the response's workspace issues or revokes its link; a viewer may not", async () => {
      const { responseId } = await caseOf(api, "Rights", "ada@example.com")
      expect((await otherApi("POST", `/responses/${responseId}/status-link`)).status).toBe(404)
      expect((await otherApi("DELETE", `/responses/${responseId}/status-link`)).status).toBe(404)
      expect((await viewerApi("POST", `/responses/${responseId}/status-link`)).status).toBe(403)
      expect((await viewerApi("DELETE", `/responses/${responseId}/status-link`)).status).toBe(403)
      expect((await api("POST", "/responses/99999999/status-link")).status).toBe(404)
    })

    it("the stage's public name shows, a stage without one says received; the thread shows e-mails, never notes", async () => {
      const { formId, responseId } = await caseOf(api, "Support", "ada@example.com")
      const path = await linkOf(api, responseId)
      const created = await api("POST", `/forms/${formId}/stages`, {
        name: "Triage (internal)",
        publicName: "Being reviewed"
      })
      expect(created.status).toBe(201)
      expect(created.json.publicName).toBe("Being reviewed")
      await api("PATCH", `/responses/${responseId}`, { stageId: created.json.id })
      const sent = await api("POST", `/responses/${responseId}/emails`, {
        subject: "We need a scan",
        body: "Please send a scan of your passport."
      })
      expect(sent.status).toBe(201)
      await api("POST", `/responses/${responseId}/notes`, { text: "SECRET NOTE: looks fishy" })
      const page = await get(path)
      expect(page.text).toContain("Being reviewed")
      expect(page.text).not.toContain("Triage (internal)")
      expect(page.text).toContain("We need a scan")
      expect(page.text).toContain("Please send a scan of your passport.")
      expect(page.text).not.toContain("SECRET NOTE")

      const renamed = await api("PATCH", `/stages/${created.json.id}`, { publicName: null })
      expect(renamed.json.publicName).toBeNull()
      const hidden = await get(path)
      expect(hidden.text).toContain("Received")
      expect(hidden.text).not.toContain("Being reviewed")
    })

    it("respondent A's link never shows B's case, in one workspace or another", async () => {
      const a = await caseOf(api, "Shared form A", "a@example.com")
      const b = await caseOf(api, "Shared form B", "b@example.com")
      const c = await caseOf(otherApi, "Elsewhere C", "c@example.com")
      await api("POST", `/responses/${b.responseId}/emails`, { subject: "For B only", body: "B's private matter" })
      await otherApi("POST", `/responses/${c.responseId}/emails`, { subject: "For C only", body: "C's private matter" })
      const pathA = await linkOf(api, a.responseId)
      const pageA = await get(pathA)
      expect(pageA.text).toContain("Shared form A")
      for (const foreign of ["Shared form B", "For B only", "B's private matter", "Elsewhere C", "For C only"]) {
        expect(pageA.text).not.toContain(foreign)
      }
      const replied = await post(pathA, new URLSearchParams({ text: "A writes" }))
      expect(replied.status).toBe(303)
      expect((await api("GET", `/responses/${b.responseId}`)).json.replies).toEqual([])
      expect((await otherApi("GET", `/responses/${c.responseId}`)).json.replies).toEqual([])
      expect((await api("GET", `/responses/${a.responseId}`)).json.replies).toHaveLength(1)
    })

    it("a reply is stored as an e-mail reply: in the thread, with its activity and attachments; the page redirects", async () => {
      const { responseId } = await caseOf(api, "Replies", "ada@example.com")
      const path = await linkOf(api, responseId)
      const plain = await post(path, new URLSearchParams({ text: "  Here is my answer.  " }))
      expect(plain.status).toBe(303)
      expect(plain.headers.get("location")).toMatch(/^[A-Za-z0-9_-]{43}\?sent=1$/)
      const after = await get(`${path}?sent=1`)
      expect(after.text).toContain("your message was sent")
      expect(after.text).toContain("Here is my answer.")

      const form = new FormData()
      form.append("text", "And the scan.")
      form.append(
        "files",
        new Blob([new Uint8Array([37, 80, 68, 70, 1, 2, 3])], { type: "application/pdf" }),
        "scan.pdf"
      )
      const withFile = await post(path, form)
      expect(withFile.status).toBe(303)

      const { json: detail } = await api("GET", `/responses/${responseId}`)
      expect(detail.replies).toHaveLength(2)
      expect(detail.replies[0]).toMatchObject({ from: "ada@example.com", text: "Here is my answer.", files: [] })
      expect(detail.replies[1]).toMatchObject({
        text: "And the scan.",
        files: [{ name: "scan.pdf", size: 7, type: "application/pdf" }]
      })
      expect(detail.activities.filter((a: { type: string }) => a.type === "email_reply")).toHaveLength(2)
      expect((await get(path)).text).toContain("scan.pdf")

      const empty = await post(path, new URLSearchParams({ text: "   " }))
      expect(empty.status).toBe(400)
      expect((await api("GET", `/responses/${responseId}`)).json.replies).toHaveLength(2)
    })

    it("a post from another site is refused and stores nothing", async () => {
      const { responseId } = await caseOf(api, "Forgery", "ada@example.com")
      const path = await linkOf(api, responseId)
      const crossSite = await post(path, new URLSearchParams({ text: "forged" }), { "sec-fetch-site": "cross-site" })
      expect(crossSite.status).toBe(403)
      const otherOrigin = await qforms.handler(
        new Request(`${appUrl}${path}`, {
          method: "POST",
          headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
          body: "text=forged"
        })
      )
      expect(otherOrigin.status).toBe(403)
      expect((await api("GET", `/responses/${responseId}`)).json.replies).toEqual([])
    })

    it("a body over the inbound limit or too many files is 413; a text too long is refused; nothing is stored", async () => {
      const { responseId } = await caseOf(api, "Limits", "ada@example.com")
      const path = await linkOf(api, responseId)
      const big = new FormData()
      big.append("text", "big")
      big.append("files", new Blob([new Uint8Array(inboundMaxBytes + 1)]), "big.bin")
      expect((await post(path, big)).status).toBe(413)
      const many = new FormData()
      many.append("text", "many")
      for (let i = 0; i < 6; i++) many.append("files", new Blob([new Uint8Array([i + 1])]), `f${i}.bin`)
      expect((await post(path, many)).status).toBe(413)
      const long = await post(path, new URLSearchParams({ text: "x".repeat(20_001) }))
      expect(long.status).toBe(413)
      expect((await api("GET", `/responses/${responseId}`)).json.replies).toEqual([])
    })

    it("the confirmation's {{statusLink}} is a working link to the page", async () => {
      const before = smtp.received.length
      const { responseId } = await caseOf(api, "Confirmed", "ada@example.com", "Follow your request: {{statusLink}}")
      const mail = await waitFor(() => smtp.received[before])
      const url = /http:\/\/qforms\.test\/s\/[A-Za-z0-9_-]{43}/.exec(String(mail.parsed.text))?.[0]
      expect(url).toBeDefined()
      const page = await get(pathOf(url!))
      expect(page.status).toBe(200)
      expect(page.text).toContain("Confirmed")
      // A link issued by the team replaces it.
      await linkOf(api, responseId)
      expect((await get(pathOf(url!))).status).toBe(404)
    })
  })
}
