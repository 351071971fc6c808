import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http"
import { createServer } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { createServer as createTcpServer } from "node:net"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { waitFor } from "@qforms/test-kit/Conditions"
import type { SendResult } from "../src/deliveries/Sender.ts"
import { makeConnections, MAX_RESPONSE_BODY_BYTES, post } from "../src/deliveries/Sender.ts"
import type { VettedTarget } from "../src/deliveries/SsrfGuard.ts"

interface Received {
  readonly method: string | undefined
  readonly url: string | undefined
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const received: Array<Received> = []
const sockets = new Set<Socket>()
let closedAfterBigBody = false
let connectionsOpened = 0

const handler = (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    received.push({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8")
    })
    const path = (req.url ?? "/").split("?")[0]
    switch (path) {
      case "/ok":
      case "/x":
        res.writeHead(200, { "content-type": "text/plain" }).end("thanks")
        return
      case "/fail":
        res.writeHead(500).end("boom")
        return
      case "/busy":
        res.writeHead(503, { "retry-after": "120" }).end()
        return
      case "/gone":
        res.writeHead(410).end()
        return
      case "/redirect":
        res.writeHead(302, { location: "/ok" }).end("moved")
        return
      case "/slow":
        return // never answers
      case "/slow-body":
        res.writeHead(200)
        res.write("partial")
        return // never ends
      case "/big": {
        res.on("close", () => {
          closedAfterBigBody = true
        })
        res.writeHead(200, { "content-type": "text/plain" })
        // 1 MB and never end(): only a reader that stops at 64 KiB returns promptly.
        for (let i = 0; i < 16; i++) res.write("a".repeat(64 * 1024))
        return
      }
      case "/unicode":
        res.writeHead(200, { "content-type": "application/json" }).end('{"name":"Zoë 🚀"}')
        return
      case "/reset":
        req.socket.destroy()
        return
      default:
        res.writeHead(404).end()
    }
  })
}

let server: Server
let port = 0

const listen = (s: { listen: (port: number, host: string, cb: () => void) => unknown }) =>
  new Promise<void>((resolve) => {
    s.listen(0, "127.0.0.1", resolve)
  })

