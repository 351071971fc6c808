/**
 * The public form page over HTTP, on both databases: which forms show, the
 * step-by-step flow without JavaScript (validation messages, Back, the
 * signed token), the JSON submission, abuse checks (honeypot, rate limit,
 * minimum time), escaping of user content, and the security headers.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import {
  answer,
  api,
  createForm,
  getPage,
  hidden,
  listResponses,
  postJson,
  postStep,
  seedWorkspace,
  tokenOf
} from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
const TEXT = Buffer.from("just some text, not an image at all\n")
/** A multipart body as a browser sends it when no file was chosen: an empty part with filename="". */
const noFile = (fields: FormData) => {
  const boundary = "----qforms-boundary-7ma4ywxktrzu0gw" // lower case: a Blob lower-cases its type
  const parts = [...fields.entries()].map(
    ([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`
  )
  parts.splice(
    4,
    0,
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename=""\r\ncontent-type: application/octet-stream\r\n\r\n\r\n`
  )
  return new Blob([`${parts.join("")}--${boundary}--\r\n`], { type: `multipart/form-data; boundary=${boundary}` })
}
const XSS = `"><img src=x onerror=alert(1)><script>alert(1)</script>`

const everyType = [
  { type: "short_text", label: "Name", required: true },
  { type: "email", label: "Email", required: true },
  { type: "number", label: "Age", options: { min: 18, max: 99, step: 1 } },
  { type: "yes_no", label: "Subscribe?" },
  { type: "checkboxes", label: "Topics", options: { choices: ["A", "B", "C"], minSelections: 1, maxSelections: 2 } },
  { type: "rating", label: "Rate us", options: { max: 4 } },
  { type: "select", label: "Colour", options: { choices: ["Red", "Green"] } },
  { type: "select", label: "Country", options: { choices: ["a", "b", "c", "d", "e", "f", "g", "h"] } },
  { type: "statement", label: "Almost done" },
  { type: "long_text", label: "Comments" },
  { type: "tel", label: "Phone" },
  { type: "url", label: "Site" },
  { type: "date", label: "Day" }
]

/** The form's responses, or the events about its responses (not those about the form itself, as its publication). */
const countWhere = (server: TestServer, table: "responses" | "events", formId: number) =>
  server.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{
        readonly n: number
      }>`select count(*)::int as n from ${sql(table)} where form_id = ${formId}
        ${table === "events" ? sql`and response_id is not null` : sql``}`
      return rows[0]!.n
    })
  )

