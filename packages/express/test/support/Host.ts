/**
 * An express-host style app for the tests: routes of its own, optionally
 * `express.json()` (and `express.urlencoded()`) registered globally before
 * qforms, and qforms mounted under `/forms-service`. Works with Express 4 and 5.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type express from "express"
import { type QformsHandlers, toExpressMiddleware } from "../../src/index.ts"
import type { Qforms } from "@qforms/core"

export interface HostOptions {
  /**
   * `express.json()` and `express.urlencoded()` before qforms (default true);
   * `"raw"`: `express.raw()` for every content type (bodies up to 5 MB) instead.
   */
  readonly parseBodies?: boolean | "raw" | undefined
}

export const createHostApp = (framework: typeof express, qforms: QformsHandlers, options: HostOptions = {}) => {
  const app = framework()
  if (options.parseBodies === "raw") app.use(framework.raw({ type: () => true, limit: "5mb" }))
  else if (options.parseBodies !== false) app.use(framework.json(), framework.urlencoded({ extended: true }))
  app.get("/", (_req, res) => {
    res.type("text/plain").send("host home")
  })
  app.get("/hello", (_req, res) => {
    res.json({ hello: "world" })
  })
  app.post("/echo", (req, res) => {
    res.json({ youSent: req.body })
  })
  app.use("/forms-service", toExpressMiddleware(qforms))
  app.get("/after", (_req, res) => {
    res.type("text/plain").send("a host route registered after qforms")
  })
  return app
}

/** Listens on an ephemeral loopback port; `close` also drops kept-alive connections. */
export const listen = async (app: ReturnType<typeof express>) => {
  const server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()))
      server.closeAllConnections()
    })
  return { origin, close }
}

/** `startWithQforms`' mount: the host app on a port, qforms at `<origin>/forms-service`. */
export const mountIn =
  (framework: typeof express, options: HostOptions = {}) =>
  async (qforms: Qforms.Qforms) => {
    const { origin, close } = await listen(createHostApp(framework, qforms, options))
    return { url: `${origin}/forms-service`, close }
  }
