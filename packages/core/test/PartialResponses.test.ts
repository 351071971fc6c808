/**
 * Partial responses of the public page over HTTP, on both databases: a row
 * only once the respondent has given a real answer (not for the Start step,
 * an empty optional answer, a statement or hidden fields alone), one row per
 * respondent however many steps, new rows limited per client address (the
 * submission still goes through), the address taken from `X-Forwarded-For`
 * behind trusted proxies; and "the answer wins": the name the respondent
 * typed is the response's, the contact's and the event's, never an earlier
 * contact's with the same e-mail (API, page without and with JavaScript).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type * as PublicPage from "../src/pages/PublicPage.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import {
  answer,
  api,
  createForm,
  getPage,
  hidden,
  postJson,
  type Reply,
  seedWorkspace,
  tokenOf
} from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** Rows of a form's responses straight from the database (finished or not). */
const rowsOf = (server: TestServer, formId: number) =>
  server.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ readonly id: number; readonly finished: boolean; readonly name: string | null }>`
      select id, finished, name from responses where form_id = ${formId} order by id`
    })
  )

/** The respondent named by each `response.created` event of a form. */
const eventNames = (server: TestServer, formId: number) =>
  server.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{
        readonly payload: unknown
      }>`select payload from events where form_id = ${formId} and type = 'response.created' order by id`
      return rows.map((row) => {
        const payload = (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as {
          respondent: { name: string | null }
        }
        return payload.respondent.name
      })
    })
  )

/** The stored name of the workspace's contact with this e-mail. */
const contactName = (server: TestServer, email: string) =>
  server.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{
        readonly name: string | null
      }>`select name from contacts where lower(email) = lower(${email})`
      return rows[0]?.name
    })
  )

