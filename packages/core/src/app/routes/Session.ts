/**
 * The signed-in session: signing out, what the shell asks of it, and the
 * account's own changes (language, password, workspace).
 *
 * Routes:
 * - `POST /app/sign-out`, `GET /app/session`, `POST /app/password` (rate
 *   limited per address; a wrong current password counts towards the lockout).
 * - `PUT /app/account/language`: the language the account chose for the
 *   application (null: follow the browser).
 * - `POST /app/workspace`: switch the session to another of the account's
 *   workspaces (a fresh session; the old one ends).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as UrlParams from "effect/http/UrlParams"
import { csrfHeader, ErrorTable, RouteBook } from "../../web/index.ts"
import type { AppContext } from "../AppContext.ts"
import * as AppLanguage from "../AppLanguage.ts"
import { first, sameOrigin, writeRefusal } from "../AppRequests.ts"
import { json, redirect } from "../AppResponses.ts"
import { clearSession, setSession } from "../SessionCookie.ts"
import * as ShellData from "../ShellData.ts"

const WorkspaceSwitch = Schema.Struct({
  workspaceId: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 2_147_483_647 }))
})

const LanguageChoice = Schema.Struct({ language: Schema.NullOr(AppLanguage.AppLanguage) })

const PasswordChange = Schema.Struct({
  currentPassword: Schema.String.check(Schema.isMaxLength(200)),
  newPassword: Schema.String.check(Schema.isMaxLength(1000))
})

/** Adds the session's routes. */
export const add = (router: HttpRouter.HttpRouter, app: AppContext) =>
  Effect.gen(function* () {
    const { sessions, passwordSignIn, context, identify, languageOf } = app

    yield* router.add(
      "POST",
      "/app/sign-out",
      Effect.gen(function* () {
        const { prefix, request, secure } = yield* context
        const identity = yield* identify
        if (identity?.via === "session") {
          if (!sameOrigin(request)) return json(403, { error: "sign-out must come from this site's own page" })
          const params = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
          const token = request.headers[csrfHeader] ?? first(params, "csrf")
          if (token !== identity.session.csrfToken) return json(403, { error: "missing or wrong CSRF token" })
          yield* sessions.signOut(identity.id)
        }
        return clearSession(redirect(`${prefix}/app/sign-in`), prefix, secure)
      })
    )

    yield* router.add(
      "GET",
      "/app/session",
      Effect.gen(function* () {
        const { request } = yield* context
        const identity = yield* identify
        if (identity === undefined) return json(401, { error: "not signed in" })
        const preference = identity.via === "session" ? identity.session.language : identity.language
        const who =
          identity.via === "session" ? { ...identity.session, via: "session" as const } : { ...identity, csrfToken: "" }
        // The workspaces a qforms session may switch to (a host's identity is bound by the host).
        const workspaces = identity.via === "session" ? yield* sessions.memberships(who.accountId) : []
        return json(
          200,
          Schema.encodeSync(ShellData.SessionInfo)({
            account: { id: who.accountId, name: who.name, email: who.email },
            workspaceId: who.workspaceId,
            workspaces: workspaces.map((w) => ({ id: w.workspaceId, name: w.workspaceName, role: w.role })),
            role: who.role,
            csrfToken: who.csrfToken,
            via: who.via,
            passwordSignIn,
            language: languageOf(identity, request),
            languagePreference: Schema.is(AppLanguage.AppLanguage)(preference) ? preference : null,
            browserLanguage: AppLanguage.choose(null, request.headers["accept-language"]),
            languages: AppLanguage.offered
          })
        )
      })
    )

    // The language an account chose for the application (null: follow the browser), from its own page.
    yield* router.add(
      "PUT",
      "/app/account/language",
      Effect.gen(function* () {
        const { request } = yield* context
        const identity = yield* identify
        if (identity === undefined) return json(401, { error: "not signed in" })
        const refused = writeRefusal(request, identity, "a choice of language")
        if (refused !== undefined) return refused
        const body = yield* Effect.orElseSucceed(request.json, () => undefined)
        const input = Schema.decodeUnknownExit(LanguageChoice)(body)
        if (input._tag === "Failure")
          return json(400, {
            error: `send language: one of ${AppLanguage.appLanguages.join(", ")}, or null to follow the browser`
          })
        const accountId = identity.via === "session" ? identity.session.accountId : identity.accountId
        yield* sessions.setLanguage(accountId, input.value.language)
        return json(200, {
          language: AppLanguage.choose(input.value.language, request.headers["accept-language"]),
          languagePreference: input.value.language
        })
      })
    )

    // The password change only as JSON (sent as anything else, the guard refuses it).
    const book = yield* RouteBook
    book.takesJson("POST", "/app/password", { payload: true })
    yield* router.add(
      "POST",
      "/app/password",
      Effect.gen(function* () {
        const { request } = yield* context
        const identity = yield* identify
        if (identity?.via !== "session") return json(401, { error: "not signed in with a qforms password" })
        const refused = writeRefusal(request, identity, "a password change")
        if (refused !== undefined) return refused
        // The current password is guessed like a sign-in: the same limit per address (and the lockout, in Sessions).
        const limited = yield* app.takeOrRefuse(
          request,
          "password",
          (seconds) => `too many password changes from your address: try again in ${seconds} seconds`
        )
        if (limited !== undefined) return limited
        const body = yield* Effect.orElseSucceed(request.json, () => undefined)
        const input = Schema.decodeUnknownExit(PasswordChange)(body)
        if (input._tag === "Failure") return json(400, { error: "send currentPassword and newPassword" })
        const changed = yield* Effect.result(sessions.changePassword(identity.id, input.value))
        if (changed._tag === "Failure") {
          if (changed.failure._tag === "SqlError") return yield* Effect.die(changed.failure)
          if (changed.failure._tag === "AccountLocked") {
            return json(
              ErrorTable.statusOf(changed.failure),
              { error: changed.failure.message },
              {
                "retry-after": String(changed.failure.retryAfterSeconds)
              }
            )
          }
          // A wrong current password is a wrong field of this request (400), not a refused sign-in (401).
          return json(400, { error: changed.failure.message })
        }
        return HttpServerResponse.empty({ status: 204 })
      })
    )

    // Switching workspace: the session is bound to one, so a fresh session opens in the other and this one ends.
    yield* router.add(
      "POST",
      "/app/workspace",
      Effect.gen(function* () {
        const { prefix, request, secure } = yield* context
        const identity = yield* identify
        if (identity?.via !== "session") return json(401, { error: "not signed in with a qforms session" })
        const refused = writeRefusal(request, identity, "a change of workspace")
        if (refused !== undefined) return refused
        const body = yield* Effect.orElseSucceed(request.json, () => undefined)
        const input = Schema.decodeUnknownExit(WorkspaceSwitch)(body)
        if (input._tag === "Failure") return json(400, { error: "send workspaceId, the id of one of your workspaces" })
        const switched = yield* Effect.result(sessions.switchWorkspace(identity.id, input.value.workspaceId))
        if (switched._tag === "Failure") {
          if (switched.failure._tag === "SqlError") return yield* Effect.die(switched.failure)
          return switched.failure._tag === "NotAMember"
            ? json(ErrorTable.statusOf(switched.failure), { error: switched.failure.message })
            : json(401, { error: "not signed in" })
        }
        const session = switched.success.session
        return setSession(
          json(200, { workspaceId: session.workspaceId, role: session.role, csrfToken: session.csrfToken }),
          prefix,
          secure,
          switched.success.id
        )
      })
    )
  })
