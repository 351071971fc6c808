/**
 * What the application's route files share, made once when the routes are
 * mounted (better-auth's context of its endpoints is the model): the
 * identity services, the sign-in limiter, the settings, what a request tells
 * (prefix, scheme, the browser's language), who is signed in, the rate limits
 * of the sign-in and token routes, and the redeeming of a one-time sign-in
 * token.
 */
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { Invitations, type Session, Sessions } from "../identity/index.ts"
import { baseUrl, clientAddress, IdentityBridge, RateLimit, sessionCookie } from "../web/index.ts"
import type { Here } from "./AppDocument.ts"
import * as AppLanguage from "./AppLanguage.ts"
import { prefixOf } from "./AppPaths.ts"
import { english, json } from "./AppResponses.ts"

/** The application's settings, resolved from its options. */
export interface AppSettings {
  /** E-mail + password sign-in (false when the host's `resolveActor` signs users in). */
  readonly passwordSignIn: boolean
  /** Sign-in attempts per client address. */
  readonly signInRateLimit: RateLimit.RateLimitConfig
  /** Proxies in front that append to `X-Forwarded-For`. */
  readonly trustedProxyHops: number
  /** The configured address of qforms, if any (else the request's). */
  readonly appUrl?: string | undefined
}

/** Who is signed in to the application: a qforms session, or the host's identity. */
export type Identity =
  | { readonly via: "session"; readonly id: string; readonly session: Session }
  | {
      readonly via: "host"
      readonly accountId: number
      readonly workspaceId: number
      readonly role: Session["role"]
      readonly name: string | null
      readonly email: string
      readonly language: string | null
    }

/** Makes the context of the application's routes (once, when they are mounted). */
export const make = Effect.fnUntraced(function* (settings: AppSettings) {
  const sessions = yield* Sessions
  const invitations = yield* Invitations
  const bridge = yield* IdentityBridge
  const limiter = yield* RateLimit.RateLimiter.make(settings.signInRateLimit, "app")
  const passwordSignIn = settings.passwordSignIn
  const hops = settings.trustedProxyHops

  /** The language the application speaks to a signed-in person: their choice, else their browser's. */
  const languageOf = (
    identity:
      | { readonly via: "session"; readonly session: Session }
      | { readonly via: "host"; readonly language: string | null },
    request: HttpServerRequest.HttpServerRequest
  ) =>
    AppLanguage.choose(
      identity.via === "session" ? identity.session.language : identity.language,
      request.headers["accept-language"]
    )

  /** What a request tells: the request, the mount prefix, whether it came over HTTPS, and where its page is made. */
  const context = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const base = baseUrl(request, settings.appUrl)
    const prefix = prefixOf(base)
    const secure = base.startsWith("https://") || request.headers["x-forwarded-proto"] === "https"
    // Before sign-in nobody's choice is known: the browser's languages decide.
    const language = AppLanguage.choose(null, request.headers["accept-language"])
    const here: Here = { prefix, language, say: AppLanguage.sayer(language) }
    return { request, prefix, secure, here }
  })

  /** The signed-in identity of a request, if any. */
  const identify = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const id = request.cookies[sessionCookie]
    if (id !== undefined && id !== "") {
      const session = yield* sessions.resolve(id)
      if (session !== undefined) return { via: "session", id, session } satisfies Identity
    }
    if (bridge === undefined) return undefined
    const identity = yield* Effect.tryPromise(() =>
      Promise.resolve().then(() => bridge({ source: request.source, headers: request.headers }))
    ).pipe(Effect.orDie)
    if (identity === null || identity === undefined) return undefined
    const member = yield* sessions.bridgedMember(identity.workspaceId, identity.accountId)
    if (member === undefined) return undefined
    yield* sessions.noteBridgedSignIn(identity.workspaceId, member.accountId, "app")
    return {
      via: "host",
      accountId: member.accountId,
      workspaceId: identity.workspaceId,
      role: member.role,
      name: member.name,
      email: member.email,
      language: member.language
    } satisfies Identity
  }).pipe(Effect.orDie)

  /**
   * Takes a token of the client address's bucket: undefined when allowed, otherwise the JSON 429 with `error`
   * (given the seconds to wait) and `Retry-After`.
   */
  const takeOrRefuse = (
    request: HttpServerRequest.HttpServerRequest,
    bucket: "sign-in" | "token" | "password",
    error: (retryAfterSeconds: number) => string
  ) =>
    Effect.map(limiter.take(`${bucket}:${clientAddress(request, hops)}`), (decision) =>
      decision.allowed
        ? undefined
        : json(429, { error: error(decision.retryAfterSeconds) }, { "retry-after": String(decision.retryAfterSeconds) })
    )

  /** The sign-in limit of a JSON sign-in step (a workspace choice, a sign-in link): undefined when allowed. */
  const takeSignIn = (request: HttpServerRequest.HttpServerRequest) =>
    takeOrRefuse(request, "sign-in", () => "too many sign-in attempts")

  /** The limit of the token routes (invitations, resets, sign-in links) per client address: undefined when allowed. */
  const takeToken = (request: HttpServerRequest.HttpServerRequest) =>
    takeOrRefuse(request, "token", (seconds) => english("auth.tooManyAttempts", { seconds }))

  /**
   * Spends a one-time sign-in token (a link, or a workspace choice): the browser's previous session ends first
   * (session fixation), then the new session, or undefined when the token is unknown, spent or expired.
   */
  const redeem = (request: HttpServerRequest.HttpServerRequest, token: string) =>
    Effect.gen(function* () {
      const previous = request.cookies[sessionCookie]
      if (previous !== undefined && previous !== "") yield* sessions.signOut(previous)
      const opened = yield* Effect.result(sessions.redeemSignInLink(token))
      if (opened._tag === "Success") return opened.success
      if (opened.failure._tag === "SqlError") return yield* Effect.die(opened.failure)
      return undefined
    })

  return {
    sessions,
    invitations,
    limiter,
    passwordSignIn,
    hops,
    languageOf,
    context,
    identify,
    takeOrRefuse,
    takeSignIn,
    takeToken,
    redeem
  }
})

/** The context the route files share: see {@link make}. */
export type AppContext = Effect.Success<ReturnType<typeof make>>