/** A step as the page's script posts it: multipart, with its marker header. */
const answerWithScript = async (
  server: TestServer,
  publicId: string,
  html: string,
  answers: ReadonlyArray<string>,
  action: "next" | "start" = "next",
  headers: Record<string, string> = {}
): Promise<Reply> => {
  const data = new FormData()
  data.append("token", tokenOf(html))
  data.append("at", hidden(html, "at"))
  data.append("website", "")
  for (const a of answers) data.append("a", a)
  data.append("move", action)
  const response = await fetch(`${server.url}/f/${publicId}`, {
    method: "POST",
    body: data,
    headers: { "x-qforms-page": "1", ...headers }
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: undefined }
}

const lenient: PublicPage.PublicPageOptions = {
  minSubmitSeconds: 0,
  submissionRateLimit: { requestsPerSecond: 100, burst: 1000 },
  stepRateLimit: { requestsPerSecond: 100, burst: 1000 }
}

for (const target of databaseTargets) {
  describe(`partial responses on ${target.name}`, () => {
    let server: TestServer
    let key: string

    beforeAll(async () => {
      server = await startTestServer(target, { publicPage: lenient })
      key = (await seedWorkspace(server)).key
    })
    afterAll(async () => {
      await server?.close()
    })

    /** A statement, an optional comment, a required e-mail and a last question; a hidden `ref`. */
    const feedbackForm = async (on: TestServer = server, onKey: string = key) => {
      const form = await createForm(on, onKey, {
        title: "Feedback",
        fields: [
          { type: "statement", label: "Thanks for coming" },
          { type: "short_text", label: "Comment" },
          { type: "email", label: "Email", required: true },
          { type: "long_text", label: "Anything else?" }
        ]
      })
      const patched = await api(on, onKey, "PATCH", `/forms/${form.id}`, {
        hiddenFields: [{ name: "ref" }]
      })
      if (patched.status !== 200) throw new Error(`hidden fields not set: ${patched.text}`)
      return form
    }

    it("the Start step, a statement, an empty optional answer and hidden fields create no row; a real answer creates one", async () => {
      const form = await feedbackForm()
      for (const js of [false, true]) {
        const step = js ? answerWithScript : answer
        const welcome = await getPage(server, `/f/${form.publicId}?ref=campaign`)
        let page = await step(server, form.publicId, welcome.text, [], "start")
        expect(page.status).toBe(200)
        // The statement, then the optional comment left empty.
        page = await step(server, form.publicId, page.text, [])
        expect(hidden(page.text, "at")).toBe(String(form.fields[1]!.id))
        page = await step(server, form.publicId, page.text, ["   "])
        expect(hidden(page.text, "at")).toBe(String(form.fields[2]!.id))
        expect(await rowsOf(server, form.id)).toEqual([])
        expect(page.headers.get("set-cookie")).toBeNull()
        // A real answer: exactly one partial row, which later steps update.
        page = await step(server, form.publicId, page.text, ["ada@example.com"])
        expect(hidden(page.text, "at")).toBe(String(form.fields[3]!.id))
        const rows = await rowsOf(server, form.id)
        expect(rows).toHaveLength(1)
        expect(rows[0]!.finished).toBe(false)
        const done = await step(server, form.publicId, page.text, ["fine"])
        expect(done.text).toContain("Thank you!")
        const after = await rowsOf(server, form.id)
        expect(after).toEqual([{ ...rows[0]!, finished: true }])
        await server.run(
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            yield* sql`delete from responses where form_id = ${form.id}`
          })
        )
      }
    })

    it("response.partial is opt-in: written at the first real answer (with it alone) only while a subscription names it", async () => {
      const form = await feedbackForm()
      const partialEvents = () =>
        server.run(
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ readonly payload: unknown }>`
              select payload from events where form_id = ${form.id} and type = 'response.partial' order by seq`
            return rows.map((row) => (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload))
          })
        )
      const startAnswering = async () => {
        const welcome = await getPage(server, `/f/${form.publicId}`)
        let page = await answer(server, form.publicId, welcome.text, [], "start")
        page = await answer(server, form.publicId, page.text, [])
        page = await answer(server, form.publicId, page.text, ["Nice"])
        return answer(server, form.publicId, page.text, ["ada@example.com"])
      }
      await startAnswering()
      expect(await rowsOf(server, form.id)).toHaveLength(1)
      expect(await partialEvents()).toEqual([])
      const subscribed = await api(server, key, "POST", "/webhooks/subscribe", {
        formId: form.id,
        event: "response.created",
        events: ["response.created", "response.partial"],
        targetUrl: "https://hooks.example.com/partial"
      })
      expect(subscribed.status, subscribed.text).toBe(201)
      const page = await startAnswering()
      const rows = await rowsOf(server, form.id)
      expect(rows).toHaveLength(2)
      const events = await partialEvents()
      expect(events).toEqual([
        {
          event: "response.partial",
          form: { id: form.id, title: "Feedback" },
          responseId: rows[1]!.id,
          submittedAt: null,
          stage: null,
          respondent: { name: null, email: null },
          answers: { Comment: "Nice" },
          summary: expect.stringContaining("Nice"),
          startedAt: expect.any(String)
        }
      ])
      // Later steps and the submission write no more of it.
      const done = await answer(server, form.publicId, page.text, ["fine"])
      expect(done.text).toContain("Thank you!")
      expect(await partialEvents()).toHaveLength(1)
      expect((await api(server, key, "DELETE", `/webhooks/subscribe/${subscribed.body.id}`)).status).toBe(204)
      await startAnswering()
      expect(await partialEvents()).toHaveLength(1)
    })

    it("limits new partial rows per client address; the respondent still submits; trusted X-Forwarded-For gives the address", async () => {
      const limited = await startTestServer(target, {
        publicPage: { ...lenient, trustedProxyHops: 1, partialResponsesPerAddressPerHour: 2 }
      })
      try {
        const owner = (await seedWorkspace(limited)).key
        const form = await feedbackForm(limited, owner)
        const from = (address: string) => ({ "x-forwarded-for": `spoofed, ${address}` })
        /** One respondent from an address: up to the e-mail answered, then (optionally) submitted. */
        const respondent = async (address: string, submit: boolean) => {
          const welcome = await getPage(limited, `/f/${form.publicId}`)
          let page = await answerWithScript(limited, form.publicId, welcome.text, [], "start", from(address))
          page = await answerWithScript(limited, form.publicId, page.text, [], "next", from(address))
          page = await answerWithScript(limited, form.publicId, page.text, ["a comment"], "next", from(address))
          page = await answerWithScript(limited, form.publicId, page.text, ["ada@example.com"], "next", from(address))
          expect(hidden(page.text, "at")).toBe(String(form.fields[3]!.id))
          if (!submit) return
          const done = await answerWithScript(limited, form.publicId, page.text, ["last"], "next", from(address))
          expect(done.status).toBe(200)
          expect(done.text).toContain("Thank you!")
        }
        const partials = async () => (await rowsOf(limited, form.id)).filter((r) => !r.finished).length
        const finished = async () => (await rowsOf(limited, form.id)).filter((r) => r.finished).length
        await respondent("10.0.0.1", false)
        await respondent("10.0.0.1", false)
        expect(await partials()).toBe(2)
        // A third new row from that address is not saved; the respondent still reaches the last question...
        await respondent("10.0.0.1", false)
        expect(await partials()).toBe(2)
        // ...and can submit (the submission has its own limit).
        await respondent("10.0.0.1", true)
        expect(await partials()).toBe(2)
        expect(await finished()).toBe(1)
        // Another address (the last X-Forwarded-For entry, not the spoofed first one) has its own limit.
        await respondent("10.0.0.2", false)
        expect(await partials()).toBe(3)
      } finally {
        await limited.close()
      }
    })

    it("0 new partial rows per hour saves none; the form still submits", async () => {
      const none = await startTestServer(target, { publicPage: { ...lenient, partialResponsesPerAddressPerHour: 0 } })
      try {
        const owner = (await seedWorkspace(none)).key
        const form = await feedbackForm(none, owner)
        const welcome = await getPage(none, `/f/${form.publicId}`)
        let page = await answer(none, form.publicId, welcome.text, [], "start")
        page = await answer(none, form.publicId, page.text, [])
        page = await answer(none, form.publicId, page.text, ["a comment"])
        page = await answer(none, form.publicId, page.text, ["ada@example.com"])
        expect(await rowsOf(none, form.id)).toEqual([])
        const done = await answer(none, form.publicId, page.text, ["last"])
        expect(done.text).toContain("Thank you!")
        expect((await rowsOf(none, form.id)).map((r) => r.finished)).toEqual([true])
      } finally {
        await none.close()
      }
    })

    describe("the answer wins", () => {
      /** E-mail first, then the name (so the partial row exists before the name is typed), then a last question. */
      const contactForm = () =>
        createForm(server, key, {
          title: `Contact ${Math.random().toString(36).slice(2, 8)}`,
          fields: [
            { type: "email", label: "Email", required: true },
            { type: "short_text", label: "Name" },
            { type: "long_text", label: "Message" }
          ]
        })

      /** Answers the form on the page (with or without script): e-mail, name, message. */
      const onPage = async (publicId: string, js: boolean, email: string, name: string) => {
        const step = js ? answerWithScript : answer
        const welcome = await getPage(server, `/f/${publicId}`)
        let page = await step(server, publicId, welcome.text, [], "start")
        page = await step(server, publicId, page.text, [email])
        page = await step(server, publicId, page.text, [name])
        const done = await step(server, publicId, page.text, ["hello"])
        expect(done.text).toContain("Thank you!")
      }

      for (const way of ["api", "page", "page with script"] as const) {
        it(`through the ${way}: the typed name, not the earlier contact's`, async () => {
          const form = await contactForm()
          const [email, name, message] = form.fields.map((f) => String(f.id)) as [string, string, string]
          const address = `same-${way.replace(/ /g, "-")}@example.com`
          // An earlier response gave the contact a name.
          const first = await postJson(server, form.publicId, { values: { [email]: address, [name]: "Ada Lovelace" } })
          expect(first.status).toBe(201)
          expect(await contactName(server, address)).toBe("Ada Lovelace")
          // Now someone with the same e-mail types another name (in another case of the address).
          const upper = address.toUpperCase()
          if (way === "api") {
            const second = await postJson(server, form.publicId, {
              values: { [email]: upper, [name]: "Grace Hopper", [message]: "hello" }
            })
            expect(second.status).toBe(201)
          } else {
            await onPage(form.publicId, way === "page with script", upper, "Grace Hopper")
          }
          const rows = (await rowsOf(server, form.id)).filter((r) => r.finished)
          expect(rows.map((r) => r.name)).toEqual(["Ada Lovelace", "Grace Hopper"])
          const listed = await api(server, key, "GET", `/forms/${form.id}/responses`)
          expect(listed.body.responses.map((r: { name: string | null }) => r.name).sort()).toEqual([
            "Ada Lovelace",
            "Grace Hopper"
          ])
          expect((await eventNames(server, form.id)).sort()).toEqual(["Ada Lovelace", "Grace Hopper"])
          expect(await contactName(server, address)).toBe("Grace Hopper")
          // Without a typed name, the contact's name fills in (as documented).
          const third = await postJson(server, form.publicId, { values: { [email]: address } })
          expect(third.status).toBe(201)
          expect((await rowsOf(server, form.id)).at(-1)!.name).toBe("Grace Hopper")
        })
      }
    })
  })
}
