/**
 * The HTTP contract: public form page.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { send } from "./Requests.ts"

export const publicFormPage = group("public form page", { transport: true }, (c) => {
  const { api, publishedForm, transportTest } = c
  const page = async (path: string, init?: RequestInit) => {
    const response = await send(`${c.server.url}${path}`, init, c.settings.onReply)
    return { status: response.status, headers: response.headers, text: await response.text() }
  }
  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? ""
  const step = (publicId: string, html: string, answer: string | undefined, multipart = false) => {
    const pairs: Array<[string, string]> = [
      ["token", field(html, "token")],
      ["at", field(html, "at")],
      ["website", ""]
    ]
    if (answer !== undefined) pairs.push(["a", answer])
    pairs.push(["move", field(html, "at") === "welcome" ? "start" : "next"])
    if (multipart) {
      const body = new FormData()
      for (const [k, v] of pairs) body.append(k, v)
      return page(`/f/${publicId}`, { method: "POST", body })
    }
    return page(`/f/${publicId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(pairs).toString()
    })
  }

  transportTest("GET /f/{publicId} → the welcome page (HTML, nonce CSP); unknown → a 404 page", async () => {
    const form = await publishedForm("Public")
    const publicId = (await api("GET", `/forms/${form.formId}`)).body.publicId as string
    const welcome = await page(`/f/${publicId}`)
    expect(welcome.status).toBe(200)
    expect(welcome.headers.get("content-type")).toContain("text/html")
    expect(welcome.headers.get("content-security-policy")).toMatch(/script-src 'nonce-[^']+'/)
    expect(welcome.text).toContain("Public")
    const unknown = await page("/f/no-such-form")
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("content-type")).toContain("text/html")
  })

  transportTest(
    "POST /f/{publicId} steps (url-encoded and multipart) → the next question, a message when invalid, then thanks",
    async () => {
      const form = await publishedForm("Steps")
      const publicId = (await api("GET", `/forms/${form.formId}`)).body.publicId as string
      let current = await page(`/f/${publicId}`)
      current = await step(publicId, current.text, undefined)
      expect(current.status).toBe(200)
      expect(field(current.text, "at")).toBe(String(form.ids.name))
      current = await step(publicId, current.text, "Ada", true)
      expect(field(current.text, "at")).toBe(String(form.ids.email))
      const invalid = await step(publicId, current.text, "not-an-email")
      expect(invalid.status).toBe(400)
      expect(invalid.text).toContain("must be an email address")
      current = await step(publicId, invalid.text, "ada@example.com", true)
      current = await step(publicId, current.text, "Pro")
      current = await step(publicId, current.text, "Hello")
      expect(current.status).toBe(200)
      expect(current.text).toContain("Thank you!")
      const list = await api("GET", `/forms/${form.formId}/responses`)
      expect(list.body.responses[0]).toMatchObject({
        source: "form",
        values: { [form.ids.name]: "Ada", [form.ids.email]: "ada@example.com", [form.ids.plan]: "Pro" }
      })
    }
  )

  transportTest(
    "POST /f/{publicId}/responses (JSON) → 201 {id}; 400 with details; 404 for an unknown form",
    async () => {
      const form = await publishedForm("Public JSON")
      const publicId = (await api("GET", `/forms/${form.formId}`)).body.publicId as string
      const post = (path: string, body: unknown) =>
        send(
          `${c.server.url}${path}`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body)
          },
          c.settings.onReply
        ).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }))
      const created = await post(`/f/${publicId}/responses`, {
        values: { [form.ids.name]: "Grace", [form.ids.email]: "grace@example.com" }
      })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({ id: expect.any(Number) })
      const detail = await api("GET", `/responses/${created.body.id}`)
      expect(detail.body.response.source).toBe("form")
      const invalid = await post(`/f/${publicId}/responses`, { values: { [form.ids.email]: "nope" } })
      expect(invalid.status).toBe(400)
      expect(invalid.body.details).toHaveLength(2)
      expect((await post("/f/no-such-form/responses", { values: {} })).status).toBe(404)
    }
  )
})
