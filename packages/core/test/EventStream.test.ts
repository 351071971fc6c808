/**
 * The live event stream over a real WebSocket (Node `ws` through
 * `Qforms.upgradeHandler`), on both databases; on PostgreSQL also across two
 * qforms instances sharing the database.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { ApiKeys } from "../src/domain/ApiKeys.ts"
import { Workspaces } from "../src/domain/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "./support/Databases.ts"

const listen = async (qforms: Qforms.Qforms) => {
  const server: Server = createServer(qforms.nodeHandler)
  server.on("upgrade", (request, socket, head) => {
    if (!qforms.upgradeHandler(request, socket, head)) socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

interface Client {
  readonly messages: Array<Record<string, unknown>>
  readonly socket: WebSocket
}

const connect = (url: string, options: { key?: string; protocols?: Array<string>; query?: string } = {}) =>
  new Promise<Client>((resolve, reject) => {
    const socket = new WebSocket(`ws://${url}/api/events${options.query ?? ""}`, options.protocols ?? [], {
      headers: options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }
    })
    const messages: Array<Record<string, unknown>> = []
    socket.on("message", (data) => messages.push(JSON.parse(String(data))))
    socket.once("open", () => resolve({ messages, socket }))
    socket.once("unexpected-response", (_request, response) => {
      let body = ""
      response.on("data", (chunk: Buffer) => body += chunk.toString())
      response.on("end", () => reject(Object.assign(new Error(`refused ${response.statusCode}`), { status: response.statusCode, body })))
    })
    socket.once("error", reject)
  })

const waitFor = async (probe: () => boolean, timeoutMs = 10_000) => {
  const deadline = performance.now() + timeoutMs
  while (!probe()) {
    if (performance.now() > deadline) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

for (const target of databaseTargets) {
  describe(`live event stream on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let second: Qforms.Qforms | undefined
    let host: { url: string; server: Server }
    let cleanup: () => Promise<void>
    const keys = { a: "", b: "" }
    const api = async (q: Qforms.Qforms, key: string, method: string, path: string, body?: unknown) => {
      const response = await q.handler(new Request(`http://qforms.test/api${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }))
      const text = await response.text()
      return text === "" ? undefined : JSON.parse(text)
    }
    const publishedForm = async (q: Qforms.Qforms, title: string) => {
      const form = await api(q, keys.a, "POST", "/forms", { title, fields: [{ type: "short_text", label: "Name" }] })
      await api(q, keys.a, "PATCH", `/forms/${form.id}`, { status: "published" })
      const full = await api(q, keys.a, "GET", `/forms/${form.id}`)
      return { id: form.id as number, fieldId: full.fields[0].id as number }
    }

    beforeAll(async () => {
      const options = target.options()
      cleanup = options.cleanup
      qforms = await Qforms.make({ database: options.database, appUrl: "https://forms.example.com", delivery: { worker: false } })
      if (target.name === "postgres") {
        second = await Qforms.make({ database: options.database, delivery: { worker: false } })
      }
      host = await listen(qforms)
      const seed = (name: string) =>
        qforms.run(Effect.gen(function*() {
          const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({ name, ownerEmail: `${name}@example.com` })
          return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
        }))
      keys.a = await seed("a")
      keys.b = await seed("b")
    }, 60_000)

    afterAll(async () => {
      await new Promise((resolve) => host?.server.close(resolve))
      await second?.dispose()
      await qforms?.dispose()
      await cleanup?.()
    })

    it("sends each committed event of the workspace, in commit order, as the webhook JSON", async () => {
      const client = await connect(host.url, { key: keys.a })
      const other = await connect(host.url, { key: keys.b })
      const form = await publishedForm(qforms, "Live")
      const ids: Array<number> = []
      for (const name of ["one", "two", "three", "four", "five"]) {
        ids.push((await api(qforms, keys.a, "POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: name } })).id)
      }
      const { stages } = await api(qforms, keys.a, "GET", `/forms/${form.id}/stages`)
      await api(qforms, keys.a, "PATCH", `/responses/${ids[0]}`, { stageId: stages[2].id })
      await waitFor(() => client.messages.length >= 6)
      expect(client.messages.map((m) => [m.event, m.responseId])).toEqual([
        ...ids.map((id) => ["response.created", id]),
        ["response.stage_changed", ids[0]]
      ])
      expect(client.messages[0]).toMatchObject({
        form: { id: form.id, title: "Live" },
        answers: { Name: "one" },
        link: `https://forms.example.com/app/responses/${ids[0]}`
      })
      expect(client.messages[5]!.stage).toEqual({ id: stages[2].id, name: "Done" })
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(other.messages).toEqual([])
      client.socket.close()
      other.socket.close()
    })

    it("filters by formId; another workspace's form is 404", async () => {
      const first = await publishedForm(qforms, "First")
      const secondForm = await publishedForm(qforms, "Second")
      const client = await connect(host.url, { key: keys.a, query: `?formId=${secondForm.id}` })
      await api(qforms, keys.a, "POST", `/forms/${first.id}/responses`, { values: { [first.fieldId]: "x" } })
      const row = await api(qforms, keys.a, "POST", `/forms/${secondForm.id}/responses`, { values: { [secondForm.fieldId]: "y" } })
      await waitFor(() => client.messages.length >= 1)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(client.messages.map((m) => m.responseId)).toEqual([row.id])
      client.socket.close()
      await expect(connect(host.url, { key: keys.b, query: `?formId=${first.id}` })).rejects.toMatchObject({ status: 404 })
      await expect(connect(host.url, { key: keys.a, query: "?formId=abc" })).rejects.toMatchObject({ status: 400 })
    })

    it("refuses a missing or bad key with 401; a browser can pass its key as a subprotocol", async () => {
      await expect(connect(host.url)).rejects.toMatchObject({ status: 401 })
      await expect(connect(host.url, { key: "qk_live_nope" })).rejects.toMatchObject({ status: 401 })
      const refused = await connect(host.url, { protocols: ["qforms.v1", "qforms.bearer.qk_live_bad"] }).catch((e) => e)
      expect(refused.status).toBe(401)
      expect(JSON.parse(refused.body).error).toBeTypeOf("string")
      const browser = await connect(host.url, { protocols: ["qforms.v1", `qforms.bearer.${keys.a}`] })
      expect(browser.socket.protocol).toBe("qforms.v1")
      browser.socket.close()
      const plain = await fetch(`http://${host.url}/api/events`, { headers: { authorization: `Bearer ${keys.a}` } })
      expect(plain.status).toBe(426)
      expect(await plain.json()).toMatchObject({ error: expect.stringContaining("WebSocket") })
    })

    it("closes a client that falls behind instead of buffering without bound", async () => {
      const connection = await qforms.events.connect({ headers: { authorization: `Bearer ${keys.a}` }, url: "/api/events" })
      if ("status" in connection) throw new Error("refused")
      const closed: Array<number> = []
      connection.open(() => false, (code) => closed.push(code))
      const form = await publishedForm(qforms, "Slow")
      await api(qforms, keys.a, "POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: "z" } })
      await waitFor(() => closed.length > 0)
      expect(closed).toEqual([4008])
    })

    if (target.name === "postgres") {
      it("hears events committed by another qforms process on the same database", async () => {
        const client = await connect(host.url, { key: keys.a })
        const form = await publishedForm(second!, "Elsewhere")
        const row = await api(second!, keys.a, "POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: "far" } })
        await waitFor(() => client.messages.some((m) => m.responseId === row.id))
        client.socket.close()
      })
    }
  })
}
