/**
 * The `currency` question type (an amount of money and its ISO 4217 code)
 * through the public HTTP API, as a client sees it: its options checked when
 * a form is made, valid answers stored in their form (the question's own
 * currency standing in for one not named), invalid ones refused with a 400
 * `{error}` naming the problem, the response read back, the CSV export, the
 * summary (from the tallies and counted over a filter), the public page
 * without JavaScript, its JSON submission, MCP's tools, and the offline
 * generator hearing a price. On every database.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { answer, api, createForm, getPage, hidden, postJson } from "@qforms/test-kit/PublicForms"
import { keysByRole } from "@qforms/test-kit/Seeds"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import * as OfflineFormGenerator from "../src/generation/OfflineFormGenerator.ts"

const fields = [
  { type: "currency", label: "Price", required: true, options: { currency: "EUR", min: 0, max: 500 } },
  { type: "currency", label: "Budget", options: { currencies: ["USD", "EUR", "JPY"], currency: "USD" } },
  { type: "short_text", label: "Name" }
]

for (const target of databaseTargets) {
  describe(`currency questions on ${target.name}`, () => {
    let server: TestServer
    let key: string
    let form: Awaited<ReturnType<typeof createForm>>
    let ids: Record<string, number>

    /** The answers keyed by question id, from answers keyed by label. */
    const byId = (given: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(given).map(([label, value]) => [ids[label]!, value]))
    const submit = (given: Record<string, unknown>) =>
      api(server, key, "POST", `/forms/${form.id}/responses`, { values: byId(given) })

    beforeAll(async () => {
      server = await startTestServer(target, {
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 100, burst: 1000 } }
      })
      key = (await server.run(keysByRole("currency"))).keys.owner
      form = await createForm(server, key, { title: "Quote", fields })
      ids = Object.fromEntries(form.fields.map((field) => [field.label, field.id]))
    })
    afterAll(async () => {
      await server?.close()
    })

    it("creates a form with currency questions, and refuses options that are not currencies", async () => {
      const read = await api(server, key, "GET", `/forms/${form.id}`)
      expect(read.status).toBe(200)
      expect(read.body.fields[0]).toMatchObject({
        type: "currency",
        label: "Price",
        options: { currency: "EUR", min: 0, max: 500 }
      })
      expect(read.body.fields[1].options).toEqual({ currencies: ["USD", "EUR", "JPY"], currency: "USD" })

      const refusals: ReadonlyArray<readonly [object, string]> = [
        [{ currency: "EURO" }, '"EURO" is not an ISO 4217 currency code'],
        [{ currency: "EUR", currencies: ["USD", "GBP"] }, "currency must be one of currencies (USD, GBP)"],
        [{ min: 10, max: 1 }, "max must be greater than or equal to min"],
        [{ currencies: ["USD", "USD"] }, "currencies must not contain duplicates"],
        [{ rate: 1 }, 'unknown option "rate"']
      ]
      for (const [options, message] of refusals) {
        const created = await api(server, key, "POST", "/forms", {
          title: "Bad",
          fields: [{ type: "currency", label: "Amount", options }]
        })
        expect(created.status, JSON.stringify(options)).toBe(400)
        expect(created.body.error, JSON.stringify(options)).toContain(message)
      }
    })

    it("stores valid answers in their form, and refuses invalid ones with a 400 naming the problem", async () => {
      const first = await submit({ Price: { amount: 12.5, currency: "EUR" }, Budget: { amount: 3000 }, Name: "Ada" })
      expect(first.status, first.text).toBe(201)
      // The amount as text, the code in lower case and with spaces, and the question's own currency.
      const second = await submit({ Price: { amount: "99.90" }, Budget: { amount: 1500, currency: " jpy " } })
      expect(second.status, second.text).toBe(201)

      const read = await api(server, key, "GET", `/responses/${first.body.id}`)
      expect(read.status, read.text).toBe(200)
      expect(read.body.response.values[ids.Price!]).toEqual({ amount: 12.5, currency: "EUR" })
      expect(read.body.response.values[ids.Budget!]).toEqual({ amount: 3000, currency: "USD" })
      const again = await api(server, key, "GET", `/responses/${second.body.id}`)
      expect(again.body.response.values[ids.Price!]).toEqual({ amount: 99.9, currency: "EUR" })
      expect(again.body.response.values[ids.Budget!]).toEqual({ amount: 1500, currency: "JPY" })

      const refusals: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [{ Price: { amount: "cheap" } }, '"Price" must be an amount of money'],
        [{ Price: 12 }, '"Price" must be an amount of money'],
        [{ Price: { amount: 5, currency: "USD" } }, '"Price" must be in one of these currencies: EUR'],
        [{ Price: { amount: 1.234 } }, '"Price" in EUR takes at most 2 decimals'],
        [{ Price: { amount: 501 } }, '"Price" must be at most 500'],
        [{ Price: { amount: -1 } }, '"Price" must be at least 0'],
        [
          { Price: { amount: 5 }, Budget: { amount: 10, currency: "GBP" } },
          "must be in one of these currencies: USD, EUR, JPY"
        ],
        [{ Price: { amount: 5 }, Budget: { amount: 10.5, currency: "JPY" } }, '"Budget" in JPY takes no decimals'],
        [{ Name: "Grace" }, '"Price" is required']
      ]
      for (const [given, message] of refusals) {
        const refused = await submit(given)
        expect(refused.status, JSON.stringify(given)).toBe(400)
        expect(refused.body.error, JSON.stringify(given)).toContain(message)
      }
    })

    it("exports the amounts with their currency in the CSV, and summarizes them", async () => {
      const response = await fetch(`${server.url}/api/forms/${form.id}/responses.csv`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(response.status).toBe(200)
      const csv = await response.text()
      expect(csv.split("\r\n")[0]).toContain("Price,Budget,Name")
      expect(csv).toContain("€12.50")
      expect(csv).toContain('"$3,000.00"')
      expect(csv).toContain("€99.90")
      expect(csv).toContain("¥1,500")

      // From the tallies kept as responses arrive, and counted over the responses matching a filter.
      for (const query of ["", "?q=Ada"]) {
        const summary = await api(server, key, "GET", `/forms/${form.id}/summary${query}`)
        expect(summary.status, summary.text).toBe(200)
        expect(summary.body.computedFrom).toBe(query === "" ? "tallies" : "responses")
        const price = summary.body.questions.find((q: { label: string }) => q.label === "Price")
        expect(price).toMatchObject({ kind: "texts", type: "currency", answered: query === "" ? 2 : 1 })
        expect(price.latest.map((l: { text: string }) => l.text)).toContain("€12.50")
      }
    })

    it("is answered on the public page without JavaScript, and by its JSON submission", async () => {
      const welcome = await getPage(server, `/f/${form.publicId}`)
      let page = await answer(server, form.publicId, welcome.text, [], "start")
      expect(page.status).toBe(200)
      // One currency: named beside the amount, and posted with it.
      expect(page.text).toContain('<span class="currency" id="a-currency">EUR</span>')
      expect(hidden(page.text, "a.currency")).toBe("EUR")
      let refused = await answer(server, form.publicId, page.text, ["lots"], "next", [["a.currency", "EUR"]])
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("&quot;Price&quot; must be an amount of money")
      refused = await answer(server, form.publicId, refused.text, ["19.999"], "next", [["a.currency", "EUR"]])
      expect(refused.text).toContain("&quot;Price&quot; in EUR takes at most 2 decimals")
      page = await answer(server, form.publicId, refused.text, ["19.99"], "next", [["a.currency", "EUR"]])
      // Several: a select, the question's own currency chosen first.
      expect(page.text).toContain('<select id="a-currency" name="a.currency"')
      expect(page.text).toContain('<option value="USD" selected="selected">USD</option>')
      page = await answer(server, form.publicId, page.text, ["250"], "next", [["a.currency", "JPY"]])
      page = await answer(server, form.publicId, page.text, ["Linus"])
      expect(page.status, page.text).toBe(200)

      const json = await postJson(server, form.publicId, {
        values: byId({ Price: { amount: 7, currency: "EUR" }, Budget: { amount: 80, currency: "EUR" } })
      })
      expect(json.status, json.text).toBe(201)
      const wrong = await postJson(server, form.publicId, { values: byId({ Price: { amount: "seven" } }) })
      expect(wrong.status).toBe(400)
      expect(wrong.body.error).toContain('"Price" must be an amount of money')

      const list = await api(server, key, "GET", `/forms/${form.id}/responses`)
      const values = list.body.responses.map((r: { values: Record<string, unknown> }) => r.values[ids.Budget!])
      expect(values).toContainEqual({ amount: 250, currency: "JPY" })
      expect(values).toContainEqual({ amount: 80, currency: "EUR" })
      const prices = list.body.responses.map((r: { values: Record<string, unknown> }) => r.values[ids.Price!])
      expect(prices).toContainEqual({ amount: 19.99, currency: "EUR" })
    })

    it("is made and answered through MCP's tools", async () => {
      const client = new Client({ name: "currency-test", version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } }
        })
      )
      try {
        const created = await client.callTool({
          name: "create_form",
          arguments: { title: "By MCP", fields: [{ type: "currency", label: "Fee", options: { currency: "GBP" } }] }
        })
        expect(created.isError, JSON.stringify(created.content)).toBeFalsy()
        const formId = (created.structuredContent as { id: number }).id
        const published = await client.callTool({ name: "update_form", arguments: { formId, status: "published" } })
        expect(published.isError, JSON.stringify(published.content)).toBeFalsy()
        const got = await client.callTool({ name: "get_form", arguments: { formId } })
        const made = got.structuredContent as { id: number; fields: ReadonlyArray<{ id: number; type: string }> }
        expect(made.fields[0]).toMatchObject({ type: "currency", options: { currency: "GBP" } })
        const fee = String(made.fields[0]!.id)
        const submitted = await api(server, key, "POST", `/forms/${made.id}/responses`, {
          values: { [fee]: { amount: 3 } }
        })
        expect(submitted.status, submitted.text).toBe(201)
        const updated = await client.callTool({
          name: "update_response",
          arguments: { responseId: submitted.body.id, answers: { [fee]: { amount: 4.5 } } }
        })
        expect(updated.isError, JSON.stringify(updated.content)).toBeFalsy()
        const read = await api(server, key, "GET", `/responses/${submitted.body.id}`)
        expect(read.body.response.values[fee]).toEqual({ amount: 4.5, currency: "GBP" })
        const refused = await client.callTool({
          name: "update_response",
          arguments: { responseId: submitted.body.id, answers: { [fee]: { amount: 1, currency: "EUR" } } }
        })
        expect(refused.isError).toBe(true)
        expect(JSON.stringify(refused.content)).toContain("must be in one of these currencies: GBP")
      } finally {
        await client.close()
      }
    })

    it("is written by the offline generator for a price in a currency", () => {
      const made = OfflineFormGenerator.generate("A quote request. Ask for their name, email and the budget in euros.")
      expect(Result.isSuccess(made)).toBe(true)
      const budget = Result.isSuccess(made) ? made.success.fields.find((f) => /budget/i.test(f.label)) : undefined
      expect(budget).toMatchObject({ type: "currency", options: { currency: "EUR" } })
      // A budget without a currency stays a number.
      const plain = OfflineFormGenerator.generate("A quote request. Ask for their name and their budget.")
      expect(Result.isSuccess(plain) && plain.success.fields.find((f) => /budget/i.test(f.label))?.type).toBe("number")
    })
  })
}
