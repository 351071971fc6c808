/**
 * `@qforms/h3` in a real h3 v2 host app served on node:http: the HTTP
 * contract's transport smoke through the mount, and what the adapter itself must get right
 * (the host's routes, paths relative to the mount point, the prefix, bodies).
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { H3, toNodeHandler } from "h3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpContractSuite } from "@qforms/test-kit/HttpContract"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startWithQforms, type TestServer } from "@qforms/test-kit/TestServer"
import { toH3Handler } from "../src/index.ts"
import type { Qforms } from "@qforms/core"
import { ownerKey } from "@qforms/test-kit/Seeds"

const prefix = "/forms-service"

/** A host app with routes of its own and qforms under {@link prefix}, on an ephemeral loopback port. */
const mountInH3Host = async (qforms: Qforms.Qforms) => {
  const app = new H3()
    .get("/", () => ({ app: "host" }))
    .get("/hello", (event) => `Hello, ${event.url.searchParams.get("name") ?? "world"}!`)
    .post("/echo", async (event) => ({ echoed: await event.req.json() }))
  app.mount(prefix, toH3Handler(qforms))
  const server = createServer(toNodeHandler(app))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

const start = startWithQforms(mountInH3Host)

for (const target of databaseTargets) httpContractSuite(target, start, "@qforms/h3", { smoke: true })

const seedKey = ownerKey({ name: "H3 host", ownerEmail: "owner@h3.example" })

for (const target of databaseTargets) {
  describe(`@qforms/h3 in an h3 v2 host on ${target.name}`, () => {
    let server: TestServer
    let key: string
    let origin: string

    beforeAll(async () => {
      server = await start(target)
      key = await server.run(seedKey)
      origin = new URL(server.url).origin
    })

    afterAll(async () => {
      await server?.close()
    })

    const authorized = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra })

    it("keeps the host's own routes working beside qforms", async () => {
      const root = await fetch(`${origin}/`)
      expect(root.status).toBe(200)
      expect(await root.json()).toEqual({ app: "host" })
      const hello = await fetch(`${origin}/hello?name=Ada`)
      expect(hello.status).toBe(200)
      expect(await hello.text()).toBe("Hello, Ada!")
      const echo = await fetch(`${origin}/echo`, { method: "POST", body: JSON.stringify({ a: 1 }) })
      expect(await echo.json()).toEqual({ echoed: { a: 1 } })
      // Outside the mount point the host answers, not qforms; a look-alike prefix is not the mount point.
      expect((await fetch(`${origin}/api/forms`, { headers: authorized() })).status).toBe(404)
      expect((await fetch(`${origin}${prefix}x/api/forms`, { headers: authorized() })).status).toBe(404)
    })

    it("serves GET /forms-service/api/openapi.json, naming the mount point in servers", async () => {
      const reply = await fetch(`${server.url}/api/openapi.json`)
      expect(reply.status).toBe(200)
      const doc = (await reply.json()) as { openapi: string; servers: Array<{ url: string }>; paths: object }
      expect(doc.openapi).toMatch(/^3\.1/)
      expect(doc.servers[0]!.url).toBe(server.url)
      expect(Object.keys(doc.paths).length).toBeGreaterThan(10)
    })

    it("puts a proxy's prefix in front of the mount point", async () => {
      const reply = await fetch(`${server.url}/api/openapi.json`, {
        headers: { "x-forwarded-prefix": "/app/", "x-forwarded-proto": "https", "x-forwarded-host": "example.com" }
      })
      const doc = (await reply.json()) as { servers: Array<{ url: string }> }
      expect(doc.servers[0]!.url).toBe(`https://example.com/app${prefix}`)
    })

    it("serves the docs page and the health checks under the mount point", async () => {
      const docs = await fetch(`${server.url}/api/docs`)
      expect(docs.status).toBe(200)
      expect(docs.headers.get("content-type")).toMatch(/html/)
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
      // The mount point's root is qforms' welcome: its links carry the prefix.
      const welcome = await fetch(`${server.url}/`, { headers: { accept: "text/html" } })
      expect(welcome.status).toBe(200)
      expect(await welcome.text()).toContain(`href="${new URL(server.url).pathname.replace(/\/$/, "")}/api/docs"`)
    })

    it("passes a JSON body intact (create a form, read it back) and keeps the query string", async () => {
      const title = 'Ünïcødé ✓ "quoted" \\ back\nslash'
      const fields = [
        { type: "short_text", label: "Name 名前", required: true },
        { type: "select", label: "Plan", options: { choices: ["Free", "Pro & More"] } }
      ]
      const created = await fetch(`${server.url}/api/forms`, {
        method: "POST",
        headers: authorized({ "content-type": "application/json" }),
        body: JSON.stringify({ title, fields })
      })
      expect(created.status, await created.clone().text()).toBe(201)
      const { id } = (await created.json()) as { id: number }
      const read = await fetch(`${server.url}/api/forms/${id}`, { headers: authorized() })
      expect(read.status).toBe(200)
      const form = (await read.json()) as { title: string; fields: Array<{ label: string; options: unknown }> }
      expect(form.title).toBe(title)
      expect(form.fields.map((f) => f.label)).toEqual(["Name 名前", "Plan"])
      expect(form.fields[1]!.options).toMatchObject({ choices: ["Free", "Pro & More"] })
      const list = await fetch(`${server.url}/api/forms/${id}/responses?limit=1&q=${encodeURIComponent("a&b")}`, {
        headers: authorized()
      })
      expect(list.status).toBe(200)
      expect(await list.json()).toMatchObject({ nextCursor: null })
    })

    it("answers 413 {error} to a body over 1 MiB through h3", async () => {
      const reply = await fetch(`${server.url}/api/forms`, {
        method: "POST",
        headers: authorized({ "content-type": "application/json" }),
        body: JSON.stringify({ title: "Too big", description: "x".repeat(1024 * 1024 + 10) })
      })
      expect(reply.status).toBe(413)
      expect(reply.headers.get("content-type")).toMatch(/json/)
      const body = (await reply.json()) as { error: string }
      expect(Object.keys(body)).toEqual(["error"])
      expect(body.error.length).toBeGreaterThan(0)
    })

    it("answers qforms' 404 and 405 for unknown routes and methods under the mount point", async () => {
      const unknown = await fetch(`${server.url}/api/nothing-here`, { headers: authorized() })
      expect(unknown.status).toBe(404)
      expect(await unknown.json()).toHaveProperty("error")
      const wrongMethod = await fetch(`${server.url}/api/members`, { method: "PUT", headers: authorized() })
      expect(wrongMethod.status).toBe(405)
      expect(wrongMethod.headers.get("allow")).toMatch(/GET/)
    })
  })
}

