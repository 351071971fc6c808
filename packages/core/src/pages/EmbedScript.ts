/**
 * `GET /embed.js`: the embed kit (`@qforms/embed`, a plain ES module without
 * dependencies) served by qforms itself, so a host page embeds a form with
 * one script tag and no bundler. The module finds qforms' address from its
 * own URL, so it works under any mount prefix.
 *
 * Served as `text/javascript` with an ETag (revalidated after a day), CORS
 * open to every origin (a module script from another origin needs it; the
 * file is public and carries no credentials) and
 * `Cross-Origin-Resource-Policy: cross-origin`.
 *
 * @module
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { Caching } from "../web/index.ts"

/** Where the module is served, under the mount prefix. */
export const path = "/embed.js"

/** The module's file: `@qforms/embed`'s `src/index.js` (published with it, the same code as its `dist/`). */
const file = () =>
  join(dirname(createRequire(import.meta.url).resolve("@qforms/embed/package.json")), "src", "index.js")

/** The route `GET /embed.js`. */
export const layer = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const script = yield* Effect.cached(
      Effect.flatMap(
        Effect.try({
          try: () => readFileSync(file(), "utf8"),
          catch: (cause) => new Error(`the embed script is missing (@qforms/embed): ${String(cause)}`)
        }),
        Caching.makeRepresentation
      )
    )
    yield* router.add(
      "GET",
      path,
      Effect.gen(function* () {
        const loaded = yield* Effect.result(script)
        if (loaded._tag === "Failure") {
          yield* Effect.logWarning("the embed script is not available", loaded.failure)
          return HttpServerResponse.jsonUnsafe({ error: loaded.failure.message }, { status: 503 })
        }
        return yield* Caching.respond(loaded.success, {
          contentType: "text/javascript; charset=utf-8",
          cacheControl: "public, max-age=86400",
          headers: {
            "access-control-allow-origin": "*",
            "cross-origin-resource-policy": "cross-origin",
            "content-security-policy": "default-src 'none'"
          }
        })
      })
    )
  })
)
