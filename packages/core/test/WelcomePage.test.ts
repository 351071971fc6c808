/**
 * `GET /` greets a person: a browser gets a small page (no script, a strict
 * CSP) naming the service with links to the application, the API reference,
 * the OpenAPI document and the MCP endpoint's address; anything else gets the
 * same as JSON. Under a mount prefix every link carries it. (In Chromium,
 * with axe-core: `WelcomePageBrowser.test.ts`.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { cspDirectives, prefix, type PrefixServer, rawGet, startPrefixServer } from "@qforms/test-kit/PrefixServer"

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

const hrefs = (page: string) => [...page.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!)

for (const target of databaseTargets) {
  describe(`the welcome page (${target.name})`, () => {
    let server: PrefixServer

    beforeAll(async () => {
      server = await startPrefixServer(target, { app: true })
    })
    afterAll(async () => {
      await server?.close()
    })

    it("greets a browser with a page of links under a strict CSP", async () => {
      const reply = await rawGet(`${server.url}/`, { accept: browserAccept })
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^text\/html/)
      expect(reply.headers["vary"]).toBe("Accept")
      const page = reply.body.toString("utf8")
      expect(page).toMatch(/<h1>qforms<\/h1>/)
      expect(hrefs(page)).toEqual(["/app", "/api/docs", "/api/openapi.json"])
      expect(page).toContain(`<code>${server.url}/mcp</code>`)
      expect(page).not.toMatch(/<script/i)
      const csp = cspDirectives(reply.headers["content-security-policy"])
      expect(csp.get("default-src")).toEqual(["'none'"])
      expect(csp.has("script-src")).toBe(false)
      expect(csp.get("style-src")?.every((source) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(source))).toBe(true)
      expect(csp.get("frame-ancestors")).toEqual(["'self'"])
    })

    it("answers JSON to anything but a browser", async () => {
      for (const headers of [{}, { accept: "application/json" }, { accept: "*/*" }]) {
        const reply = await rawGet(`${server.url}/`, headers)
        expect(reply.status).toBe(200)
        expect(reply.headers["content-type"]).toMatch(/^application\/json/)
        expect(JSON.parse(reply.body.toString("utf8"))).toEqual({
          name: "qforms",
          app: `${server.url}/app`,
          docs: `${server.url}/api/docs`,
          openapi: `${server.url}/api/openapi.json`,
          mcp: `${server.url}/mcp`
        })
      }
    })

    it("puts the mount prefix in every link, and each link answers there", async () => {
      const reply = await rawGet(`${server.url}${prefix}/`, { accept: browserAccept })
      expect(reply.status).toBe(200)
      const page = reply.body.toString("utf8")
      const links = hrefs(page)
      expect(links).toEqual([`${prefix}/app`, `${prefix}/api/docs`, `${prefix}/api/openapi.json`])
      expect(page).toContain(`<code>${server.url}${prefix}/mcp</code>`)
      for (const link of links) {
        const followed = await rawGet(`${server.url}${link}`, { accept: browserAccept })
        // The application sends a visitor who is not signed in to its sign-in page.
        expect([200, 303], link).toContain(followed.status)
        if (followed.status === 303) expect(followed.headers["location"]).toMatch(new RegExp(`^${prefix}/app/sign-in`))
      }
      const json = JSON.parse(
        (await rawGet(`${server.url}${prefix}`, { accept: "application/json" })).body.toString("utf8")
      )
      expect(json.docs).toBe(`${server.url}${prefix}/api/docs`)
      expect(json.mcp).toBe(`${server.url}${prefix}/mcp`)
    })
  })
}

describe("the welcome page without the application", () => {
  let server: PrefixServer

  beforeAll(async () => {
    server = await startPrefixServer(databaseTargets[0]!)
  })
  afterAll(async () => {
    await server?.close()
  })

  it("leaves the application's link out", async () => {
    const page = (await rawGet(`${server.url}/`, { accept: browserAccept })).body.toString("utf8")
    expect(hrefs(page)).toEqual(["/api/docs", "/api/openapi.json"])
    const json = JSON.parse((await rawGet(`${server.url}/`)).body.toString("utf8"))
    expect(json).not.toHaveProperty("app")
  })
})
