/**
 * The application's session cookie on a response: set to a session id (HTTP
 * only, same-site lax, 14 days, on the mount prefix's path) or cleared.
 */
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { sessionCookie } from "../web/index.ts"

/** The response with the cookie of session `id`. */
export const setSession = (
  response: HttpServerResponse.HttpServerResponse,
  prefix: string,
  secure: boolean,
  id: string
) =>
  HttpServerResponse.setCookieUnsafe(response, sessionCookie, id, {
    path: `${prefix}/`,
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: "14 days"
  })

/** The response with the cookie cleared. */
export const clearSession = (response: HttpServerResponse.HttpServerResponse, prefix: string, secure: boolean) =>
  HttpServerResponse.setCookieUnsafe(response, sessionCookie, "", {
    path: `${prefix}/`,
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: 0
  })
