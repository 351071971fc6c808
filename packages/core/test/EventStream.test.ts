/**
 * The live event stream over a real WebSocket (Node `ws` through
 * `Qforms.upgradeHandler`), on both databases; on PostgreSQL also across two
 * qforms instances sharing the database.
 */
import type { Server } from "node:http"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { SqlClient } from "effect/sql"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { sessionCookie } from "../src/web/Security.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { apiOf } from "@qforms/test-kit/InProcessApi"

const listen = async (qforms: Qforms.Qforms) => {
  const server: Server = testHttpServer(qforms.nodeHandler)
  server.on("upgrade", (request, socket, head) => {
    if (!qforms.upgradeHandler(request, socket, head)) socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

interface Client {
  readonly messages: Array<Record<string, unknown>>
  readonly socket: WebSocket
  /** The close frame the server sent, once the socket closed. */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>
}

const connect = (
  url: string,
  options: { key?: string; protocols?: Array<string>; query?: string; headers?: Record<string, string> } = {}
) =>
  new Promise<Client>((resolve, reject) => {
    const socket = new WebSocket(`ws://${url}/api/events${options.query ?? ""}`, options.protocols ?? [], {
      headers: { ...options.headers, ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }) }
    })
    const messages: Array<Record<string, unknown>> = []
    socket.on("message", (data) => messages.push(JSON.parse(String(data))))
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.once("close", (code, reason) => done({ code, reason: reason.toString() }))
    )
    socket.once("open", () => resolve({ messages, socket, closed }))
    socket.once("unexpected-response", (_request, response) => {
      let body = ""
      response.on("data", (chunk: Buffer) => (body += chunk.toString()))
      response.on("end", () =>
        reject(Object.assign(new Error(`refused ${response.statusCode}`), { status: response.statusCode, body }))
      )
    })
    socket.once("error", reject)
  })

