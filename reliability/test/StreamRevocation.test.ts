/**
 * Scenario 11, event streams end with their credential (PostgreSQL: two
 * server processes, the streams held by one, every change made through the
 * other): a stream opened with a key that is then revoked, with the key of a
 * member who is then removed, with the key of an admin who is then demoted,
 * and with an application session that then signs out, each closes (4401, or
 * 4403 for the role change) within the bound, and receives no event committed
 * after the change. One key may hold QFORMS_EVENT_STREAMS_PER_KEY streams: the
 * next handshake is refused with 429 `{error}`.
 */
import { afterAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import {
  call,
  cliOk,
  type ProcessDatabase,
  publishedForm,
  record,
  round,
  type ServerProcess,
  start,
  startFresh,
  targets,
  waitUntil
} from "./support/Harness.ts"

const postgres = targets.find((target) => target.name === "postgres")
/** A stream must be closed this long after the change was acknowledged. */
const CLOSE_BOUND_MS = 5_000
const PER_KEY = 5

interface Stream {
  readonly messages: Array<{ readonly at: number; readonly responseId: number }>
  readonly closed: Promise<{ readonly code: number; readonly reason: string; readonly at: number }>
  readonly socket: WebSocket
}

/** Opens `/api/events` with a key (subprotocol) or a session cookie; rejects with the refusal's status and body. */
const open = (url: string, credential: { key: string } | { cookie: string }) =>
  new Promise<Stream>((resolve, reject) => {
    const ws = url.replace(/^http/, "ws")
    const socket =
      "key" in credential
        ? new WebSocket(`${ws}/api/events`, ["qforms.v1", `qforms.bearer.${credential.key}`])
        : new WebSocket(`${ws}/api/events`, ["qforms.v1"], { headers: { cookie: credential.cookie, origin: url } })
    const messages: Array<{ at: number; responseId: number }> = []
    socket.on("message", (data) =>
      messages.push({ at: performance.now(), responseId: JSON.parse(String(data)).responseId })
    )
    const closed = new Promise<{ code: number; reason: string; at: number }>((done) =>
      socket.once("close", (code, reason) => done({ code, reason: reason.toString(), at: performance.now() }))
    )
    socket.once("open", () => resolve({ messages, closed, socket }))
    socket.once("unexpected-response", (_request, response) => {
      let body = ""
      response.on("data", (chunk: Buffer) => (body += chunk.toString()))
      response.on("end", () =>
        reject(Object.assign(new Error(`refused ${response.statusCode}`), { status: response.statusCode, body }))
      )
    })
    socket.once("error", reject)
  })

describe.skipIf(postgres === undefined)("event streams end with their credential on postgres", () => {
  let db: ProcessDatabase | undefined
  const servers: Array<ServerProcess> = []
  afterAll(async () => {
    for (const server of servers) await server.stop()
    await db?.cleanup()
  })

  it("revoked key, removed member, demoted admin, signed-out session: closed within the bound, no event after; per-key cap", async () => {
    db = postgres!.make()
    const env = { QFORMS_EVENT_STREAMS_PER_KEY: String(PER_KEY) }
    const a = await startFresh(db, env)
    servers.push(a.server)
    const b = await start({ ...db.env, ...env })
    servers.push(b.server)
    const { key } = a
    const form = await publishedForm(a.url, key)
    const submit = async () => {
      const answer = await call(a.url, "POST", `/api/forms/${form.formId}/responses`, {
        key,
        body: { values: { [form.nameId]: "After", [form.emailId]: "after@example.com" } }
      })
      expect(answer.status).toBe(201)
      return answer.body.id as number
    }
    const member = async (email: string, role: string) => {
      const added = await call(a.url, "POST", "/api/members", { key, body: { email, role } })
      expect(added.status).toBe(201)
      const issued = await call(a.url, "POST", "/api/api-keys", { key, body: { accountId: added.body.accountId } })
      expect(issued.status).toBe(201)
      return {
        accountId: added.body.accountId as number,
        keyId: issued.body.apiKey.id as number,
        key: issued.body.key as string
      }
    }

    // The credentials: a second key of the owner, a member's key, an admin's key, a member's session.
    const revoked = await member("owner2@example.com", "member")
    const removed = await member("removed@example.com", "member")
    const demoted = await member("demoted@example.com", "admin")
    const signedIn = await member("session@example.com", "member")
    const password = "correct horse battery staple"
    await cliOk(["account", "set-password", "--email", "session@example.com", "--password", password], db.env)
    const signIn = await fetch(`${b.url}/app/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: b.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "session@example.com", password })
    })
    expect(signIn.status).toBe(303)
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith("qforms_session="))!
    const session = (await (await fetch(`${b.url}/app/session`, { headers: { cookie } })).json()) as {
      csrfToken: string
    }

    // The streams are held by process b; every change goes through process a.
    const cases: ReadonlyArray<{ name: string; stream: Stream; change: () => Promise<number>; code: number }> = [
      {
        name: "key revoked",
        stream: await open(b.url, { key: revoked.key }),
        change: async () => (await call(a.url, "DELETE", `/api/api-keys/${revoked.keyId}`, { key })).status,
        code: 4401
      },
      {
        name: "member removed",
        stream: await open(b.url, { key: removed.key }),
        change: async () => (await call(a.url, "DELETE", `/api/members/${removed.accountId}`, { key })).status,
        code: 4401
      },
      {
        name: "admin demoted to viewer",
        stream: await open(b.url, { key: demoted.key }),
        change: async () =>
          (await call(a.url, "PATCH", `/api/members/${demoted.accountId}`, { key, body: { role: "viewer" } })).status,
        code: 4403
      },
      {
        name: "session signed out",
        stream: await open(b.url, { cookie }),
        change: async () =>
          (
            await fetch(`${a.url}/app/sign-out`, {
              method: "POST",
              redirect: "manual",
              headers: { cookie, origin: a.url, "x-csrf-token": session.csrfToken }
            })
          ).status,
        code: 4401
      }
    ]
    // Each stream works before its change.
    const before = await submit()
    for (const { name, stream } of cases) {
      await waitUntil(
        `the event on the ${name} stream`,
        () => stream.messages.some((m) => m.responseId === before) || undefined,
        10_000
      )
    }

    const results: Array<{ name: string; closeMs: number; code: number; eventsAfter: number }> = []
    for (const { change, code, name, stream } of cases) {
      const status = await change()
      expect(status, name).toBeLessThan(400)
      const acknowledged = performance.now()
      // Events committed right after the change: none may reach the stream.
      const after = [await submit(), await submit()]
      const closed = await Promise.race([
        stream.closed,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), CLOSE_BOUND_MS + 5_000))
      ])
      results.push({
        name,
        closeMs: closed === undefined ? Number.POSITIVE_INFINITY : Math.max(0, closed.at - acknowledged),
        code: closed?.code ?? 0,
        eventsAfter: stream.messages.filter((m) => after.includes(m.responseId) || m.at > acknowledged).length
      })
      expect(closed?.code, name).toBe(code)
    }

    // The per-key cap: PER_KEY streams of one key are held, the next is refused with 429 {error}.
    const held: Array<Stream> = []
    for (let i = 0; i < PER_KEY; i++) held.push(await open(b.url, { key }))
    const refusal = await open(b.url, { key }).then(
      (stream) => (held.push(stream), { status: 101, body: "" }),
      (error: { status: number; body: string }) => error
    )
    const otherKey = await open(b.url, { key: signedIn.key }).then(
      (stream) => (held.push(stream), true),
      () => false
    )
    for (const stream of held) stream.socket.close()

    record({
      scenario: "11 stream revocation",
      target: "postgres",
      figures: {
        ...Object.fromEntries(
          results.flatMap((r) => [
            [`${r.name}: close code`, r.code],
            [`${r.name}: ms to close`, round(r.closeMs)],
            [`${r.name}: events after the change`, r.eventsAfter]
          ])
        ),
        [`streams of one key held (cap ${PER_KEY})`]: held.length - (otherKey ? 1 : 0),
        "next stream of that key": refusal.status,
        "another key meanwhile": otherKey ? "opened" : "refused"
      }
    })
    for (const r of results) {
      expect(r.eventsAfter, r.name).toBe(0)
      expect(r.closeMs, r.name).toBeLessThanOrEqual(CLOSE_BOUND_MS)
    }
    expect(refusal.status).toBe(429)
    expect(JSON.parse(refusal.body).error).toContain(`${PER_KEY} event streams`)
    expect(otherKey).toBe(true)
  })
})
