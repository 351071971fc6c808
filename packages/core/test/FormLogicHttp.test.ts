/**
 * Form logic over HTTP, on both databases: logic checked when saved (400
 * naming the rule), the API submission following the path (answers to
 * skipped questions dropped, skipped required questions not required),
 * hidden fields in values, flat answers and CSV, and the page without
 * JavaScript: branching, recall, hidden fields from the URL, partial
 * responses (listed with `status=partial`, no event until submitted,
 * resumable, purged).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { maxConditionDepth } from "../src/forms/FormLogic.ts"
import { layerPartialPurger, Responses } from "../src/cases/Responses.ts"
import { waitFor } from "@qforms/test-kit/Conditions"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { answer, api, asInput, createForm, getPage, hidden, seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** The events about the form's responses (not those about the form itself, as its publication). */
const countEvents = (server: TestServer, formId: number) =>
  server.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly n: number }>`
        select count(*)::int as n from events where form_id = ${formId} and response_id is not null`
      return rows[0]!.n
    })
  )

for (const target of databaseTargets) {
  describe(`form logic over HTTP on ${target.name}`, () => {
    let server: TestServer
    let key: string

    beforeAll(async () => {
      server = await startTestServer(target, {
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 100, burst: 1000 } }
      })
      key = (await seedWorkspace(server)).key
    })
    afterAll(async () => {
      await server?.close()
    })

    /** A published form: plan (Free jumps to the last question, None ends), team size (only for Pro), a recall, hidden ref. */
    const planForm = async () => {
      const form = await createForm(server, key, {
        title: "Signup",
        fields: [
          { type: "select", label: "Plan", required: true, options: { choices: ["Free", "Pro", "None"] } },
          { type: "number", label: "Team size", required: true },
          { type: "short_text", label: "Why {{field:0}}?" },
          { type: "email", label: "Email for your {{hidden:ref}} plan", required: true }
        ]
      })
      const [plan, team, why, email] = form.fields.map((f) => f.id) as [number, number, number, number]
      const fields = form.fields.map(asInput)
      const patched = await api(server, key, "PATCH", `/forms/${form.id}`, {
        hiddenFields: [{ name: "ref" }],
        fields: [
          {
            ...fields[0],
            logic: [
              { if: { field: plan, equals: "Free" }, then: { jumpTo: email } },
              { if: { field: plan, equals: "None" }, then: { jumpTo: "end" } }
            ]
          },
          { ...fields[1], showIf: { field: plan, equals: "Pro" } },
          { ...fields[2], label: `Why {{field:${plan}}}?` },
          fields[3]
        ]
      })
      expect(patched.status, patched.text).toBe(200)
      return { form, plan, team, why, email }
    }

    it("shows hidden fields, logic and showIf in the form; refuses invalid logic with a 400 naming the rule", async () => {
      const { email, form, plan, team } = await planForm()
      const got = await api(server, key, "GET", `/forms/${form.id}`)
      expect(got.body.hiddenFields).toEqual([{ name: "ref" }])
      expect(got.body.fields[0].logic).toEqual([
        { if: { field: plan, equals: "Free" }, then: { jumpTo: email } },
        { if: { field: plan, equals: "None" }, then: { jumpTo: "end" } }
      ])
      expect(got.body.fields[1].showIf).toEqual({ field: plan, equals: "Pro" })
      expect(got.body.fields[3]).not.toHaveProperty("logic")
      const fields = (got.body.fields as ReadonlyArray<Record<string, unknown>>).map(asInput)
      const attempt = async (changed: ReadonlyArray<unknown>, extra: object = {}) =>
        api(server, key, "PATCH", `/forms/${form.id}`, { fields: changed, ...extra })
      const backward = await attempt([
        fields[0],
        { ...fields[1], logic: [{ if: { field: team, greaterThan: 5 }, then: { jumpTo: plan } }] },
        fields[2],
        fields[3]
      ])
      expect(backward.status).toBe(400)
      expect(backward.body.error).toContain("no-backward-jump")
      const later = await attempt([
        { ...fields[0], showIf: { field: team, isEmpty: true } },
        fields[1],
        fields[2],
        fields[3]
      ])
      expect(later.status).toBe(400)
      expect(later.body.error).toContain("no-later-question")
      const itself = await attempt([
        fields[0],
        { ...fields[1], logic: [{ if: { field: team, isEmpty: true }, then: { jumpTo: team } }] },
        fields[2],
        fields[3]
      ])
      expect(itself.status).toBe(400)
      expect(itself.body.error).toContain("no-cycle")
      const unknownHidden = await attempt([
        fields[0],
        { ...fields[1], showIf: { field: "hidden:campaign", equals: "x" } },
        fields[2],
        fields[3]
      ])
      expect(unknownHidden.status).toBe(400)
      expect(unknownHidden.body.error).toContain("no-unknown-hidden-field")
      // Dropping the question a rule jumps to, or the hidden field a condition reads.
      const dropped = await attempt([fields[0], fields[1], fields[2]])
      expect(dropped.status).toBe(400)
      expect(dropped.body.error).toContain("no-unknown-question")
      const noHidden = await api(server, key, "PATCH", `/forms/${form.id}`, { hiddenFields: [] })
      expect(noHidden.status).toBe(200) // nothing reads it: the recall in a label is not a condition
      const created = await api(server, key, "POST", "/forms", {
        title: "Bad",
        fields: [
          { type: "short_text", label: "A", logic: [{ if: { field: 1, isEmpty: true }, then: { jumpTo: 999999 } }] }
        ]
      })
      expect(created.status).toBe(400)
      expect(created.body.error).toContain("no-unknown-question")
      const malformed = await api(server, key, "PATCH", `/forms/${form.id}`, {
        fields: [
          { ...fields[0], logic: [{ if: { field: plan, equals: "x", contains: "y" }, then: { jumpTo: "end" } }] }
        ]
      })
      expect(malformed.status).toBe(400)
      expect(malformed.body.error).toMatch(/exactly one operator/)
      // Nothing of the refused changes was saved.
      const after = await api(server, key, "GET", `/forms/${form.id}`)
      expect(after.body.fields.map((f: { id: number }) => f.id)).toEqual(fields.map((f) => f.id))
    })

    it("refuses conditions nested past the limit with a 400 naming it, and answers of any depth without a 500", async () => {
      const { form, plan, team, email } = await planForm()
      const got = await api(server, key, "GET", `/forms/${form.id}`)
      const fields = (got.body.fields as ReadonlyArray<Record<string, unknown>>).map(asInput)
      // JSON text built by hand: JSON.stringify itself overflows on the deepest ones.
      const nest = (groups: number): string => {
        const keys = Array.from({ length: groups }, (_, i) => ((groups - 1 - i) % 2 === 0 ? "and" : "or"))
        return `${keys.map((k) => `{"${k}": [`).join("")}{"field": ${plan}, "equals": "Pro"}${"]}".repeat(groups)}`
      }
      const send = async (method: string, path: string, body: string) => {
        const response = await fetch(`${server.url}/api${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body
        })
        const text = await response.text()
        return { status: response.status, text, error: String(JSON.parse(text).error) }
      }
      const withShowIf = (condition: string) =>
        `{"fields": [${JSON.stringify(fields[0])}, ${JSON.stringify({ ...fields[1], showIf: null }).replace(/"showIf":null/, `"showIf": ${condition}`)}, ${JSON.stringify(fields[2])}, ${JSON.stringify(fields[3])}]}`
      for (const groups of [maxConditionDepth + 1, 400, 5000]) {
        const deep = await send("PATCH", `/forms/${form.id}`, withShowIf(nest(groups)))
        expect(deep.status, deep.text.slice(0, 300)).toBe(400)
        expect(deep.error).toContain(`conditions nest at most ${maxConditionDepth} and / or groups deep`)
        const created = await send(
          "POST",
          "/forms",
          `{"title": "Deep", "fields": [{"type": "short_text", "label": "A", "logic": [{"if": ${nest(groups)}, "then": {"jumpTo": "end"}}]}]}`
        )
        expect(created.status, created.text.slice(0, 300)).toBe(400)
        expect(created.error).toContain(`conditions nest at most ${maxConditionDepth} and / or groups deep`)
      }
      const atLimit = await send("PATCH", `/forms/${form.id}`, withShowIf(nest(maxConditionDepth)))
      expect(atLimit.status, atLimit.text).toBe(200)
      // An answer the logic reads, nested far deeper than any answer type: refused as a bad answer.
      const value = `${"[".repeat(100_000)}"Pro"${"]".repeat(100_000)}`
      const submitted = await fetch(`${server.url}/api/forms/${form.id}/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: `{"values": {"${plan}": ${value}, "${team}": 3, "${email}": "ada@example.com"}}`
      })
      const text = await submitted.text()
      expect(submitted.status, text.slice(0, 300)).toBe(400)
      // Refused when the body is decoded (an answer is a string, number, boolean, list of choices or file),
      // naming the question by its id, before the logic reads it.
      expect(JSON.parse(text).error).toContain(`values.${plan}`)
    })

    it("creates a form with its logic in one request: questions named by ref, saved with their ids", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "One go",
        hiddenFields: [{ name: "ref" }],
        fields: [
          {
            type: "yes_no",
            label: "Coming?",
            ref: "coming",
            logic: [{ if: { field: "ref:coming", equals: false }, then: { jumpTo: "ref:bye" } }]
          },
          { type: "number", label: "Guests", showIf: { field: "ref:coming", equals: true } },
          { type: "statement", label: "See you, {{hidden:ref}}", ref: "bye" }
        ]
      })
      expect(created.status, created.text).toBe(201)
      const got = await api(server, key, "GET", `/forms/${created.body.id}`)
      const [coming, guests, bye] = got.body.fields as Array<Record<string, unknown>>
      expect(coming!.logic).toEqual([{ if: { field: coming!.id, equals: false }, then: { jumpTo: bye!.id } }])
      expect(guests!.showIf).toEqual({ field: coming!.id, equals: true })
      expect(coming).not.toHaveProperty("ref")
      const twice = await api(server, key, "POST", "/forms", {
        title: "Twice",
        fields: [
          { type: "short_text", label: "A", ref: "a" },
          { type: "short_text", label: "B", ref: "a" }
        ]
      })
      expect(twice.status).toBe(400)
      expect(twice.body.error).toContain("unique-ref")
      const unknown = await api(server, key, "POST", "/forms", {
        title: "Unknown",
        fields: [{ type: "short_text", label: "A", showIf: { field: "ref:nope", isEmpty: true } }]
      })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error).toContain("no-unknown-question")
    })

    it("the page's progress counts the respondent's path, not every question of the form", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Path",
        fields: [
          {
            type: "select",
            label: "Customer?",
            ref: "customer",
            required: true,
            options: { choices: ["Yes", "No"] },
            logic: [{ if: { field: "ref:customer", equals: "No" }, then: { jumpTo: "ref:last" } }]
          },
          { type: "short_text", label: "Account number" },
          { type: "short_text", label: "Since when" },
          { type: "short_text", label: "Anything else?", ref: "last" }
        ]
      })
      expect(created.status, created.text).toBe(201)
      expect((await api(server, key, "PATCH", `/forms/${created.body.id}`, { status: "published" })).status).toBe(200)
      const { publicId } = (await api(server, key, "GET", `/forms/${created.body.id}`)).body as { publicId: string }
      const progress = (html: string) => /<span>(\d+ of \d+)<\/span>/.exec(html)?.[1]
      const welcome = await getPage(server, `/f/${publicId}`)
      const first = await answer(server, publicId, welcome.text, [], "start")
      // Nothing answered yet: every question may come.
      expect(progress(first.text)).toBe("1 of 4")
      expect(first.text).toContain("<title>Path (1 of 4)</title>")
      // "No" jumps to the last question: two on this path.
      const skipped = await answer(server, publicId, first.text, ["No"])
      expect(hidden(skipped.text, "at")).toBe(String(created.body.fields[3].id))
      expect(progress(skipped.text)).toBe("2 of 2")
      expect(skipped.text).toContain('<progress max="2" value="1"')
      // Back, and "Yes": the whole form.
      const back = await answer(server, publicId, skipped.text, [], "back")
      const yes = await answer(server, publicId, back.text, ["Yes"])
      expect(progress(yes.text)).toBe("2 of 4")
    })

    it("the README's worked example gives the paths it describes", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Sign up",
        hiddenFields: [{ name: "ref" }],
        fields: [
          {
            ref: "plan",
            type: "select",
            label: "Plan",
            required: true,
            options: { choices: ["Free", "Pro", "None"] },
            logic: [
              { if: { field: "ref:plan", equals: "Free" }, then: { jumpTo: "ref:email" } },
              { if: { field: "ref:plan", equals: "None" }, then: { jumpTo: "end" } }
            ]
          },
          {
            ref: "size",
            type: "number",
            label: "Team size",
            required: true,
            showIf: { field: "ref:plan", equals: "Pro" }
          },
          {
            type: "short_text",
            label: "Team name",
            showIf: {
              and: [
                { field: "ref:plan", equals: "Pro" },
                { field: "ref:size", greaterThan: 1 }
              ]
            }
          },
          { ref: "email", type: "email", label: "Email", required: true }
        ]
      })
      expect(created.status, created.text).toBe(201)
      expect((await api(server, key, "PATCH", `/forms/${created.body.id}`, { status: "published" })).status).toBe(200)
      const [plan, size, name, email] = (await api(server, key, "GET", `/forms/${created.body.id}`)).body.fields.map(
        (f: { id: number }) => f.id
      )
      const submit = (values: Record<string, unknown>) =>
        api(server, key, "POST", `/forms/${created.body.id}/responses`, { values, hidden: { ref: "newsletter" } })
      const free = await submit({ [plan]: "Free", [size]: 5, [email]: "ada@example.com" })
      expect(free.body.values).toEqual({ [plan]: "Free", [email]: "ada@example.com", "hidden:ref": "newsletter" })
      const solo = await submit({ [plan]: "Pro", [size]: 1, [name]: "Solo", [email]: "b@example.com" })
      expect(solo.body.values).toEqual({
        [plan]: "Pro",
        [size]: 1,
        [email]: "b@example.com",
        "hidden:ref": "newsletter"
      })
      const team = await submit({ [plan]: "Pro", [size]: 3, [name]: "Crew", [email]: "c@example.com" })
      expect(team.body.values).toEqual({
        [plan]: "Pro",
        [size]: 3,
        [name]: "Crew",
        [email]: "c@example.com",
        "hidden:ref": "newsletter"
      })
      const none = await submit({ [plan]: "None" })
      expect(none.status).toBe(201)
    })

    it("branches on a Net Promoter Score: a detractor is asked why, a promoter is not; the flat answer is the score", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "NPS with a follow-up",
        fields: [
          {
            type: "nps",
            label: "How likely are you to recommend us?",
            required: true,
            ref: "score",
            logic: [{ if: { field: "ref:score", greaterThan: 6 }, then: { jumpTo: "ref:thanks" } }]
          },
          { type: "long_text", label: "What should we improve?", required: true },
          { type: "statement", label: "Thank you", ref: "thanks" }
        ]
      })
      expect(created.status, created.text).toBe(201)
      const form = created.body as { id: number; fields: Array<{ id: number }> }
      expect((await api(server, key, "PATCH", `/forms/${form.id}`, { status: "published" })).status).toBe(200)
      const [score, improve] = form.fields.map((f) => f.id)
      const detractor = await api(server, key, "POST", `/forms/${form.id}/responses`, { values: { [score!]: 3 } })
      expect(detractor.status).toBe(400)
      expect(detractor.body.error).toContain('"What should we improve?" is required')
      const promoter = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [score!]: 10, [improve!]: "skipped on this path" }
      })
      expect(promoter.status, promoter.text).toBe(201)
      expect(promoter.body.values).toEqual({ [score!]: 10 })
      const outOfRange = await api(server, key, "POST", `/forms/${form.id}/responses`, { values: { [score!]: 11 } })
      expect(outOfRange.status).toBe(400)
      expect(outOfRange.body.error).toContain(
        '"How likely are you to recommend us?" must be a whole number from 0 to 10'
      )
      const flat = await api(server, key, "GET", `/forms/${form.id}/responses?flat=1`)
      expect(flat.body.responses[0].answers).toEqual({ "How likely are you to recommend us?": "10" })
    })

    it("branches on a time of day; a legal question must be accepted; times, date-times and sliders read back flat", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Guest house",
        fields: [
          {
            type: "time",
            label: "When will you arrive?",
            required: true,
            ref: "arrive",
            logic: [{ if: { field: "ref:arrive", lessThan: "12:00" }, then: { jumpTo: "ref:leave" } }]
          },
          { type: "yes_no", label: "Will you stay for lunch?", required: true },
          { type: "datetime", label: "When will you leave?", ref: "leave" },
          { type: "slider", label: "How warm should the room be?", options: { min: 16, max: 26, step: 0.5 } },
          { type: "legal", label: "I accept the house rules", required: true }
        ]
      })
      expect(created.status, created.text).toBe(201)
      const form = created.body as { id: number; fields: Array<{ id: number }> }
      expect((await api(server, key, "PATCH", `/forms/${form.id}`, { status: "published" })).status).toBe(200)
      const [arrive, lunch, leave, warmth, rules] = form.fields.map((f) => f.id) as [
        number,
        number,
        number,
        number,
        number
      ]
      const submit = (values: Record<string, unknown>) =>
        api(server, key, "POST", `/forms/${form.id}/responses`, { values })
      const afternoon = await submit({ [arrive]: "14:00", [rules]: true })
      expect(afternoon.status).toBe(400)
      expect(afternoon.body.error).toContain('"Will you stay for lunch?" is required')
      const declined = await submit({ [arrive]: "9:15", [rules]: false })
      expect(declined.status).toBe(400)
      expect(declined.body.error).toContain('"I accept the house rules" must be accepted')
      const missing = await submit({ [arrive]: "9:15" })
      expect(missing.status).toBe(400)
      expect(missing.body.error).toContain('"I accept the house rules" must be accepted')
      const twelveHour = await submit({ [arrive]: "9:15 am", [rules]: true })
      expect(twelveHour.status).toBe(400)
      expect(twelveHour.body.error).toContain('"When will you arrive?" must be a time in the form HH:MM (24-hour)')
      const offStep = await submit({ [arrive]: "9:15", [warmth]: 20.2, [rules]: true })
      expect(offStep.status).toBe(400)
      expect(offStep.body.error).toContain('"How warm should the room be?" must be 16 plus a multiple of 0.5')
      const morning = await submit({
        [arrive]: "9:15",
        [lunch]: true,
        [leave]: "2026-11-28 10:30",
        [warmth]: 21.5,
        [rules]: true
      })
      expect(morning.status, morning.text).toBe(201)
      expect(morning.body.values).toEqual({
        [arrive]: "09:15",
        [leave]: "2026-11-28T10:30",
        [warmth]: 21.5,
        [rules]: true
      })
      const flat = await api(server, key, "GET", `/forms/${form.id}/responses?flat=1`)
      expect(flat.body.responses[0].answers).toEqual({
        "When will you arrive?": "09:15",
        "When will you leave?": "2026-11-28T10:30",
        "How warm should the room be?": "21.5",
        "I accept the house rules": "Yes"
      })
    })

    it("a contact and an address: logic reads their parts, the respondent comes from the contact, flat answers join the parts", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Delivery",
        fields: [
          { type: "contact", label: "Your details", required: true, options: { parts: ["name", "email"] } },
          {
            type: "address",
            label: "Deliver to",
            required: true,
            ref: "to",
            logic: [{ if: { field: "ref:to", contains: "berlin" }, then: { jumpTo: "ref:slot" } }]
          },
          { type: "short_text", label: "Courier notes", required: true },
          { type: "time", label: "Preferred slot", ref: "slot" }
        ]
      })
      expect(created.status, created.text).toBe(201)
      const form = created.body as { id: number; fields: Array<{ id: number }> }
      expect((await api(server, key, "PATCH", `/forms/${form.id}`, { status: "published" })).status).toBe(200)
      const [you, to, notes] = form.fields.map((f) => f.id) as [number, number, number]
      const submit = (values: Record<string, unknown>) =>
        api(server, key, "POST", `/forms/${form.id}/responses`, { values })
      const berlin = { line1: "Unter den Linden 1", city: "Berlin", postalCode: "10117", country: "Germany" }
      const noEmail = await submit({ [you]: { name: "Ada" }, [to]: berlin })
      expect(noEmail.status).toBe(400)
      expect(noEmail.body.error).toContain('"Your details" (E-mail) is required')
      const elsewhere = await submit({
        [you]: { name: "Ada", email: "ada@example.com" },
        [to]: { ...berlin, city: "Paris", postalCode: "75001", country: "France" }
      })
      expect(elsewhere.status).toBe(400)
      expect(elsewhere.body.error).toContain('"Courier notes" is required')
      const created201 = await submit({
        [you]: { name: " Ada Lovelace ", email: "ada@example.com" },
        [to]: { ...berlin, line2: null },
        [notes]: "skipped on this path"
      })
      expect(created201.status, created201.text).toBe(201)
      expect(created201.body.values).toEqual({
        [you]: { name: "Ada Lovelace", email: "ada@example.com" },
        [to]: berlin
      })
      expect(created201.body).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com" })
      const flat = await api(server, key, "GET", `/forms/${form.id}/responses?flat=1`)
      expect(flat.body.responses[0].answers).toEqual({
        "Your details": "Ada Lovelace, ada@example.com",
        "Deliver to": "Unter den Linden 1, Berlin, 10117, Germany"
      })
      const csv = await fetch(`${server.url}/api/forms/${form.id}/responses.csv`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(await csv.text()).toContain('"Unter den Linden 1, Berlin, 10117, Germany"')
    })

    it("a matrix: a required one needs its rows, logic reads the chosen columns, flat answers list the rows", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Service review",
        fields: [
          {
            type: "matrix",
            label: "Rate each",
            required: true,
            ref: "rate",
            options: { rows: ["Speed", "Price", "Support"], columns: ["Bad", "OK", "Good"], minRows: 2 },
            logic: [
              { if: { field: "ref:rate", contains: "bad" }, then: { jumpTo: "ref:why" } },
              { if: { field: "ref:rate", isNotEmpty: true }, then: { jumpTo: "end" } }
            ]
          },
          { type: "long_text", label: "What went wrong?", required: true, ref: "why" }
        ]
      })
      expect(created.status, created.text).toBe(201)
      const form = created.body as { id: number; fields: Array<{ id: number }> }
      expect((await api(server, key, "PATCH", `/forms/${form.id}`, { status: "published" })).status).toBe(200)
      const [rate, why] = form.fields.map((f) => f.id) as [number, number]
      const submit = (values: Record<string, unknown>) =>
        api(server, key, "POST", `/forms/${form.id}/responses`, { values })
      const oneRow = await submit({ [rate]: { Speed: "Good" } })
      expect(oneRow.status).toBe(400)
      expect(oneRow.body.error).toContain('"Rate each" needs an answer in at least 2 rows')
      const unhappy = await submit({ [rate]: { Speed: "Bad", Price: "OK" } })
      expect(unhappy.status).toBe(400)
      expect(unhappy.body.error).toContain('"What went wrong?" is required')
      const happy = await submit({ [rate]: { Support: "Good", Speed: "OK", Price: null } })
      expect(happy.status, happy.text).toBe(201)
      expect(happy.body.values).toEqual({ [rate]: { Speed: "OK", Support: "Good" } })
      const answered = await submit({ [rate]: { Speed: "Bad", Price: "OK" }, [why]: "Slow" })
      expect(answered.status, answered.text).toBe(201)
      const flat = await api(server, key, "GET", `/forms/${form.id}/responses?flat=1`)
      expect(flat.body.responses.map((r: { answers: Record<string, string> }) => r.answers)).toEqual([
        { "Rate each": "Speed: Bad; Price: OK", "What went wrong?": "Slow" },
        { "Rate each": "Speed: OK; Support: Good" }
      ])
    })

    it("the API submission follows the path: skipped answers dropped, skipped required questions not required", async () => {
      const { email, form, plan, team, why } = await planForm()
      const free = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [plan]: "Free", [team]: 12, [why]: "skipped too", [email]: "ada@example.com" },
        hidden: { ref: "newsletter" }
      })
      expect(free.status, free.text).toBe(201)
      expect(free.body.values).toEqual({ [plan]: "Free", [email]: "ada@example.com", "hidden:ref": "newsletter" })
      expect(free.body.finished).toBe(true)
      // Team size is required, but only on the Pro path.
      const pro = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [plan]: "Pro", [email]: "grace@example.com" }
      })
      expect(pro.status).toBe(400)
      expect(pro.body.error).toContain('"Team size" is required')
      const none = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [plan]: "None", [email]: "x" }
      })
      expect(none.status, none.text).toBe(201)
      expect(none.body.values).toEqual({ [plan]: "None" })
      const unknown = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [plan]: "None" },
        hidden: { campaign: "x" }
      })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error).toContain('"campaign" is not a hidden field')
      const flat = await api(server, key, "GET", `/forms/${form.id}/responses?flat=1`)
      const row = flat.body.responses.find((r: { id: number }) => r.id === free.body.id)
      expect(row.answers).toEqual({
        Plan: "Free",
        "Email for your {{hidden:ref}} plan": "ada@example.com",
        "hidden:ref": "newsletter"
      })
      expect(row.summary).toContain("■ hidden:ref\nnewsletter")
      expect(flat.body.hiddenFields).toEqual([{ name: "ref" }])
      const csv = await fetch(`${server.url}/api/forms/${form.id}/responses.csv`, {
        headers: { authorization: `Bearer ${key}` }
      })
      const text = await csv.text()
      expect(text.split("\r\n")[0]).toMatch(/,hidden:ref$/)
      expect(text).toMatch(/,newsletter\r\n/)
    })

    it("the page without JavaScript branches, recalls, takes hidden fields from the URL and keeps a partial response", async () => {
      const { email, form, plan, team, why } = await planForm()
      const welcome = await getPage(server, `/f/${form.publicId}?ref=partner&other=ignored`)
      expect(welcome.status).toBe(200)
      let page = await answer(server, form.publicId, welcome.text, [], "start")
      expect(hidden(page.text, "at")).toBe(String(plan))
      page = await answer(server, form.publicId, page.text, ["Pro"])
      expect(hidden(page.text, "at")).toBe(String(team))
      // Answered once: a partial response, listed only with status=partial, and no event yet.
      const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0]!
      expect(cookie).toMatch(/^qf_/)
      const partial = await api(server, key, "GET", `/forms/${form.id}/responses?status=partial`)
      expect(partial.body.responses).toHaveLength(1)
      expect(partial.body.responses[0]).toMatchObject({
        finished: false,
        values: { [plan]: "Pro", "hidden:ref": "partner" }
      })
      expect((await api(server, key, "GET", `/forms/${form.id}/responses`)).body.responses).toHaveLength(0)
      expect(await countEvents(server, form.id)).toBe(0)
      const summary = await api(server, key, "GET", `/forms/${form.id}`)
      expect(summary.status).toBe(200)
      // Resumable on the same device: the cookie brings the answers back.
      const again = await getPage(server, `/f/${form.publicId}`, { cookie })
      expect(again.text).toContain("Welcome back")
      const resumed = await answer(server, form.publicId, again.text, [], "start")
      expect(resumed.text).toMatch(/<input type="radio" name="a" value="Pro" checked/)
      page = await answer(server, form.publicId, page.text, ["4"])
      expect(hidden(page.text, "at")).toBe(String(why))
      // Recall: the label shows the earlier answer.
      expect(page.text).toContain("Why Pro?")
      // Back goes along the path, forward again.
      const back = await answer(server, form.publicId, page.text, [], "back")
      expect(hidden(back.text, "at")).toBe(String(team))
      page = await answer(server, form.publicId, back.text, ["4"])
      page = await answer(server, form.publicId, page.text, ["because"])
      expect(hidden(page.text, "at")).toBe(String(email))
      expect(page.text).toContain("Email for your partner plan")
      expect(page.text).toContain(">Submit</button>")
      const done = await answer(server, form.publicId, page.text, ["lin@example.com"])
      expect(done.text).toContain("Thank you!")
      expect(done.headers.get("set-cookie")).toMatch(/Max-Age=0/)
      const list = await api(server, key, "GET", `/forms/${form.id}/responses?status=all`)
      expect(list.body.responses).toHaveLength(1)
      expect(list.body.responses[0]).toMatchObject({
        finished: true,
        values: { [plan]: "Pro", [team]: 4, [why]: "because", [email]: "lin@example.com", "hidden:ref": "partner" }
      })
      expect((await api(server, key, "GET", `/forms/${form.id}/responses?status=partial`)).body.responses).toHaveLength(
        0
      )
      expect(await countEvents(server, form.id)).toBe(1)
      // The Free path: from the plan straight to the e-mail, which ends the form.
      const other = await getPage(server, `/f/${form.publicId}`)
      page = await answer(server, form.publicId, other.text, [], "start")
      page = await answer(server, form.publicId, page.text, ["Free"])
      expect(hidden(page.text, "at")).toBe(String(email))
      const backToPlan = await answer(server, form.publicId, page.text, [], "back")
      expect(hidden(backToPlan.text, "at")).toBe(String(plan))
    })

    it("purges partial responses older than the limit, never submitted ones", async () => {
      const { form, plan } = await planForm()
      const welcome = await getPage(server, `/f/${form.publicId}`)
      let page = await answer(server, form.publicId, welcome.text, [], "start")
      page = await answer(server, form.publicId, page.text, ["Pro"])
      const submitted = await api(server, key, "POST", `/forms/${form.id}/responses`, { values: { [plan]: "None" } })
      expect(submitted.status).toBe(201)
      const kept = await server.run(Effect.flatMap(Responses, (r) => r.purgePartials(60 * 60 * 1000)))
      expect(kept).toBe(0)
      await new Promise((resolve) => setTimeout(resolve, 20))
      const purged = await server.run(Effect.flatMap(Responses, (r) => r.purgePartials(10)))
      expect(purged).toBeGreaterThanOrEqual(1)
      expect((await api(server, key, "GET", `/forms/${form.id}/responses?status=partial`)).body.responses).toHaveLength(
        0
      )
      expect((await api(server, key, "GET", `/forms/${form.id}/responses?status=all`)).body.responses).toHaveLength(1)
      // The partial response's form keeps counting only submitted responses.
      const summary = (await api(server, key, "GET", "/forms")).body.find((f: { id: number }) => f.id === form.id)
      expect(summary.responseCount).toBe(1)
      // The purger layer (as Qforms.make runs it) purges on start, then hourly.
      const later = await getPage(server, `/f/${form.publicId}`)
      page = await answer(server, form.publicId, later.text, [], "start")
      page = await answer(server, form.publicId, page.text, ["Pro"])
      expect((await api(server, key, "GET", `/forms/${form.id}/responses?status=partial`)).body.responses).toHaveLength(
        1
      )
      await new Promise((resolve) => setTimeout(resolve, 20))
      const partials = async () =>
        (await api(server, key, "GET", `/forms/${form.id}/responses?status=partial`)).body.responses.length
      await server.run(
        Effect.scoped(
          Effect.andThen(
            Layer.build(layerPartialPurger({ maxAgeDays: 10 / 86_400_000 })),
            Effect.promise(() => waitFor(async () => (await partials()) === 0, 10_000, "the purger's run on start"))
          )
        )
      )
      expect((await api(server, key, "GET", `/forms/${form.id}/responses?status=partial`)).body.responses).toHaveLength(
        0
      )
    })
  })
}
