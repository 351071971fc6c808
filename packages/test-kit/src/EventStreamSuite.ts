/**
 * The live event stream through an adapter, shared by the three adapters'
 * tests: a real host app with qforms mounted under `/forms-service` on each
 * test database, and a `ws` client at `ws://…/forms-service/api/events`.
 *
 * The host (the adapter's test builds it) answers `GET /` with "host home",
 * has a WebSocket of its own at `/host-ws` that sends "host socket" on open,
 * and refuses other upgrades outside qforms with 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { Qforms } from "@qforms/core"
import { waitFor } from "./Conditions.ts"
import { databaseTargets } from "./Databases.ts"
import { ownerKey } from "./Seeds.ts"

/** Where the hosts mount qforms. */
export const prefix = "/forms-service"

/** A host app listening on a loopback port. */
export interface Host {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  readonly close: () => Promise<void>
}

export interface Client {
  readonly socket: WebSocket
  readonly messages: Array<Record<string, unknown>>
  readonly texts: Array<string>
}

/** A refused handshake: its HTTP status and body. */
export interface Refused extends Error {
  readonly status: number
  readonly body: string
}

/** Opens a WebSocket; rejects with a {@link Refused} when the server answers the handshake with plain HTTP. */
export const connect = (url: string, options: { key?: string; protocols?: Array<string> } = {}) =>
  new Promise<Client>((resolve, reject) => {
    const socket = new WebSocket(url, options.protocols ?? [], {
      headers: options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }
    })
    const client: Client = { socket, messages: [], texts: [] }
    socket.on("message", (data) => {
      const text = String(data)
      client.texts.push(text)
      if (text.startsWith("{")) client.messages.push(JSON.parse(text))
    })
    socket.once("open", () => resolve(client))
    socket.once("unexpected-response", (_request, response) => {
      let body = ""
      response.on("data", (chunk: Buffer) => (body += chunk.toString()))
      response.on("end", () =>
        reject(Object.assign(new Error(`refused ${response.statusCode}`), { status: response.statusCode, body }))
      )
      response.on("error", () =>
        reject(Object.assign(new Error(`refused ${response.statusCode}`), { status: response.statusCode, body }))
      )
    })
    socket.once("error", reject)
  })

/** The refusal a handshake ends with (fails the test when it was accepted). */
export const refusal = async (
  url: string,
  options: { key?: string; protocols?: Array<string> } = {}
): Promise<Refused> => {
  const outcome = await connect(url, options).then(
    (client) => client,
    (error: Refused) => error
  )
  if ("socket" in outcome) {
    outcome.socket.terminate()
    throw new Error(`${url} was accepted`)
  }
  return outcome
}

/** Runs the event-stream suite for `adapter`, with `mount` building its host around a running qforms. */
export const eventStreamSuite = (adapter: string, mount: (qforms: Qforms.Qforms) => Promise<Host>) => {
  for (const target of databaseTargets) {
    describe(`${adapter}: the live event stream under ${prefix} on ${target.name}`, () => {
      let qforms: Qforms.Qforms
      let host: Host
      let cleanup: () => Promise<void>
      let key: string
      const clients: Array<Client> = []
      const events = () => `${host.origin.replace(/^http/, "ws")}${prefix}/api/events`
      const open = async (url: string, options: { key?: string; protocols?: Array<string> } = {}) => {
        const client = await connect(url, options)
        clients.push(client)
        return client
      }
      const api = async (method: string, path: string, body?: unknown) => {
        const reply = await fetch(`${host.origin}${prefix}/api${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        const text = await reply.text()
        expect(reply.status, text).toBeLessThan(300)
        return text === "" ? undefined : JSON.parse(text)
      }
      const publishedForm = async (title: string) => {
        const form = await api("POST", "/forms", { title, fields: [{ type: "short_text", label: "Name" }] })
        await api("PATCH", `/forms/${form.id}`, { status: "published" })
        const full = await api("GET", `/forms/${form.id}`)
        return { id: form.id as number, fieldId: full.fields[0].id as number }
      }

      beforeAll(async () => {
        const options = target.options()
        cleanup = options.cleanup
        qforms = await Qforms.make({ database: options.database, delivery: { worker: false } })
        key = await qforms.run(ownerKey())
        host = await mount(qforms)
      })

      afterAll(async () => {
        for (const client of clients) client.socket.terminate()
        await host?.close()
        await qforms?.dispose()
        await cleanup?.()
      })

      it("sends response.created for a response submitted through the mounted API", async () => {
        const client = await open(events(), { key })
        const browser = await open(events(), { protocols: ["qforms.v1", `qforms.bearer.${key}`] })
        expect(browser.socket.protocol).toBe("qforms.v1")
        const other = await publishedForm("Other")
        const form = await publishedForm("Live")
        const filtered = await open(`${events()}?formId=${form.id}`, { key })
        const ignored = await api("POST", `/forms/${other.id}/responses`, { values: { [other.fieldId]: "elsewhere" } })
        const row = await api("POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: "Ada" } })
        await waitFor(() => [client, browser, filtered].every((c) => c.messages.some((m) => m.responseId === row.id)))
        for (const c of [client, browser, filtered]) {
          expect(c.messages.find((m) => m.responseId === row.id)).toMatchObject({
            event: "response.created",
            responseId: row.id,
            form: { id: form.id, title: "Live" },
            answers: { Name: "Ada" },
            // Without appUrl the stream's link is the connection's own origin and mount prefix.
            link: `${host.origin}${prefix}/app/responses/${row.id}`
          })
        }
        // The two forms' publications came first (`form.published`, about no response).
        expect(client.messages.filter((m) => m.responseId !== undefined).map((m) => m.responseId)).toEqual([
          ignored.id,
          row.id
        ])
        // ?formId= reached qforms (the form's own publication may arrive just after the stream opened).
        expect(filtered.messages.filter((m) => m.responseId !== undefined).map((m) => m.responseId)).toEqual([row.id])
        expect(filtered.messages.every((m) => (m.form as { id: number }).id === form.id)).toBe(true)
      })

      it("refuses a bad key with 401 {error}, a bad formId with 400; a plain GET answers 426", async () => {
        for (const options of [
          { key: "qk_live_nope" },
          {},
          { protocols: ["qforms.v1", "qforms.bearer.qk_live_bad"] }
        ]) {
          const refused = await refusal(events(), options)
          expect(refused.status).toBe(401)
          expect(JSON.parse(refused.body)).toEqual({ error: expect.any(String) })
        }
        expect((await refusal(`${events()}?formId=abc`, { key })).status).toBe(400)
        const plain = await fetch(`${host.origin}${prefix}/api/events`, { headers: { authorization: `Bearer ${key}` } })
        expect(plain.status).toBe(426)
      })

      it("leaves the host's own routes and WebSockets alone", async () => {
        expect(await (await fetch(`${host.origin}/`)).text()).toBe("host home")
        const own = await open(`${host.origin.replace(/^http/, "ws")}/host-ws`)
        await waitFor(() => own.texts.length > 0)
        expect(own.texts).toEqual(["host socket"])
        const ws = host.origin.replace(/^http/, "ws")
        expect((await refusal(`${ws}/nope`)).status).toBe(404)
        expect((await refusal(`${ws}${prefix}/api/nope`, { key })).status).toBe(404)
        expect((await refusal(`${ws}${prefix}x/api/events`, { key })).status).toBe(404) // a look-alike prefix is the host's
      })
    })
  }
}
