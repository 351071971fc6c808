/**
 * A loopback HTTP server that listens before qforms starts: qforms needs the
 * address its links start at (`appUrl`) when it starts, and a test's port is
 * known only once the server listens.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Qforms } from "@qforms/core"

export interface Loopback {
  /** e.g. "http://127.0.0.1:54321": give it to `Qforms.make` as `appUrl`. */
  readonly url: string
  readonly server: Server
  /** Hands the server's requests and WebSocket upgrades to qforms. */
  readonly serve: (qforms: Qforms.Qforms) => void
  readonly close: () => Promise<void>
}

export const listenFirst = async (): Promise<Loopback> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    serve: (qforms) => {
      server.on("request", qforms.nodeHandler)
      server.on("upgrade", (request, socket, head) => {
        if (!qforms.upgradeHandler(request, socket, head)) socket.destroy()
      })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
