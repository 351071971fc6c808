/**
 * The application at `{app_url}/app`: sign-in (standalone accounts) or the
 * host's identity bridge (embedded), then a single-page application (Preact +
 * htm as ES modules served from this package, no build step) that works
 * through the same JSON API as everyone else (`/api/...`, authenticated by
 * the session cookie plus a CSRF header on writes).
 *
 * Routes:
 * - `GET /app`, `GET /app/*`: the application shell (or a redirect to sign-in).
 * - `GET|POST /app/sign-in`: the sign-in page and form (rate limited per
 *   address; five wrong passwords lock an account for 15 minutes).
 * - `GET|POST /app/sign-in/link/:token`: a one-time sign-in link (the first start's).
 * - `POST /app/sign-in/workspace`: the workspace chosen at sign-in (an account
 *   that is a member of several chooses after its password is verified).
 * - `POST /app/sign-out`, `GET /app/session`, `POST /app/password` (rate
 *   limited per address; a wrong current password counts towards the lockout).
 * - `POST /app/workspace`: switch the session to another of the account's
 *   workspaces (a fresh session; the old one ends).
 * - `GET|POST /app/invite/:token`: an invitation: the invitee sets a name and
 *   password (or signs in to the account the address has) and becomes a member.
 * - `GET /app/forgot-password`, `POST /app/password-reset` (always 202, whether
 *   or not the address has an account), `GET|POST /app/reset/:token`.
 * - `GET|POST /app/link/:token`: a one-time sign-in link an owner or admin issued.
 *   The token routes are limited per client address like sign-in.
 * - `GET /app/assets/:name`, `GET /app/assets/vendor/:name`: the scripts and style sheet.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as UrlParams from "effect/http/UrlParams"
import {
  type Acceptance,
  EmailAddress,
  Invitations,
  Passwords,
  PersonName,
  type Session,
  Sessions,
  type WorkspaceChoice
} from "../identity/index.ts"
import { Links } from "../kernel/index.ts"
import { Mailer } from "../mail/index.ts"
import { directionOf, MessageCatalogues } from "../languages/index.ts"
import * as AppLanguage from "./AppLanguage.ts"
import * as ShellData from "./ShellData.ts"
import {
  baseUrl,
  clientAddress,
  crossSiteRefusal,
  csrfHeader,
  ErrorTable,
  Html,
  html,
  IdentityBridge,
  PackagedFiles,
  RateLimit,
  RouteBook,
  sessionCookie
} from "../web/index.ts"

/** Options of the application. */
export interface AppOptions {
  /** E-mail + password sign-in (default true; false when the host's `resolveActor` signs users in). */
  readonly passwordSignIn?: boolean | undefined
  /** Sign-in attempts per client address (default 10 a minute, bursts of 10). */
  readonly signInRateLimit?: RateLimit.RateLimitConfig | undefined
  /** Proxies in front that append to `X-Forwarded-For` (as for the public page). */
  readonly trustedProxyHops?: number | undefined
}

/** The default sign-in limit per address: 10 a minute, bursts of 10. */
export const defaultSignInRateLimit: RateLimit.RateLimitConfig = { requestsPerSecond: 10 / 60, burst: 10 }

const require = createRequire(import.meta.url)

// htm exports no package.json: its root is the parent of its main file's directory (dist/).
const htmRoot = () => join(dirname(require.resolve("htm")), "..")

/** The third-party modules the client imports, by the name it imports them under. */
const vendor: Record<string, { readonly file: string; readonly resolve: () => string }> = {
  "preact.mjs": {
    file: "preact.mjs",
    resolve: () => join(dirname(require.resolve("preact/package.json")), "dist", "preact.mjs")
  },
  "hooks.mjs": {
    file: "hooks.mjs",
    resolve: () => join(dirname(require.resolve("preact/package.json")), "hooks", "dist", "hooks.mjs")
  },
  "htm.mjs": { file: "htm.mjs", resolve: () => join(htmRoot(), "dist", "htm.mjs") },
  "htm-preact.mjs": {
    file: "htm-preact.mjs",
    resolve: () => join(htmRoot(), "preact", "index.mjs")
  },
  // The package's browser build: one self-contained ES module (the parser included).
  "intl-messageformat.mjs": {
    file: "intl-messageformat.mjs",
    resolve: () => join(dirname(require.resolve("intl-messageformat")), "intl-messageformat.iife.js")
  }
}

