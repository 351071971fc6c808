/**
 * A loopback HTTP server that listens before qforms starts: qforms needs the
 * address its links start at (`appUrl`) when it starts, and a test's port is
 * known only once the server listens.
 */
import { createServer, type RequestListener, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Qforms } from "@qforms/core"
import { expect } from "vitest"

export interface Loopback {
  /** e.g. "http://127.0.0.1:54321": give it to `Qforms.make` as `appUrl`. */
  readonly url: string
  readonly server: Server
  /** Hands the server's requests and WebSocket upgrades to qforms. */
  readonly serve: (qforms: Qforms.Qforms) => void
  readonly close: () => Promise<void>
}

/**
 * A test's HTTP server: idle keep-alive connections are kept for a minute.
 * The tests' `fetch` (undici) keeps its idle connections about 4 s; with the
 * server's default of 5 s, a test that keeps the process busy for seconds
 * (building a large document, a CPU-bound step, a loaded machine) lets both
 * timers fire late, and a request can go out on a connection the server is
 * closing at that moment: `ECONNRESET`. The client now always drops an idle
 * connection first.
 *
 * Use it wherever a test would call `createServer`: give it the listener
 * (`qforms.nodeHandler`, a stub's handler) or attach one later.
 *
 * @example
 * ```ts
 * const server = testHttpServer(qforms.nodeHandler)
 * await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
 * ```
 */
export const testHttpServer = (listener?: RequestListener): Server => {
  const server = createServer(listener)
  server.keepAliveTimeout = 60_000
  return server
}

export const listenFirst = async (): Promise<Loopback> => {
  const server = testHttpServer()
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

/**
 * A test's own API calls through its loopback server, each expected to succeed (a 2xx); answers the JSON
 * (undefined for a 204). `target` is read at each call: the URL and key are known only once the test set
 * them up.
 *
 * @example
 * ```ts
 * const api = loopbackApi(() => ({ url, key }))
 * const form = await api("POST", "/forms", { title: "Support", fields: [] })
 * ```
 */
export const loopbackApi =
  (target: () => { readonly url: string; readonly key: string }) =>
  async (method: string, path: string, body?: unknown): Promise<any> => {
    const { url, key } = target()
    const reply = await fetch(`${url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    expect(reply.status, `${method} ${path}`).toBeLessThan(300)
    return reply.status === 204 ? undefined : await reply.json()
  }
