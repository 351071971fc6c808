/**
 * `@qforms/h3` and the live event stream: an h3 v2 host served with h3's
 * `serve` and crossws (`plugins: [ws({})]`), with qforms mounted under
 * `/forms-service` and a WebSocket route of its own, on each test database.
 */
import type { AddressInfo } from "node:net"
import { plugin as ws } from "crossws/server"
import { defineWebSocketHandler, H3, serve } from "h3"
import { eventStreamSuite, prefix } from "@qforms/test-kit/EventStreamSuite"
import { toH3Handler } from "../src/index.ts"
import type { Qforms } from "@qforms/core"

const mountInH3Host = async (qforms: Qforms.Qforms) => {
  const app = new H3()
    .get("/", () => "host home")
    .get("/host-ws", defineWebSocketHandler({ open: (peer) => void peer.send("host socket") }))
  app.mount(prefix, toH3Handler(qforms))
  const server = serve(app, {
    port: 0,
    hostname: "127.0.0.1",
    plugins: [ws({})],
    silent: true,
    gracefulShutdown: false
  })
  await server.ready()
  return {
    origin: `http://127.0.0.1:${(server.node!.server!.address() as AddressInfo).port}`,
    close: () => server.close(true)
  }
}

eventStreamSuite("@qforms/h3", mountInH3Host)