const fileCache = new Map<string, string | null>()
/** A file's text, or null when it is absent or unreadable (read once, then kept). */
const readOnce = (key: string, locate: () => string | undefined): string | null => {
  const cached = fileCache.get(key)
  if (cached !== undefined) return cached
  const text = Result.getOrNull(
    Result.try(() => {
      const path = locate()
      return path === undefined ? null : readFileSync(path, "utf8").replace(/\/\/# sourceMappingURL=.*$/m, "")
    })
  )
  fileCache.set(key, text)
  return text
}
const readStatic = (name: string) => readOnce(name, () => PackagedFiles.locate(import.meta.url, `app/static/${name}`))
const readVendor = (name: string) => readOnce(`vendor/${name}`, () => vendor[name]?.resolve())

/** The path prefix qforms is mounted under ("" at the root). */
const prefixOf = (base: string): string =>
  (/^https?:\/\//.test(base) ? new URL(base).pathname : base).replace(/\/$/, "")

/** The strict CSP of the application's pages: scripts and styles of this origin (plus the page's own import map). */
const securityHeaders = (nonce: string) => ({
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

const document = (options: {
  readonly title: string
  readonly prefix: string
  readonly nonce: string
  readonly body: Html
  readonly head?: Html
  readonly language: AppLanguage.AppLanguage
}) =>
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

const page = (status: number, options: Parameters<typeof document>[0], headers: Record<string, string> = {}) =>
  HttpServerResponse.text(document(options), {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...securityHeaders(options.nonce), ...headers }
  })

const first = (params: UrlParams.UrlParams, key: string) => Option.getOrUndefined(UrlParams.getFirst(params, key))

const nonce = () => randomBytes(16).toString("base64")

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store", ...headers } })

const redirect = (location: string) =>
  HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store" } })

/** Only a path of the application may be the target after sign-in (no open redirect). */
const safeNext = (prefix: string, next: string | undefined) =>
  next !== undefined && /^\/app(\/[A-Za-z0-9/_-]*)?(\?[A-Za-z0-9=&_%.-]*)?$/.test(next)
    ? `${prefix}${next}`
    : `${prefix}/app`

const SignInForm = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254)),
  password: Schema.String.check(Schema.isMaxLength(200)),
  next: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
})

const WorkspaceChoiceForm = Schema.Struct({
  token: Schema.String.check(Schema.isMaxLength(100)),
  next: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
})

const InviteeName = PersonName

const WorkspaceSwitch = Schema.Struct({
  workspaceId: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 2_147_483_647 }))
})

const LanguageChoice = Schema.Struct({ language: Schema.NullOr(AppLanguage.AppLanguage) })

const PasswordChange = Schema.Struct({
  currentPassword: Schema.String.check(Schema.isMaxLength(200)),
  newPassword: Schema.String.check(Schema.isMaxLength(1000))
})

/** Where a page is made: the path prefix qforms is mounted under, and the language the page speaks. */
interface Here {
  readonly prefix: string
  readonly language: AppLanguage.AppLanguage
  readonly say: AppLanguage.Say
}

/** The application's words in English: what its JSON answers say (like the API's errors). */
const english = AppLanguage.sayer("en")

/** A locked account's message in the page's language (the lockout counts in minutes). */
const lockedMessage = (here: Here, retryAfterSeconds: number) =>
  here.say("auth.accountLocked", { minutes: Math.ceil(retryAfterSeconds / 60) })

/** What a dead invitation link says. */
const invitationProblem = (failure: { readonly _tag: "TokenUnknown" | "TokenGone" }): AppLanguage.AppKey =>
  failure._tag === "TokenUnknown" ? "auth.invitationUnknown" : "auth.invitationGone"

/** Who is signed in to the application: a qforms session, or the host's identity. */
type Identity =
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

/**
 * The application's routes. Mounted by `Http.layer` when its `app` option is
 * set (the standalone server sets it; embedding hosts opt in).
 */
