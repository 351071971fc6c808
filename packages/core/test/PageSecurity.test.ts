/**
 * A page rendered once and answered by splicing its nonce and value
 * (`pageTemplate`, the welcome screen's path) answers exactly what rendering
 * it whole (`page`) answers: the same status, headers and bytes, apart from
 * the nonce, which is fresh on every answer; the value is escaped.
 */
import { describe, expect, it } from "vitest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { page, pageTemplate } from "../src/pages/PageSecurity.ts"
import { html } from "../src/kernel/Html.ts"

const answered = async (response: HttpServerResponse.HttpServerResponse) => {
  const web = HttpServerResponse.toWeb(response)
  const text = await web.text()
  const nonce = /nonce="([^"]+)"/.exec(text)?.[1] ?? ""
  return {
    status: web.status,
    nonce,
    headers: Object.fromEntries([...web.headers].map(([name, value]) => [name, value.replaceAll(nonce, "NONCE")])),
    text: text.replaceAll(nonce, "NONCE")
  }
}

describe("pageTemplate", () => {
  const title = `Café <"form"> & ${"é".repeat(3)}`
  const body = (value: string) => html`<p>${title}</p><input type="hidden" name="token" value="${value}">`

  it("answers what page answers, with a fresh nonce each time and the value escaped", async () => {
    const template = pageTemplate({ status: 200, title, body, script: true, frameAncestors: ["https://host.example"] })
    for (const value of ["abc.DEF_123-x", `a"b<c>&'d`]) {
      const whole = await answered(
        page({ status: 200, title, body: body(value), script: true, frameAncestors: ["https://host.example"] })
      )
      const first = await answered(template(value))
      const second = await answered(template(value))
      expect(first).toEqual({ ...whole, nonce: first.nonce })
      expect(first.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(second.nonce).not.toBe(first.nonce)
      expect(first.text).toContain(
        `value="${value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("'", "&#39;")}"`
      )
    }
  })
})
