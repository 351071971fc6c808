/**
 * The application's answers that are not pages: JSON (never cached) and the
 * 303 redirect after a form post, and the English its JSON answers speak.
 */
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as AppLanguage from "./AppLanguage.ts"

/** A JSON answer, never cached. */
export const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store", ...headers } })

/** See Other: where the browser goes next. */
export const redirect = (location: string) =>
  HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store" } })

/** The application's words in English: what its JSON answers say (like the API's errors). */
export const english = AppLanguage.sayer("en")
