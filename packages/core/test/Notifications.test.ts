/**
 * LISTEN/NOTIFY channels are per schema: two deployments sharing one
 * PostgreSQL database under different schemas never hear each other (an event
 * stream would otherwise replay its own old event carrying the other
 * deployment's sequence number, and a delivery worker wake for the other's
 * work). One of the two schemas is 63 characters long, the longest PostgreSQL
 * allows, so its channel names take the hashed form.
 */
import type { Server } from "node:http"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import { PgClient } from "@effect/sql-pg"
import { Effect, Fiber, Layer, Redacted, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { eventsChannel, outboxChannel } from "../src/events/Events.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { channelName, Notifications, notifyChannel } from "../src/storage/Notifications.ts"
import { postgresUrl } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { apiOf } from "@qforms/test-kit/InProcessApi"

const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 10)}`
const schemaA = `qforms_test_a_${suffix}`
const schemaB = `qforms_test_b_${suffix}_`.padEnd(63, "x")

describe.skipIf(postgresUrl === undefined)("notification channels of two schemas on one PostgreSQL database", () => {
  const url = postgresUrl!
  const pgLayer = PgClient.layer({ url: Redacted.make(url), maxConnections: 2 })
  let a: Qforms.Qforms
  let b: Qforms.Qforms
  let server: Server
  const keys = { a: "", b: "" }

  const api = (q: Qforms.Qforms, key: string, method: string, path: string, body?: unknown) =>
    apiOf(q, key)(method, path, body)
  const publishedForm = async (q: Qforms.Qforms, key: string) => {
    const form = (await api(q, key, "POST", "/forms", { title: "F", fields: [{ type: "short_text", label: "Name" }] }))
      .json
    await api(q, key, "PATCH", `/forms/${form.id}`, { status: "published" })
    const full = (await api(q, key, "GET", `/forms/${form.id}`)).json
    return { id: form.id as number, fieldId: full.fields[0].id as number }
  }
  const submit = (q: Qforms.Qforms, key: string, form: { id: number; fieldId: number }, name: string) =>
    api(q, key, "POST", `/forms/${form.id}/responses`, { values: { [form.fieldId]: name } })

  beforeAll(async () => {
    const make = (schema: string) =>
      Qforms.make({
        database: { url, schema, maxConnections: 4 },
        delivery: { worker: false, allowPrivateTargets: true }
      })
    a = await make(schemaA)
    b = await make(schemaB)
    // Both first workspaces get id 1: the same `<workspace>:<seq>` notices on both sides.
    const seed = (q: Qforms.Qforms) =>
      q.run(
        Effect.gen(function* () {
          const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
            name: "w",
            ownerEmail: "w@example.com"
          })
          return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
        })
      )
    keys.a = await seed(a)
    keys.b = await seed(b)
    server = testHttpServer(a.nodeHandler)
    server.on("upgrade", (request, socket, head) => {
      if (!a.upgradeHandler(request, socket, head)) socket.destroy()
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  })

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    await b?.dispose()
    await a?.dispose()
    await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        for (const schema of [schemaA, schemaB]) yield* sql.unsafe(`drop schema if exists "${schema}" cascade`)
      }).pipe(Effect.provide(pgLayer), Effect.orDie)
    )
  })

  it("names each schema's channels apart, the same in SQL as in the listener", async () => {
    expect(channelName(eventsChannel, schemaA)).toBe(`qforms_events_${schemaA}`)
    expect(channelName(eventsChannel, schemaB)).toMatch(/^qforms_events_[0-9a-f]{32}$/)
    const inSql = (schema: string) =>
      Effect.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql.withTransaction(
            Effect.gen(function* () {
              yield* sql.unsafe(`set local search_path to "${schema}", public`)
              const rows = yield* sql<{
                readonly channel: string
              }>`select ${notifyChannel(sql, outboxChannel)} as channel`
              return rows[0]!.channel
            })
          )
        }).pipe(Effect.provide(pgLayer))
      )
    expect(await inSql(schemaA)).toBe(channelName(outboxChannel, schemaA))
    expect(await inSql(schemaB)).toBe(channelName(outboxChannel, schemaB))
  })

  it("an event stream hears its own schema's events only, never replaying one for the other's notice", async () => {
    const { port } = server.address() as AddressInfo
    const connect = async (messages: Array<Record<string, unknown>>) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/events`, {
        headers: { authorization: `Bearer ${keys.a}` }
      })
      socket.on("message", (data) => messages.push(JSON.parse(String(data))))
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject))
      return socket
    }
    // An old event of A: seq 1 of workspace 1, which B's first event will also be. A first stream waits until the
    // server has handled its notice (it arrives asynchronously after the commit), so the stream under test, opened
    // after, has nothing of it to hear.
    const early: Array<Record<string, unknown>> = []
    const earlySocket = await connect(early)
    const formA = await publishedForm(a, keys.a)
    expect((await submit(a, keys.a, formA, "old")).status).toBe(201)
    await waitFor(() => early.some((m) => m.event === "response.created"))
    earlySocket.close()
    const messages: Array<Record<string, unknown>> = []
    const socket = await connect(messages)

    const formB = await publishedForm(b, keys.b)
    for (const name of ["b1", "b2", "b3"]) expect((await submit(b, keys.b, formB, name)).status).toBe(201)
    const fresh = await submit(a, keys.a, formA, "new")
    await waitFor(() => messages.length >= 1)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(messages.map((m) => [m.event, m.responseId])).toEqual([["response.created", fresh.json.id]])
    socket.close()
  })

  it("a delivery worker's wake-ups (the outbox channel) stay within their schema", async () => {
    const heard = { a: 0, b: 0 }
    const listen = (schema: string, count: () => void) =>
      Effect.runFork(
        Stream.runForEach(
          Stream.unwrap(
            Effect.gen(function* () {
              return (yield* Notifications).listen(outboxChannel)
            })
          ),
          () => Effect.sync(count)
        ).pipe(Effect.provide(Notifications.layerPg(schema).pipe(Layer.provide(pgLayer))))
      )
    const listeners = [listen(schemaA, () => heard.a++), listen(schemaB, () => heard.b++)]
    // LISTEN is confirmed asynchronously: notify A's own channel until A hears it.
    await waitFor(() => {
      void a.run(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select pg_notify(${notifyChannel(sql, outboxChannel)}, '')`)
      )
      return heard.a > 0
    })
    await waitFor(() => {
      void b.run(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select pg_notify(${notifyChannel(sql, outboxChannel)}, '')`)
      )
      return heard.b > 0
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const before = { ...heard }
    // B's real wake-up: a response to a form with a webhook subscription.
    const formB = await publishedForm(b, keys.b)
    const subscribed = await api(b, keys.b, "POST", "/webhooks/subscribe", {
      formId: formB.id,
      event: "response.created",
      targetUrl: "http://127.0.0.1:9/hook"
    })
    expect(subscribed.status).toBe(201)
    expect((await submit(b, keys.b, formB, "wake")).status).toBe(201)
    await waitFor(() => heard.b > before.b)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(heard.a).toBe(before.a)
    for (const fiber of listeners) await Effect.runPromise(Fiber.interrupt(fiber))
  })
})
