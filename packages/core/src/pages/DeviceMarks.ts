/**
 * Device marks: with the form setting `oneResponsePerDevice`, the public page
 * leaves a signed cookie on the device a response was sent from, and refuses
 * a second response from a device that shows it (409).
 *
 * The mark is signed JSON (`kernel/SignedJson.ts`, context `"qforms-device-mark.v1."`)
 * with the form's public id and the moment it was sent, so a mark is good for
 * its own form only and cannot be made up. It lives `Path=/f/<publicId>`,
 * `HttpOnly`, `SameSite=Lax`, for 400 days (the longest a browser keeps a
 * cookie). It stops whoever answers again by mistake, not a determined
 * respondent: a private window, another browser or clearing cookies goes
 * around it, and a page embedded on another site keeps it only where that
 * browser keeps the embedded site's cookies. `oneResponsePerEmail` is the
 * stronger limit.
 *
 * @module
 */
import type { KeyObject } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Result from "effect/Result"
import { seal, SigningSecrets, unseal } from "../kernel/index.ts"

/** How long a mark is kept and honoured: 400 days, in seconds. */
export const markMaxAgeSeconds = 400 * 24 * 60 * 60

/** The cookie that marks a device as having sent a response to the form. */
export const markCookieName = (publicId: string) => `qf_sent_${publicId}`

const CONTEXT = "qforms-device-mark.v1."
const SECRET_NAME = "device_marks"

const Mark = Schema.Struct({ form: Schema.String, sentAt: Schema.Int })
const decodeMark = Schema.decodeUnknownOption(Schema.fromJsonString(Mark))

/**
 * A mark for the form, sent at `now` (epoch milliseconds); pure.
 *
 * @example
 * ```ts
 * const value = markWith(secret, "a-7hFjkOvQ", Date.now())
 * isMarkWith(secret, value, "a-7hFjkOvQ", Date.now()) // true
 * ```
 */
export const markWith = (secret: KeyObject | Buffer, publicId: string, now: number): string =>
  seal(secret, CONTEXT, JSON.stringify({ form: publicId, sentAt: now }))

/** Whether `value` is a genuine, unexpired mark of this form; pure. */
export const isMarkWith = (secret: KeyObject | Buffer, value: string, publicId: string, now: number): boolean => {
  // A real mark is a few dozen characters: a longer cookie is not read.
  if (value.length > 400) return false
  const opened = unseal(secret, CONTEXT, value)
  if (Result.isFailure(opened)) return false
  const mark = decodeMark(opened.success)
  return mark._tag === "Some" && mark.value.form === publicId && now - mark.value.sentAt <= markMaxAgeSeconds * 1000
}

/**
 * Device marks with the database's shared secret (so every process reads the
 * marks any of them left).
 *
 * @example
 * ```ts
 * const marks = yield* DeviceMarks.make
 * if (yield* marks.sent(request.cookies, form.publicId)) return alreadySent
 * return yield* marks.mark(thanksPage, form.publicId) // the page, with the mark's Set-Cookie
 * ```
 */
export const make = Effect.gen(function* () {
  const secret = yield* SigningSecrets.cached(SECRET_NAME)
  return {
    /** The response, marking this device as having sent a response to the form. */
    mark: (response: HttpServerResponse.HttpServerResponse, publicId: string) =>
      Effect.gen(function* () {
        const value = markWith(yield* secret, publicId, yield* Clock.currentTimeMillis)
        // The name and value are made of URL-safe characters only: setting them cannot fail.
        return HttpServerResponse.setCookieUnsafe(response, markCookieName(publicId), value, {
          path: `/f/${encodeURIComponent(publicId)}`,
          httpOnly: true,
          sameSite: "lax",
          maxAge: `${markMaxAgeSeconds} seconds`
        })
      }),
    /** Whether the request's cookies carry this form's mark. */
    sent: (cookies: Readonly<Record<string, string | undefined>>, publicId: string) =>
      Effect.gen(function* () {
        const value = cookies[markCookieName(publicId)]
        if (value === undefined || value === "") return false
        return isMarkWith(yield* secret, value, publicId, yield* Clock.currentTimeMillis)
      })
  }
})

/** Device marks bound to the database's secret (see {@link make}). */
export type DeviceMarks = Effect.Success<typeof make>