for (const target of databaseTargets) {
  describe(`public form page on ${target.name}`, () => {
    let server: TestServer
    let key: string

    beforeAll(async () => {
      server = await startTestServer(target, {
        // The tests here take many steps from one address; the per-address step limit is not what they check.
        publicPage: {
          minSubmitSeconds: 0,
          submissionRateLimit: { requestsPerSecond: 100, burst: 1000 },
          stepRateLimit: { requestsPerSecond: 100, burst: 1000 }
        }
      })
      key = (await seedWorkspace(server)).key
    })
    afterAll(async () => {
      await server?.close()
    })

    it("answers unknown and draft forms with a 404 page, closed ones with a page saying so", async () => {
      const unknown = await getPage(server, "/f/doesnotexist")
      expect(unknown.status).toBe(404)
      expect(unknown.headers.get("content-type")).toContain("text/html")
      expect(unknown.text).toContain("Form not found")
      const deeper = await getPage(server, "/f/doesnotexist/anything")
      expect(deeper.status).toBe(404)
      expect(deeper.headers.get("content-type")).toContain("text/html")

      const draft = await createForm(
        server,
        key,
        { title: "Draft form", fields: [{ type: "short_text", label: "Q" }] },
        "draft"
      )
      const draftPage = await getPage(server, `/f/${draft.publicId}`)
      expect(draftPage.status).toBe(404)
      expect(draftPage.text).not.toContain("Draft form")

      const closed = await createForm(
        server,
        key,
        { title: "Closed form", fields: [{ type: "short_text", label: "Q" }] },
        "closed"
      )
      const closedPage = await getPage(server, `/f/${closed.publicId}`)
      expect(closedPage.status).toBe(410)
      expect(closedPage.text).toContain("This form is no longer accepting responses")

      // The API's unknown paths stay JSON.
      const apiUnknown = await getPage(server, "/nothing-here")
      expect(apiUnknown.status).toBe(404)
      expect(apiUnknown.body).toEqual({ error: expect.any(String) })
    })

    it("serves the welcome screen with security headers and a nonce-only CSP", async () => {
      const form = await createForm(server, key, {
        title: "Welcome test",
        description: "Line one\nLine two",
        fields: [{ type: "short_text", label: "Q" }]
      })
      const page = await getPage(server, `/f/${form.publicId}`)
      expect(page.status).toBe(200)
      expect(page.text).toContain("<h1")
      expect(page.text).toContain("Welcome test")
      expect(page.text).toContain("Line one<br>Line two")
      const csp = page.headers.get("content-security-policy") ?? ""
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1]
      expect(nonce).toBeDefined()
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain("frame-ancestors *")
      expect(csp).not.toContain("unsafe")
      expect(page.text).toContain(`<script nonce="${nonce}">`)
      expect(page.headers.get("x-content-type-options")).toBe("nosniff")
      expect(page.headers.get("referrer-policy")).toBe("no-referrer")
      expect(page.headers.get("cache-control")).toBe("no-store")
      const again = await getPage(server, `/f/${form.publicId}`)
      expect(again.headers.get("content-security-policy")).not.toBe(csp)
    })

    it("escapes every user-provided string", async () => {
      const form = await createForm(server, key, {
        title: XSS,
        description: XSS,
        fields: [
          { type: "select", label: XSS, options: { choices: [XSS, "ok"], help: XSS } },
          { type: "short_text", label: "Second", options: { placeholder: XSS } }
        ]
      })
      const welcome = await getPage(server, `/f/${form.publicId}`)
      const step = await answer(server, form.publicId, welcome.text, [], "start")
      const second = await answer(server, form.publicId, step.text, [XSS])
      const invalid = await answer(server, form.publicId, welcome.text, [], "start").then((s) =>
        answer(server, form.publicId, s.text, [`not a choice ${XSS}`])
      )
      for (const page of [welcome, step, second, invalid]) {
        expect(page.text).not.toContain("<img src=x")
        expect(page.text).not.toContain("<script>alert")
        // Only the page's own script (under its nonce) may be a script element.
        const withoutOwn = page.text.replace(/<script nonce="[^"]+">[\s\S]*?<\/script>/, "")
        expect(withoutOwn).not.toContain("<script")
        expect(withoutOwn).not.toContain('"><img')
      }
      expect(step.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
      expect(second.text).toContain(`placeholder="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;`)
      expect(invalid.status).toBe(400)
    })

    it("goes one question per screen without JavaScript: messages next to the input, Back, then the thank-you screen", async () => {
      const form = await createForm(server, key, { title: "Every type", fields: everyType })
      const ids = form.fields.map((f) => f.id)
      const welcome = await getPage(server, `/f/${form.publicId}`)
      expect(welcome.text).toContain("12 questions")
      let page = await answer(server, form.publicId, welcome.text, [], "start")
      expect(page.status).toBe(200)
      expect(page.text).toContain(`name="at" value="${ids[0]}"`)
      expect(page.text).toContain("1 of 13")

      // Required, then corrected.
      let refused = await answer(server, form.publicId, page.text, [""])
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("&quot;Name&quot; is required")
      expect(refused.text).toContain(`aria-invalid="true"`)
      expect(hidden(refused.text, "at")).toBe(String(ids[0]))
      page = await answer(server, form.publicId, refused.text, ["Ada Lovelace"])
      expect(page.text).toContain(`type="email"`)

      refused = await answer(server, form.publicId, page.text, ["not-an-email"])
      expect(refused.text).toContain("&quot;Email&quot; must be an email address")
      expect(refused.text).toContain(`value="not-an-email"`)
      page = await answer(server, form.publicId, refused.text, ["ada@example.com"])

      expect(page.text).toMatch(/type="number"[^>]* min="18" max="99" step="1"/)
      refused = await answer(server, form.publicId, page.text, ["12"])
      expect(refused.text).toContain("&quot;Age&quot; must be at least 18")
      page = await answer(server, form.publicId, refused.text, ["36"])

      // Back keeps the answer.
      const back = await answer(server, form.publicId, page.text, ["yes"], "back")
      expect(back.text).toContain(`value="36"`)
      page = await answer(server, form.publicId, back.text, ["36"])
      expect(page.text).toContain(`value="yes"`)
      expect(page.text).toContain(`checked="checked"`)

      page = await answer(server, form.publicId, page.text, ["yes"])
      expect(page.text).toContain("Choose 1 to 2")
      refused = await answer(server, form.publicId, page.text, ["A", "B", "C"])
      expect(refused.text).toContain("allows at most 2 selections")
      page = await answer(server, form.publicId, refused.text, ["A", "C"])

      expect(page.text.match(/type="radio"/g)?.length).toBe(4)
      page = await answer(server, form.publicId, page.text, ["3"])
      expect(page.text.match(/type="radio"/g)?.length).toBe(2)
      page = await answer(server, form.publicId, page.text, ["Green"])
      expect(page.text).toContain("<select")
      page = await answer(server, form.publicId, page.text, ["h"])
      expect(page.text).toContain("Almost done")
      page = await answer(server, form.publicId, page.text, [])
      expect(page.text).toContain("<textarea")
      page = await answer(server, form.publicId, page.text, ["Line 1\nLine 2"])
      expect(page.text).toContain(`type="tel"`)
      page = await answer(server, form.publicId, page.text, ["+44 20 7946 0000"])
      page = await answer(server, form.publicId, page.text, ["https://example.com"])
      expect(page.text).toContain(`type="date"`)
      expect(page.text).toContain(">Submit<")
      const done = await answer(server, form.publicId, page.text, ["2024-03-15"])
      expect(done.status).toBe(200)
      expect(done.text).toContain("Thank you!")

      const responses = await listResponses(server, key, form.id)
      expect(responses).toHaveLength(1)
      expect(responses[0]!.source).toBe("form")
      const v = (i: number) => responses[0]!.values[String(ids[i])]
      expect([v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9), v(10), v(11), v(12)]).toEqual([
        "Ada Lovelace",
        "ada@example.com",
        36,
        true,
        ["A", "C"],
        3,
        "Green",
        "h",
        undefined,
        "Line 1\nLine 2",
        "+44 20 7946 0000",
        "https://example.com",
        "2024-03-15"
      ])
      expect(await countWhere(server, "events", form.id)).toBe(1)
      const detail = await api(server, key, "GET", `/responses/${responses[0]!.id}`)
      expect(detail.body.activities[0]).toMatchObject({ type: "created", payload: { source: "form" } })
    })

    it("refuses a tampered token or one of another form", async () => {
      const form = await createForm(server, key, { title: "Token", fields: [{ type: "short_text", label: "Q" }] })
      const other = await createForm(server, key, { title: "Other", fields: [{ type: "short_text", label: "Q" }] })
      const welcome = await getPage(server, `/f/${form.publicId}`)
      const token = tokenOf(welcome.text)
      const [payload, mac] = token.split(".") as [string, string]
      const state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
      const forged = `${Buffer.from(JSON.stringify({ ...state, startedAt: 0 })).toString("base64url")}.${mac}`
      // The last two characters of the MAC changed (never to what they were).
      const flipped = `${payload}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`
      for (const bad of [forged, flipped, "garbage", ""]) {
        const refused = await postStep(server, form.publicId, [
          ["token", bad],
          ["at", "welcome"],
          ["move", "start"]
        ])
        expect(refused.status, bad).toBe(400)
        expect(refused.text).toContain("Start again")
      }
      const elsewhere = await postStep(server, other.publicId, [
        ["token", token],
        ["at", "welcome"],
        ["move", "start"]
      ])
      expect(elsewhere.status).toBe(400)
      expect(elsewhere.text).toContain("another form")
      const fine = await postStep(server, form.publicId, [
        ["token", token],
        ["at", "welcome"],
        ["move", "start"]
      ])
      expect(fine.status).toBe(200)
    })

    it("drops a submission whose honeypot is filled (thank-you page, nothing stored); JSON gets a 400", async () => {
      const form = await createForm(server, key, { title: "Honeypot", fields: [{ type: "short_text", label: "Q" }] })
      const welcome = await getPage(server, `/f/${form.publicId}`)
      const page = await answer(server, form.publicId, welcome.text, [], "start")
      const done = await postStep(server, form.publicId, [
        ["token", tokenOf(page.text)],
        ["at", hidden(page.text, "at")],
        ["website", "http://spam.example"],
        ["a", "spam"]
      ])
      expect(done.status).toBe(200)
      expect(done.text).toContain("Thank you!")
      const json = await postJson(server, form.publicId, { values: { [form.fields[0]!.id]: "spam" }, website: "x" })
      expect(json.status).toBe(400)
      expect(json.body.error).toContain("website")
      expect(await countWhere(server, "responses", form.id)).toBe(0)
    })

    it("takes JSON submissions: 201 with the id, shown in the API with source form and its event; 400/404/409/415 otherwise", async () => {
      const form = await createForm(server, key, {
        title: "JSON",
        fields: [
          { type: "email", label: "Email", required: true },
          { type: "rating", label: "Stars" }
        ]
      })
      const [email, stars] = form.fields.map((f) => f.id) as [number, number]
      const invalid = await postJson(server, form.publicId, { values: { [stars]: 9 } })
      expect(invalid.status).toBe(400)
      expect(invalid.body.details).toEqual([
        { path: `values.${email}`, message: '"Email" is required' },
        { path: `values.${stars}`, message: '"Stars" must be a whole number from 1 to 5' }
      ])
      expect((await postJson(server, form.publicId, { nope: 1 })).status).toBe(400)
      const notJson = await fetch(`${server.url}/f/${form.publicId}/responses`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "values"
      })
      expect(notJson.status).toBe(415)
      expect((await postJson(server, "unknown", { values: {} })).status).toBe(404)

      const created = await postJson(server, form.publicId, { values: { [email]: "grace@example.com", [stars]: 5 } })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({ id: expect.any(Number) })
      const detail = await api(server, key, "GET", `/responses/${created.body.id}`)
      expect(detail.body.response).toMatchObject({ source: "form", email: "grace@example.com" })
      expect(await countWhere(server, "events", form.id)).toBe(1)

      await api(server, key, "PATCH", `/forms/${form.id}`, { status: "closed" })
      const closed = await postJson(server, form.publicId, { values: { [email]: "x@example.com" } })
      expect(closed.status).toBe(409)
      expect(closed.body).toEqual({ error: expect.any(String) })
      expect(await countWhere(server, "responses", form.id)).toBe(1)
      // A draft is a 404, as its page: the answer does not tell that it exists.
      await api(server, key, "PATCH", `/forms/${form.id}`, { status: "draft" })
      const draft = await postJson(server, form.publicId, { values: { [email]: "x@example.com" } })
      expect(draft.status).toBe(404)
      expect(draft.body).toEqual({ error: `form ${form.publicId} not found` })
    })

    it("takes a file without JavaScript: the step post carries it, checked on its bytes, then attached to the response", async () => {
      const form = await createForm(server, key, {
        title: "Files",
        fields: [
          { type: "file", label: "Photo", required: true, options: { accept: ["image/png"], maxSizeMb: 1 } },
          { type: "short_text", label: "Caption" }
        ]
      })
      const [photo, caption] = form.fields.map((f) => f.id) as [number, number]
      const welcome = await getPage(server, `/f/${form.publicId}`)
      const page = await answer(server, form.publicId, welcome.text, [], "start")
      expect(page.text).toContain(`enctype="multipart/form-data"`)
      expect(page.text).toContain(`accept="image/png"`)
      const post = (html: string, file: { bytes: Buffer; name: string; type: string } | undefined) => {
        const body = new FormData()
        body.set("token", tokenOf(html))
        body.set("at", hidden(html, "at"))
        body.set("website", "")
        body.set("a", "")
        if (file !== undefined) body.set("file", new Blob([file.bytes], { type: file.type }), file.name)
        body.set("move", "next")
        return fetch(`${server.url}/f/${form.publicId}`, {
          method: "POST",
          body: file === undefined ? noFile(body) : body
        }).then(async (r) => ({
          status: r.status,
          text: await r.text()
        }))
      }
      // A text file named .png is refused by its content; no file at all is "required".
      const wrongType = await post(page.text, { bytes: TEXT, name: "fake.png", type: "image/png" })
      expect(wrongType.status).toBe(400)
      expect(wrongType.text).toMatch(/class="error"[^>]*>[^<]*(type|PNG|png)/)
      const none = await post(wrongType.text, undefined)
      expect(none.text).toContain("&quot;Photo&quot; is required")
      const tooBig = await post(none.text, {
        bytes: Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10)]),
        name: "big.png",
        type: "image/png"
      })
      expect(tooBig.status).toBe(400)
      expect(tooBig.text).toContain(`aria-invalid="true"`)
      const next = await post(tooBig.text, { bytes: PNG, name: "pixel.png", type: "image/png" })
      expect(next.status).toBe(200)
      expect(next.text).toContain(`name="at" value="${caption}"`)
      // Back shows the file kept.
      const back = await answer(server, form.publicId, next.text, ["A caption"], "back")
      expect(back.text).toContain("Uploaded pixel.png")
      // Going on without choosing a new file keeps the uploaded one (the page's hidden answer).
      const kept = await postStep(server, form.publicId, [
        ["token", tokenOf(back.text)],
        ["at", String(photo)],
        ["a", hidden(back.text, "a").replaceAll("&quot;", '"')],
        ["move", "next"]
      ])
      expect(kept.status).toBe(200)
      const done = await answer(server, form.publicId, kept.text, ["A caption"])
      expect(done.text).toContain("Thank you!")
      const responses = await listResponses(server, key, form.id)
      expect(responses).toHaveLength(1)
      expect(responses[0]!.values[String(photo)]).toMatchObject({
        fileId: expect.any(String),
        name: "pixel.png",
        size: PNG.length,
        type: "image/png"
      })
    })

    it("takes a file uploaded ahead (the JavaScript path) as the answer of a JSON submission", async () => {
      const form = await createForm(server, key, {
        title: "Upload then submit",
        fields: [{ type: "file", label: "Document", required: true, options: { accept: ["application/pdf"] } }]
      })
      const field = form.fields[0]!.id
      const upload = new FormData()
      upload.set("file", new Blob([PDF], { type: "application/pdf" }), "cv.pdf")
      const uploaded = await fetch(`${server.url}/f/${form.publicId}/uploads?fieldId=${field}`, {
        method: "POST",
        body: upload
      })
      expect(uploaded.status).toBe(201)
      const file = (await uploaded.json()) as Record<string, unknown>
      const created = await postJson(server, form.publicId, { values: { [field]: file } })
      expect(created.status).toBe(201)
      const forged = await postJson(server, form.publicId, { values: { [field]: { ...file, fileId: "f_forged" } } })
      expect(forged.status).toBe(400)
      const detail = await api(server, key, "GET", `/responses/${created.body.id}`)
      expect(detail.body.response.values[String(field)]).toMatchObject({ name: "cv.pdf", type: "application/pdf" })
    })

    it("signs without JavaScript by a typed name and the consent box; a drawing uploaded ahead is the answer when no name is typed", async () => {
      const form = await createForm(server, key, {
        title: "Waiver",
        fields: [
          { type: "signature", label: "Sign here", required: true },
          { type: "signature", label: "Witness", required: false }
        ]
      })
      const [signer, witness] = form.fields.map((f) => f.id) as [number, number]
      const welcome = await getPage(server, `/f/${form.publicId}`)
      let page = await answer(server, form.publicId, welcome.text, [], "start")
      expect(page.text).toContain(`name="a.typedName"`)
      expect(page.text).toContain(`name="a.consent" value="yes"`)
      // The pad is hidden until the page's script shows it.
      expect(page.text).toMatch(/data-signature data-field="\d+" hidden/)

      let refused = await answer(server, form.publicId, page.text, [""])
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("&quot;Sign here&quot; is required")
      refused = await answer(server, form.publicId, page.text, [""], "next", [["a.typedName", "Ada Lovelace"]])
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("tick the box to agree that your typed name is your signature")
      expect(refused.text).toContain(`value="Ada Lovelace"`)
      refused = await answer(server, form.publicId, refused.text, [""], "next", [["a.consent", "yes"]])
      expect(refused.text).toContain("type your full name to sign")
      expect(refused.text).toMatch(/name="a\.consent" value="yes" checked="checked"/)
      page = await answer(server, form.publicId, refused.text, [""], "next", [
        ["a.typedName", "Ada Lovelace"],
        ["a.consent", "yes"]
      ])
      expect(page.status).toBe(200)
      // Back shows the typed signature with its box ticked.
      const back = await answer(server, form.publicId, page.text, [""], "back")
      expect(back.text).toContain(`value="Ada Lovelace"`)
      expect(back.text).toMatch(/name="a\.consent" value="yes" checked="checked"/)
      page = await answer(server, form.publicId, back.text, [""], "next", [
        ["a.typedName", "Ada Lovelace"],
        ["a.consent", "yes"]
      ])

      // The witness draws (the script uploads the PNG and posts its answer as "a").
      const upload = new FormData()
      upload.set("file", new Blob([PNG], { type: "image/png" }), "signature.png")
      const uploaded = await fetch(`${server.url}/f/${form.publicId}/uploads?fieldId=${witness}`, {
        method: "POST",
        body: upload
      })
      expect(uploaded.status).toBe(201)
      const drawn = (await uploaded.json()) as Record<string, unknown>
      const done = await answer(server, form.publicId, page.text, [JSON.stringify(drawn)])
      expect(done.text).toContain("Thank you!")
      const responses = await listResponses(server, key, form.id)
      expect(responses[0]!.values[String(signer)]).toEqual({ typedName: "Ada Lovelace", consent: true })
      expect(responses[0]!.values[String(witness)]).toEqual({ ...drawn, name: "signature.png", type: "image/png" })
    })

    it("offers Other with a text box and shows randomised choices in one order per respondent", async () => {
      const form = await createForm(server, key, {
        title: "Other and order",
        fields: [
          {
            type: "select",
            label: "Topic",
            required: true,
            options: {
              choices: ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"],
              randomize: true,
              allowOther: true
            }
          },
          {
            type: "checkboxes",
            label: "Channels",
            options: { choices: ["Mail", "Phone"], allowOther: true, otherLabel: "Somewhere else" }
          }
        ]
      })
      const [topic, channels] = form.fields.map((f) => f.id) as [number, number]
      const orderOf = (html: string) => [...html.matchAll(/name="a" value="([^"]*)"/g)].map((m) => m[1])
      const start = async () =>
        answer(server, form.publicId, (await getPage(server, `/f/${form.publicId}`)).text, [], "start")

      // Every respondent sees every choice, Other last; not all in the same order.
      const orders = new Set<string>()
      for (let i = 0; i < 6; i++) {
        const shown = orderOf((await start()).text)
        expect([...shown].sort()).toEqual(["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Other"].sort())
        expect(shown.at(-1)).toBe("Other")
        orders.add(shown.join(","))
      }
      expect(orders.size).toBeGreaterThan(1)

      let page = await start()
      const order = orderOf(page.text)
      expect(page.text).toMatch(/value="Other"[^>]* data-other/)
      expect(page.text).toContain(`<label for="a-other">Other: your answer</label>`)
      // Other chosen, its box left empty: refused, in the same order.
      const refused = await answer(server, form.publicId, page.text, ["Other"])
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("&quot;Topic&quot;: type your answer for &quot;Other&quot;")
      expect(orderOf(refused.text)).toEqual(order)
      page = await answer(server, form.publicId, refused.text, ["Other"], "next", [["a.other", " A feature idea "]])
      expect(page.text).toContain('name="a.other"')
      expect(page.text).toContain("Somewhere else: your answer")
      // Back: Other is chosen again, with its text.
      const back = await answer(server, form.publicId, page.text, [], "back")
      expect(back.text).toMatch(/value="Other" checked="checked"/)
      expect(back.text).toContain('value="A feature idea"')
      expect(orderOf(back.text)).toEqual(order)
      page = await answer(server, form.publicId, back.text, ["Other"], "next", [["a.other", "A feature idea"]])
      const done = await answer(server, form.publicId, page.text, ["Phone", "Somewhere else"], "next", [
        ["a.other", "Carrier pigeon"]
      ])
      expect(done.text).toContain("Thank you!")
      const responses = await listResponses(server, key, form.id)
      expect(responses[0]!.values[String(topic)]).toBe("A feature idea")
      expect(responses[0]!.values[String(channels)]).toEqual(["Phone", "Carrier pigeon"])
    })

    it("pre-fills answers from the link (valid ones only, never legal), and with skipPrefilled does not ask them again", async () => {
      const form = await createForm(server, key, {
        title: "Pre-filled",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: true },
          { type: "checkboxes", label: "Channels", options: { choices: ["Mail", "Phone"], allowOther: true } },
          { type: "contact", label: "Reach you", options: { parts: ["name", "email"] } },
          { type: "legal", label: "I accept the terms", required: true }
        ]
      })
      const [name, email, channels, contact, terms] = form.fields.map((f) => f.id) as [
        number,
        number,
        number,
        number,
        number
      ]
      const link = new URLSearchParams([
        [`prefill.${name}`, " Ada Lovelace "],
        [`prefill.${email}`, "not-an-email"],
        [`prefill.${channels}`, "Mail"],
        [`prefill.${channels}`, "Other"],
        [`prefill.${channels}.other`, "Pigeon"],
        [`prefill.${contact}.name`, "Ada"],
        [`prefill.${contact}.email`, "ada@example.com"],
        [`prefill.${terms}`, "yes"],
        ["prefill.999999", "nobody's"],
        ["prefill.", ""],
        [`prefill.${name}.__proto__`, "x"]
      ]).toString()
      const visit = async () => {
        const welcome = await getPage(server, `/f/${form.publicId}?${link}`)
        expect(welcome.status).toBe(200)
        return answer(server, form.publicId, welcome.text, [], "start")
      }
      // Shown, filled in: the valid values only.
      let page = await visit()
      expect(hidden(page.text, "at")).toBe(String(name))
      expect(page.text).toContain(`value="Ada Lovelace"`)
      page = await answer(server, form.publicId, page.text, ["Ada Lovelace"])
      expect(hidden(page.text, "at")).toBe(String(email))
      expect(page.text).not.toContain("not-an-email")
      page = await answer(server, form.publicId, page.text, ["ada@example.com"])
      expect(page.text).toMatch(/value="Mail" checked="checked"/)
      expect(page.text).toMatch(/value="Other" checked="checked"/)
      expect(page.text).toContain(`value="Pigeon"`)
      page = await answer(server, form.publicId, page.text, ["Mail", "Other"], "next", [["a.other", "Pigeon"]])
      expect(page.text).toContain(`value="ada@example.com"`)
      page = await answer(server, form.publicId, page.text, [], "next", [
        ["a.name", "Ada"],
        ["a.email", "ada@example.com"]
      ])
      // The terms are never accepted for the respondent.
      expect(hidden(page.text, "at")).toBe(String(terms))
      expect(page.text).not.toContain(`checked="checked"`)

      // With skipPrefilled, the pre-filled questions are passed over, forwards and back.
      const unknown = await api(server, key, "PATCH", `/forms/${form.id}`, { settings: { skipPrefiled: true } })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error).toContain(
        'unknown setting "skipPrefiled" (allowed: skipPrefilled, closesAt, maxResponses, oneResponsePerEmail, oneResponsePerDevice, accessCode, theme, variables, endings, pages, language, closedMessage, retention, sla, editableForHours)'
      )
      const patched = await api(server, key, "PATCH", `/forms/${form.id}`, { settings: { skipPrefilled: true } })
      expect(patched.status).toBe(200)
      expect((await api(server, key, "GET", `/forms/${form.id}`)).body.settings).toEqual({ skipPrefilled: true })
      page = await visit()
      expect(hidden(page.text, "at")).toBe(String(email))
      const back = await answer(server, form.publicId, page.text, ["ada@example.com"], "back")
      expect(back.text).toContain(">Start<")
      page = await answer(server, form.publicId, back.text, [], "start")
      expect(hidden(page.text, "at")).toBe(String(email))
      page = await answer(server, form.publicId, page.text, ["ada@example.com"])
      expect(hidden(page.text, "at")).toBe(String(terms))
      const done = await answer(server, form.publicId, page.text, ["yes"])
      expect(done.text).toContain("Thank you!")
      const responses = await listResponses(server, key, form.id)
      expect(responses[0]!.values).toEqual({
        [name]: "Ada Lovelace",
        [email]: "ada@example.com",
        [channels]: ["Mail", "Pigeon"],
        [contact]: { name: "Ada", email: "ada@example.com" },
        [terms]: true
      })
    })

    it("wears the form's theme on every screen; a theme failing WCAG AA contrast is refused with the reason", async () => {
      const form = await createForm(server, key, {
        title: "Themed",
        fields: [{ type: "short_text", label: "Name", required: true }]
      })
      const refused = await api(server, key, "PATCH", `/forms/${form.id}`, {
        settings: { theme: { background: "#ffffff", text: "#777777" } }
      })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toContain(
        "theme: text (#777777 on #ffffff) has a contrast of 4.47:1; WCAG AA needs 4.5:1"
      )
      const theme = {
        background: "#fdf6e3",
        text: "#073642",
        accent: "#268bd2",
        buttonText: "#000000",
        font: "serif",
        radius: 12,
        buttons: { start: "Let's go", next: "Next", submit: "Send <it>" }
      }
      const saved = await api(server, key, "PATCH", `/forms/${form.id}`, { settings: { theme } })
      expect(saved.status, saved.text).toBe(200)
      expect((await api(server, key, "GET", `/forms/${form.id}`)).body.settings).toEqual({ theme })
      const themed = (html: string) => {
        const style = /<style nonce="[^"]+">([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ""
        // After the page's own variables, so they win on light and dark devices alike.
        expect(style.lastIndexOf(":root{")).toBeGreaterThan(style.indexOf("prefers-color-scheme:dark"))
        expect(style).toContain("color-scheme:light;--bg:#fdf6e3;--fg:#073642;")
        expect(style).toContain("--accent:#268bd2;--accent-fg:#000000")
        expect(style).toContain("--font:ui-serif,")
        expect(style).toContain("--radius:12px")
      }
      const welcome = await getPage(server, `/f/${form.publicId}`)
      themed(welcome.text)
      expect(welcome.text).toContain(">Let&#39;s go</button>")
      const question = await answer(server, form.publicId, welcome.text, [], "start")
      themed(question.text)
      // The theme's words on the buttons, escaped; the words it leaves out are the page's own.
      expect(question.text).toContain(">Send &lt;it&gt;</button>")
      expect(question.text).not.toContain(">Submit</button>")
      const missing = await answer(server, form.publicId, question.text, [""])
      expect(missing.status).toBe(400)
      themed(missing.text)
      themed((await answer(server, form.publicId, question.text, ["Ada"])).text)
      // A form without a theme keeps the page's own style only.
      const plain = await createForm(server, key, { title: "Plain", fields: [{ type: "short_text", label: "Q" }] })
      expect((await getPage(server, `/f/${plain.publicId}`)).text).not.toContain("--radius:12px")
    })

    it("refuses bodies over the limit", async () => {
      const form = await createForm(server, key, { title: "Big", fields: [{ type: "long_text", label: "Q" }] })
      const big = "x".repeat(1024 * 1024 + 10)
      const json = await postJson(server, form.publicId, { values: { [form.fields[0]!.id]: big } })
      expect(json.status).toBe(413)
      const step = await postStep(server, form.publicId, [
        ["token", "t"],
        ["at", "welcome"],
        ["a", big]
      ])
      expect(step.status).toBe(413)
    })

    it("refuses answers with the NUL character and bodies that are not forms", async () => {
      const form = await createForm(server, key, { title: "NUL", fields: [{ type: "short_text", label: "Q" }] })
      const welcome = await getPage(server, `/f/${form.publicId}`)
      const page = await answer(server, form.publicId, welcome.text, [], "start")
      const nul = await answer(server, form.publicId, page.text, ["a\u0000b"])
      expect(nul.status).toBe(400)
      expect(nul.text).toContain("NUL")
      const plain = await fetch(`${server.url}/f/${form.publicId}`, {
        method: "POST",
        body: "x",
        headers: { "content-type": "text/plain" }
      })
      expect(plain.status).toBe(415)
      expect(plain.headers.get("content-type")).toContain("text/html")
    })
  })

  describe(`public form page abuse limits on ${target.name}`, () => {
    let slow: TestServer
    let limited: TestServer
    let proxied: TestServer

    beforeAll(async () => {
      slow = await startTestServer(target, { publicPage: { minSubmitSeconds: 60 } })
      limited = await startTestServer(target, {
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 0.01, burst: 2 } }
      })
      proxied = await startTestServer(target, {
        publicPage: {
          minSubmitSeconds: 0,
          submissionRateLimit: { requestsPerSecond: 0.01, burst: 1 },
          trustedProxyHops: 1
        }
      })
    })
    afterAll(async () => {
      await Promise.all([slow?.close(), limited?.close(), proxied?.close()])
    })

    it("refuses a submission made faster than the minimum time, and stores nothing", async () => {
      const key = (await seedWorkspace(slow)).key
      const form = await createForm(slow, key, { title: "Quick", fields: [{ type: "short_text", label: "Q" }] })
      const welcome = await getPage(slow, `/f/${form.publicId}`)
      const page = await answer(slow, form.publicId, welcome.text, [], "start")
      const done = await answer(slow, form.publicId, page.text, ["fast"])
      expect(done.status).toBe(400)
      expect(done.text).toContain("That was very quick")
      expect(done.text).not.toContain("Thank you")
      const json = await postJson(slow, form.publicId, {
        values: { [form.fields[0]!.id]: "fast" },
        token: tokenOf(welcome.text)
      })
      expect(json.status).toBe(400)
      expect(json.body.error).toContain("too soon")
      expect(await countWhere(slow, "responses", form.id)).toBe(0)
    })

    it("limits submissions per IP address with 429 and Retry-After; X-Forwarded-For is ignored unless trusted", async () => {
      const key = (await seedWorkspace(limited)).key
      const form = await createForm(limited, key, { title: "Limited", fields: [{ type: "short_text", label: "Q" }] })
      const values = { values: { [form.fields[0]!.id]: "hi" } }
      expect((await postJson(limited, form.publicId, values, { "x-forwarded-for": "10.0.0.1" })).status).toBe(201)
      expect((await postJson(limited, form.publicId, values, { "x-forwarded-for": "10.0.0.2" })).status).toBe(201)
      const refused = await postJson(limited, form.publicId, values, { "x-forwarded-for": "10.0.0.3" })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(refused.body).toEqual({ error: expect.stringContaining("too many") })
      // The page's last step counts against the same bucket.
      const welcome = await getPage(limited, `/f/${form.publicId}`)
      const page = await answer(limited, form.publicId, welcome.text, [], "start")
      const step = await answer(limited, form.publicId, page.text, ["hi"])
      expect(step.status).toBe(429)
      expect(step.headers.get("retry-after")).not.toBeNull()
      expect(await countWhere(limited, "responses", form.id)).toBe(2)

      const proxiedKey = (await seedWorkspace(proxied)).key
      const other = await createForm(proxied, proxiedKey, {
        title: "Proxied",
        fields: [{ type: "short_text", label: "Q" }]
      })
      const body = { values: { [other.fields[0]!.id]: "hi" } }
      expect((await postJson(proxied, other.publicId, body, { "x-forwarded-for": "spoofed, 10.0.0.1" })).status).toBe(
        201
      )
      expect((await postJson(proxied, other.publicId, body, { "x-forwarded-for": "10.0.0.1" })).status).toBe(429)
      expect((await postJson(proxied, other.publicId, body, { "x-forwarded-for": "10.0.0.1, 10.0.0.2" })).status).toBe(
        201
      )
    })
  })

  describe(`answer tokens on ${target.name}`, () => {
    it("are accepted after a restart, and by another process on the same database (the secret is stored there)", async () => {
      const filesDir = mkdtempSync(join(tmpdir(), "qforms-token-files-"))
      const dataDir = target.name === "pglite" ? mkdtempSync(join(tmpdir(), "qforms-token-")) : undefined
      const { database, cleanup } =
        dataDir !== undefined
          ? { database: { dataDir }, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) }
          : target.options()
      const open = () =>
        Qforms.make({
          database,
          files: { directory: filesDir },
          delivery: { worker: false },
          publicPage: { minSubmitSeconds: 0 },
          logLevel: "Error"
        })
      const call = (qforms: Qforms.Qforms, path: string, init?: RequestInit) =>
        qforms
          .handler(new Request(`http://forms.test${path}`, init))
          .then(async (r) => ({ status: r.status, text: await r.text() }))
      const start = (qforms: Qforms.Qforms, publicId: string, token: string) =>
        call(qforms, `/f/${publicId}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token, at: "welcome", move: "start" }).toString()
        })
      const first = await open()
      try {
        const key = await first.run(
          Effect.gen(function* () {
            const made = yield* (yield* Workspaces).create({
              name: "Tokens",
              ownerEmail: "t@example.com",
              ownerName: null
            })
            return (yield* (yield* ApiKeys).create(made.workspace.id, { accountId: made.ownerAccountId, name: "k" }))
              .key
          })
        )
        const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" }
        const created = JSON.parse(
          (
            await call(first, "/api/forms", {
              method: "POST",
              headers: auth,
              body: JSON.stringify({ title: "Tokens", fields: [{ type: "short_text", label: "Q" }] })
            })
          ).text
        )
        await call(first, `/api/forms/${created.id}`, {
          method: "PATCH",
          headers: auth,
          body: JSON.stringify({ status: "published" })
        })
        const token = tokenOf((await call(first, `/f/${created.publicId}`)).text)
        expect((await start(first, created.publicId, token)).status).toBe(200)
        if (dataDir === undefined) {
          // A second process on the same PostgreSQL database takes the first one's tokens.
          const second = await open()
          try {
            expect((await start(second, created.publicId, token)).status).toBe(200)
          } finally {
            await second.dispose()
          }
        }
        await first.dispose()
        const restarted = await open()
        try {
          const after = await start(restarted, created.publicId, token)
          expect(after.status, after.text.slice(0, 300)).toBe(200)
          expect(after.text).toContain("1 of 1")
          expect(after.text).not.toContain("Start again")
        } finally {
          await restarted.dispose()
        }
      } finally {
        await first.dispose()
        await cleanup()
        rmSync(filesDir, { recursive: true, force: true })
      }
    })
  })
}