for (const target of databaseTargets) {
  describe(`live event stream on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let second: Qforms.Qforms | undefined
    let host: { url: string; server: Server }
    let cleanup: () => Promise<void>
    const keys = { a: "", b: "" }
    const api = async (q: Qforms.Qforms, key: string, method: string, path: string, body?: unknown) =>
      (await apiOf(q, key)(method, path, body)).json
    const publishedForm = async (q: Qforms.Qforms, title: string) => {
      const form = await api(q, keys.a, "POST", "/forms", { title, fields: [{ type: "short_text", label: "Name" }] })
      await api(q, keys.a, "PATCH", `/forms/${form.id}`, { status: "published" })
      const full = await api(q, keys.a, "GET", `/forms/${form.id}`)
      return { id: form.id as number, fieldId: full.fields[0].id as number }
    }

    beforeAll(async () => {
      const options = target.options()
      cleanup = options.cleanup
      qforms = await Qforms.make({
        database: options.database,
        appUrl: "https://forms.example.com",
        delivery: { worker: false },
        events: { maxStreamsPerCredential: 3, maxStreams: 12, recheckInterval: "300 millis" }
      })
      if (target.name === "postgres") {
        second = await Qforms.make({ database: options.database, delivery: { worker: false } })
      }
      host = await listen(qforms)
      const seed = (name: string) =>
        qforms.run(
          Effect.gen(function* () {
            const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
              name,
              ownerEmail: `${name}@example.com`
            })
            return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
          })
        )
      keys.a = await seed("a")
      keys.b = await seed("b")
    })

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
        ids.push(
          (await api(qforms, keys.a, "POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: name } })).id
        )
      }
      const { stages } = await api(qforms, keys.a, "GET", `/forms/${form.id}/stages`)
      await api(qforms, keys.a, "PATCH", `/responses/${ids[0]}`, { stageId: stages[2].id })
      await waitFor(() => client.messages.length >= 7)
      expect(client.messages.map((m) => [m.event, m.responseId])).toEqual([
        ["form.published", undefined],
        ...ids.map((id) => ["response.created", id]),
        ["response.stage_changed", ids[0]]
      ])
      expect(client.messages[0]).toMatchObject({
        form: { id: form.id, title: "Live", status: "published" },
        link: `https://forms.example.com/app/forms/${form.id}/responses`
      })
      expect(client.messages[1]).toMatchObject({
        form: { id: form.id, title: "Live" },
        answers: { Name: "one" },
        link: `https://forms.example.com/app/responses/${ids[0]}`
      })
      expect(client.messages[6]!.stage).toEqual({ id: stages[2].id, name: "Done" })
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
      const row = await api(qforms, keys.a, "POST", `/forms/${secondForm.id}/responses`, {
        values: { [secondForm.fieldId]: "y" }
      })
      await waitFor(() => client.messages.length >= 1)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(client.messages.map((m) => m.responseId)).toEqual([row.id])
      client.socket.close()
      await expect(connect(host.url, { key: keys.b, query: `?formId=${first.id}` })).rejects.toMatchObject({
        status: 404
      })
      await expect(connect(host.url, { key: keys.a, query: "?formId=abc" })).rejects.toMatchObject({ status: 400 })
    })

    it("refuses a missing or bad key with 401; a browser can pass its key as a subprotocol", async () => {
      await expect(connect(host.url)).rejects.toMatchObject({ status: 401 })
      await expect(connect(host.url, { key: "qk_live_nope" })).rejects.toMatchObject({ status: 401 })
      // The key is never answered as the selected subprotocol: an offer without qforms.v1 is refused.
      const alone = await connect(host.url, { protocols: [`qforms.bearer.${keys.a}`] }).catch((e) => e)
      expect(alone.status).toBe(400)
      expect(JSON.parse(alone.body).error).toContain("qforms.v1")
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
      const connection = await qforms.events.connect({
        headers: { authorization: `Bearer ${keys.a}` },
        url: "/api/events"
      })
      if ("status" in connection) throw new Error("refused")
      const closed: Array<number> = []
      connection.open(
        () => false,
        (code) => closed.push(code)
      )
      const form = await publishedForm(qforms, "Slow")
      await api(qforms, keys.a, "POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: "z" } })
      await waitFor(() => closed.length > 0)
      expect(closed).toEqual([4008])
    })

    /** A fresh member of workspace a with a key, and a form with a field, for the revocation tests. */
    const memberWithKey = async (role: "owner" | "admin" | "member" | "viewer") => {
      const email = `m${Math.random().toString(36).slice(2, 10)}@example.com`
      const member = await api(qforms, keys.a, "POST", "/members", { email, role })
      const issued = await api(qforms, keys.a, "POST", "/api-keys", { accountId: member.accountId })
      return { accountId: member.accountId as number, keyId: issued.apiKey.id as number, key: issued.key as string }
    }
    /** Commits an event after the change and checks the stream closed with `code` and got nothing. */
    const expectClosedBeforeNextEvent = async (client: Client, code: number, form: { id: number; fieldId: number }) => {
      await api(qforms, keys.a, "POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: "after" } })
      const closed = await client.closed
      expect(closed.code).toBe(code)
      expect(closed.reason).not.toBe("")
      expect(client.messages).toEqual([])
    }

    it("closes a key's stream (4401) when the key is revoked: no event committed afterwards reaches it", async () => {
      const form = await publishedForm(qforms, "Revoked")
      const { key, keyId } = await memberWithKey("member")
      const client = await connect(host.url, { key })
      await api(second ?? qforms, keys.a, "DELETE", `/api-keys/${keyId}`)
      await expectClosedBeforeNextEvent(client, 4401, form)
      await expect(connect(host.url, { key })).rejects.toMatchObject({ status: 401 })
    })

    it("closes a member's stream (4401) when the member is removed, and (4403) when the role changes", async () => {
      const form = await publishedForm(qforms, "Removed")
      const removed = await memberWithKey("member")
      const client = await connect(host.url, { key: removed.key })
      await api(second ?? qforms, keys.a, "DELETE", `/members/${removed.accountId}`)
      await expectClosedBeforeNextEvent(client, 4401, form)

      const demoted = await memberWithKey("admin")
      const before = await connect(host.url, { key: demoted.key })
      await api(second ?? qforms, keys.a, "PATCH", `/members/${demoted.accountId}`, { role: "viewer" })
      await expectClosedBeforeNextEvent(before, 4403, form)
      // Reconnecting opens the stream with the new role.
      const after = await connect(host.url, { key: demoted.key })
      after.socket.close()
    })

    it("closes an application session's stream (4401) on sign-out, and an expired one on the periodic check", async () => {
      const form = await publishedForm(qforms, "Session")
      const { accountId } = await memberWithKey("member")
      const signIn = () =>
        qforms.run(
          Effect.gen(function* () {
            const workspaceId = (yield* (yield* ApiKeys).authenticate(keys.a)).workspaceId
            const sessions = yield* Sessions
            return (yield* sessions.redeemSignInLink(yield* sessions.createSignInLink(workspaceId, accountId))).id
          })
        )
      const session = (id: string) => ({ headers: { cookie: `${sessionCookie}=${id}`, origin: `http://${host.url}` } })

      const id = await signIn()
      const client = await connect(host.url, session(id))
      await (second ?? qforms).run(
        Effect.gen(function* () {
          yield* (yield* Sessions).signOut(id)
        })
      )
      await expectClosedBeforeNextEvent(client, 4401, form)

      // No notice announces an expiry: the timer (300 ms here) finds it.
      const expiring = await signIn()
      const held = await connect(host.url, session(expiring))
      await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`update sessions set expires_at = now() - interval '1 minute' where account_id = ${accountId}`
        })
      )
      expect((await held.closed).code).toBe(4401)
    })

    it("caps streams per credential (429) and per process (503) with an {error}, and frees a slot on close", async () => {
      const { key } = await memberWithKey("viewer")
      const held: Array<Client> = []
      for (let i = 0; i < 3; i++) held.push(await connect(host.url, { key }))
      const over = await connect(host.url, { key }).catch((e) => e)
      expect(over.status).toBe(429)
      expect(JSON.parse(over.body).error).toContain("3 event streams")
      const freed = held.pop()!
      freed.socket.close()
      await freed.closed
      // The server detaches the stream when it sees the close: poll until the slot is free.
      let again: Client | undefined
      const deadline = performance.now() + 10_000
      while (again === undefined && performance.now() < deadline) {
        again = await connect(host.url, { key }).catch(() => undefined)
      }
      held.push(again!)
      // Fill the process (12 here) with other members' streams: the next one is refused with 503.
      let refusal: { status: number; body: string } | undefined
      while (refusal === undefined && held.length < 20) {
        const other = await memberWithKey("viewer")
        for (let i = 0; i < 3 && refusal === undefined; i++) {
          await connect(host.url, { key: other.key }).then(
            (client) => held.push(client),
            (e) => (refusal = e)
          )
        }
      }
      expect(refusal?.status).toBe(503)
      expect(JSON.parse(refusal!.body).error).toContain("12 event streams")
      for (const client of held) client.socket.close()
      await Promise.all(held.map((client) => client.closed))
    })

    if (target.name === "postgres") {
      it("hears events committed by another qforms process on the same database", async () => {
        const client = await connect(host.url, { key: keys.a })
        const form = await publishedForm(second!, "Elsewhere")
        const row = await api(second!, keys.a, "POST", `/forms/${form.id}/responses`, {
          values: { [form.fieldId]: "far" }
        })
        await waitFor(() => client.messages.some((m) => m.responseId === row.id))
        client.socket.close()
      })
    }
  })
}
