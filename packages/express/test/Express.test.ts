/**
 * `@qforms/express` on Express 5, in an express-host style app (its own
 * routes, `express.json()` before qforms): the HTTP contract's transport
 * smoke on each test database, the adapter's own promises, and its translation details
 * against a stand-in qforms that echoes what it received.
 */
import express from "express"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpContractSuite } from "@qforms/test-kit/HttpContract"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startWithQforms } from "@qforms/test-kit/TestServer"
import { type QformsHandlers, toExpressMiddleware } from "../src/index.ts"
import { adapterSuite } from "./support/AdapterSuite.ts"
import { createHostApp, listen, mountIn } from "./support/Host.ts"

for (const target of databaseTargets)
  httpContractSuite(target, startWithQforms(mountIn(express)), "@qforms/express", { smoke: true })

adapterSuite(express, "Express 5")

describe("@qforms/express translation", () => {
  /** A stand-in qforms: its native handler echoes what reached it, and the body the adapter handed over. */
  const echo: QformsHandlers = {
    nodeHandler: (request, response, body) => {
      response.setHeader("content-type", "application/json")
      response.end(
        JSON.stringify({
          via: body === undefined ? "node" : "replay",
          url: request.url,
          method: request.method,
          prefix: request.headers["x-forwarded-prefix"],
          type: request.headers["content-type"],
          ...(body !== undefined && { body: Buffer.from(body).toString() })
        })
      )
    },
    upgradeHandler: () => false
  }
  let origin: string
  let close: () => Promise<void>

  beforeAll(async () => {
    const app = createHostApp(express, echo)
    const nested = express.Router()
    nested.use("/forms", toExpressMiddleware(echo))
    app.use("/tenants/:tenant", nested)
    app.use(
      "/failing",
      (_req: express.Request, _res: express.Response, next: express.NextFunction) =>
        next(new Error("not a body error")),
      toExpressMiddleware(echo)
    )
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ host: error.message })
    })
    ;({ origin, close } = await listen(app))
  })
  afterAll(() => close?.())

  it("hands a body express.json() already read to the native handler, re-encoded, with Express' own req", async () => {
    const reply = await fetch(`${origin}/forms-service/x?q=1`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: '{"a": 1}'
    })
    expect(await reply.json()).toEqual({
      via: "replay",
      url: "/x?q=1",
      method: "PATCH",
      prefix: "/forms-service",
      type: "application/json",
      body: '{"a":1}'
    })
  })

  it("re-encodes a urlencoded body (nested and repeated keys) and passes empty bodies as empty", async () => {
    const reply = await fetch(`${origin}/forms-service/f`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=Ada+L&tags=a&tags=b&contact[name]=x%26y"
    })
    const echoed = (await reply.json()) as { body: string; type: string }
    expect(new URLSearchParams(echoed.body).getAll("tags")).toEqual(["a", "b"])
    expect(Object.fromEntries(new URLSearchParams(echoed.body))).toMatchObject({
      name: "Ada L",
      "contact[name]": "x&y"
    })
    expect(echoed.type).toBe("application/x-www-form-urlencoded")
    const empty = await fetch(`${origin}/forms-service/f`, {
      method: "POST",
      headers: { "content-type": "application/json" }
    })
    expect(await empty.json()).toMatchObject({ via: "replay", body: "" })
  })

  it("names the full mount point of nested routers, and takes the native path for unread bodies", async () => {
    expect(await (await fetch(`${origin}/tenants/acme/forms/api/forms?x=1`)).json()).toEqual({
      via: "node",
      url: "/api/forms?x=1",
      method: "GET",
      prefix: "/tenants/acme/forms"
    })
    expect(await (await fetch(`${origin}/forms-service`)).json()).toEqual({
      via: "node",
      url: "/",
      method: "GET",
      prefix: "/forms-service"
    })
    const unparsed = await fetch(`${origin}/forms-service/f`, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: "a,b"
    })
    expect(await unparsed.json()).toEqual({
      via: "node",
      url: "/f",
      method: "POST",
      prefix: "/forms-service",
      type: "text/csv"
    })
  })

  it("passes errors that are not a body parser's on to the host", async () => {
    const reply = await fetch(`${origin}/failing/api`)
    expect([reply.status, await reply.json()]).toEqual([500, { host: "not a body error" }])
  })
})
