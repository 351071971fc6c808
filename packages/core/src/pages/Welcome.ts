/**
 * The welcome page, `GET /` (the mount prefix's root under an adapter): what
 * a person who opens the service's address finds. A browser (`Accept:
 * text/html`) gets a small page naming the service with links to the
 * application, the API reference and the OpenAPI document, and the MCP
 * endpoint's address; anything else gets the same as JSON:
 *
 * ```json
 * {"name":"qforms","app":"https://forms.example.com/app","docs":"https://forms.example.com/api/docs",
 *  "openapi":"https://forms.example.com/api/openapi.json","mcp":"https://forms.example.com/mcp"}
 * ```
 *
 * `app` is left out when the application is not served. No script; a strict CSP
 * (the one inline style sheet is allowed by its hash).
 */
import { createHash } from "node:crypto"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { Html, html } from "../web/index.ts"

/** Options of the welcome page. */
export interface WelcomeOptions {
  /** Whether the application is served at `/app` (its link is shown only then). */
  readonly app: boolean
  /** Where this request reached qforms, absolute when known (`Http.baseUrl`). */
  readonly baseUrl: (request: HttpServerRequest.HttpServerRequest) => string
  /** The mount prefix of this request (`""` at the root). */
  readonly prefix: (request: HttpServerRequest.HttpServerRequest) => string
  /** The MCP endpoint's path under the mount (`/mcp`). */
  readonly mcpPath: string
}

/** The style sheet: system fonts, light and dark, underlined links, narrow screens first. */
const css = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--muted:#4a4a4a;--link:#0b57d0;--soft:#f1f4f9}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#c4c4c4;--link:#a8c7fa;--soft:#1f2328}}
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:18px;line-height:1.5;background:var(--bg);color:var(--fg)}
body{margin:0;padding:2rem 1rem}
main{max-width:40rem;margin:0 auto}
h1{font-size:1.8rem;margin:0 0 .5rem}
p{margin:0 0 1rem;color:var(--muted)}
ul{list-style:none;margin:1.5rem 0;padding:0;display:flex;flex-direction:column;gap:1rem}
li{background:var(--soft);border-radius:.4rem;padding:.75rem 1rem}
a{color:var(--link);font-weight:600;text-decoration:underline}
a:focus-visible{outline:3px solid var(--link);outline-offset:2px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
.what{display:block;color:var(--muted);font-size:.9rem}
@media (max-width:30rem){html{font-size:16px}}
`

const contentSecurityPolicy = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(css).digest("base64")}'`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'"
].join("; ")

const page = (prefix: string, mcp: string, app: boolean) =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>qforms</title>
<style>${new Html(css)}</style>
</head>
<body>
<main>
<h1>qforms</h1>
<p>Forms and cases: build forms, collect responses, and work through them as cases.</p>
<ul>
${
  app
    ? html`<li><a href="${prefix}/app">Open the application</a><span class="what">Sign in to build forms and work through the responses.</span></li>`
    : null
}
<li><a href="${prefix}/api/docs">API reference</a><span class="what">Every endpoint of the HTTP API, browsable.</span></li>
<li><a href="${prefix}/api/openapi.json">OpenAPI document</a><span class="what">The API described for tools and generated clients (OpenAPI 3.1).</span></li>
<li><span>MCP endpoint for AI assistants:</span> <code>${mcp}</code><span class="what">Streamable HTTP; POST with an API key.</span></li>
</ul>
</main>
</body>
</html>
`.value

/** Whether the client asks for a page (a browser) rather than data. */
const wantsHtml = (accept: string | undefined) =>
  accept !== undefined && /\b(text\/html|application\/xhtml\+xml)\b/i.test(accept)

/** The route `GET /`. */
export const layer = (options: WelcomeOptions) =>
  HttpRouter.add(
    "GET",
    "/",
    Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      const base = options.baseUrl(request)
      const headers = { vary: "Accept", "cache-control": "no-cache", "x-content-type-options": "nosniff" }
      if (wantsHtml(request.headers["accept"])) {
        return HttpServerResponse.text(page(options.prefix(request), `${base}${options.mcpPath}`, options.app), {
          contentType: "text/html; charset=utf-8",
          headers: { ...headers, "content-security-policy": contentSecurityPolicy, "referrer-policy": "same-origin" }
        })
      }
      return HttpServerResponse.jsonUnsafe(
        {
          name: "qforms",
          ...(options.app ? { app: `${base}/app` } : {}),
          docs: `${base}/api/docs`,
          openapi: `${base}/api/openapi.json`,
          mcp: `${base}${options.mcpPath}`
        },
        { headers }
      )
    })
  )
