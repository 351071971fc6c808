/**
 * The API reference page, `GET /api/docs`: Scalar's reference rendering the
 * OpenAPI document (`/api/openapi.json`), served self-contained. Nothing is
 * loaded from another origin (no CDN, no web fonts: the system's fonts are
 * used), and a strict CSP says so to the browser.
 *
 * - `GET /api/docs`: a small page (about 1 kB, `ETag`, `Cache-Control: no-cache`,
 *   304 when unchanged) naming the script and the document under the mount prefix.
 * - `GET /api/docs/scalar-<hash>.js`: Scalar's standalone bundle (the copy
 *   `effect` ships for `HttpApiScalar`, about 3 MB; 0.77 MB with Brotli,
 *   0.87 MB with gzip), named by a hash of its bytes, so it is cached for a year
 *   (`immutable`) and a repeat visit does not ask for it at all.
 *
 * The bundle is read on the first visit, not at start, so a server whose
 * reference nobody opens never holds it; each compressed form is made once.
 */
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { Caching, Html, html } from "../web/index.ts"

/** The page's path. */
export const path = "/api/docs"

/** The path of an asset of the page (the script). */
export const assetPath = "/api/docs/:name"

/**
 * `effect` ships Scalar's standalone bundle for `HttpApiScalar`, as a module
 * its `exports` keep private: it is imported by its file (`dist/http-api/internal/`).
 */
const scalarModule = () => {
  const require = createRequire(import.meta.url)
  const root = dirname(require.resolve("effect/package.json"))
  return pathToFileURL(join(root, "dist", "http-api", "internal", "httpApiScalar.js")).href
}

/**
 * Zod (inside the bundle) tries `new Function("")` once to learn whether it may
 * compile validators; under this page's CSP (no `unsafe-eval`) the browser
 * refuses it and reports a CSP violation, after which zod validates without
 * compiling. The probe is answered "no" up front: the same outcome, without
 * the violation.
 */
const evalProbe = `try{return new Function(""),!0}catch(e){return!1}`

/** Scalar's bundle, with the eval probe answered; fails when `effect` no longer ships it where expected. */
const loadScalar = Effect.tryPromise({
  try: () => import(scalarModule()) as Promise<{ readonly javascript?: unknown }>,
  catch: (cause) => new Error(`Scalar's bundle was not found in the effect package: ${String(cause)}`)
}).pipe(
  Effect.flatMap((module) =>
    typeof module.javascript === "string"
      ? Effect.succeed(module.javascript.replace(evalProbe, "return!1"))
      : Effect.fail(new Error("Scalar's bundle was not found in the effect package"))
  )
)

/**
 * The script that starts the reference, inline (its hash is in the CSP): it
 * reads the settings from the page's JSON block. The element is not
 * `#api-reference`: on an element with that id Scalar's bundle starts a
 * reference of its own, without these settings (with its web fonts).
 */
const boot = `window.Scalar.createApiReference(document.getElementById("qforms-api-reference"),JSON.parse(document.getElementById("qforms-docs-config").textContent))`

/**
 * The page's CSP: nothing but this origin's script and the boot script, the
 * OpenAPI document fetched from this origin, no fonts or images from elsewhere.
 * `style-src` allows inline styles: Scalar (Vue) adds its style sheets as
 * `<style>` elements it builds at run time (its base styles and the theme's,
 * computed from the settings) and sets `style` attributes on elements; about
 * thirty of them, which no list of hashes can follow. Scripts stay strict.
 */
const contentSecurityPolicy = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash("sha256").update(boot).digest("base64")}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'"
].join("; ")

const securityHeaders = {
  "content-security-policy": contentSecurityPolicy,
  "referrer-policy": "same-origin"
}

/** Scalar's settings: the document from this service, the system's fonts, no developer toolbar (it links out). */
const settings = (prefix: string) => ({
  url: `${prefix}/api/openapi.json`,
  withDefaultFonts: false,
  hideModels: false,
  showDeveloperTools: "never",
  _integration: "html"
})

const page = (prefix: string, script: string) =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>qforms API reference</title>
</head>
<body>
<noscript><p>The API reference needs JavaScript. The API is described by its OpenAPI document: <a href="${prefix}/api/openapi.json">${prefix}/api/openapi.json</a>.</p></noscript>
<div id="qforms-api-reference"></div>
<script type="application/json" id="qforms-docs-config">${new Html(JSON.stringify(settings(prefix)).replaceAll("<", "\\u003c"))}</script>
<script src="${prefix}/api/docs/${script}"></script>
<script>${new Html(boot)}</script>
</body>
</html>
`.value

/** The script's representation and file name (`scalar-<hash>.js`), made on first use. */
interface Script {
  readonly name: string
  readonly representation: Caching.Representation
}

const notAvailable = (error: Error) =>
  Effect.as(
    Effect.logWarning("the API reference page is not available", error),
    HttpServerResponse.jsonUnsafe(
      { error: `the API reference page is not available: ${error.message}` },
      { status: 503 }
    )
  )

/**
 * The routes of the reference page. `prefixOf` tells the mount prefix of a
 * request (`""` at the root), which the page's links carry.
 */
export const layer = (prefixOf: (request: HttpServerRequest.HttpServerRequest) => string) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const script = yield* Effect.cached(
        Effect.gen(function* () {
          const source = yield* loadScalar
          const representation = yield* Caching.makeRepresentation(source)
          return {
            name: `scalar-${Caching.hashOf(representation.bytes).slice(0, 16)}.js`,
            representation
          } satisfies Script
        })
      )

      yield* router.add(
        "GET",
        path,
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const loaded = yield* Effect.result(script)
          if (loaded._tag === "Failure") return yield* notAvailable(loaded.failure)
          const representation = yield* Caching.makeRepresentation(page(prefixOf(request), loaded.success.name))
          return yield* Caching.respond(representation, {
            contentType: "text/html; charset=utf-8",
            cacheControl: "no-cache",
            headers: securityHeaders
          })
        })
      )

      yield* router.add(
        "GET",
        assetPath,
        Effect.gen(function* () {
          const params = yield* HttpRouter.params
          const name = params["name"] ?? ""
          if (!/^scalar-[A-Za-z0-9_-]{16}\.js$/.test(name)) {
            return HttpServerResponse.jsonUnsafe({ error: `no file ${path}/${name.slice(0, 100)}` }, { status: 404 })
          }
          const loaded = yield* Effect.result(script)
          if (loaded._tag === "Failure") return yield* notAvailable(loaded.failure)
          if (loaded.success.name !== name) {
            return HttpServerResponse.jsonUnsafe(
              { error: `no file ${path}/${name}: the current script is ${loaded.success.name}` },
              {
                status: 404
              }
            )
          }
          return yield* Caching.respond(loaded.success.representation, {
            contentType: "text/javascript; charset=utf-8",
            cacheControl: "public, max-age=31536000, immutable"
          })
        })
      )
    })
  )
