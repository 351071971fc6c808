/**
 * What `@qforms/express` itself promises, on one Express major version: the
 * host's routes keep working, qforms answers under the mount point with the
 * real prefix in its links, a body the host already parsed reaches qforms
 * intact (and an unread one takes the native path), and a body the host's
 * parser refused still gets qforms' `{error}` answer.
 */
import type express from "express"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { QformsHandlers } from "../../src/index.ts"
import { createHostApp, listen } from "./Host.ts"
import { Qforms } from "@qforms/core"
import { ownerKey } from "@qforms/test-kit/Seeds"

type Servers = { servers: Array<{ url: string }> }

export const adapterSuite = (framework: typeof express, name: string) =>
  describe(`@qforms/express on ${name}`, () => {
    let qforms: Qforms.Qforms
    let key: string
    const calls = { replayed: 0, node: 0 }
    /** qforms, counting the requests whose body the adapter handed over (`replayed`) and the others. */
    const counted: QformsHandlers = {
      nodeHandler: (request, response, body) => (
        body === undefined ? calls.node++ : calls.replayed++, qforms.nodeHandler(request, response, body)
      ),
      upgradeHandler: (request, socket, head) => qforms.upgradeHandler(request, socket, head)
    }
    const hosts: Array<{ origin: string; close: () => Promise<void> }> = []
    let parsing: string // a host with express.json() and express.urlencoded() before qforms
    let plain: string // a host without body parsers
    let raw: string // a host with express.raw() for every body

    beforeAll(async () => {
      qforms = await Qforms.make({ database: {}, delivery: { worker: false } })
      key = await qforms.run(ownerKey())
      hosts.push(await listen(createHostApp(framework, counted)))
      hosts.push(await listen(createHostApp(framework, counted, { parseBodies: false })))
      hosts.push(await listen(createHostApp(framework, counted, { parseBodies: "raw" })))
      ;[parsing, plain, raw] = hosts.map((host) => host.origin) as [string, string, string]
    }, 60_000)
    afterAll(async () => {
      for (const host of hosts) await host.close()
      await qforms?.dispose()
    })

    const auth = () => ({ authorization: `Bearer ${key}` })
    const post = (url: string, body: string, type = "application/json") =>
      fetch(url, { method: "POST", headers: { ...auth(), "content-type": type }, body })

    it("leaves the host's own routes alone, before and after the mount", async () => {
      expect(await (await fetch(`${parsing}/`)).text()).toBe("host home")
      expect(await (await fetch(`${parsing}/hello`)).json()).toEqual({ hello: "world" })
      expect(await (await post(`${parsing}/echo`, '{"a":[1]}')).json()).toEqual({ youSent: { a: [1] } })
      expect(await (await fetch(`${parsing}/after`)).text()).toBe("a host route registered after qforms")
      // Outside the prefix, the host's own 404 (Express' page), not qforms'.
      for (const path of ["/nope", "/forms-services/api/forms"]) {
        const reply = await fetch(`${parsing}${path}`)
        expect(reply.status).toBe(404)
        expect(reply.headers.get("content-type")).toMatch(/^text\/html/)
      }
      // Under it, qforms' own 404.
      const missing = await fetch(`${parsing}/forms-service/api/nope`)
      expect([missing.status, await missing.json()]).toEqual([404, { error: "no route GET /api/nope" }])
    })

    it("serves GET /forms-service/api/openapi.json with the mount point in servers, honouring x-forwarded-proto", async () => {
      const reply = await fetch(`${parsing}/forms-service/api/openapi.json`)
      expect(reply.status).toBe(200)
      expect(((await reply.json()) as Servers).servers[0]!.url).toBe(`${parsing}/forms-service`)
      const proxied = await fetch(`${parsing}/forms-service/api/openapi.json`, {
        headers: { "x-forwarded-proto": "https", "x-forwarded-host": "forms.example.com", "x-forwarded-prefix": "/app" }
      })
      expect(((await proxied.json()) as Servers).servers[0]!.url).toBe("https://forms.example.com/app/forms-service")
      expect((await fetch(`${parsing}/forms-service/healthz`)).status).toBe(200)
      expect((await fetch(`${parsing}/forms-service/api/docs`)).headers.get("content-type")).toMatch(/^text\/html/)
      // The mount point's root is qforms' welcome: its links carry the prefix.
      const welcome = await fetch(`${parsing}/forms-service/`)
      expect(welcome.status).toBe(200)
      expect(((await welcome.json()) as { docs: string }).docs).toBe(`${parsing}/forms-service/api/docs`)
    })

    it("hands a body express.json() already parsed to qforms intact (create a form, read it back)", async () => {
      const form = {
        title: 'Ünïcödé "quoted" ✓ form',
        description: "line 1\nline 2",
        fields: [
          { type: "select", label: "Topic", required: true, options: { choices: ["Sales", "Support"] } },
          { type: "rating", label: "Stars", options: { max: 7 } }
        ]
      }
      const before = { ...calls }
      const created = await post(`${parsing}/forms-service/api/forms`, JSON.stringify(form, null, 2))
      expect(created.status, await created.clone().text()).toBe(201)
      expect(calls.replayed).toBe(before.replayed + 1) // the body was parsed: handed over re-encoded
      const { id } = (await created.json()) as { id: number }
      const read = await fetch(`${parsing}/forms-service/api/forms/${id}`, { headers: auth() })
      expect(calls.node).toBe(before.node + 1) // nothing to re-serve: the native path
      expect(await read.json()).toMatchObject({
        id,
        title: form.title,
        description: form.description,
        fields: [
          { type: "select", label: "Topic", required: true, options: { choices: ["Sales", "Support"] } },
          { type: "rating", label: "Stars", options: { max: 7 } }
        ]
      })
      // Unknown fields are still refused by qforms, naming them.
      const extra = await post(`${parsing}/forms-service/api/forms`, JSON.stringify({ title: "x", colour: "red" }))
      expect(extra.status).toBe(400)
      expect(((await extra.json()) as { error: string }).error).toContain("colour")
    })

    it("takes the native path when no parser read the body", async () => {
      const before = { ...calls }
      const created = await post(`${plain}/forms-service/api/forms`, JSON.stringify({ title: "Unparsed" }))
      expect(created.status).toBe(201)
      expect(calls).toEqual({ replayed: before.replayed, node: before.node + 1 })
      expect(await created.json()).toMatchObject({ title: "Unparsed", status: "draft" })
    })

    it("answers qforms' {error} for bodies the host's parser refused, and leaves the host's own routes to the host", async () => {
      for (const raw of ["{nope", '"title"', "[1,"]) {
        const reply = await post(`${parsing}/forms-service/api/forms`, raw)
        expect(reply.status).toBe(400)
        expect(reply.headers.get("content-type")).toMatch(/json/)
        expect(await reply.json()).toMatchObject({ error: expect.any(String) })
      }
      // Over express.json()'s own limit (100 kB by default): 413 in qforms' shape.
      const big = await post(`${parsing}/forms-service/api/forms`, JSON.stringify({ title: "x".repeat(200_000) }))
      expect(big.status).toBe(413)
      expect(Object.keys((await big.json()) as object)).toEqual(["error"])
      // The host's own route keeps Express' handling of the same error.
      const hostError = await post(`${parsing}/echo`, "{nope")
      expect(hostError.status).toBe(400)
      expect(hostError.headers.get("content-type")).toMatch(/^text\/html/)
    })

    it("hands a body express.raw() read over byte for byte, and applies qforms' own body limit to it", async () => {
      const before = { ...calls }
      const title = 'Raw ✓ "bytes"'
      const created = await post(`${raw}/forms-service/api/forms`, JSON.stringify({ title }))
      expect(created.status, await created.clone().text()).toBe(201)
      expect(calls.replayed).toBe(before.replayed + 1)
      expect(await created.json()).toMatchObject({ title })
      const invalid = await post(`${raw}/forms-service/api/forms`, '{"title": ')
      expect(invalid.status).toBe(400)
      expect(await invalid.json()).toMatchObject({ error: expect.any(String) })
      // Within express.raw()'s 5 MB, over qforms' 1 MiB: qforms' 413.
      const big = await post(`${raw}/forms-service/api/forms`, JSON.stringify({ title: "x".repeat(1024 * 1024 + 10) }))
      expect(big.status).toBe(413)
      expect(Object.keys((await big.json()) as object)).toEqual(["error"])
      // The connection stays usable after a refused body.
      expect((await fetch(`${raw}/forms-service/api/forms`, { headers: auth() })).status).toBe(200)
    })

    it("re-serves a urlencoded body the host parsed as urlencoded", async () => {
      const reply = await post(`${parsing}/forms-service/api/forms`, "title=x", "application/x-www-form-urlencoded")
      expect(reply.status).toBe(415) // qforms saw the urlencoded body and its content type
      expect(await reply.json()).toMatchObject({ error: expect.stringContaining("JSON") })
    })
  })
