/**
 * The respondent changes their answers from their status page
 * (`/s/{token}/edit`, `cases/StatusEdits.ts`): within the form's
 * `editableForHours` only, checked as a submission (logic, messages,
 * variables), stored with one activity by the respondent and one
 * `response.updated` event; refused outside the window, with editing off,
 * for a merged-away response, across sites; a token reaches only its own
 * response. Through the HTTP handler of a real qforms, on PGlite always and
 * on PostgreSQL too when QFORMS_TEST_DATABASE_URL is set.
 */
import * as Effect from "effect/Effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"

const appUrl = "http://qforms.test"

for (const target of databaseTargets) {
  describe(`status edits on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let api: Api

    const query = <A extends object>(text: string, ...params: Array<unknown>) =>
      qforms.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text, params as Array<never>))) as Promise<
        ReadonlyArray<A>
      >
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await qforms.handler(new Request(`${appUrl}${path}`, { headers }))
      return { status: response.status, headers: response.headers, text: await response.text() }
    }
    const post = async (path: string, body: URLSearchParams, headers: Record<string, string> = {}) => {
      const response = await qforms.handler(
        new Request(`${appUrl}${path}`, {
          method: "POST",
          headers: { "sec-fetch-site": "same-origin", ...headers },
          body
        })
      )
      return { status: response.status, headers: response.headers, text: await response.text() }
    }
    /** The edit page's post: each question shown, with its answer. */
    const answers = (values: Record<string, string>) => {
      const body = new URLSearchParams()
      for (const [id, value] of Object.entries(values)) {
        body.append("shown", id)
        body.append(`q${id}`, value)
      }
      return body
    }

    interface Case {
      readonly formId: number
      readonly responseId: number
      readonly link: string
      readonly ids: { name: string; email: string; topic: string; order: string; comment: string }
    }

    /**
     * A published form (Name, Email, Topic with points, an order number asked only for a refund, a comment,
     * a file) with `settings`, and a response with its status link.
     */
    const caseOf = async (settings: Record<string, unknown>, name = "Ada"): Promise<Case> => {
      const form = await api("POST", "/forms", {
        title: "Support request",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true },
          {
            type: "select",
            label: "Topic",
            required: true,
            options: { choices: ["Billing", "Refund"], points: { Billing: 1, Refund: 5 } }
          },
          { type: "short_text", label: "Order number", required: true },
          { type: "long_text", label: "Comment" },
          { type: "file", label: "Receipt" }
        ],
        settings
      })
      expect(form.status, JSON.stringify(form.json)).toBe(201)
      const formId = form.json.id as number
      const { json: full } = await api("GET", `/forms/${formId}`)
      const fields = full.fields as Array<Record<string, unknown> & { id: number }>
      const [name_, email, topic, order, comment] = fields.map((f) => String(f.id))
      // The order number is asked only for a refund.
      const patched = await api("PATCH", `/forms/${formId}`, {
        status: "published",
        fields: fields.map(({ position: _, ...f }) =>
          String(f.id) === order ? { ...f, showIf: { field: Number(topic), equals: "Refund" } } : f
        )
      })
      expect(patched.status, JSON.stringify(patched.json)).toBe(200)
      const submitted = await api("POST", `/forms/${formId}/responses`, {
        values: { [name_!]: name, [email!]: "ada@example.com", [topic!]: "Billing", [comment!]: "first" }
      })
      expect(submitted.status, JSON.stringify(submitted.json)).toBe(201)
      const responseId = submitted.json.id as number
      const issued = await api("POST", `/responses/${responseId}/status-link`)
      expect(issued.status).toBe(201)
      return {
        formId,
        responseId,
        link: new URL(issued.json.url as string).pathname,
        ids: { name: name_!, email: email!, topic: topic!, order: order!, comment: comment! }
      }
    }
    const valuesOf = async (responseId: number) =>
      (await api("GET", `/responses/${responseId}`)).json.response.values as Record<string, unknown>
    const activitiesOf = (responseId: number) =>
      query<{ type: string; actor: { type: string }; payload: Record<string, unknown> }>(
        "select type, actor, payload from activities where response_id = $1 and type = 'answers_changed' order by id",
        responseId
      )
    const updatedEvents = (responseId: number) =>
      query<{ payload: { changes: Array<{ question: string; from: string | null; to: string | null }> } }>(
        "select payload from events where response_id = $1 and type = 'response.updated' order by id",
        responseId
      )

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl,
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        publicPage: { submissionRateLimit: { requestsPerSecond: 1_000, burst: 1_000 } },
        delivery: { worker: false }
      })
      const mine = await workspace(qforms, "edits")
      api = apiOf(qforms, mine.owner)
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("within the window: the link, the page filled in, logic and checks, then one activity and one event", async () => {
      const c = await caseOf({ editableForHours: 24 })
      const status = await get(c.link)
      expect(status.status).toBe(200)
      expect(status.text).toContain(`href="${c.link.slice(3)}/edit"`)
      expect(status.text).toContain("Change your answers")

      const page = await get(`${c.link}/edit`)
      expect(page.status).toBe(200)
      expect(page.text).toContain(`name="q${c.ids.name}" type="text" value="Ada"`)
      expect(page.text).toContain("first")
      // The order number is not asked for Billing; the file question is kept, not shown.
      expect(page.text).not.toContain(`name="q${c.ids.order}"`)
      expect(page.text).not.toContain("Receipt")
      expect(page.text).toContain("Files, signatures and consent are kept")
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")

      // Refund now asks for the order number: refused with its message, what was typed kept.
      const refused = await post(
        `${c.link}/edit`,
        answers({ [c.ids.name]: "Grace", [c.ids.email]: "ada@example.com", [c.ids.topic]: "Refund" })
      )
      expect(refused.status).toBe(400)
      expect(refused.text).toMatch(/Order number&(quot|#34);? is required|Order number" is required/)
      expect(refused.text).toContain(`name="q${c.ids.order}"`)
      expect(refused.text).toContain(`value="Grace"`)
      // A wrong e-mail address: the same message as the public page.
      const badEmail = await post(
        `${c.link}/edit`,
        answers({ [c.ids.name]: "Grace", [c.ids.email]: "not-an-address", [c.ids.topic]: "Billing" })
      )
      expect(badEmail.status).toBe(400)
      expect(badEmail.text).toContain("must be an email address")
      expect(badEmail.text).toContain(`value="not-an-address"`)
      expect((await valuesOf(c.responseId))[c.ids.name]).toBe("Ada")
      expect(await activitiesOf(c.responseId)).toHaveLength(0)

      const saved = await post(
        `${c.link}/edit`,
        answers({
          [c.ids.name]: "Grace",
          [c.ids.email]: "ada@example.com",
          [c.ids.topic]: "Refund",
          [c.ids.order]: "A-17",
          [c.ids.comment]: ""
        })
      )
      expect(saved.status, saved.text).toBe(303)
      expect(saved.headers.get("location")).toBe(`../${c.link.slice(3)}?edited=1`)
      const values = await valuesOf(c.responseId)
      expect(values[c.ids.name]).toBe("Grace")
      expect(values[c.ids.order]).toBe("A-17")
      expect(values[c.ids.comment]).toBeUndefined()
      expect(values["var:score"]).toBe(5)
      const activities = await activitiesOf(c.responseId)
      expect(activities).toHaveLength(1)
      expect(activities[0]!.actor.type).toBe("respondent")
      expect(activities[0]!.payload["questions"]).toEqual(["Name", "Topic", "Order number", "Comment"])
      const events = await updatedEvents(c.responseId)
      expect(events).toHaveLength(1)
      expect(events[0]!.payload.changes.map((change) => [change.question, change.from, change.to])).toEqual([
        ["Name", "Ada", "Grace"],
        ["Topic", "Billing", "Refund"],
        ["Order number", null, "A-17"],
        ["Comment", "first", null]
      ])
      const after = await get(`${c.link}?edited=1`)
      expect(after.text).toContain("Your answers were saved.")

      // The same answers again: nothing changes, nothing is written.
      const again = await post(
        `${c.link}/edit`,
        answers({
          [c.ids.name]: "Grace",
          [c.ids.email]: "ada@example.com",
          [c.ids.topic]: "Refund",
          [c.ids.order]: "A-17"
        })
      )
      expect(again.status).toBe(303)
      expect(again.headers.get("location")).toBe(`../${c.link.slice(3)}?edited=0`)
      expect(await activitiesOf(c.responseId)).toHaveLength(1)
      expect(await updatedEvents(c.responseId)).toHaveLength(1)
    })

    it("an edit keeps to the form's limits: no second response of an address, no place past a full choice (#52)", async () => {
      const form = await api("POST", "/forms", {
        title: "Seats",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true },
          {
            type: "select",
            label: "Seat",
            required: true,
            options: { choices: ["Front", "Back"], quotas: { Front: 1 } }
          }
        ],
        settings: { editableForHours: 24, oneResponsePerEmail: true }
      })
      expect(form.status, JSON.stringify(form.json)).toBe(201)
      const formId = form.json.id as number
      expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const [name, email, seat] = ((await api("GET", `/forms/${formId}`)).json.fields as Array<{ id: number }>).map(
        (field) => String(field.id)
      )
      const submit = async (who: string, address: string, place: string) => {
        const made = await api("POST", `/forms/${formId}/responses`, {
          values: { [name!]: who, [email!]: address, [seat!]: place }
        })
        expect(made.status, JSON.stringify(made.json)).toBe(201)
        return made.json.id as number
      }
      const ada = await submit("Ada", "ada@example.com", "Front")
      const grace = await submit("Grace", "grace@example.com", "Back")
      const link = new URL((await api("POST", `/responses/${grace}/status-link`)).json.url as string).pathname

      // The respondent on their status page: Ada's address, then the full Front seat, each refused.
      const takesAddress = await post(
        `${link}/edit`,
        answers({ [name!]: "Grace", [email!]: "ADA@example.com", [seat!]: "Back" })
      )
      expect(takesAddress.status).toBe(400)
      expect(takesAddress.text).toContain("a response with this e-mail address was already submitted to this form")
      const takesSeat = await post(
        `${link}/edit`,
        answers({ [name!]: "Grace", [email!]: "grace@example.com", [seat!]: "Front" })
      )
      expect(takesSeat.status).toBe(400)
      expect(takesSeat.text).toContain("&quot;Seat&quot;: &quot;Front&quot; is full")
      // A member's edit of the answers: the same limits, 400 naming the question.
      const memberEdit = await api("PATCH", `/responses/${grace}`, { answers: { [seat!]: "Front" } })
      expect(memberEdit.status).toBe(400)
      expect(memberEdit.json.error).toContain('"Seat": "Front" is full')
      expect(memberEdit.json.details).toEqual([{ path: `answers.${seat}`, message: '"Seat": "Front" is full' }])
      const memberAddress = await api("PATCH", `/responses/${grace}`, { answers: { [email!]: "ada@example.com" } })
      expect(memberAddress.status).toBe(400)
      expect(memberAddress.json.details[0].path).toBe(`answers.${email}`)
      expect(await valuesOf(grace)).toMatchObject({ [email!]: "grace@example.com", [seat!]: "Back" })

      // What a response already holds stays its own: its address in other letters, its full seat, another answer.
      const own = await api("PATCH", `/responses/${ada}`, {
        answers: { [name!]: "Ada L.", [email!]: "Ada@Example.com" }
      })
      expect(own.status, JSON.stringify(own.json)).toBe(200)
      expect(await valuesOf(ada)).toMatchObject({ [name!]: "Ada L.", [seat!]: "Front" })
      // A place freed is free: Ada moves back, then Grace takes the front.
      expect((await api("PATCH", `/responses/${ada}`, { answers: { [seat!]: "Back" } })).status).toBe(200)
      const moved = await post(
        `${link}/edit`,
        answers({ [name!]: "Grace", [email!]: "grace@example.com", [seat!]: "Front" })
      )
      expect(moved.status, moved.text).toBe(303)
      expect((await valuesOf(grace))[seat!]).toBe("Front")
    })

    it("outside the window, or with editing off: no link, 403 in the form's language, nothing stored", async () => {
      const late = await caseOf({ editableForHours: 2 })
      await query(
        "update responses set submitted_at = submitted_at - interval '3 hours' where id = $1",
        late.responseId
      )
      const off = await caseOf({})
      const german = await caseOf({ language: "de", editableForHours: 1 })
      await query(
        "update responses set submitted_at = submitted_at - interval '61 minutes' where id = $1",
        german.responseId
      )
      for (const c of [late, off, german]) {
        const status = await get(c.link)
        expect(status.status).toBe(200)
        expect(status.text).not.toContain("/edit")
        const page = await get(`${c.link}/edit`)
        expect(page.status).toBe(403)
        const posted = await post(`${c.link}/edit`, answers({ [c.ids.name]: "Mallory" }))
        expect(posted.status).toBe(403)
        expect((await valuesOf(c.responseId))[c.ids.name]).toBe("Ada")
        expect(await activitiesOf(c.responseId)).toHaveLength(0)
      }
      expect((await get(`${late.link}/edit`)).text).toContain("Answers can no longer be changed")
      expect((await get(`${german.link}/edit`)).text).toContain("Antworten können nicht mehr geändert werden")
    })

    it("speaks the form's language, messages included", async () => {
      const c = await caseOf({ language: "de", editableForHours: 5 })
      expect((await get(c.link)).text).toContain("Antworten ändern")
      const page = await get(`${c.link}/edit`)
      expect(page.text).toContain('lang="de"')
      const refused = await post(`${c.link}/edit`, answers({ [c.ids.name]: "", [c.ids.topic]: "Billing" }))
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("ist erforderlich")
    })

    it("a token reaches only its own response: another's questions are ignored, another response is untouched", async () => {
      const a = await caseOf({ editableForHours: 24 }, "Ada")
      const b = await caseOf({ editableForHours: 24 }, "Bea")
      // B's question ids posted to A's page: not A's form's questions, so nothing of B changes.
      const cross = await post(`${a.link}/edit`, answers({ [b.ids.name]: "Mallory", [a.ids.name]: "Ada" }))
      expect(cross.status).toBe(303)
      expect(cross.headers.get("location")).toContain("edited=0")
      expect((await valuesOf(b.responseId))[b.ids.name]).toBe("Bea")
      expect(await activitiesOf(b.responseId)).toHaveLength(0)
      // A second response of the same form: A's token changes A only.
      const submitted = await api("POST", `/forms/${a.formId}/responses`, {
        values: { [a.ids.name]: "Cy", [a.ids.email]: "cy@example.com", [a.ids.topic]: "Billing" }
      })
      const sameForm = submitted.json.id as number
      const own = await post(
        `${a.link}/edit`,
        answers({ [a.ids.name]: "Ada L.", [a.ids.email]: "ada@example.com", [a.ids.topic]: "Billing" })
      )
      expect(own.status).toBe(303)
      expect((await valuesOf(a.responseId))[a.ids.name]).toBe("Ada L.")
      expect((await valuesOf(sameForm))[a.ids.name]).toBe("Cy")
    })

    it("a revoked or unknown token is the 404 page; a merged-away response cannot be changed", async () => {
      const revoked = await caseOf({ editableForHours: 24 })
      expect((await api("DELETE", `/responses/${revoked.responseId}/status-link`)).status).toBe(204)
      expect((await get(`${revoked.link}/edit`)).status).toBe(404)
      expect((await post(`${revoked.link}/edit`, answers({ [revoked.ids.name]: "Mallory" }))).status).toBe(404)
      expect((await get(`/s/${"A".repeat(43)}/edit`)).status).toBe(404)
      expect((await valuesOf(revoked.responseId))[revoked.ids.name]).toBe("Ada")

      const duplicate = await caseOf({ editableForHours: 24 })
      const kept = await api("POST", `/forms/${duplicate.formId}/responses`, {
        values: {
          [duplicate.ids.name]: "Ada",
          [duplicate.ids.email]: "ada@example.com",
          [duplicate.ids.topic]: "Billing"
        }
      })
      const merged = await api("POST", `/responses/${kept.json.id}/merge`, { duplicateId: duplicate.responseId })
      expect(merged.status, JSON.stringify(merged.json)).toBe(200)
      expect((await get(duplicate.link)).text).not.toContain("/edit")
      expect((await get(`${duplicate.link}/edit`)).status).toBe(403)
      const posted = await post(
        `${duplicate.link}/edit`,
        answers({
          [duplicate.ids.name]: "Mallory",
          [duplicate.ids.email]: "ada@example.com",
          [duplicate.ids.topic]: "Billing"
        })
      )
      expect(posted.status).toBe(403)
      expect(await activitiesOf(duplicate.responseId)).toHaveLength(0)
    })

    it("a post from another site is refused, by Sec-Fetch-Site or by Origin", async () => {
      const c = await caseOf({ editableForHours: 24 })
      const body = () =>
        answers({ [c.ids.name]: "Mallory", [c.ids.email]: "ada@example.com", [c.ids.topic]: "Billing" })
      const crossSite = await post(`${c.link}/edit`, body(), { "sec-fetch-site": "cross-site" })
      expect(crossSite.status).toBe(403)
      const response = await qforms.handler(
        new Request(`${appUrl}${c.link}/edit`, {
          method: "POST",
          headers: { origin: "https://evil.example", host: "qforms.test" },
          body: body()
        })
      )
      expect(response.status).toBe(403)
      expect((await valuesOf(c.responseId))[c.ids.name]).toBe("Ada")
      expect(await activitiesOf(c.responseId)).toHaveLength(0)
    })
  })
}
