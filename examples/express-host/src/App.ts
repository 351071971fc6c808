/**
 * An existing Express 5 app: routes of its own, `express.json()` for every
 * route, and qforms mounted under `/forms-service` with `@qforms/express`;
 * `attach` adds qforms' live event stream (a WebSocket) to the app's server.
 */
import type { Server } from "node:http"
import type { Qforms } from "@qforms/core"
import { toExpressMiddleware } from "@qforms/express"
import express, { type Express } from "express"

/** Where qforms is mounted. */
export const prefix = "/forms-service"

/** The host app, and `attach(app.listen(…))` for the WebSocket upgrades under {@link prefix}. */
export const createApp = (qforms: Qforms.Qforms): { app: Express; attach: (server: Server) => Server } => {
  const app = express()
  // The host parses JSON bodies for all its routes; qforms re-uses what it parsed.
  app.use(express.json())

  app.get("/", (_req, res) => {
    res
      .type("text/plain")
      .send(`The host app. qforms is under ${prefix} (API: ${prefix}/api, docs: ${prefix}/api/docs).\n`)
  })
  app.get("/hello", (req, res) => {
    res.json({ hello: typeof req.query.name === "string" ? req.query.name : "world" })
  })
  app.post("/echo", (req, res) => {
    res.json({ youSent: req.body })
  })

  const forms = toExpressMiddleware(qforms)
  app.use(prefix, forms)
  // Express never sees WebSocket upgrades: they reach the server, where `attach` hands those under the prefix to qforms.
  return { app, attach: (server) => forms.attach(server, prefix) }
}
