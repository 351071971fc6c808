/**
 * A form's summary (`GET /api/forms/{formId}/summary`, `.csv`): every
 * question type against figures computed by hand, the tallies kept as
 * responses arrive agreeing with the same keys counted over the responses
 * (a filter), deletions and tag changes, the page's funnel counted step by
 * step without double counts, filters, keys and workspaces, and bad input.
 * On every database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { waitFor } from "@qforms/test-kit/Conditions"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { answer, api, createForm, getPage } from "@qforms/test-kit/PublicForms"
import { keysByRole } from "@qforms/test-kit/Seeds"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const fields = [
  { type: "short_text", label: "Name" },
  { type: "select", label: "Color", options: { choices: ["Red", "Green", "Blue"], allowOther: true } },
  { type: "checkboxes", label: "Topics", options: { choices: ["Sales", "Support", "Billing"] } },
  { type: "yes_no", label: "Again?" },
  { type: "rating", label: "Stars" },
  { type: "nps", label: "Recommend" },
  { type: "number", label: "Count" },
  { type: "matrix", label: "Rate", options: { rows: ["Speed", "Price"], columns: ["Bad", "OK", "Good"] } },
  { type: "ranking", label: "Order", options: { choices: ["A", "B", "C"] } },
  { type: "date", label: "Day" },
  { type: "time", label: "Arrival" },
  { type: "email", label: "Email" },
  { type: "long_text", label: "Note" },
  { type: "signature", label: "Sign" },
  { type: "matrix", label: "Pick", options: { rows: ["X", "Y"], columns: ["P", "Q"], multiple: true } },
  { type: "statement", label: "Thanks" }
]

interface Question {
  readonly kind: string
  readonly label: string
  readonly answered: number
  readonly [key: string]: unknown
}

interface Report {
  readonly form: { readonly id: number; readonly title: string }
  readonly computedFrom: "tallies" | "responses"
  readonly totals: {
    readonly views: number
    readonly starts: number
    readonly responses: number
    readonly completedOnPage: number
    readonly completionRate: number | null
    readonly medianCompletionSeconds: number | null
    readonly sources: Record<string, number>
  }
  readonly funnel: ReadonlyArray<{
    step: string
    fieldId: number | null
    label: string
    count: number
    percent: number
  }>
  readonly questions: ReadonlyArray<Question>
}

for (const target of databaseTargets) {
  describe(`form summaries on ${target.name}`, () => {
    let server: TestServer
    let a: { workspaceId: number; keys: Record<"owner" | "admin" | "member" | "viewer", string> }
    let b: typeof a
    let form: Awaited<ReturnType<typeof createForm>>
    let ids: Record<string, number>
    let responseIds: Array<number>

    const summary = async (formId: number, query = "", key = a.keys.owner): Promise<Report> => {
      const reply = await api(server, key, "GET", `/forms/${formId}/summary${query}`)
      expect(reply.status, reply.text).toBe(200)
      return reply.body as Report
    }
    const question = (report: Report, label: string): Question => {
      const found = report.questions.find((q) => q.label === label)
      if (found === undefined) throw new Error(`no question ${label}`)
      return found
    }

    beforeAll(async () => {
      server = await startTestServer(target, {
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 100, burst: 1000 } }
      })
      a = await server.run(keysByRole("summary-a"))
      b = await server.run(keysByRole("summary-b"))
      form = await createForm(server, a.keys.owner, { title: "Everything", fields })
      ids = Object.fromEntries(form.fields.map((field) => [field.label, field.id]))
      const answers: ReadonlyArray<Record<string, unknown>> = [
        {
          Name: "Ada",
          Color: "Red",
          Topics: ["Sales", "Billing"],
          "Again?": true,
          Stars: 5,
          Recommend: 10,
          Count: 3,
          Rate: { Speed: "OK", Price: "Good" },
          Order: ["A", "B", "C"],
          Day: "2026-01-15",
          Arrival: "09:30",
          Email: "ada@example.com",
          Note: "The delivery was late and the delivery box was damaged",
          Sign: { typedName: "Ada Lovelace", consent: true },
          Pick: { X: ["P", "Q"], Y: ["Q"] }
        },
        {
          Name: "Grace",
          Color: "Purple",
          Topics: ["Support"],
          "Again?": false,
          Stars: 3,
          Recommend: 6,
          Count: 7,
          Rate: { Speed: "Bad" },
          Order: ["B", "A", "C"],
          Day: "2026-03-02",
          Arrival: "09:05",
          Note: "Great delivery, fast!",
          Pick: { X: ["P"] }
        },
        {
          Name: "Linus",
          Color: "Red",
          Topics: ["Sales"],
          "Again?": true,
          Stars: 4,
          Recommend: 8,
          Count: 5,
          Order: ["A", "C", "B"],
          Day: "2026-03-20",
          Arrival: "17:45"
        },
        { Color: "Blue" }
      ]
      responseIds = []
      for (const given of answers) {
        const values = Object.fromEntries(Object.entries(given).map(([label, value]) => [ids[label]!, value]))
        const created = await api(server, a.keys.owner, "POST", `/forms/${form.id}/responses`, { values })
        expect(created.status, created.text).toBe(201)
        responseIds.push(created.body.id)
      }
    })
    afterAll(async () => {
      await server?.close()
    })

    it("summarizes every question type as computed by hand, from the tallies", async () => {
      const report = await summary(form.id)
      expect(report.computedFrom).toBe("tallies")
      expect(report.form).toEqual({ id: form.id, title: "Everything" })
      expect(report.totals).toMatchObject({
        responses: 4,
        completedOnPage: 0,
        sources: { api: 4 },
        medianCompletionSeconds: null
      })
      expect(report.questions.map((q) => q.label)).toEqual(
        fields.filter((f) => f.type !== "statement").map((f) => f.label)
      )
      expect(question(report, "Color")).toMatchObject({
        kind: "choices",
        answered: 4,
        choices: [
          { choice: "Red", count: 2, percent: 50 },
          { choice: "Green", count: 0, percent: 0 },
          { choice: "Blue", count: 1, percent: 25 }
        ],
        other: { choice: "Other", count: 1, percent: 25 }
      })
      expect(question(report, "Topics")).toMatchObject({
        answered: 3,
        choices: [
          { choice: "Sales", count: 2, percent: 66.7 },
          { choice: "Support", count: 1, percent: 33.3 },
          { choice: "Billing", count: 1, percent: 33.3 }
        ],
        other: null
      })
      expect(question(report, "Again?")).toMatchObject({
        answered: 3,
        choices: [
          { choice: "Yes", count: 2, percent: 66.7 },
          { choice: "No", count: 1, percent: 33.3 }
        ]
      })
      expect(question(report, "Stars")).toMatchObject({
        kind: "numbers",
        answered: 3,
        mean: 4,
        median: 4,
        p25: 3.5,
        p75: 4.5,
        min: 3,
        max: 5,
        nps: null
      })
      expect(
        (question(report, "Stars").distribution as Array<{ from: number; count: number }>).map((b) => [b.from, b.count])
      ).toEqual([
        [1, 0],
        [2, 0],
        [3, 1],
        [4, 1],
        [5, 1]
      ])
      const nps = question(report, "Recommend")
      expect(nps).toMatchObject({ mean: 8, median: 8, nps: { score: 0, promoters: 1, passives: 1, detractors: 1 } })
      expect((nps.distribution as Array<unknown>).length).toBe(11)
      expect(question(report, "Count")).toMatchObject({ mean: 5, median: 5, p90: 6.6, min: 3, max: 7 })
      expect(question(report, "Count").distribution as Array<{ from: number; to: number; count: number }>).toEqual([
        { from: 3, to: 3, count: 1, percent: 33.3 },
        { from: 5, to: 5, count: 1, percent: 33.3 },
        { from: 7, to: 7, count: 1, percent: 33.3 }
      ])
      expect(question(report, "Rate")).toMatchObject({
        kind: "matrix",
        answered: 2,
        rows: [
          {
            row: "Speed",
            answered: 2,
            columns: [
              { choice: "Bad", count: 1, percent: 50 },
              { choice: "OK", count: 1, percent: 50 },
              { choice: "Good", count: 0, percent: 0 }
            ]
          },
          {
            row: "Price",
            answered: 1,
            columns: [
              { choice: "Bad", count: 0, percent: 0 },
              { choice: "OK", count: 0, percent: 0 },
              { choice: "Good", count: 1, percent: 100 }
            ]
          }
        ]
      })
      expect(question(report, "Order")).toMatchObject({
        kind: "ranking",
        answered: 3,
        items: [
          { choice: "A", averagePlace: 1.33, places: [2, 1, 0] },
          { choice: "B", averagePlace: 2, places: [1, 1, 1] },
          { choice: "C", averagePlace: 2.67, places: [0, 1, 2] }
        ]
      })
      expect(question(report, "Day")).toMatchObject({
        kind: "dates",
        unit: "month",
        answered: 3,
        buckets: [
          { choice: "2026-01", count: 1, percent: 33.3 },
          { choice: "2026-02", count: 0, percent: 0 },
          { choice: "2026-03", count: 2, percent: 66.7 }
        ]
      })
      const hours = question(report, "Arrival").buckets as Array<{ choice: string; count: number }>
      expect(hours).toHaveLength(24)
      expect(hours.filter((h) => h.count > 0)).toEqual([
        { choice: "09", count: 2, percent: 66.7 },
        { choice: "17", count: 1, percent: 33.3 }
      ])
      expect(question(report, "Email")).toMatchObject({
        kind: "texts",
        answered: 1,
        latest: [{ responseId: responseIds[0], text: "ada@example.com" }],
        words: []
      })
      const note = question(report, "Note")
      expect(note.answered).toBe(2)
      expect((note.latest as Array<{ responseId: number }>).map((t) => t.responseId)).toEqual([
        responseIds[1],
        responseIds[0]
      ])
      const words = note.words as Array<{ word: string; count: number }>
      expect(words[0]).toEqual({ word: "delivery", count: 3 })
      expect(words.map((w) => w.word).sort()).toEqual(["box", "damaged", "delivery", "fast", "great", "late"])
      expect(question(report, "Sign")).toMatchObject({ kind: "files", answered: 1, drawn: 0, typed: 1 })
      expect(question(report, "Pick")).toMatchObject({
        answered: 2,
        rows: [
          {
            row: "X",
            answered: 2,
            columns: [
              { choice: "P", count: 2, percent: 100 },
              { choice: "Q", count: 1, percent: 50 }
            ]
          },
          {
            row: "Y",
            answered: 1,
            columns: [
              { choice: "P", count: 0, percent: 0 },
              { choice: "Q", count: 1, percent: 100 }
            ]
          }
        ]
      })
    })

    it("counts the same over the responses as the tallies do, and a tag change leaves the tallies alone", async () => {
      for (const id of responseIds) {
        const tagged = await api(server, a.keys.owner, "PATCH", `/responses/${id}`, { tags: ["all"] })
        expect(tagged.status, tagged.text).toBe(200)
      }
      const tallied = await summary(form.id)
      const counted = await summary(form.id, "?tag=all")
      expect(tallied.computedFrom).toBe("tallies")
      expect(counted.computedFrom).toBe("responses")
      expect(counted.questions).toEqual(tallied.questions)
      expect(counted.totals).toEqual(tallied.totals)
    })

    it("filters: a stage, a text search, whole days from the tallies, a moment from the responses", async () => {
      const stages = await api(server, a.keys.owner, "GET", `/forms/${form.id}/stages`)
      const stageId = stages.body.stages[1].id
      expect((await api(server, a.keys.owner, "PATCH", `/responses/${responseIds[1]}`, { stageId })).status).toBe(200)
      const staged = await summary(form.id, `?stage=${stageId}`)
      expect(staged.totals.responses).toBe(1)
      expect(question(staged, "Color")).toMatchObject({ answered: 1, other: { count: 1, percent: 100 } })
      const searched = await summary(form.id, "?q=linus")
      expect(searched.totals.responses).toBe(1)
      expect(question(searched, "Stars")).toMatchObject({ mean: 4, answered: 1 })
      const today = new Date().toISOString().slice(0, 10)
      const days = await summary(form.id, `?from=2000-01-01T00:00:00.000Z&to=${today}T23:59:59.999Z`)
      expect(days.computedFrom).toBe("tallies")
      expect(days.totals.responses).toBe(4)
      const before = await summary(form.id, "?to=2000-01-01T23:59:59.999Z")
      expect(before.totals.responses).toBe(0)
      expect(question(before, "Stars")).toMatchObject({ answered: 0, mean: null, median: null })
      const moment = await summary(
        form.id,
        `?from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`
      )
      expect(moment.computedFrom).toBe("responses")
      expect(moment.totals.responses).toBe(4)
      const partial = await summary(form.id, "?status=partial")
      expect(partial.totals.responses).toBe(0)
    })

    it("as CSV: one figure per line", async () => {
      const reply = await fetch(`${server.url}/api/forms/${form.id}/summary.csv`, {
        headers: { authorization: `Bearer ${a.keys.viewer}` }
      })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("content-type")).toMatch(/^text\/csv/)
      expect(reply.headers.get("content-disposition")).toContain(`form-${form.id}-summary.csv`)
      const lines = (await reply.text()).split("\r\n")
      expect(lines[0]).toBe("section,question,item,count,percent")
      expect(lines).toContain("totals,,responses,4,")
      expect(lines).toContain("choice,Color,Red,2,50")
      expect(lines).toContain("choice,Color,Other,1,25")
      expect(lines).toContain("nps,Recommend,score,0,")
      expect(lines).toContain("matrix,Rate,Speed: OK,1,50")
      expect(lines).toContain("average place,Order,A,1.33,")
      expect(lines).toContain("word,Note,delivery,3,")
    })

    it("every role of the workspace reads it; another workspace, no key and bad input are refused", async () => {
      for (const role of ["owner", "admin", "member", "viewer"] as const) {
        expect((await api(server, a.keys[role], "GET", `/forms/${form.id}/summary`)).status).toBe(200)
      }
      for (const role of ["owner", "viewer"] as const) {
        for (const path of [`/forms/${form.id}/summary`, `/forms/${form.id}/summary.csv`]) {
          const foreign = await api(server, b.keys[role], "GET", path)
          expect(foreign.status).toBe(404)
          expect(foreign.body).toEqual({ error: expect.any(String) })
        }
      }
      const anonymous = await fetch(`${server.url}/api/forms/${form.id}/summary`)
      expect(anonymous.status).toBe(401)
      for (const query of ["?texts=51", "?texts=-1", "?from=yesterday", "?stage=x", `?q=${"x".repeat(201)}`]) {
        const bad = await api(server, a.keys.owner, "GET", `/forms/${form.id}/summary${query}`)
        expect(bad.status, query).toBe(400)
        expect(bad.body, query).toMatchObject({ error: expect.any(String) })
      }
      expect((await api(server, a.keys.owner, "GET", "/forms/999999999/summary")).status).toBe(404)
    })

    it("the texts shown: none, or the latest few", async () => {
      const none = await summary(form.id, "?texts=0")
      expect(question(none, "Note").latest).toEqual([])
      expect((question(none, "Note").words as Array<unknown>).length).toBeGreaterThan(0)
      const one = await summary(form.id, "?texts=1")
      expect((question(one, "Note").latest as Array<{ responseId: number }>).map((t) => t.responseId)).toEqual([
        responseIds[1]
      ])
      // 4 responses: the latest one is read walking the index (4 × 4 ≥ 1 × 4), the latest five by sorting all
      // the answers (4 × 4 < 5 × 4). Both ways give the same order.
      const five = await summary(form.id, "?texts=5")
      expect((question(five, "Note").latest as Array<{ responseId: number }>).map((t) => t.responseId)).toEqual([
        responseIds[1],
        responseIds[0]
      ])
      expect((question(five, "Name").latest as Array<{ responseId: number }>).map((t) => t.responseId)).toEqual([
        responseIds[2],
        responseIds[1],
        responseIds[0]
      ])
    })

    it("the public page's funnel: views, starts, each question once however often one goes back, completions", async () => {
      const small = await createForm(server, a.keys.owner, {
        title: "Funnel",
        fields: [
          { type: "short_text", label: "First", required: true },
          { type: "select", label: "Second", options: { choices: ["Red", "Blue"] } },
          { type: "short_text", label: "Third" }
        ]
      })
      const published = await api(server, a.keys.owner, "PATCH", `/forms/${small.id}`, { status: "published" })
      expect(published.status, published.text).toBe(200)
      const path = `/f/${small.publicId}`
      // One answers everything.
      let page = await getPage(server, path)
      page = await answer(server, small.publicId, page.text, [], "start")
      page = await answer(server, small.publicId, page.text, ["Ada"])
      page = await answer(server, small.publicId, page.text, ["Red"])
      page = await answer(server, small.publicId, page.text, ["done"])
      expect(page.status, page.text.slice(0, 500)).toBe(200)
      // One answers the first question, goes back, answers it again, and leaves.
      page = await getPage(server, path)
      page = await answer(server, small.publicId, page.text, [], "start")
      page = await answer(server, small.publicId, page.text, ["Bo"])
      page = await answer(server, small.publicId, page.text, [], "back")
      page = await answer(server, small.publicId, page.text, ["Bo"])
      // One only looks.
      await getPage(server, path)
      const report = await waitFor(
        async () => {
          const r = await summary(small.id)
          return r.totals.views === 3 && r.funnel.at(-2)!.count === 1 ? r : undefined
        },
        10_000,
        "the page counts"
      )
      expect(report.funnel.map((s) => [s.step, s.label, s.count, s.percent])).toEqual([
        ["view", "Viewed", 3, 100],
        ["start", "Started", 2, 66.7],
        ["question", "First", 2, 66.7],
        ["question", "Second", 1, 33.3],
        ["question", "Third", 1, 33.3],
        ["complete", "Completed", 1, 33.3]
      ])
      expect(report.totals).toMatchObject({
        views: 3,
        starts: 2,
        responses: 1,
        completedOnPage: 1,
        completionRate: 50,
        sources: { form: 1 }
      })
      expect(report.totals.medianCompletionSeconds).toBeGreaterThanOrEqual(0)
      // The time to complete counted over the responses (a moment, not a whole day) is the tallies'.
      const counted = await summary(
        small.id,
        `?from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`
      )
      expect(counted.computedFrom).toBe("responses")
      expect(counted.totals).toEqual(report.totals)
      expect(counted.questions).toEqual(report.questions)
      // The other workspace's counts are its own.
      expect((await api(server, b.keys.owner, "GET", `/forms/${small.id}/summary`)).status).toBe(404)
    })

    it("an answer edit moves the tallies, which still agree with the responses", async () => {
      const edit = (answers: Record<string, unknown>) =>
        api(server, a.keys.owner, "PATCH", `/responses/${responseIds[0]}`, { answers })
      const before = question(await summary(form.id), "Color")
      const edited = await edit({ [ids["Color"]!]: "Green", [ids["Stars"]!]: 2 })
      expect(edited.status, edited.text).toBe(200)
      const report = await summary(form.id)
      expect(report.computedFrom).toBe("tallies")
      expect(question(report, "Color")).toMatchObject({
        answered: before.answered,
        choices: [
          { choice: "Red", count: 1, percent: 25 },
          { choice: "Green", count: 1, percent: 25 },
          { choice: "Blue", count: 1, percent: 25 }
        ]
      })
      const counted = await summary(form.id, "?tag=all")
      expect(counted.computedFrom).toBe("responses")
      expect(counted.questions).toEqual(report.questions)
      expect(counted.totals).toEqual(report.totals)
      expect((await edit({ [ids["Color"]!]: "Red", [ids["Stars"]!]: 5 })).status).toBe(200)
      expect(question(await summary(form.id), "Color")).toEqual(before)
    })

    it("a deleted response leaves the tallies; a deleted form takes its tallies along", async () => {
      const removed = await api(server, a.keys.owner, "DELETE", `/responses/${responseIds[3]}`)
      expect(removed.status, removed.text).toBe(204)
      const report = await summary(form.id)
      expect(report.totals.responses).toBe(3)
      expect(question(report, "Color")).toMatchObject({
        answered: 3,
        choices: [
          { choice: "Red", count: 2, percent: 66.7 },
          { choice: "Green", count: 0, percent: 0 },
          { choice: "Blue", count: 0, percent: 0 }
        ]
      })
      expect((await summary(form.id, "?tag=all")).questions).toEqual(report.questions)
      const other = await createForm(server, a.keys.owner, { title: "Gone", fields: [fields[1]!] })
      const given = await api(server, a.keys.owner, "POST", `/forms/${other.id}/responses`, {
        values: { [other.fields[0]!.id]: "Red" }
      })
      expect(given.status, given.text).toBe(201)
      expect((await api(server, a.keys.owner, "DELETE", `/forms/${other.id}`)).status).toBe(204)
      expect((await api(server, a.keys.owner, "GET", `/forms/${other.id}/summary`)).status).toBe(404)
      expect((await summary(form.id)).totals.responses).toBe(3)
    })
  })
}
