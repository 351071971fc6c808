/**
 * The host: an h3 v2 app with routes of its own, and qforms mounted under
 * `/forms-service` by `@qforms/h3`.
 */
import type { Qforms } from "@qforms/core"
import { toH3Handler } from "@qforms/h3"
import { H3 } from "h3"

/** Where qforms is mounted in this host. */
export const prefix = "/forms-service"

/** The host app: its own `GET /` and `GET /hello`, then qforms under {@link prefix}. */
export const createApp = (qforms: Qforms.Qforms): H3 => {
  const app = new H3()
    .get("/", () => ({ app: "h3-host", qforms: `${prefix}/api`, docs: `${prefix}/api/docs` }))
    .get("/hello", (event) => `Hello, ${event.url.searchParams.get("name") ?? "world"}!`)
  app.mount(prefix, toH3Handler(qforms))
  return app
}
