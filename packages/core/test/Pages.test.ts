/**
 * Pages of several questions (`settings.pages`, a question's `page`) over
 * real HTTP, on every test database: saved and refused as the rules say, and
 * the public page without JavaScript showing a page's questions together,
 * refusing one answer without losing the others, going back, jumping to a
 * page once the page is sent, counting progress by pages, and storing the
 * response.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import {
  api,
  asInput,
  getPage,
  hidden,
  listResponses,
  postStep,
  seedWorkspace,
  tokenOf
} from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

for (const target of databaseTargets) {
  describe(`pages on ${target.name}`, () => {
    let server: TestServer
    let key: string

    beforeAll(async () => {
      server = await startTestServer(target, {
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 100, burst: 1000 } }
      })
      key = (await seedWorkspace(server)).key
    })
    afterAll(() => server?.close())

    /**
     * Name (own page); page "contact": email, phone, "How should we reply?" (a choice whose "Never mind"
     * jumps to page "last"); "Anything else?" (own page); page "last": rating and comment.
     */
    const pagedForm = async () => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Paged",
        settings: {
          pages: [
            { key: "contact", title: "How can we reach you?", description: "We answer within a day." },
            { key: "last", title: "Last things" }
          ]
        },
        fields: [
          { type: "short_text", label: "Your name", required: true },
          { type: "email", label: "Email", required: true, page: "contact" },
          { type: "tel", label: "Phone", page: "contact" },
          {
            type: "select",
            label: "How should we reply?",
            ref: "reply",
            page: "contact",
            options: { choices: ["Email", "Phone", "Never mind"] },
            logic: [{ if: { field: "ref:reply", equals: "Never mind" }, then: { jumpTo: "page:last" } }]
          },
          { type: "long_text", label: "Anything else?" },
          { type: "rating", label: "How was it?", page: "last" },
          { type: "short_text", label: "A last word", page: "last" }
        ]
      })
      expect(created.status, created.text).toBe(201)
      expect((await api(server, key, "PATCH", `/forms/${created.body.id}`, { status: "published" })).status).toBe(200)
      const form = (await api(server, key, "GET", `/forms/${created.body.id}`)).body as {
        id: number
        publicId: string
        fields: ReadonlyArray<{ id: number; label: string; page?: string }>
      }
      return form
    }

    /** The ids of the paged form's seven questions, in order. */
    const idsOf = (form: { readonly fields: ReadonlyArray<{ readonly id: number }> }) =>
      form.fields.map((f) => f.id) as [number, number, number, number, number, number, number]

    const step =
      (html: string, pairs: ReadonlyArray<readonly [string, string]>, move = "next") =>
      (publicId: string) =>
        postStep(server, publicId, [
          ["token", tokenOf(html)],
          ["at", hidden(html, "at")],
          ["website", ""],
          ...pairs,
          ["move", move]
        ])

    it("saves a question's page, and refuses pages that do not hold together, naming the rule", async () => {
      const form = await pagedForm()
      expect(form.fields.map((f) => f.page ?? null)).toEqual([
        null,
        "contact",
        "contact",
        "contact",
        null,
        "last",
        "last"
      ])
      const fields = form.fields.map(asInput)
      const refused = async (body: Record<string, unknown>) => {
        const answer = await api(server, key, "PATCH", `/forms/${form.id}`, body)
        expect(answer.status, answer.text).toBe(400)
        return answer.body.error as string
      }
      expect(await refused({ fields: [{ ...fields[0], page: "nowhere" }, ...fields.slice(1)] })).toContain(
        'fields.0.page: "nowhere" is not a page of this form (settings.pages)'
      )
      expect(
        await refused({ fields: [fields[0], fields[1], fields[4], fields[2], fields[3], fields[5], fields[6]] })
      ).toContain('the questions of page "contact" must follow one another')
      expect(
        await refused({
          fields: [...fields.slice(0, 5), { type: "file", label: "A file", page: "last" }, ...fields.slice(5)]
        })
      ).toContain("a file question is a page of its own")
      expect(
        await refused({
          fields: [
            fields[0],
            fields[1],
            { ...fields[2], showIf: { field: form.fields[1]!.id, isNotEmpty: true } },
            ...fields.slice(3)
          ]
        })
      ).toContain("is on the same page, whose answers are sent together")
      // Removing a page its questions name is refused too.
      expect(await refused({ settings: { pages: [{ key: "contact" }] } })).toContain(
        '"last" is not a page of this form (settings.pages)'
      )
    })

    it("shows a page's questions together without JavaScript, keeps answers through a refusal and back, and jumps once the page is sent", async () => {
      const form = await pagedForm()
      const [name, email, phone, reply, more, rating, word] = idsOf(form)
      const welcome = await getPage(server, `/f/${form.publicId}`)
      const first = await step(welcome.text, [])(form.publicId)
      expect(first.text).toContain("Your name")
      expect(first.text).toContain("1 of 4") // pages: name, contact, anything else, last
      const contact = await step(first.text, [["a", "Ada"]])(form.publicId)
      expect(contact.status).toBe(200)
      // One screen: the page's title and description, its three questions with their own names and ids.
      expect(contact.text).toContain('<h2 class="page-title">How can we reach you?</h2>')
      expect(contact.text).toContain("We answer within a day.")
      for (const id of [email, phone, reply]) expect(contact.text).toContain(`data-q="${id}"`)
      expect(contact.text).toContain(`name="q${email}"`)
      expect(contact.text).toContain(`id="q${email}-a"`)
      expect(contact.text).toContain(`for="q${email}-a"`)
      expect(contact.text).toContain("2 of 4")
      expect(hidden(contact.text, "at")).toBe(String(email))
      expect(contact.text.match(/ autofocus/g)?.length).toBe(1)

      // A wrong e-mail: the page again, 400, the message beside that question, the other answers kept.
      const wrong = await step(contact.text, [
        [`q${email}`, "not an address"],
        [`q${phone}`, "+43 1 234 5678"],
        [`q${reply}`, "Phone"]
      ])(form.publicId)
      expect(wrong.status).toBe(400)
      expect(wrong.text).toMatch(new RegExp(`id="q${email}-error"[^>]*>&quot;Email&quot; must be an email address<`))
      // Only the refused question is marked invalid.
      expect(wrong.text).not.toMatch(new RegExp(`id="q${phone}-error"[^>]*>[^<]`))
      expect(wrong.text).toContain('value="+43 1 234 5678"')
      expect(wrong.text).toMatch(/value="Phone" checked/)

      // "Never mind" jumps to the page "last" once the page is sent: "Anything else?" is passed over.
      const last = await step(wrong.text, [
        [`q${email}`, "ada@example.com"],
        [`q${phone}`, ""],
        [`q${reply}`, "Never mind"]
      ])(form.publicId)
      expect(last.status).toBe(200)
      expect(last.text).toContain('<h2 class="page-title">Last things</h2>')
      expect(last.text).not.toContain("Anything else?")
      expect(last.text).toContain("3 of 3")

      // Back: the contact page with its answers.
      const back = await step(last.text, [[`q${rating}`, "4"]], "back")(form.publicId)
      expect(back.text).toContain('value="ada@example.com"')
      expect(back.text).toMatch(/value="Never mind" checked/)

      // On again, and send.
      const again = await step(back.text, [
        [`q${email}`, "ada@example.com"],
        [`q${reply}`, "Never mind"]
      ])(form.publicId)
      const sent = await step(again.text, [
        [`q${rating}`, "4"],
        [`q${word}`, "Thanks"]
      ])(form.publicId)
      expect(sent.status, sent.text.slice(0, 500)).toBe(200)
      expect(sent.text).toContain("Thank you!")
      const stored = (await listResponses(server, key, form.id))[0]!
      expect(stored.values).toEqual({
        [name]: "Ada",
        [email]: "ada@example.com",
        [reply]: "Never mind",
        [rating]: 4,
        [word]: "Thanks"
      })
      expect(stored.values).not.toHaveProperty(String(more))
    })

    it("a JSON submission walks the pages the same way: a jump on a page passes over what comes before its target", async () => {
      const form = await pagedForm()
      const [name, email, , reply, more, rating] = idsOf(form)
      // "Anything else?" is not on the path once the page jumps: an answer sent for it is not kept.
      const submitted = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [name]: "Bo", [email]: "bo@example.com", [reply]: "Never mind", [more]: "skipped", [rating]: 2 }
      })
      expect(submitted.status, submitted.text).toBe(201)
      expect(submitted.body.values).not.toHaveProperty(String(more))
      expect(submitted.body.values).toMatchObject({ [rating]: 2, [reply]: "Never mind" })
      // Without the jump, it is on the path and kept.
      const kept = await api(server, key, "POST", `/forms/${form.id}/responses`, {
        values: { [name]: "Cy", [email]: "cy@example.com", [reply]: "Email", [more]: "kept", [rating]: 5 }
      })
      expect(kept.status, kept.text).toBe(201)
      expect(kept.body.values).toMatchObject({ [more]: "kept", [rating]: 5 })
    })
  })
}
