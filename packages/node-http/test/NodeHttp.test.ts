/**
 * `@qforms/node-http` in a real host: a `node:http` listener with routes of
 * its own that hands `/forms-service/*` to qforms. The contract's transport
 * smoke (the `transportTest`s of `@qforms/test-kit/HttpContract`) runs through it, on each test database, plus the
 * adapter's own translation tests; core runs the whole contract.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http"
import { createServer as createTlsServer, request as tlsRequest } from "node:https"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpContractSuite } from "@qforms/test-kit/HttpContract"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startWithQforms } from "@qforms/test-kit/TestServer"
import { forwardedPrefix, toNodeHandler } from "../src/index.ts"
import { Qforms } from "@qforms/core"
import { ownerKey } from "@qforms/test-kit/Seeds"

/** Listens on an ephemeral loopback port; `close` also drops kept-alive connections. */
const listen = async (listener: RequestListener) => {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()))
      server.closeAllConnections()
    })
  return { origin, close }
}

/** A host app: its own routes, qforms under `/forms-service`, its own 404 for the rest. */
const hostListener = (qforms: Qforms.Qforms): RequestListener => {
  const forms = toNodeHandler(qforms, { prefix: "/forms-service" })
  const notFound = (res: ServerResponse) => () => {
    res.writeHead(404, { "content-type": "text/plain" }).end("host: not found")
  }
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && req.url === "/") return void res.end("host home")
    if (req.method === "GET" && req.url === "/hello") {
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ hello: "world" }))
    }
    forms(req, res, notFound(res))
  }
}

const mountInHost = async (qforms: Qforms.Qforms) => {
  const { origin, close } = await listen(hostListener(qforms))
  return { url: `${origin}/forms-service`, close }
}

for (const target of databaseTargets)
  httpContractSuite(target, startWithQforms(mountInHost), "@qforms/node-http", { smoke: true })

describe("@qforms/node-http", () => {
  let qforms: Qforms.Qforms
  let origin: string
  let close: () => Promise<void>
  let key: string

  beforeAll(async () => {
    qforms = await Qforms.make({ database: {}, delivery: { worker: false } })
    ;({ origin, close } = await listen(hostListener(qforms)))
    key = await qforms.run(ownerKey())
  })
  afterAll(async () => {
    await close?.()
    await qforms?.dispose()
  })

  it("leaves the host's own routes alone", async () => {
    expect(await (await fetch(`${origin}/`)).text()).toBe("host home")
    expect(await (await fetch(`${origin}/hello`)).json()).toEqual({ hello: "world" })
    const other = await fetch(`${origin}/forms-services/api/forms`)
    expect([other.status, await other.text()]).toEqual([404, "host: not found"])
  })

  it("serves qforms under the prefix, with the prefix in the OpenAPI servers", async () => {
    const reply = await fetch(`${origin}/forms-service/api/openapi.json`)
    expect(reply.status).toBe(200)
    const document = (await reply.json()) as { servers: Array<{ url: string }> }
    expect(document.servers[0]!.url).toBe(`${origin}/forms-service`)
    expect((await fetch(`${origin}/forms-service/healthz`)).status).toBe(200)
    const behindProxy = await fetch(`${origin}/forms-service/api/openapi.json`, {
      headers: { "x-forwarded-prefix": "/outer", "x-forwarded-proto": "https", "x-forwarded-host": "forms.example.com" }
    })
    expect(((await behindProxy.json()) as { servers: Array<{ url: string }> }).servers[0]!.url).toBe(
      "https://forms.example.com/outer/forms-service"
    )
  })

  it("keeps the query and answers qforms' own 404 for unknown paths under the prefix", async () => {
    const created = await fetch(`${origin}/forms-service/api/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Via node-http", fields: [{ type: "short_text", label: "Name" }] })
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const read = await fetch(`${origin}/forms-service/api/forms/${id}`, { headers: { authorization: `Bearer ${key}` } })
    expect(await read.json()).toMatchObject({ id, title: "Via node-http", fields: [{ label: "Name" }] })
    const badQuery = await fetch(`${origin}/forms-service/api/forms/${id}/responses?limit=0`, {
      headers: { authorization: `Bearer ${key}` }
    })
    expect(badQuery.status).toBe(400) // the query reached qforms
    const missing = await fetch(`${origin}/forms-service/api/nope?x=1`)
    expect([missing.status, await missing.json()]).toEqual([404, { error: "no route GET /api/nope" }])
    // The mount root is qforms' welcome: links to the application, the docs and the OpenAPI document, under the prefix.
    const root = await fetch(`${origin}/forms-service`)
    expect(root.status).toBe(200)
    expect(await root.json()).toMatchObject({ name: "qforms", docs: `${origin}/forms-service/api/docs` })
  })

  it("calls next, or answers false without touching the response, outside the prefix", () => {
    const forms = toNodeHandler(qforms, { prefix: "forms-service/" })
    const request = (url: string) => ({ url, headers: {} }) as IncomingMessage
    const response = { headersSent: false } as ServerResponse
    let nexts = 0
    expect(forms(request("/elsewhere"), response, () => nexts++)).toBe(false)
    expect(forms(request("/forms-serviceX/api"), response, () => nexts++)).toBe(false)
    expect(forms(request("/forms-service-2"), response)).toBe(false)
    expect(nexts).toBe(2)
    expect(response).toEqual({ headersSent: false })
  })

  it("serves every path as a plain createServer listener without a prefix", async () => {
    const server = await listen(toNodeHandler(qforms))
    try {
      const reply = await fetch(`${server.origin}/api/openapi.json`)
      expect(((await reply.json()) as { servers: Array<{ url: string }> }).servers[0]!.url).toBe(server.origin)
    } finally {
      await server.close()
    }
  })

  it("composes x-forwarded-prefix once for every adapter: a proxy's well-formed prefix, then the mount point", () => {
    expect(forwardedPrefix(undefined, "/forms-service")).toBe("/forms-service")
    expect(forwardedPrefix("/outer/", "forms-service/")).toBe("/outer/forms-service")
    expect(forwardedPrefix(["/a, /b"], "/forms-service")).toBe("/a/forms-service")
    expect(forwardedPrefix("/a b", "/forms-service")).toBe("/forms-service")
    expect(forwardedPrefix("//evil.example", "")).toBe("")
    expect(forwardedPrefix(null, "/")).toBe("")
  })

  it("names https on a TLS socket without x-forwarded-proto, so links under the prefix are https", async () => {
    // A throwaway self-signed certificate (Debian's openssl).
    const dir = mkdtempSync(join(tmpdir(), "qforms-tls-"))
    try {
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=127.0.0.1",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem")
        ],
        { stdio: "ignore" }
      )
      const server = createTlsServer(
        { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
        toNodeHandler(qforms, { prefix: "/forms-service" })
      )
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const port = (server.address() as AddressInfo).port
      try {
        const body = await new Promise<string>((resolve, reject) => {
          const request = tlsRequest(
            { host: "127.0.0.1", port, path: "/forms-service/api/openapi.json", rejectUnauthorized: false },
            (response) => {
              let text = ""
              response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
              response.on("end", () => resolve(text))
            }
          )
          request.on("error", reject).end()
        })
        expect((JSON.parse(body) as { servers: Array<{ url: string }> }).servers[0]!.url).toBe(
          `https://127.0.0.1:${port}/forms-service`
        )
      } finally {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
