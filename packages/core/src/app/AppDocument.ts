/**
 * The HTML document of the application's own pages (sign-in, invitations,
 * password reset, one-time links, the shell): the language and direction of
 * the page, the application's style sheet, and the strict CSP every one of
 * them is served under.
 */
import { randomBytes } from "node:crypto"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { directionOf } from "../languages/index.ts"
import { type Html, html } from "../web/index.ts"
import type * as AppLanguage from "./AppLanguage.ts"

/** Where a page is made: the path prefix qforms is mounted under, and the language the page speaks. */
export interface Here {
  readonly prefix: string
  readonly language: AppLanguage.AppLanguage
  readonly say: AppLanguage.Say
}

/** What a page is made of. */
export interface DocumentOptions {
  readonly title: string
  readonly prefix: string
  readonly nonce: string
  readonly body: Html
  readonly head?: Html
  readonly language: AppLanguage.AppLanguage
}

/** The strict CSP of the application's pages: scripts and styles of this origin (plus the page's own import map). */
export const securityHeaders = (nonce: string) => ({
  "content-security-policy": [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'self'"
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store"
})

/** The page's HTML. */
export const document = (options: DocumentOptions) =>
  html`<!doctype html>
<html lang="${options.language}" dir="${directionOf(options.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${options.title}</title>
<link rel="stylesheet" href="${options.prefix}/app/assets/app.css">
${options.head}
</head>
<body>
${options.body}
</body>
</html>`.value

/** The page as a response, under the {@link securityHeaders} of its nonce (and any `headers` beside them). */
export const page = (status: number, options: DocumentOptions, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(document(options), {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...securityHeaders(options.nonce), ...headers }
  })

/** A fresh nonce for a page's scripts. */
export const nonce = () => randomBytes(16).toString("base64")
