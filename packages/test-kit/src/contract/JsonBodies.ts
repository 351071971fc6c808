/**
 * The HTTP contract: JSON bodies only as application/json.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"

export const jsonBodies = group("JSON bodies only as application/json", { transport: true }, (c) => {
  const { api, publishedForm, subscribe, transportTest } = c
  transportTest(
    "a JSON route refuses a body without Content-Type or of another type with 415 {error}, whatever the key, and changes nothing",
    async () => {
      const form = await publishedForm("Content types")
      const before = (await api("GET", "/forms")).body.length as number
      const send = (method: string, path: string, body: string | Uint8Array, contentType?: string) =>
        fetch(`${c.server.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${c.seed.keys.owner}`,
            accept: "application/json, text/event-stream",
            ...(contentType === undefined ? {} : { "content-type": contentType })
          },
          body
        })
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        ["POST", "/api/forms", JSON.stringify({ title: "Forged" })],
        ["PATCH", `/api/forms/${form.formId}`, JSON.stringify({ title: "Forged" })],
        ["POST", "/api/members", JSON.stringify({ email: "forged@example.com", role: "owner" })],
        [
          "POST",
          `/api/forms/${form.formId}/responses`,
          JSON.stringify({ values: { [form.ids.name]: "X", [form.ids.email]: "x@example.com" } })
        ],
        ["POST", "/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })]
      ]
      for (const [method, path, body] of cases) {
        // No Content-Type at all (a typeless blob), text/plain, a form, and JSON under another name.
        for (const type of [
          undefined,
          "text/plain;charset=UTF-8",
          "application/x-www-form-urlencoded",
          "text/json",
          "application/jsonp"
        ]) {
          const response = await send(method, path, type === undefined ? new TextEncoder().encode(body) : body, type)
          const text = await response.text()
          expect.soft(response.status, `${method} ${path} as ${type ?? "(none)"}: ${text.slice(0, 200)}`).toBe(415)
          expect.soft(text, `${method} ${path} as ${type ?? "(none)"}`).toMatch(/"error":"unsupported content type/)
        }
      }
      // A payload endpoint sent no body and no type is refused too (it would be read as JSON).
      const empty = await fetch(`${c.server.url}/api/forms`, {
        method: "POST",
        headers: { authorization: `Bearer ${c.seed.keys.owner}` }
      })
      expect(empty.status).toBe(415)
      expect((await api("GET", "/forms")).body.length).toBe(before)
      expect((await api("GET", `/forms/${form.formId}`)).body.title).toBe("Content types")
      expect((await api("GET", "/members")).body.members.map((m: { email: string }) => m.email)).not.toContain(
        "forged@example.com"
      )
      expect((await api("GET", `/forms/${form.formId}/responses`)).body.responses).toEqual([])
      // JSON with parameters is JSON; a write without a body needs no type.
      const charset = await send(
        "PATCH",
        `/api/forms/${form.formId}`,
        JSON.stringify({ title: "Renamed" }),
        "Application/JSON; charset=utf-8"
      )
      expect(charset.status).toBe(200)
      const subscription = await subscribe(form.formId)
      const removed = await fetch(`${c.server.url}/api/webhooks/subscribe/${subscription.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${c.seed.keys.owner}` }
      })
      expect(removed.status).toBe(204)
    }
  )
})
