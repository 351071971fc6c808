/**
 * Variables, scores and endings over HTTP, on both databases: a quiz whose
 * choices give points and whose questions calculate variables, endings
 * chosen by a logic jump or by the score, recall in the ending and its
 * links (URL-encoded), the outcome stored on the response (`var:<name>`,
 * `ending`) and exported (flat answers, CSV); the page without JavaScript
 * shows the chosen ending and redirects; bad settings get 400 naming the
 * problem.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { answer, api, asInput, createForm, getPage, seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

for (const target of databaseTargets) {
  describe(`scores and endings on ${target.name}`, () => {
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

    /**
     * A quiz: name; capital of France (Paris 2 points, Lyon -1); which are planets (Mars, Venus 1 each);
     * "Give up?" (Yes jumps to the ending "quit"). Variable `level` is set to "expert" by Mars; `bonus` is
     * doubled by Venus. Endings: "top" when the score is over 3, "rest" by default (the first without a
     * condition), "quit" only by the jump.
     */
    const quizForm = async () => {
      const form = await createForm(server, key, {
        title: "Quiz",
        fields: [
          { type: "short_text", label: "Your name", required: true },
          {
            type: "select",
            label: "Capital of France?",
            required: true,
            options: { choices: ["Paris", "Lyon", "Nice"], points: { Paris: 2, Lyon: -1 } }
          },
          {
            type: "checkboxes",
            label: "Which are planets?",
            options: { choices: ["Mars", "Venus", "Moon"], points: { Mars: 1, Venus: 1 } }
          },
          { type: "yes_no", label: "Give up?" },
          { type: "short_text", label: "Anything else, {{field:0}}?" }
        ]
      })
      const [name, capital, planets, giveUp, last] = form.fields.map((f) => f.id) as [
        number,
        number,
        number,
        number,
        number
      ]
      const fields = form.fields.map(asInput)
      const patched = await api(server, key, "PATCH", `/forms/${form.id}`, {
        settings: {
          variables: [
            { name: "level", type: "text", initial: "beginner" },
            { name: "bonus", type: "number", initial: 1.5 }
          ],
          endings: [
            {
              key: "top",
              title: `Well done, {{field:${name}}}!`,
              message: "You scored {{var:score}} ({{var:level}}).",
              when: { field: "var:score", greaterThan: 3 },
              button: { label: "Share", url: `https://example.com/share?who={{field:${name}}}&s={{var:score}}` }
            },
            { key: "rest", title: `Thanks, {{field:${name}}}: {{var:score}} points` },
            { key: "quit", title: "Maybe next time", redirectUrl: `https://example.com/bye?n={{field:${name}}}` }
          ]
        },
        fields: [
          fields[0],
          fields[1],
          {
            ...fields[2],
            calculate: [
              { if: { field: planets, equals: "Mars" }, variable: "level", set: "expert" },
              { if: { field: planets, equals: "Venus" }, variable: "bonus", multiply: 2 }
            ]
          },
          { ...fields[3], logic: [{ if: { field: giveUp, equals: "Yes" }, then: { jumpTo: "ending:quit" } }] },
          { ...fields[4], label: `Anything else? You have {{var:score}} points` }
        ]
      })
      expect(patched.status, patched.text).toBe(200)
      return { form, name, capital, planets, giveUp, last }
    }

    it("stores the score, the variables and the ending chosen by the score, a logic jump or by default", async () => {
      const { form, name, capital, planets, giveUp } = await quizForm()
      const submit = (values: Record<string, unknown>) =>
        api(server, key, "POST", `/forms/${form.id}/responses`, { values })

      const top = await submit({ [name]: "Ada", [capital]: "Paris", [planets]: ["Mars", "Venus"], [giveUp]: false })
      expect(top.status, top.text).toBe(201)
      expect(top.body.values).toMatchObject({ "var:score": 4, "var:level": "expert", "var:bonus": 3, ending: "top" })

      const quit = await submit({ [name]: "Bo", [capital]: "Paris", [planets]: ["Mars", "Venus"], [giveUp]: true })
      expect(quit.status, quit.text).toBe(201)
      // The jump wins over the score, and the questions after it are not on the path.
      expect(quit.body.values).toMatchObject({ "var:score": 4, ending: "quit" })

      const rest = await submit({ [name]: "Cy", [capital]: "Lyon", [planets]: ["Moon"] })
      expect(rest.status, rest.text).toBe(201)
      expect(rest.body.values).toMatchObject({
        "var:score": -1,
        "var:level": "beginner",
        "var:bonus": 1.5,
        ending: "rest"
      })

      // A client cannot set the outcome itself: keys that are no question are refused.
      const forged = await submit({ [name]: "Di", [capital]: "Nice", "var:score": 100 })
      expect(forged.status).toBe(400)

      const list = await api(server, key, "GET", `/forms/${form.id}/responses?flat=1`)
      expect(list.status, list.text).toBe(200)
      expect(list.body.valueKeys).toEqual(["var:level", "var:bonus", "var:score", "ending"])
      const listed = (list.body.responses as Array<{ id: number; answers?: Record<string, string> }>).find(
        (r) => r.id === top.body.id
      )
      expect(listed?.answers).toMatchObject({ "var:score": "4", "var:level": "expert", ending: "top" })

      const csv = await fetch(`${server.url}/api/forms/${form.id}/responses.csv`, {
        headers: { authorization: `Bearer ${key}` }
      })
      const text = await csv.text()
      expect(csv.status, text).toBe(200)
      const [header, ...rows] = text.trim().split("\r\n")
      expect(header).toContain(",var:level,var:bonus,var:score,ending")
      expect(rows.some((row) => row.endsWith(",expert,3,4,top"))).toBe(true)
    })

    it("calculates from the answers (price × quantity), saved with refs in one request, and shows the total", async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Order",
        hiddenFields: [{ name: "price" }],
        settings: {
          variables: [
            { name: "total", type: "number" },
            { name: "size", type: "text" }
          ],
          endings: [{ key: "done", title: "Your total: {{var:total}} ({{var:size}})" }]
        },
        fields: [
          { type: "select", label: "Size", ref: "size", options: { choices: ["Small", "Large"] } },
          {
            type: "number",
            label: "How many?",
            ref: "qty",
            required: true,
            calculate: [
              { variable: "total", set: { field: "hidden:price" } },
              { variable: "total", multiply: { field: "ref:qty" } },
              { if: { field: "ref:size", equals: "Large" }, variable: "total", add: { field: "ref:qty" } },
              { variable: "size", set: { field: "ref:size" } }
            ]
          }
        ]
      })
      expect(created.status, created.text).toBe(201)
      const form = (await api(server, key, "GET", `/forms/${created.body.id}`)).body
      const [size, qty] = form.fields.map((f: { id: number }) => f.id) as [number, number]
      // Saved with the refs resolved to the questions' ids.
      expect(form.fields[1].calculate).toEqual([
        { variable: "total", set: { field: "hidden:price" } },
        { variable: "total", multiply: { field: qty } },
        { if: { field: size, equals: "Large" }, variable: "total", add: { field: qty } },
        { variable: "size", set: { field: size } }
      ])
      expect((await api(server, key, "PATCH", `/forms/${form.id}`, { status: "published" })).status).toBe(200)
      const submitted = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [size]: "Large", [qty]: 3 },
        hidden: { price: "12.5" }
      })
      expect(submitted.status, submitted.text).toBe(201)
      // 12.5 × 3, plus 1 a piece for Large.
      expect(submitted.body.values).toMatchObject({ "var:total": 40.5, "var:size": "Large", ending: "done" })
      // A value from a later question, or from none, is refused naming it.
      const later = await api(server, key, "PATCH", `/forms/${form.id}`, {
        fields: [
          { ...asInput(form.fields[0]), calculate: [{ variable: "total", add: { field: qty } }] },
          asInput(form.fields[1])
        ]
      })
      expect(later.status).toBe(400)
      expect(later.body.error).toContain("fields.0.calculate.0.add: a calculation may only look at earlier answers")
      const unknown = await api(server, key, "PATCH", `/forms/${form.id}`, {
        fields: [
          asInput(form.fields[0]),
          { ...asInput(form.fields[1]), calculate: [{ variable: "total", add: { field: "hidden:cost" } }] }
        ]
      })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error).toContain('fields.1.calculate.0.add: "hidden:cost" is not a hidden field of this form')
    })

    it("shows the chosen ending on the page without JavaScript, with recall, its button and its redirect", async () => {
      const { form } = await quizForm()
      const run = async (answers: ReadonlyArray<ReadonlyArray<string>>) => {
        let page = await getPage(server, `/f/${form.publicId}`)
        page = await answer(server, form.publicId, page.text, [], "start")
        for (const given of answers) {
          expect(page.status, page.text).toBe(200)
          page = await answer(server, form.publicId, page.text, given)
        }
        return page
      }
      const top = await run([["Ada Lovelace"], ["Paris"], ["Mars", "Venus"], ["no"], ["nothing"]])
      expect(top.status, top.text).toBe(200)
      expect(top.text).toContain("Well done, Ada Lovelace!")
      expect(top.text).toContain("You scored 4 (expert).")
      expect(top.text).toContain('href="https://example.com/share?who=Ada%20Lovelace&amp;s=4"')
      expect(top.text).toContain("<title>Well done, Ada Lovelace!</title>")
      expect(top.text).not.toContain("http-equiv")

      // The last question recalls the score as it is when the respondent reaches it.
      let page = await getPage(server, `/f/${form.publicId}`)
      page = await answer(server, form.publicId, page.text, [], "start")
      for (const given of [["Ed"], ["Paris"], ["Venus"]]) page = await answer(server, form.publicId, page.text, given)
      page = await answer(server, form.publicId, page.text, ["no"])
      expect(page.text).toContain("You have 3 points")

      const quit = await run([["Bo & Co"], ["Nice"], [], ["yes"]])
      expect(quit.status, quit.text).toBe(200)
      expect(quit.text).toContain("Maybe next time")
      expect(quit.text).toContain(
        '<meta http-equiv="refresh" content="0; url=https://example.com/bye?n=Bo%20%26%20Co">'
      )
      expect(quit.text).toContain('href="https://example.com/bye?n=Bo%20%26%20Co" data-redirect')
    })

    it("refuses variables, calculations, jumps and endings that do not fit, naming the problem", async () => {
      const { form, capital, planets } = await quizForm()
      const current = await api(server, key, "GET", `/forms/${form.id}`)
      const fields = (current.body.fields as Array<object>).map(asInput)
      const settings = current.body.settings as Record<string, unknown>
      const refused = async (body: object, message: string | RegExp) => {
        const reply = await api(server, key, "PATCH", `/forms/${form.id}`, body)
        expect(reply.status, reply.text).toBe(400)
        expect(reply.body.error).toMatch(message)
      }
      // A calculation of a variable the form does not declare.
      await refused(
        { fields: fields.map((f, i) => (i === 0 ? { ...f, calculate: [{ variable: "nope", add: 1 }] } : f)) },
        /"nope" is not a variable of this form/
      )
      // A text variable cannot be added to; a number one cannot be set to a text.
      await refused(
        { fields: fields.map((f, i) => (i === 0 ? { ...f, calculate: [{ variable: "level", set: 3 }] } : f)) },
        /"level" is a text variable/
      )
      await refused(
        { fields: fields.map((f, i) => (i === 0 ? { ...f, calculate: [{ variable: "bonus", set: "x" }] } : f)) },
        /"bonus" is a number variable/
      )
      // A jump to an ending the form does not have, and removing an ending a jump names.
      await refused(
        {
          fields: fields.map((f, i) =>
            i === 1 ? { ...f, logic: [{ if: { field: capital, equals: "Nice" }, then: { jumpTo: "ending:gone" } }] } : f
          )
        },
        /"gone" is not an ending of this form/
      )
      await refused(
        {
          settings: {
            ...settings,
            endings: (settings.endings as Array<{ key: string }>).filter((e) => e.key !== "quit")
          }
        },
        /"quit" is not an ending of this form/
      )
      // An ending's condition on a variable that is not declared.
      await refused(
        { settings: { ...settings, endings: [{ key: "a", title: "A", when: { field: "var:nope", greaterThan: 1 } }] } },
        /"nope" is not a variable of this form/
      )
      // Points on something that is not a choice; a link that is not http(s), or that lets an answer pick the host.
      await refused(
        {
          fields: fields.map((f, i) =>
            i === 2 ? { ...f, options: { choices: ["Mars", "Venus", "Moon"], points: { Pluto: 1 } } } : f
          )
        },
        /points names "Pluto", which is not a choice/
      )
      await refused(
        { settings: { ...settings, endings: [{ key: "a", title: "A", redirectUrl: "javascript:alert(1)" }] } },
        /an ending's link must be an http: or https: address/
      )
      await refused(
        {
          settings: {
            ...settings,
            endings: [{ key: "a", title: "A", redirectUrl: `https://{{field:${planets}}}/x` }]
          }
        },
        /not in its host/
      )
      await refused(
        {
          settings: {
            ...settings,
            endings: [
              { key: "a", title: "A" },
              { key: "a", title: "B" }
            ]
          }
        },
        /ending "a" is listed twice/
      )
      await refused(
        { settings: { ...settings, variables: [{ name: "n", type: "number", initial: "ten" }] } },
        /initial value must be a number/
      )
      // The form is unchanged by the refusals.
      const after = await api(server, key, "GET", `/forms/${form.id}`)
      expect(after.body.settings).toEqual(settings)
    })
  })
}
