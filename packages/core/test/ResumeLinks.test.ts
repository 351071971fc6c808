/**
 * Save and resume across devices by e-mail (issue #28), over HTTP on both
 * databases: a respondent of the public page asks for a link under a
 * question, the e-mail arrives at a real SMTP server, and the link opened
 * with a fresh cookie jar goes on at the question where they stopped, with
 * the earlier answers kept; finishing gives one response. A link works once,
 * not after it expired, not on another form; unknown and malformed ones are
 * 404 pages; only the token's SHA-256 is stored; a partial response and a
 * mailbox get few links, and the answer says "sent" either way.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { waitFor } from "@qforms/test-kit/Conditions"
import { databaseTargets } from "@qforms/test-kit/Databases"
import {
  answer,
  api,
  createForm,
  getPage,
  hidden,
  listResponses,
  postStep,
  seedWorkspace
} from "@qforms/test-kit/PublicForms"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const appUrl = "http://qforms.test"

for (const target of databaseTargets) {
  describe(`resume links on ${target.name}`, () => {
    let server: TestServer
    let key: string
    let smtp: Awaited<ReturnType<typeof smtpSink>>

    beforeAll(async () => {
      smtp = await smtpSink()
      server = await startTestServer(target, {
        appUrl,
        mail: { url: smtp.url, from: "Forms <forms@example.com>" },
        delivery: { worker: true, pollIntervalMs: 200 },
        publicPage: {
          minSubmitSeconds: 0,
          partialResponsesPerAddressPerHour: 1000,
          submissionRateLimit: { requestsPerSecond: 100, burst: 1000 },
          stepRateLimit: { requestsPerSecond: 100, burst: 1000 }
        }
      })
      key = (await seedWorkspace(server)).key
    })

    afterAll(async () => {
      await server?.close()
      await smtp?.close()
    })

    const sql = <A>(query: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      server.run(
        Effect.gen(function* () {
          return yield* query(yield* SqlClient.SqlClient)
        })
      )

    /** A published form of three questions: Name (required), City, Note. */
    const threeQuestions = async (title = "Moving house", language?: string) => {
      const form = await createForm(server, key, {
        title,
        ...(language === undefined ? {} : { settings: { language } }),
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "short_text", label: "City" },
          { type: "long_text", label: "Note" }
        ]
      })
      const [name, city, note] = form.fields
      return {
        publicId: form.publicId as string,
        formId: form.id as number,
        name: name!.id,
        city: city!.id,
        note: note!.id
      }
    }

    /** Starts the form and answers the first question: the page of the second, with the answer saved. */
    const answerFirst = async (publicId: string, name: string) => {
      const welcome = await getPage(server, `/f/${publicId}`)
      const first = await answer(server, publicId, welcome.text, [], "start")
      const second = await answer(server, publicId, first.text, [name])
      expect(second.status).toBe(200)
      return second.text
    }

    /** Asks for a link from a page (its answer token) for an address. */
    const askForLink = async (publicId: string, page: string, email: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}/f/${publicId}/resume-link`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ token: hidden(page, "token"), email }).toString()
      })
      return { status: response.status, text: await response.text(), headers: response.headers }
    }

    /** The path of the resume link in the next e-mail to `to`. */
    const linkFromMail = async (to: string, before: number) => {
      const mail = await waitFor(() => smtp.received.slice(before).find((m) => m.to.includes(to)))
      const text = String(mail.parsed.text)
      const match = /http:\/\/qforms\.test(\/f\/[^/\s]+\/resume\/[A-Za-z0-9_-]{43})/.exec(text)
      expect(match, text).not.toBeNull()
      return { path: match![1]!, mail }
    }

    const openLink = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { redirect: "manual", headers })

    const resumeLinkMails = (responseId: number) =>
      sql((q) =>
        q<{ readonly n: number }>`select count(*)::int as n from response_emails
          where response_id = ${responseId} and kind = 'resume_link'`.pipe(Effect.map((rows) => rows[0]!.n))
      )

    const partialOf = (formId: number) =>
      sql((q) =>
        q<{
          readonly id: number
        }>`select id from responses where form_id = ${formId} and not finished order by id`.pipe(
          Effect.map((rows) => rows.map((r) => r.id))
        )
      )

    it("a link by e-mail goes on in another browser at the question where the respondent stopped", async () => {
      const form = await threeQuestions()
      const second = await answerFirst(form.publicId, "Ada Lovelace")
      expect(hidden(second, "at")).toBe(String(form.city))
      expect(second).toContain("Email me a link to continue")
      expect(second).toContain(`action="${form.publicId}/resume-link"`)

      const before = smtp.received.length
      const asked = await askForLink(form.publicId, second, "ada@example.com")
      expect(asked.status).toBe(200)
      expect(asked.text).toContain("Check your e-mail")
      // Without the script the document is at /f/{publicId}/resume-link: its way back is relative to that.
      expect(asked.text).toContain(`href="../${form.publicId}?continue=1"`)
      const { path, mail } = await linkFromMail("ada@example.com", before)
      expect(mail.parsed.subject).toBe("Continue your answers: Moving house")
      const token = path.split("/").at(-1)!

      // Only the token's SHA-256 is stored, bound to the partial response; it expires in 7 days.
      const [partial] = await partialOf(form.formId)
      const rows = await sql(
        (q) =>
          q<{ readonly token_hash: string; readonly response_id: number; readonly days: number }>`
          select token_hash, response_id, extract(epoch from (expires_at - created_at)) / 86400 as days
          from response_resume_links where response_id = ${partial!}`
      )
      expect(rows).toHaveLength(1)
      expect(rows[0]!.token_hash).toBe(createHash("sha256").update(token).digest("hex"))
      expect(Number(rows[0]!.days)).toBe(7)

      // Another browser: no cookie. The link sets this browser's resume cookie and goes on at City.
      const opened = await openLink(path)
      expect(opened.status).toBe(303)
      expect(opened.headers.get("location")).toBe(`../../${form.publicId}?continue=1`)
      expect(opened.headers.get("cache-control")).toBe("no-store")
      const cookie = /^(qf_[^=]+=[^;]+)/.exec(opened.headers.get("set-cookie") ?? "")?.[1]
      expect(cookie).toBeDefined()
      const continued = await getPage(server, `/f/${form.publicId}?continue=1`, { cookie: cookie! })
      expect(continued.status).toBe(200)
      expect(hidden(continued.text, "at")).toBe(String(form.city))

      // Back shows the earlier answer; then on to the end: one response with every answer.
      const back = await answer(server, form.publicId, continued.text, ["Paris"], "back")
      expect(hidden(back.text, "at")).toBe(String(form.name))
      expect(back.text).toContain('value="Ada Lovelace"')
      const city = await answer(server, form.publicId, back.text, ["Ada Lovelace"])
      const note = await answer(server, form.publicId, city.text, ["Paris"])
      expect(hidden(note.text, "at")).toBe(String(form.note))
      const thanks = await answer(server, form.publicId, note.text, ["Boxes on Monday"])
      expect(thanks.status).toBe(200)
      const responses = await listResponses(server, key, form.formId)
      expect(responses).toHaveLength(1)
      expect(responses[0]!.id).toBe(partial)
      expect(responses[0]!.values).toMatchObject({
        [form.name]: "Ada Lovelace",
        [form.city]: "Paris",
        [form.note]: "Boxes on Monday"
      })
      expect(await partialOf(form.formId)).toEqual([])

      // A second use is refused.
      const again = await openLink(path)
      expect(again.status).toBe(410)
      expect(await again.text()).toContain("This link no longer works")
    })

    it("on a form with an access code, the link goes on without the code, until the code changes", async () => {
      const form = await threeQuestions("Members only")
      expect(
        (await api(server, key, "PATCH", `/forms/${form.formId}`, { settings: { accessCode: "Summer-2026" } })).status
      ).toBe(200)
      const access = await getPage(server, `/f/${form.publicId}`)
      expect(hidden(access.text, "at")).toBe("access")
      const welcome = await postStep(server, form.publicId, [
        ["token", hidden(access.text, "token")],
        ["at", "access"],
        ["website", ""],
        ["a", "summer-2026"],
        ["move", "next"]
      ])
      expect(welcome.text).toContain(">Start<")
      const first = await answer(server, form.publicId, welcome.text, [], "start")
      const second = await answer(server, form.publicId, first.text, ["Ada Lovelace"])
      expect(hidden(second.text, "at")).toBe(String(form.city))

      // Two links asked while the code holds.
      let before = smtp.received.length
      expect((await askForLink(form.publicId, second.text, "ada@example.com")).status).toBe(200)
      const { path: firstLink } = await linkFromMail("ada@example.com", before)
      before = smtp.received.length
      expect((await askForLink(form.publicId, second.text, "ada@example.com")).status).toBe(200)
      const { path: secondLink } = await linkFromMail("ada@example.com", before)

      // Another browser goes on at City without typing the code.
      const opened = await openLink(firstLink)
      expect(opened.status).toBe(303)
      const cookie = /^(qf_[^=]+=[^;]+)/.exec(opened.headers.get("set-cookie") ?? "")?.[1]
      const continued = await getPage(server, `/f/${form.publicId}?continue=1`, { cookie: cookie! })
      expect(continued.status).toBe(200)
      expect(hidden(continued.text, "at")).toBe(String(form.city))

      // Once the code changed, the other link's browser is asked for the new one, with the answers kept.
      expect(
        (await api(server, key, "PATCH", `/forms/${form.formId}`, { settings: { accessCode: "Autumn-2026" } })).status
      ).toBe(200)
      const reopened = await openLink(secondLink)
      expect(reopened.status).toBe(303)
      const stale = /^(qf_[^=]+=[^;]+)/.exec(reopened.headers.get("set-cookie") ?? "")?.[1]
      const asked = await getPage(server, `/f/${form.publicId}?continue=1`, { cookie: stale! })
      expect(hidden(asked.text, "at")).toBe("access")
      const back = await postStep(
        server,
        form.publicId,
        [
          ["token", hidden(asked.text, "token")],
          ["at", "access"],
          ["website", ""],
          ["a", "autumn-2026"],
          ["move", "next"]
        ],
        { cookie: stale! }
      )
      expect(back.status).toBe(200)
      const name = await answer(server, form.publicId, back.text, [], "start")
      expect(name.text).toContain('value="Ada Lovelace"')
    })

    it("speaks the form's language: the offer, the e-mail and the refusals (German, Arabic)", async () => {
      const form = await threeQuestions("Umzug", "de")
      const second = await answerFirst(form.publicId, "Anna")
      expect(second).toContain("Link zum Fortfahren per E-Mail senden")
      const before = smtp.received.length
      const asked = await askForLink(form.publicId, second, "anna@example.com")
      expect(asked.text).toContain("Sehen Sie in Ihr Postfach")
      const { path, mail } = await linkFromMail("anna@example.com", before)
      expect(mail.parsed.subject).toBe("Setzen Sie Ihre Antworten fort: Umzug")
      expect(String(mail.parsed.text)).toContain("7 Tage lang")
      expect((await openLink(path)).status).toBe(303)
      const used = await openLink(path)
      expect(used.status).toBe(410)
      expect(await used.text()).toContain("Dieser Link funktioniert nicht mehr")

      const arabic = await threeQuestions("انتقال", "ar")
      const unknown = await openLink(`/f/${arabic.publicId}/resume/${"B".repeat(43)}`)
      expect(unknown.status).toBe(404)
      const page = await unknown.text()
      expect(page).toContain('dir="rtl"')
      expect(page).toContain("الرابط غير موجود")
    })

    it("a link used once is gone even for the same browser; an expired one is refused", async () => {
      const form = await threeQuestions("Expiring")
      const second = await answerFirst(form.publicId, "Grace Hopper")
      const before = smtp.received.length
      expect((await askForLink(form.publicId, second, "grace@example.com")).status).toBe(200)
      const first = await linkFromMail("grace@example.com", before)
      expect((await askForLink(form.publicId, second, "grace@example.com")).status).toBe(200)
      const mails = await waitFor(() => {
        const sent = smtp.received.slice(before).filter((m) => m.to.includes("grace@example.com"))
        return sent.length === 2 ? sent : undefined
      })
      const secondPath = /\/f\/[^/\s]+\/resume\/[A-Za-z0-9_-]{43}/.exec(String(mails[1]!.parsed.text))![0]
      expect(secondPath).not.toBe(first.path)

      expect((await openLink(first.path)).status).toBe(303)
      expect((await openLink(first.path)).status).toBe(410)

      const secondHash = createHash("sha256").update(secondPath.split("/").at(-1)!).digest("hex")
      await sql(
        (q) => q`update response_resume_links set expires_at = now() - interval '1 minute'
        where token_hash = ${secondHash}`
      )
      const expired = await openLink(secondPath)
      expect(expired.status).toBe(410)
      expect(await expired.text()).toContain("works only once and for 7 days")
    })

    it("another form's link, an unknown and a malformed one are 404 pages, and leave the link working", async () => {
      const form = await threeQuestions("Own form")
      const other = await threeQuestions("Other form")
      const second = await answerFirst(form.publicId, "Alan Turing")
      const before = smtp.received.length
      expect((await askForLink(form.publicId, second, "alan@example.com")).status).toBe(200)
      const { path } = await linkFromMail("alan@example.com", before)
      const token = path.split("/").at(-1)!

      const elsewhere = await openLink(`/f/${other.publicId}/resume/${token}`)
      expect(elsewhere.status).toBe(404)
      expect(await elsewhere.text()).toContain("Link not found")
      const unknown = await openLink(`/f/${form.publicId}/resume/${"A".repeat(43)}`)
      expect(unknown.status).toBe(404)
      expect((await openLink(`/f/${form.publicId}/resume/short`)).status).toBe(404)

      // None of these used it up.
      expect((await openLink(path)).status).toBe(303)
    })

    it("an address that is not one is a 400 page naming it; nothing to continue before an answer", async () => {
      const form = await threeQuestions("Checks")
      const second = await answerFirst(form.publicId, "Edsger")
      const bad = await askForLink(form.publicId, second, "not an address")
      expect(bad.status).toBe(400)
      expect(bad.text).toContain("Enter an e-mail address such as name@example.com.")
      expect(bad.text).toContain('value="not an address"')
      expect(bad.text).toContain(`action="../${form.publicId}/resume-link"`)

      // The first question's page has nothing saved yet: no offer, and a request is refused.
      const welcome = await getPage(server, `/f/${form.publicId}`)
      const first = await answer(server, form.publicId, welcome.text, [], "start")
      expect(first.text).not.toContain("resume-link")
      const early = await askForLink(form.publicId, first.text, "edsger@example.com")
      expect(early.status).toBe(400)
      expect(early.text).toContain("Answer a question first")

      const forged = await fetch(`${server.url}/f/${form.publicId}/resume-link`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: "forged", email: "x@example.com" }).toString()
      })
      expect(forged.status).toBe(400)
    })

    it("a partial response and a mailbox get few links; the answer is 'sent' all the same", async () => {
      const form = await threeQuestions("Limits")
      const page = await answerFirst(form.publicId, "Barbara")
      const [partial] = await partialOf(form.formId)
      for (let i = 0; i < 5; i++) {
        const asked = await askForLink(form.publicId, page, `barbara${i}@example.com`)
        expect(asked.status).toBe(200)
        expect(asked.text).toContain("Check your e-mail")
      }
      expect(await resumeLinkMails(partial!)).toBe(3)

      // One mailbox, asked from several respondents' partial responses.
      const pages = await Promise.all(["P1", "P2", "P3", "P4"].map((n) => answerFirst(form.publicId, n)))
      for (const p of pages) expect((await askForLink(form.publicId, p, "Target@Example.com")).status).toBe(200)
      const sent = await sql((q) =>
        q<{ readonly n: number }>`select count(*)::int as n from response_emails
          where kind = 'resume_link' and lower(to_address) = 'target@example.com'`.pipe(Effect.map((r) => r[0]!.n))
      )
      expect(sent).toBe(3)
    })

    it("the script's post gets the same page (its <main> is what it shows); JSON is refused", async () => {
      const form = await threeQuestions("Scripted")
      const second = await answerFirst(form.publicId, "Katherine")
      const asked = await askForLink(form.publicId, second, "katherine@example.com", { "x-qforms-page": "1" })
      expect(asked.status).toBe(200)
      expect(asked.text).toContain('id="qf"')
      expect(asked.text).toContain(`href="${form.publicId}?continue=1"`)
      // The device that asked keeps its partial response too.
      expect(asked.headers.get("set-cookie")).toMatch(/^qf_/)
      const json = await fetch(`${server.url}/f/${form.publicId}/resume-link`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}"
      })
      expect(json.status).toBe(415)
    })
  })
}
