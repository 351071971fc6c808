/**
 * `@qforms/node-http`'s `upgrade` in a real `node:http` host with a
 * WebSocket of its own: the live event stream under `/forms-service`, on each
 * test database, and upgrades outside it left untouched.
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import type { Duplex } from "node:stream"
import { describe, expect, it } from "vitest"
import { WebSocketServer } from "ws"
import { toNodeHandler } from "../src/index.ts"
import { eventStreamSuite, prefix } from "@qforms/test-kit/EventStreamSuite"
import type { Qforms } from "@qforms/core"

const mountInHost = async (qforms: Qforms.Qforms) => {
  const forms = toNodeHandler(qforms, { prefix })
  const own = new WebSocketServer({ noServer: true })
  const server = createServer((req, res) => {
    if (forms(req, res)) return
    if (req.url === "/") return void res.end("host home")
    res.writeHead(404).end()
  })
  server.on("upgrade", (req, socket, head) => {
    if (forms.upgrade(req, socket, head)) return
    if (req.url === "/host-ws") return own.handleUpgrade(req, socket, head, (ws) => ws.send("host socket"))
    socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of own.clients) ws.terminate()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

eventStreamSuite("@qforms/node-http", mountInHost)

describe("@qforms/node-http upgrade", () => {
  const upgrades: Array<string | undefined> = []
  const stand: Pick<Qforms.Qforms, "nodeHandler" | "upgradeHandler"> = {
    nodeHandler: () => undefined,
    upgradeHandler: (request) => (upgrades.push(request.url), request.url?.split("?")[0] === "/api/events")
  }
  const socket = {} as Duplex
  const head = Buffer.alloc(0)

  it("hands upgrades under the prefix to qforms, relative to it and naming it", () => {
    const forms = toNodeHandler(stand, { prefix: "/forms-service/" })
    const request = {
      url: "/forms-service/api/events?formId=3",
      headers: { "x-forwarded-prefix": "/outer" }
    } as unknown as IncomingMessage
    expect(forms.upgrade(request, socket, head)).toBe(true)
    expect(request).toMatchObject({
      url: "/api/events?formId=3",
      headers: { "x-forwarded-prefix": "/outer/forms-service" }
    })
  })

  it("answers false, leaving the request as it was, outside the prefix or for paths qforms does not upgrade", () => {
    const forms = toNodeHandler(stand, { prefix: "/forms-service" })
    upgrades.length = 0
    for (const url of ["/host-ws", "/forms-servicex/api/events", "/forms-service/api/nope"]) {
      const request = { url, headers: {} } as IncomingMessage
      expect(forms.upgrade(request, socket, head)).toBe(false)
      expect(request).toEqual({ url, headers: {} })
    }
    expect(upgrades).toEqual(["/api/nope"]) // only the path under the prefix reached qforms
  })
})
