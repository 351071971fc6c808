/**
 * Access codes: a form with the setting `accessCode` takes responses only
 * from those who type its code. The page asks for it before the welcome
 * screen; once it is right, the page's answer token carries a tag of it
 * (`AnswerState.access`, an HMAC of the form's public id and the code under a
 * secret of the database), so no cookie is needed, an embed on another site
 * works, and changing the code shuts out every page opened with the old one.
 * A JSON submission sends the code as `accessCode` (or a token that carries
 * the tag).
 *
 * Codes are compared without case and after NFKC normalisation and trimming,
 * since a phone's keyboard capitalises the first letter. Wrong codes are
 * limited per client address and per form (both token buckets, counting only
 * the wrong ones, so a class behind one address typing the right code is
 * never held up); while either is used up every attempt is refused with 429
 * before the code is even compared, so the answer says nothing about it.
 *
 * @module
 */
import { createHmac, type KeyObject } from "node:crypto"
import * as Effect from "effect/Effect"
import type * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type { FormWithFields } from "../forms/index.ts"
import { equalStrings, SigningSecrets } from "../kernel/index.ts"
import type { RateLimit } from "../web/index.ts"
import type { AnswerState } from "../cases/index.ts"
import { makeLimiter } from "./PageSecurity.ts"

/** Wrong codes per client address: 5, then one more every 3 minutes. */
export const defaultAccessCodeFailuresPerAddress: RateLimit.RateLimitConfig = { requestsPerSecond: 1 / 180, burst: 5 }
/** Wrong codes per form, from all addresses together: 100, then 100 an hour. */
export const defaultAccessCodeFailuresPerForm: RateLimit.RateLimitConfig = { requestsPerSecond: 100 / 3600, burst: 100 }

const CONTEXT = "qforms-access.v1."
const SECRET_NAME = "access_codes"

/**
 * A code as it is compared: NFKC, trimmed, without case.
 *
 * @example
 * ```ts
 * comparable("  Summer-2026 ") // "summer-2026"
 * ```
 */
export const comparable = (code: string): string => code.normalize("NFKC").trim().toLowerCase()

/** The tag of a form's code (pure): what an answer token carries once the code was typed. */
export const tagWith = (secret: KeyObject | Buffer, publicId: string, code: string): string =>
  createHmac("sha256", secret)
    .update(`${CONTEXT}${publicId}\n${comparable(code)}`)
    .digest("base64url")
    .slice(0, 22)

/** The outcome of a typed code. */
export type Attempt =
  | { readonly _tag: "Granted"; readonly tag: string }
  | { readonly _tag: "Wrong" }
  /** Nothing typed (not counted as wrong). */
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Blocked"; readonly decision: RateLimit.Decision; readonly config: RateLimit.RateLimitConfig }

/** The limits on wrong codes. */
export interface AccessCodeLimits {
  readonly perAddress?: RateLimit.RateLimitConfig | undefined
  readonly perForm?: RateLimit.RateLimitConfig | undefined
}

/**
 * Access codes with the database's secret and this process's limits on wrong
 * codes.
 *
 * @example
 * ```ts
 * const codes = yield* AccessCodes.make({})
 * const attempt = yield* codes.attempt(form, typed, clientAddress(request, 0))
 * if (attempt._tag === "Granted") state = { ...state, access: attempt.tag }
 * if (!(yield* codes.holds(form, state))) // ask for the code
 * ```
 */
export const make = (
  limits: AccessCodeLimits
): Effect.Effect<
  {
    readonly holds: (form: FormWithFields, state: AnswerState) => Effect.Effect<boolean, SqlError.SqlError>
    readonly attempt: (
      form: FormWithFields,
      typed: string,
      address: string
    ) => Effect.Effect<Attempt, SqlError.SqlError>
  },
  never,
  SqlClient.SqlClient
> =>
  Effect.gen(function* () {
    const secret = yield* SigningSecrets.cached(SECRET_NAME)
    const perAddressConfig = limits.perAddress ?? defaultAccessCodeFailuresPerAddress
    const perFormConfig = limits.perForm ?? defaultAccessCodeFailuresPerForm
    const perAddress = yield* makeLimiter(perAddressConfig, "access-code-address")
    const perForm = yield* makeLimiter(perFormConfig, "access-code-form")
    return {
      /** Whether the state may go on: the form has no code, or the state carries the tag of its code. */
      holds: (form, state) =>
        Effect.gen(function* () {
          const code = form.settings.accessCode
          if (code === undefined) return true
          if (state.access === undefined) return false
          return equalStrings(state.access, tagWith(yield* secret, form.publicId, code))
        }),
      /** Checks a typed code, counting it against the limits when it is wrong. */
      attempt: (form, typed, address) =>
        Effect.gen(function* () {
          const code = form.settings.accessCode
          if (comparable(typed) === "") return { _tag: "Empty" } as const
          const addressKey = `${form.publicId}:${address}`
          const byAddress = yield* perAddress.peek(addressKey)
          if (!byAddress.allowed) return { _tag: "Blocked", decision: byAddress, config: perAddressConfig } as const
          const byForm = yield* perForm.peek(form.publicId)
          if (!byForm.allowed) return { _tag: "Blocked", decision: byForm, config: perFormConfig } as const
          const key = yield* secret
          const tag = tagWith(key, form.publicId, code ?? "")
          if (code !== undefined && equalStrings(tagWith(key, form.publicId, typed), tag))
            return { _tag: "Granted", tag } as const
          yield* perAddress.take(addressKey)
          yield* perForm.take(form.publicId)
          return { _tag: "Wrong" } as const
        })
    }
  })

/** Access codes bound to the database's secret and their limits (see {@link make}). */
export type AccessCodes = Effect.Success<ReturnType<typeof make>>
