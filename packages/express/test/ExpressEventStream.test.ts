/**
 * `@qforms/express`'s `attach`: the live event stream under the mount point of
 * a real Express 5 host (its own routes, `express.json()`, a WebSocket of its
 * own), on each test database; upgrades outside the mount point are the host's.
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebSocketServer } from "ws"
import { eventStreamSuite, type Host, prefix, refusal } from "@qforms/test-kit/EventStreamSuite"
import { toExpressMiddleware } from "../src/index.ts"
import { Qforms } from "@qforms/core"

const listening = async (server: Server): Promise<Host> => {
  await new Promise<void>((resolve) => server.once("listening", resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

/** The host: routes of its own, qforms under the prefix, and its own WebSocket routed in its own `upgrade` listener. */
const mountInHost = (qforms: Qforms.Qforms) => {
  const app = express()
  app.use(express.json())
  app.get("/", (_req, res) => void res.type("text/plain").send("host home"))
  const forms = toExpressMiddleware(qforms)
  app.use(prefix, forms)
  const server = forms.attach(app.listen(0, "127.0.0.1"), prefix)
  const own = new WebSocketServer({ noServer: true })
  server.on("upgrade", (req, socket, head) => {
    if (req.url === "/host-ws") return own.handleUpgrade(req, socket, head, (ws) => ws.send("host socket"))
    if (req.url?.startsWith(`${prefix}/`)) return // qforms' (attach answers it)
    socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
  })
  server.on("close", () => own.clients.forEach((ws) => ws.terminate()))
  return listening(server)
}

eventStreamSuite("@qforms/express", mountInHost)

describe("@qforms/express attach on a host without WebSockets of its own", () => {
  let qforms: Qforms.Qforms
  let host: Host

  beforeAll(async () => {
    qforms = await Qforms.make({ database: {}, delivery: { worker: false } })
    const app = express()
    const forms = toExpressMiddleware(qforms)
    app.use(prefix, forms)
    host = await listening(forms.attach(app.listen(0, "127.0.0.1"), prefix))
  })
  afterAll(async () => {
    await host?.close()
    await qforms?.dispose()
  })

  it("answers 404 to upgrades outside the mount point, and qforms' refusal under it", async () => {
    const ws = host.origin.replace(/^http/, "ws")
    expect((await refusal(`${ws}/elsewhere`)).status).toBe(404)
    expect((await refusal(`${ws}${prefix}/api/nope`)).status).toBe(404)
    const refused = await refusal(`${ws}${prefix}/api/events`, { key: "qk_live_nope" })
    expect([refused.status, JSON.parse(refused.body)]).toEqual([401, { error: expect.any(String) }])
  })
})
