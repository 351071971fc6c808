/**
 * The application's scripts and style sheet (`@qforms/app`'s modules, by their
 * path in its `src/`: the entry and the style sheet at the top, the others in
 * their feature's folder), and the third-party modules its scripts import
 * (served from this package's dependencies, no build step).
 *
 * Routes:
 * - `GET /app/assets/:name`, `GET /app/assets/:folder/:name`: the scripts and
 *   style sheet (`main.js`, `app.css`, `shared/Api.js`, …).
 * - `GET /app/assets/vendor/:name`: the third-party modules.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { readStatic, readVendor } from "../AppFiles.ts"
import { json } from "../AppResponses.ts"

/** A file as a response (`no-cache`: revalidated, so a new version is picked up at once), or a 404. */
const asset = (text: string | null, name: string) =>
  text === null
    ? json(404, { error: `no asset ${name}` })
    : HttpServerResponse.text(text, {
        contentType: name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
        headers: { "x-content-type-options": "nosniff", "cache-control": "no-cache" }
      })

/** A module's or the style sheet's name: letters and dashes, no dots or slashes before its extension. */
const fileName = /^[A-Za-z][A-Za-z-]*\.(js|css)$/

/** Adds the asset routes. */
export const add = (router: HttpRouter.HttpRouter) =>
  Effect.gen(function* () {
    yield* router.add(
      "GET",
      "/app/assets/vendor/:name",
      Effect.map(HttpRouter.params, (params) => {
        const name = params["name"] ?? ""
        return asset(readVendor(name), name)
      })
    )
    yield* router.add(
      "GET",
      "/app/assets/:name",
      Effect.map(HttpRouter.params, (params) => {
        const name = params["name"] ?? ""
        return asset(fileName.test(name) ? readStatic(name) : null, name)
      })
    )
    yield* router.add(
      "GET",
      "/app/assets/:folder/:name",
      Effect.map(HttpRouter.params, (params) => {
        const path = `${params["folder"] ?? ""}/${params["name"] ?? ""}`
        return asset(
          /^[a-z]+$/.test(params["folder"] ?? "") && fileName.test(params["name"] ?? "") ? readStatic(path) : null,
          path
        )
      })
    )
  })