beforeAll(async () => {
  server = createServer(handler)
  server.on("connection", (socket: Socket) => {
    connectionsOpened++
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await listen(server)
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const target = (url: string, address = "127.0.0.1", family: 4 | 6 = 4): VettedTarget => ({
  url: new URL(url),
  address,
  family
})

const send = (
  url: string,
  options: { timeoutMs?: number; headers?: Record<string, string>; body?: string; address?: string } = {}
): Promise<SendResult> =>
  Effect.runPromise(
    post(target(url, options.address), options.body ?? '{"event":"response.submitted"}', options.headers ?? {}, {
      timeoutMs: options.timeoutMs ?? 5_000,
      userAgent: "qforms-webhooks/0.0.0-test"
    })
  )

const lastFor = (path: string) => received.filter((r) => r.url?.startsWith(path)).at(-1)

describe("Sender.post", () => {
  it("posts JSON with the given headers and reads a 200 with its body", async () => {
    const body = '{"event":"response.submitted","responseId":"r1"}'
    const result = await send(`http://127.0.0.1:${port}/ok?sub=1`, {
      body,
      headers: {
        "webhook-id": "evt_1",
        "webhook-timestamp": "1700000000",
        "webhook-signature": "v1,abc",
        "Content-Type": "text/plain"
      }
    })
    expect(result).toMatchObject({ status: 200, body: "thanks", error: null, retryAfter: undefined })
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
    expect(result.durationMs).toBeLessThan(5_000)
    const req = lastFor("/ok?sub=1")!
    expect(req.method).toBe("POST")
    expect(req.body).toBe(body)
    expect(req.headers["content-type"]).toBe("application/json")
    expect(req.headers["user-agent"]).toBe("qforms-webhooks/0.0.0-test")
    expect(req.headers["content-length"]).toBe(String(Buffer.byteLength(body)))
    expect(req.headers["host"]).toBe(`127.0.0.1:${port}`)
    expect(req.headers["webhook-id"]).toBe("evt_1")
    expect(req.headers["webhook-timestamp"]).toBe("1700000000")
    expect(req.headers["webhook-signature"]).toBe("v1,abc")
  })

  it("sends a non-ASCII body with the right content-length and decodes a UTF-8 response", async () => {
    const body = '{"name":"Zoë 🚀"}'
    const result = await send(`http://127.0.0.1:${port}/unicode`, { body })
    expect(result).toMatchObject({ status: 200, body: '{"name":"Zoë 🚀"}', error: null })
    expect(lastFor("/unicode")!.body).toBe(body)
  })

  it("reports a 500 with its body", async () => {
    expect(await send(`http://127.0.0.1:${port}/fail`)).toMatchObject({ status: 500, body: "boom", error: null })
  })

  it("reports 410 and 503 with the raw Retry-After", async () => {
    expect(await send(`http://127.0.0.1:${port}/gone`)).toMatchObject({ status: 410, body: "", error: null })
    expect(await send(`http://127.0.0.1:${port}/busy`)).toMatchObject({ status: 503, error: null, retryAfter: "120" })
  })

  it("does not follow a 302", async () => {
    const before = received.filter((r) => r.url === "/ok").length
    const result = await send(`http://127.0.0.1:${port}/redirect`)
    expect(result).toMatchObject({ status: 302, body: "moved", error: null })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(received.filter((r) => r.url === "/ok").length).toBe(before)
  })

  it("times out a receiver that never answers, within about timeoutMs", async () => {
    const started = performance.now()
    const result = await send(`http://127.0.0.1:${port}/slow`, { timeoutMs: 300 })
    const elapsed = performance.now() - started
    expect(result).toEqual({
      status: null,
      body: "",
      durationMs: result.durationMs,
      error: "timed out after 300 ms",
      retryAfter: undefined
    })
    expect(elapsed).toBeGreaterThanOrEqual(290)
    expect(elapsed).toBeLessThan(1_500)
    expect(result.durationMs).toBeGreaterThanOrEqual(290)
  })

  it("times out a receiver that stalls in the middle of the body", async () => {
    const started = performance.now()
    const result = await send(`http://127.0.0.1:${port}/slow-body`, { timeoutMs: 300 })
    expect(result).toMatchObject({ status: null, error: "timed out after 300 ms" })
    expect(performance.now() - started).toBeLessThan(1_500)
  })

  it("reads only the first 64 KiB of a 1 MB body and returns promptly", async () => {
    const started = performance.now()
    const result = await send(`http://127.0.0.1:${port}/big`, { timeoutMs: 10_000 })
    const elapsed = performance.now() - started
    expect(result.status).toBe(200)
    expect(result.error).toBeNull()
    expect(result.body.length).toBe(MAX_RESPONSE_BODY_BYTES)
    expect(result.body).toBe("a".repeat(64 * 1024))
    expect(elapsed).toBeLessThan(2_000)
    await waitFor(() => closedAfterBigBody, 10_000, "the connection closed after the big body")
  })

  it("reports a refused connection with status null", async () => {
    const probe = createServer()
    await listen(probe)
    const freePort = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const result = await send(`http://127.0.0.1:${freePort}/`)
    expect(result.status).toBeNull()
    expect(result.body).toBe("")
    expect(result.error).toMatch(/^connection refused: .*ECONNREFUSED/)
  })

  it("reports a connection reset before the response", async () => {
    const result = await send(`http://127.0.0.1:${port}/reset`)
    expect(result.status).toBeNull()
    expect(result.error).toMatch(/socket hang up|reset/)
  })

  it("keeps the URL's host name in the Host header while connecting only to the vetted address", async () => {
    const result = await send(`http://hooks.example.test:${port}/x?y=1`, { address: "127.0.0.1" })
    expect(result).toMatchObject({ status: 200, body: "thanks", error: null })
    const req = lastFor("/x?y=1")!
    expect(req.headers["host"]).toBe(`hooks.example.test:${port}`)
  })

  it("connects to the vetted address even when the host name resolves elsewhere", async () => {
    // "localhost" resolves to 127.0.0.1 or ::1; the vetted address (nothing listens on 127.0.0.2's port) wins.
    const result = await send(`http://localhost:${port}/ok`, { address: "127.0.0.2", timeoutMs: 2_000 })
    expect(result.status).toBeNull()
    expect(result.error).toMatch(/127\.0\.0\.2/)
  })

  it("uses the vetted address for an IPv4 literal URL", async () => {
    const result = await send(`http://127.0.0.1:${port}/ok`)
    expect(result.status).toBe(200)
  })

  it("turns an invalid header into an error result instead of failing", async () => {
    const result = await send(`http://127.0.0.1:${port}/ok`, { headers: { "webhook-id": "evt\r\nx-injected: 1" } })
    expect(result.status).toBeNull()
    expect(result.error).toMatch(/^invalid request header: /)
  })

  it("with keep-alive connections, reuses one connection per vetted destination and never another address's", async () => {
    const results = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const connections = yield* makeConnections({ maxDestinations: 8 })
          const postTo = (url: string, address: string) =>
            post(
              target(url, address),
              "{}",
              {},
              { timeoutMs: 2_000, userAgent: "qforms-webhooks/0.0.0-test", connections }
            )
          const before = connectionsOpened
          const first = yield* postTo(`http://hooks.example.test:${port}/ok?k=1`, "127.0.0.1")
          const second = yield* postTo(`http://hooks.example.test:${port}/ok?k=2`, "127.0.0.1")
          const third = yield* postTo(`http://hooks.example.test:${port}/ok?k=3`, "127.0.0.1")
          const opened = connectionsOpened - before
          // The same name vetted to another address now: a pooled connection to 127.0.0.1 must not be used.
          const elsewhere = yield* postTo(`http://hooks.example.test:${port}/ok?k=4`, "127.0.0.2")
          return { statuses: [first.status, second.status, third.status], opened, elsewhere }
        })
      )
    )
    expect(results.statuses).toEqual([200, 200, 200])
    expect(results.opened).toBe(1)
    expect(results.elsewhere.status).toBeNull()
    expect(results.elsewhere.error).toMatch(/127\.0\.0\.2/)
    expect(lastFor("/ok?k=4")).toBeUndefined()
  })

  it("over https, sends the URL's host name as TLS SNI to the vetted address", async () => {
    // A bare TCP server that reads the ClientHello's server_name extension, then hangs up.
    let sni: string | undefined
    const tls = createTcpServer((socket) => {
      socket.once("data", (hello: Buffer) => {
        sni = serverName(hello)
        socket.destroy()
      })
    })
    await listen(tls)
    const tlsPort = (tls.address() as AddressInfo).port
    const result = await send(`https://hooks.example.test:${tlsPort}/x`, { address: "127.0.0.1" })
    await new Promise<void>((resolve) => tls.close(() => resolve()))
    expect(sni).toBe("hooks.example.test")
    expect(result.status).toBeNull()
    expect(result.error).toMatch(/socket disconnected|reset|hang up/i)
  })
})

/** The SNI host name of a TLS ClientHello record, if any. */
const serverName = (record: Buffer): string | undefined => {
  if (record[0] !== 22 || record[5] !== 1) return undefined
  let at = 5 + 4 + 2 + 32 // record header, handshake header, client_version, random
  at += 1 + record[at] // session_id
  at += 2 + record.readUInt16BE(at) // cipher_suites
  at += 1 + record[at] // compression_methods
  const end = at + 2 + record.readUInt16BE(at)
  at += 2
  while (at + 4 <= end) {
    const type = record.readUInt16BE(at)
    const length = record.readUInt16BE(at + 2)
    if (type === 0) {
      const nameLength = record.readUInt16BE(at + 4 + 3)
      return record.subarray(at + 4 + 5, at + 4 + 5 + nameLength).toString("ascii")
    }
    at += 4 + length
  }
  return undefined
}
