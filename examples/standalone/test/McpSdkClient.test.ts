/**
 * The official MCP SDK client against the standalone server (issue #52, item
 * 1): sessions one after another and many at once, on a busy machine, each
 * connect → list the tools → call one, every one answered. It failed at most
 * tool calls under load with `other side closed`: the client reused idle
 * connections as late as its delayed timers let it, and the server was closing
 * them at that moment (Node's one second of grace past the advertised
 * keep-alive time). The server now keeps an idle connection 30 s past it.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sdkSession } from "@qforms/test-kit/McpSessions"
import {
  type ProcessDatabase,
  processTargets,
  type ServerProcess,
  firstStartKey,
  spawnServer
} from "./support/Processes.ts"

const target = processTargets[0]!

/** Processes that keep every core of the machine busy until stopped. */
const busyMachine = (count: number) => {
  const burners: Array<ChildProcess> = Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" })
  )
  return () => {
    for (const burner of burners) burner.kill("SIGKILL")
  }
}

describe(`the official MCP SDK client on the standalone (${target.name})`, () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  let url = ""
  let key = ""

  beforeAll(async () => {
    db = target.make()
    server = spawnServer({ ...db.env })
    url = await server.listening
    key = firstStartKey(server)
  })

  afterAll(async () => {
    await server?.stop()
    await db?.cleanup()
  })

  it("50 sessions in a row, then 20 at once (40 in all) while the machine is busy: every one connects, lists and calls", async () => {
    const inRow: Array<string> = []
    for (let n = 0; n < 50; n++) inRow.push(await sdkSession(url, key))
    expect(inRow.filter((outcome) => outcome !== "ok")).toEqual([])

    const stop = busyMachine(3)
    try {
      const atOnce: Array<string> = []
      let next = 0
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < 40) {
            next++
            atOnce.push(await sdkSession(url, key))
          }
        })
      )
      expect(atOnce.filter((outcome) => outcome !== "ok")).toEqual([])
      expect(atOnce).toHaveLength(40)
    } finally {
      stop()
    }
  })

  it("keeps an idle connection open well past the keep-alive time it advertises", async () => {
    const port = Number(new URL(url).port)
    const socket = connect(port, "127.0.0.1")
    let received = ""
    socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk))
    let closedAt: number | undefined
    socket.once("close", () => (closedAt = performance.now()))
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    socket.write("GET /healthz HTTP/1.1\r\nHost: qforms\r\n\r\n")
    const advertised = await new Promise<number>((resolve) => {
      const check = () => {
        const timeout = /keep-alive: timeout=(\d+)/i.exec(received)?.[1]
        if (timeout !== undefined && received.includes("\r\n\r\n")) resolve(Number(timeout))
        else socket.once("data", check)
      }
      check()
    })
    expect(advertised).toBe(5)
    // Idle for two seconds past the advertised time (Node's own grace is one): still open, and it serves.
    const answeredAt = performance.now()
    await new Promise((resolve) => setTimeout(resolve, (advertised + 2) * 1000))
    expect(closedAt, `closed ${(closedAt ?? 0) - answeredAt} ms after the answer`).toBeUndefined()
    received = ""
    socket.write("GET /healthz HTTP/1.1\r\nHost: qforms\r\nConnection: close\r\n\r\n")
    await new Promise<void>((resolve) => socket.once("close", () => resolve()))
    expect(received).toMatch(/^HTTP\/1\.1 200 /)
  })
})