describe("@qforms/h3 translation", () => {
  /** A stand-in qforms: both handlers echo what reached them. */
  const echo: Pick<Qforms.Qforms, "handler" | "nodeHandler" | "events"> = {
    handler: async (request) =>
      Response.json({
        via: "web",
        url: new URL(request.url).pathname + new URL(request.url).search,
        prefix: request.headers.get("x-forwarded-prefix"),
        body: await request.text()
      }),
    nodeHandler: (request, response) => {
      const chunks: Array<Buffer> = []
      request
        .on("data", (chunk: Buffer) => chunks.push(chunk))
        .on("end", () => {
          response.setHeader("content-type", "application/json")
          response.end(
            JSON.stringify({
              via: "node",
              url: request.url,
              prefix: request.headers["x-forwarded-prefix"],
              body: Buffer.concat(chunks).toString()
            })
          )
        })
    },
    events: { close: async () => undefined, connect: async () => ({ status: 404, error: "no", headers: {} }) }
  }
  let origin: string
  let close: () => Promise<void>

  beforeAll(async () => {
    const app = new H3()
    // Host middleware: a header of its own on every answer, and a body read before the mount on /read-first.
    app.use((event) => void event.res.headers.set("x-host", "1"))
    app.use(async (event) => {
      if (event.url.pathname.endsWith("/read-first")) await event.req.text()
    })
    app.mount(prefix, toH3Handler(echo))
    const server = createServer(toNodeHandler(app))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  })
  afterAll(() => close?.())

  it("takes the native path on Node: Node's own request, relative URL, the prefix, the body, the host's headers", async () => {
    const get = await fetch(`${origin}${prefix}/api/forms?x=1`, { headers: { "x-forwarded-prefix": "/app/" } })
    expect(get.headers.get("x-host")).toBe("1")
    expect(await get.json()).toEqual({ via: "node", url: "/api/forms?x=1", prefix: `/app${prefix}`, body: "" })
    const post = await fetch(`${origin}${prefix}/api/forms`, { method: "POST", body: '{"a":"✓"}' })
    expect(await post.json()).toEqual({ via: "node", url: "/api/forms", prefix, body: '{"a":"✓"}' })
  })

  it("takes the Web path when the host already read the body", async () => {
    const reply = await fetch(`${origin}${prefix}/read-first`, { method: "POST", body: '{"a":1}' })
    expect(reply.headers.get("x-host")).toBe("1")
    expect(await reply.json()).toMatchObject({ via: "web", url: "/read-first", prefix })
  })
})
