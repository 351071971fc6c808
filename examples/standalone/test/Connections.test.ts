/**
 * The standalone's connection limits: a per-address cap on open connections
 * (`QFORMS_MAX_CONNECTIONS_PER_ADDRESS`) and short header/request timeouts
 * (`QFORMS_HEADERS_TIMEOUT_MS`, `QFORMS_REQUEST_TIMEOUT_MS`), so a slow or
 * greedy client cannot hold every socket.
 */
import { connect, type Socket } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { waitFor } from "@qforms/test-kit/Conditions"
import { type ProcessDatabase, processTargets, type ServerProcess, spawnServer } from "./support/Processes.ts"

const target = processTargets[0]!

/** A raw TCP connection, with everything it received and when it closed. */
const open = (port: number) =>
  new Promise<{ socket: Socket; received: () => string; closed: Promise<void> }>((resolve, reject) => {
    let received = ""
    const socket = connect(port, "127.0.0.1")
    socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk))
    const closed = new Promise<void>((done) => socket.once("close", () => done()))
    socket.once("error", reject)
    socket.once("connect", () => resolve({ socket, received: () => received, closed }))
  })

describe(`connection limits on ${target.name}`, () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  afterAll(async () => {
    await server?.stop()
    await db?.cleanup()
  })

  it("refuses connections past the per-address cap with 429 {error}, and drops a client that sends its headers too slowly with 408", async () => {
    db = target.make()
    server = spawnServer({ ...db.env, QFORMS_MAX_CONNECTIONS_PER_ADDRESS: "3", QFORMS_HEADERS_TIMEOUT_MS: "1000" })
    const url = await server.listening
    const port = Number(new URL(url).port)
    const held = [await open(port), await open(port), await open(port)]
    const extra = await open(port)
    await extra.closed
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429 /)
    expect(JSON.parse(extra.received().split("\r\n\r\n")[1]!)).toEqual({
      error: "too many connections from your address: at most 3 at once"
    })

    // A slow client (half its headers, then nothing) is answered 408 and closed after the headers timeout, freeing its place.
    held[0]!.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n")
    const started = performance.now()
    await held[0]!.closed
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 408 /)
    expect(performance.now() - started).toBeLessThan(10_000)

    // With a place free again, a request from the same address is served. The client sees the 408's close
    // before the server has seen its own socket close (which frees the place), so wait for that, as a
    // client honouring the 429's Retry-After would.
    const health = await waitFor(async () => {
      const answer = await fetch(`${url}/healthz`)
      return answer.status === 429 ? undefined : answer.status
    })
    expect(health).toBe(200)
    for (const connection of held.slice(1)) connection.socket.destroy()
  }, 120_000)
})