export const layer = (options: AppOptions & { readonly appUrl?: string | undefined }) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const sessions = yield* Sessions
      const invitations = yield* Invitations
      const bridge = yield* IdentityBridge
      const limiter = yield* RateLimit.RateLimiter.make(options.signInRateLimit ?? defaultSignInRateLimit, "app")
      const passwordSignIn = options.passwordSignIn !== false
      const hops = options.trustedProxyHops ?? 0
      // What the shell page tells its scripts: the same for every page of this server in one language.
      const mail = (yield* Mailer).configured
      const formLanguages = (yield* MessageCatalogues).languages
      const shellTexts = new Map<AppLanguage.AppLanguage, string>()
      const shellDataOf = (language: AppLanguage.AppLanguage) => {
        const existing = shellTexts.get(language)
        if (existing !== undefined) return existing
        const text = ShellData.toScriptText({
          mail,
          languages: formLanguages,
          language,
          say: AppLanguage.sayer(language)
        })
        shellTexts.set(language, text)
        return text
      }

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

      const context = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
        const base = baseUrl(request, options.appUrl)
        const prefix = prefixOf(base)
        const secure = base.startsWith("https://") || request.headers["x-forwarded-proto"] === "https"
        // Before sign-in nobody's choice is known: the browser's languages decide.
        const language = AppLanguage.choose(null, request.headers["accept-language"])
        const here: Here = { prefix, language, say: AppLanguage.sayer(language) }
        return { request, prefix, secure, here }
      })

      const setSession = (
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
      const clearSession = (response: HttpServerResponse.HttpServerResponse, prefix: string, secure: boolean) =>
        HttpServerResponse.setCookieUnsafe(response, sessionCookie, "", {
          path: `${prefix}/`,
          httpOnly: true,
          sameSite: "lax",
          secure,
          maxAge: 0
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

      /** A request that writes must come from a page of this origin (login CSRF, sign-out, password change). */
      const sameOrigin = (request: HttpServerRequest.HttpServerRequest) =>
        crossSiteRefusal(request.headers) === undefined

      /**
       * The refusal of a signed-in write from elsewhere: not from a page of this origin (`what` must come from
       * "this site's own page"), or, with a qforms session, without its CSRF token. Undefined when it may go on.
       */
      const writeRefusal = (request: HttpServerRequest.HttpServerRequest, identity: Identity, what: string) =>
        !sameOrigin(request)
          ? json(403, { error: `${what} must come from this site's own page` })
          : identity.via === "session" && request.headers[csrfHeader] !== identity.session.csrfToken
            ? json(403, { error: "missing or wrong CSRF token" })
            : undefined

      /** A client that asked for JSON (a script) gets `{error}` rather than a page. */
      const wantsJson = (request: HttpServerRequest.HttpServerRequest) =>
        (request.headers["accept"] ?? "").includes("application/json") ||
        (request.headers["content-type"] ?? "").includes("json")

      /** The fields of a form post or a JSON body (strings only). */
      const formOf = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          const fields: Record<string, string> = {}
          if ((request.headers["content-type"] ?? "").includes("json")) {
            const body = yield* Effect.orElseSucceed(request.json, () => undefined)
            if (typeof body === "object" && body !== null) {
              for (const [key, value] of Object.entries(body)) if (typeof value === "string") fields[key] = value
            }
            return fields
          }
          const params = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
          for (const key of ["name", "password", "email", "mode"]) {
            const value = first(params, key)
            if (value !== undefined) fields[key] = value
          }
          return fields
        })

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
            : json(
                429,
                { error: error(decision.retryAfterSeconds) },
                { "retry-after": String(decision.retryAfterSeconds) }
              )
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

      /** The page behind a one-time link: a button that posts it back (a link preview must not spend it). */
      const linkPage = (here: Here, action: string, intro: string, button: string) =>
        page(200, {
          title: here.say("auth.signInTitle"),
          prefix: here.prefix,
          language: here.language,
          nonce: nonce(),
          body: html`<main class="auth" id="main">
<h1>${here.say("auth.signInHeading")}</h1>
<p>${intro}</p>
<form method="post" action="${action}"><button type="submit" class="primary">${button}</button></form>
</main>`
        })

      /**
       * A token that leads nowhere: 404 (never issued) or 410 (used, revoked, expired), as a page in the browser's
       * language or as JSON (in English, like the API's errors).
       */
      const tokenProblem = (
        request: HttpServerRequest.HttpServerRequest,
        here: Here,
        status: 404 | 410,
        message: AppLanguage.AppKey
      ) =>
        wantsJson(request)
          ? json(status, { error: english(message) })
          : page(status, {
              title: here.say("auth.linkNotValidTitle"),
              prefix: here.prefix,
              language: here.language,
              nonce: nonce(),
              body: html`<main class="auth" id="main">
<h1>${here.say(status === 404 ? "auth.linkNotValid" : "auth.linkGone")}</h1>
<p role="alert">${here.say(message)}</p>
<p><a href="${here.prefix}/app/sign-in">${here.say("auth.goToSignIn")}</a></p>
</main>`
            })

      const signInPage = (
        status: number,
        here: Here,
        extra: {
          readonly error?: string | undefined
          readonly notice?: string | undefined
          readonly email?: string | undefined
          readonly next?: string | undefined
        },
        headers?: Record<string, string>
      ) =>
        page(
          status,
          {
            title: here.say("auth.signInTitle"),
            prefix: here.prefix,
            language: here.language,
            nonce: nonce(),
            body: html`<main class="auth" id="main">
<h1>${here.say("auth.signInHeading")}</h1>
${
  passwordSignIn
    ? html`<form method="post" action="${here.prefix}/app/sign-in" class="stack">
${extra.error === undefined ? null : html`<p class="error" role="alert" id="sign-in-error">${extra.error}</p>`}
${extra.notice === undefined ? null : html`<p class="notice" role="status">${extra.notice}</p>`}
<label for="email">${here.say("auth.email")}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${extra.email ?? ""}"${
        extra.error === undefined ? null : html` aria-describedby="sign-in-error"`
      }>
<label for="password">${here.say("auth.password")}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
${extra.next === undefined ? null : html`<input type="hidden" name="next" value="${extra.next}">`}
<button type="submit" class="primary">${here.say("auth.signIn")}</button>
</form>
<p><a href="${here.prefix}/app/forgot-password">${here.say("auth.forgotPassword")}</a></p>`
    : html`<p>${here.say("auth.hostSignIn")}</p>`
}
</main>`
          },
          headers
        )

      /** After the password: the workspaces of an account that is a member of several, one button each. */
      const chooseWorkspacePage = (here: Here, choices: ReadonlyArray<WorkspaceChoice>, next: string | undefined) =>
        page(200, {
          title: here.say("auth.chooseWorkspaceTitle"),
          prefix: here.prefix,
          language: here.language,
          nonce: nonce(),
          body: html`<main class="auth" id="main">
<h1>${here.say("auth.chooseWorkspace")}</h1>
<p>${here.say("auth.chooseWorkspaceIntro")}</p>
<ul class="stack workspace-choices">
${choices.map(
  (choice) =>
    html`<li><form method="post" action="${here.prefix}/app/sign-in/workspace">
<input type="hidden" name="token" value="${choice.token}">
${next === undefined ? null : html`<input type="hidden" name="next" value="${next}">`}
<button type="submit" class="primary">${choice.workspaceName}</button> <span class="muted">(${here.say("shell.role", { role: choice.role })})</span>
</form></li>`
)}
</ul>
</main>`
        })

      // The sign-in page.
      yield* router.add(
        "GET",
        "/app/sign-in",
        Effect.gen(function* () {
          const { prefix, request, here } = yield* context
          const identity = yield* identify
          if (identity !== undefined) return redirect(`${prefix}/app`)
          const next = new URL(request.url, "http://x").searchParams.get("next") ?? undefined
          return signInPage(200, here, { next })
        })
      )

      yield* router.add(
        "POST",
        "/app/sign-in",
        Effect.gen(function* () {
          const { prefix, request, secure, here } = yield* context
          if (!passwordSignIn) return signInPage(404, here, {})
          if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
          const decision = yield* limiter.take(`sign-in:${clientAddress(request, hops)}`)
          if (!decision.allowed) {
            return signInPage(
              429,
              here,
              { error: here.say("auth.tooManySignIns", { seconds: decision.retryAfterSeconds }) },
              {
                "retry-after": String(decision.retryAfterSeconds)
              }
            )
          }
          const params = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
          const form = Schema.decodeUnknownExit(SignInForm)({
            email: first(params, "email"),
            password: first(params, "password"),
            ...(first(params, "next") === undefined ? {} : { next: first(params, "next") })
          })
          if (form._tag === "Failure") return signInPage(400, here, { error: here.say("auth.enterEmailAndPassword") })
          // Session fixation: whatever session id the browser brought is ended; a fresh one is issued.
          const previous = request.cookies[sessionCookie]
          if (previous !== undefined && previous !== "") yield* sessions.signOut(previous)
          const opened = yield* Effect.result(
            sessions.signIn({ email: form.value.email, password: form.value.password })
          )
          if (opened._tag === "Failure") {
            const error = opened.failure
            if (error._tag === "SqlError") return yield* Effect.die(error)
            return signInPage(
              ErrorTable.statusOf(error),
              here,
              {
                error:
                  error._tag === "AccountLocked"
                    ? lockedMessage(here, error.retryAfterSeconds)
                    : here.say("auth.wrongEmailOrPassword"),
                email: form.value.email,
                next: form.value.next
              },
              error._tag === "AccountLocked" ? { "retry-after": String(error.retryAfterSeconds) } : {}
            )
          }
          if (opened.success._tag === "ChooseWorkspace")
            return chooseWorkspacePage(here, opened.success.choices, form.value.next)
          return setSession(redirect(safeNext(prefix, form.value.next)), prefix, secure, opened.success.opened.id)
        })
      )

      // The workspace chosen after a verified password: its one-time token opens the session (and spends the others).
      yield* router.add(
        "POST",
        "/app/sign-in/workspace",
        Effect.gen(function* () {
          const { prefix, request, secure, here } = yield* context
          if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
          const limited = yield* takeSignIn(request)
          if (limited !== undefined) return limited
          const params = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
          const form = Schema.decodeUnknownExit(WorkspaceChoiceForm)({
            token: first(params, "token"),
            ...(first(params, "next") === undefined ? {} : { next: first(params, "next") })
          })
          if (form._tag === "Failure") return signInPage(400, here, { error: here.say("auth.chooseFromList") })
          const opened = yield* redeem(request, form.value.token)
          if (opened === undefined) {
            return signInPage(400, here, {
              error: here.say("auth.choiceExpired"),
              next: form.value.next
            })
          }
          return setSession(redirect(safeNext(prefix, form.value.next)), prefix, secure, opened.id)
        })
      )

      // One-time sign-in links: GET shows a button (link previews must not spend the link), POST redeems it.
      yield* router.add(
        "GET",
        "/app/sign-in/link/:token",
        Effect.gen(function* () {
          const { prefix, here } = yield* context
          const params = yield* HttpRouter.params
          return linkPage(
            here,
            `${prefix}/app/sign-in/link/${params["token"] ?? ""}`,
            here.say("auth.ownerLinkIntro"),
            here.say("auth.continue")
          )
        })
      )

      yield* router.add(
        "POST",
        "/app/sign-in/link/:token",
        Effect.gen(function* () {
          const { prefix, request, secure, here } = yield* context
          if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
          const limited = yield* takeSignIn(request)
          if (limited !== undefined) return limited
          const params = yield* HttpRouter.params
          const opened = yield* redeem(request, params["token"] ?? "")
          if (opened === undefined) return signInPage(400, here, { error: here.say("auth.ownerLinkSpent") })
          return setSession(redirect(`${prefix}/app/account`), prefix, secure, opened.id)
        })
      )

      // A one-time sign-in link an owner or admin issued for a member: the same two steps (a preview spends nothing).
      yield* router.add(
        "GET",
        "/app/link/:token",
        Effect.gen(function* () {
          const { prefix, here } = yield* context
          const params = yield* HttpRouter.params
          return linkPage(
            here,
            `${prefix}/app/link/${params["token"] ?? ""}`,
            here.say("auth.memberLinkIntro"),
            here.say("auth.signIn")
          )
        })
      )
      yield* router.add(
        "POST",
        "/app/link/:token",
        Effect.gen(function* () {
          const { prefix, request, secure, here } = yield* context
          if (!sameOrigin(request)) return json(403, { error: "sign-in must come from this site's own page" })
          const limited = yield* takeToken(request)
          if (limited !== undefined) return limited
          const params = yield* HttpRouter.params
          const opened = yield* redeem(request, params["token"] ?? "")
          if (opened === undefined) return tokenProblem(request, here, 410, "auth.memberLinkSpent")
          return setSession(redirect(`${prefix}/app`), prefix, secure, opened.id)
        })
      )

      // Invitations: the page shows what the invitee must do; the form accepts (spending the token).
      const invitationPage = (
        status: number,
        here: Here,
        token: string,
        view: {
          readonly workspaceName: string
          readonly email: string
          readonly role: string
          readonly account: "new" | "password" | "signInFirst"
        },
        signedInAs: string | undefined,
        error?: string
      ) =>
        page(status, {
          title: here.say("auth.joinTitle", { workspace: view.workspaceName }),
          prefix: here.prefix,
          language: here.language,
          nonce: nonce(),
          body: html`<main class="auth" id="main">
<h1>${here.say("auth.join", { workspace: view.workspaceName })}</h1>
<p>${here.say("auth.invited", {
            workspace: view.workspaceName,
            role: here.say("shell.role", { role: view.role }),
            email: view.email
          })}</p>
${error === undefined ? null : html`<p class="error" role="alert" id="invite-error">${error}</p>`}
${
  signedInAs !== undefined && signedInAs.toLowerCase() === view.email.toLowerCase()
    ? html`<form method="post" action="${here.prefix}/app/invite/${token}" class="stack">
<input type="hidden" name="mode" value="session">
<button type="submit" class="primary">${here.say("auth.acceptInvitation")}</button>
</form>`
    : view.account === "new"
      ? html`<form method="post" action="${here.prefix}/app/invite/${token}" class="stack">
<label for="name">${here.say("auth.yourName")}</label>
<input id="name" name="name" autocomplete="name" maxlength="200" required>
<label for="new-password">${here.say("auth.choosePassword")}</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="10" maxlength="200" required${
          error === undefined ? null : html` aria-describedby="invite-error"`
        }>
<button type="submit" class="primary">${here.say("auth.joinButton")}</button>
</form>`
      : view.account === "password"
        ? html`<form method="post" action="${here.prefix}/app/invite/${token}" class="stack">
<p>${here.say("auth.addressHasAccount")}</p>
<label for="password">${here.say("auth.passwordOf", { email: view.email })}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="200" required${
            error === undefined ? null : html` aria-describedby="invite-error"`
          }>
<button type="submit" class="primary">${here.say("auth.signInAndJoin")}</button>
</form>
<p><a href="${here.prefix}/app/forgot-password">${here.say("auth.forgotPassword")}</a></p>`
        : html`<p>${here.say("auth.accountElsewhere")}</p>
<p><a href="${here.prefix}/app/forgot-password">${here.say("auth.noPasswordYet")}</a></p>`
}
</main>`
        })

      yield* router.add(
        "GET",
        "/app/invite/:token",
        Effect.gen(function* () {
          const { request, here } = yield* context
          const params = yield* HttpRouter.params
          const token = params["token"] ?? ""
          const view = yield* Effect.result(invitations.view(token))
          if (view._tag === "Failure") {
            if (view.failure._tag === "SqlError") return yield* Effect.die(view.failure)
            return tokenProblem(request, here, ErrorTable.statusOf(view.failure), invitationProblem(view.failure))
          }
          const identity = yield* identify
          return invitationPage(
            200,
            here,
            token,
            view.success,
            identity?.via === "session" ? identity.session.email : undefined
          )
        })
      )

      yield* router.add(
        "POST",
        "/app/invite/:token",
        Effect.gen(function* () {
          const { prefix, request, secure, here } = yield* context
          if (!passwordSignIn) return json(404, { error: "password sign-in is off: the host signs users in" })
          if (!sameOrigin(request))
            return json(403, { error: "an invitation must be accepted on this site's own page" })
          const limited = yield* takeToken(request)
          if (limited !== undefined) return limited
          const params = yield* HttpRouter.params
          const token = params["token"] ?? ""
          const view = yield* Effect.result(invitations.view(token))
          if (view._tag === "Failure") {
            if (view.failure._tag === "SqlError") return yield* Effect.die(view.failure)
            return tokenProblem(request, here, ErrorTable.statusOf(view.failure), invitationProblem(view.failure))
          }
          const form = yield* formOf(request)
          const identity = yield* identify
          const signedInAs = identity?.via === "session" ? identity.session : undefined
          // A script gets the English error (like the API's); the page says it in the browser's language.
          const again = (
            status: number,
            error: AppLanguage.AppKey | { readonly json: string; readonly page: string }
          ) =>
            wantsJson(request)
              ? json(status, { error: typeof error === "string" ? english(error) : error.json })
              : invitationPage(
                  status,
                  here,
                  token,
                  view.success,
                  signedInAs?.email,
                  typeof error === "string" ? here.say(error) : error.page
                )
          let how: Acceptance
          if (form["mode"] === "session" && signedInAs !== undefined) {
            how = { _tag: "Session", accountId: signedInAs.accountId }
          } else if (view.success.account === "new") {
            const name = Schema.decodeUnknownExit(InviteeName)(form["name"] ?? "")
            if (name._tag === "Failure") return again(400, "auth.enterName")
            const password = Schema.decodeUnknownExit(Passwords.NewPassword)(form["password"] ?? "")
            if (password._tag === "Failure") return again(400, "auth.passwordLength")
            how = { _tag: "NewPassword", name: name.value, passwordHash: yield* Passwords.hash(password.value) }
          } else if (view.success.account === "password") {
            const password = form["password"] ?? ""
            if (password === "" || password.length > 200) return again(400, "auth.enterPasswordOfAddress")
            how = { _tag: "Password", password }
          } else {
            return again(409, "auth.signInFirst")
          }
          const previous = request.cookies[sessionCookie]
          const accepted = yield* Effect.result(invitations.accept(token, how))
          if (accepted._tag === "Failure") {
            const error = accepted.failure
            switch (error._tag) {
              case "SqlError":
                return yield* Effect.die(error)
              case "TokenUnknown":
              case "TokenGone":
                return tokenProblem(request, here, ErrorTable.statusOf(error), invitationProblem(error))
              case "AccountLocked":
                return again(ErrorTable.statusOf(error), {
                  json: error.message,
                  page: lockedMessage(here, error.retryAfterSeconds)
                })
              case "SignInRefused":
                return again(ErrorTable.statusOf(error), "auth.wrongPassword")
              case "Conflict":
                return again(ErrorTable.statusOf(error), { json: error.message, page: error.message })
            }
          }
          // Session fixation: the browser's previous session ends; the fresh one is in the invited workspace.
          if (previous !== undefined && previous !== "") yield* sessions.signOut(previous)
          return setSession(redirect(`${prefix}/app`), prefix, secure, accepted.success.id)
        })
      )

      // Password reset: asking always answers the same (202), whether the address has an account or not; the
      // work (a token, the e-mail) runs detached so that the time taken tells nothing either.
      const forgotPage = (status: number, here: Here, notice?: string, error?: string) =>
        page(status, {
          title: here.say("auth.forgotTitle"),
          prefix: here.prefix,
          language: here.language,
          nonce: nonce(),
          body: html`<main class="auth" id="main">
<h1>${here.say("auth.forgotPassword")}</h1>
${notice === undefined ? null : html`<p class="notice" role="status">${notice}</p>`}
${error === undefined ? null : html`<p class="error" role="alert" id="reset-error">${error}</p>`}
<form method="post" action="${here.prefix}/app/password-reset" class="stack">
<label for="email">${here.say("auth.email")}</label>
<input id="email" name="email" type="email" autocomplete="username" required${error === undefined ? null : html` aria-describedby="reset-error"`}>
<button type="submit" class="primary">${here.say("auth.sendLink")}</button>
</form>
<p class="muted">${here.say("auth.forgotHelp")}</p>
<p><a href="${here.prefix}/app/sign-in">${here.say("auth.backToSignIn")}</a></p>
</main>`
        })

      yield* router.add(
        "GET",
        "/app/forgot-password",
        Effect.map(context, ({ here }) => forgotPage(200, here))
      )

      yield* router.add(
        "POST",
        "/app/password-reset",
        Effect.gen(function* () {
          const { request, here } = yield* context
          if (!passwordSignIn) return json(404, { error: "password sign-in is off: the host signs users in" })
          if (!sameOrigin(request))
            return json(403, { error: "a password reset must be asked for on this site's own page" })
          const decision = yield* limiter.take(`reset:${clientAddress(request, hops)}`)
          if (!decision.allowed) {
            const seconds = { seconds: decision.retryAfterSeconds }
            return wantsJson(request)
              ? json(
                  429,
                  { error: english("auth.tooManyResets", seconds) },
                  { "retry-after": String(decision.retryAfterSeconds) }
                )
              : forgotPage(429, here, undefined, here.say("auth.tooManyResets", seconds))
          }
          const form = yield* formOf(request)
          const email = Schema.decodeUnknownExit(EmailAddress)(form["email"] ?? "")
          if (email._tag === "Failure") {
            return wantsJson(request)
              ? json(400, { error: "send email, an e-mail address" })
              : forgotPage(400, here, undefined, here.say("auth.enterEmail"))
          }
          const mailer = yield* Mailer
          const sentBase = yield* Links.SentLinkBase
          if (mailer.configured && sentBase !== "") {
            yield* Effect.forkDetach(
              Effect.gen(function* () {
                const reset = yield* invitations.requestReset(email.value)
                if (reset === undefined) return
                const link = `${sentBase.replace(/\/$/, "")}/app/reset/${reset.token}`
                // In the language of the browser that asked (the person asking is, hopefully, the account's).
                yield* mailer.send({
                  to: [reset.email],
                  subject: here.say("auth.resetMailSubject"),
                  text: here.say("auth.resetMailText", { email: reset.email, link })
                })
              }).pipe(Effect.catchCause((cause) => Effect.logWarning("qforms: a password reset e-mail failed", cause)))
            )
          }
          return wantsJson(request)
            ? json(202, { status: "accepted", message: english("auth.resetSent") })
            : forgotPage(202, here, here.say("auth.resetSent"))
        })
      )

      const resetPage = (status: number, here: Here, token: string, error?: string) =>
        page(status, {
          title: here.say("auth.newPasswordTitle"),
          prefix: here.prefix,
          language: here.language,
          nonce: nonce(),
          body: html`<main class="auth" id="main">
<h1>${here.say("auth.newPasswordHeading")}</h1>
${error === undefined ? null : html`<p class="error" role="alert" id="reset-error">${error}</p>`}
<form method="post" action="${here.prefix}/app/reset/${token}" class="stack">
<label for="new-password">${here.say("auth.newPassword")}</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="10" maxlength="200" required${
            error === undefined ? null : html` aria-describedby="reset-error"`
          }>
<button type="submit" class="primary">${here.say("auth.savePassword")}</button>
</form>
<p class="muted">${here.say("auth.signedOutElsewhere")}</p>
</main>`
        })

      const resetProblem = (
        request: HttpServerRequest.HttpServerRequest,
        here: Here,
        failure: { readonly _tag: "TokenUnknown" | "TokenGone" }
      ) =>
        tokenProblem(
          request,
          here,
          ErrorTable.statusOf(failure),
          failure._tag === "TokenUnknown" ? "auth.resetUnknown" : "auth.resetGone"
        )

      yield* router.add(
        "GET",
        "/app/reset/:token",
        Effect.gen(function* () {
          const { request, here } = yield* context
          const token = (yield* HttpRouter.params)["token"] ?? ""
          const checked = yield* Effect.result(invitations.checkReset(token))
          if (checked._tag === "Failure") {
            if (checked.failure._tag === "SqlError") return yield* Effect.die(checked.failure)
            return resetProblem(request, here, checked.failure)
          }
          return resetPage(200, here, token)
        })
      )

      yield* router.add(
        "POST",
        "/app/reset/:token",
        Effect.gen(function* () {
          const { prefix, request, secure, here } = yield* context
          if (!passwordSignIn) return json(404, { error: "password sign-in is off: the host signs users in" })
          if (!sameOrigin(request)) return json(403, { error: "a new password must be set on this site's own page" })
          const limited = yield* takeToken(request)
          if (limited !== undefined) return limited
          const token = (yield* HttpRouter.params)["token"] ?? ""
          const form = yield* formOf(request)
          const password = Schema.decodeUnknownExit(Passwords.NewPassword)(form["password"] ?? "")
          if (password._tag === "Failure") {
            return wantsJson(request)
              ? json(400, { error: english("auth.passwordLength") })
              : resetPage(400, here, token, here.say("auth.passwordLength"))
          }
          const done = yield* Effect.result(invitations.reset(token, yield* Passwords.hash(password.value)))
          if (done._tag === "Failure") {
            if (done.failure._tag === "SqlError") return yield* Effect.die(done.failure)
            return resetProblem(request, here, done.failure)
          }
          return wantsJson(request)
            ? clearSession(json(200, { status: "changed", message: english("auth.passwordChanged") }), prefix, secure)
            : clearSession(signInPage(200, here, { notice: here.say("auth.passwordChanged") }), prefix, secure)
        })
      )

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
            identity.via === "session"
              ? { ...identity.session, via: "session" as const }
              : { ...identity, csrfToken: "" }
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
          const limited = yield* takeOrRefuse(
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
          if (input._tag === "Failure")
            return json(400, { error: "send workspaceId, the id of one of your workspaces" })
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

      const asset = (text: string | null, name: string) =>
        text === null
          ? json(404, { error: `no asset ${name}` })
          : HttpServerResponse.text(text, {
              contentType: name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
              headers: { "x-content-type-options": "nosniff", "cache-control": "no-cache" }
            })

      yield* router.add(
        "GET",
        "/app/assets/vendor/:name",
        Effect.map(HttpRouter.params, (params) => {
          const name = params["name"] ?? ""
          return asset(readVendor(name), name)
        })
      )
      yield* router.add(
        "GET",
        "/app/assets/:name",
        Effect.map(HttpRouter.params, (params) => {
          const name = params["name"] ?? ""
          return asset(/^[a-z][a-z-]*\.(js|css)$/.test(name) ? readStatic(name) : null, name)
        })
      )

      const shell = Effect.gen(function* () {
        const { prefix, request, here } = yield* context
        const identity = yield* identify
        const path = request.url.split("?")[0]!
        if (identity === undefined) {
          return passwordSignIn
            ? redirect(`${prefix}/app/sign-in?next=${encodeURIComponent(path)}`)
            : signInPage(401, here, {})
        }
        const language = languageOf(identity, request)
        const say = AppLanguage.sayer(language)
        const pageNonce = nonce()
        const importMap = JSON.stringify({
          imports: {
            preact: `${prefix}/app/assets/vendor/preact.mjs`,
            "preact/hooks": `${prefix}/app/assets/vendor/hooks.mjs`,
            htm: `${prefix}/app/assets/vendor/htm.mjs`,
            "htm/preact": `${prefix}/app/assets/vendor/htm-preact.mjs`,
            "intl-messageformat": `${prefix}/app/assets/vendor/intl-messageformat.mjs`
          }
        }).replaceAll("<", "\\u003c")
        return page(200, {
          title: say("auth.appTitle"),
          prefix,
          language,
          nonce: pageNonce,
          head: html`<script type="importmap" nonce="${pageNonce}">${new Html(importMap)}</script>
<script type="application/json" id="qforms-shell">${new Html(shellDataOf(language))}</script>
<script type="application/json" id="qforms-words">${new Html(AppLanguage.scriptText(language))}</script>
<script type="module" src="${prefix}/app/assets/main.js"></script>`,
          body: html`<div id="root" data-base="${prefix}"><p class="loading">${say("shell.loading")}</p></div>
<noscript><p>${say("auth.needsJavaScript", { docs: `${prefix}/api/docs` })}</p></noscript>`
        })
      })
      yield* router.add("GET", "/app/*", shell)
    })
  )
