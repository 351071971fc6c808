/**
 * The application at `{app_url}/app`: sign-in (standalone accounts) or the
 * host's identity bridge (embedded), then a single-page application (Preact +
 * htm as ES modules served from this package, no build step) that works
 * through the same JSON API as everyone else (`/api/...`, authenticated by
 * the session cookie plus a CSRF header on writes).
 *
 * The routes, one family per file in `routes/` (each file's header lists its
 * routes), sharing what `AppContext.ts` makes once:
 * - `routes/SignIn.ts`: the sign-in page and form, the workspace chosen at sign-in.
 * - `routes/SignInLinks.ts`: one-time sign-in links (the first start's, and those an owner or admin issued).
 * - `routes/Invitations.ts`: an invitation's page and its acceptance.
 * - `routes/PasswordReset.ts`: asking for a reset link, and setting a new password with it.
 * - `routes/Session.ts`: sign-out, the session, the account's language and password, switching workspace.
 * - `routes/Assets.ts`: the scripts and style sheet, and the third-party modules.
 * - `routes/Shell.ts`: the single-page application's shell (last: every other path under `/app`).
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type { RateLimit } from "../web/index.ts"
import * as AppContext from "./AppContext.ts"
import * as Assets from "./routes/Assets.ts"
import * as Invitations from "./routes/Invitations.ts"
import * as PasswordReset from "./routes/PasswordReset.ts"
import * as Session from "./routes/Session.ts"
import * as Shell from "./routes/Shell.ts"
import * as SignIn from "./routes/SignIn.ts"
import * as SignInLinks from "./routes/SignInLinks.ts"

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

/**
 * The application's routes. Mounted by `Http.layer` when its `app` option is
 * set (the standalone server sets it; embedding hosts opt in).
 */
export const layer = (options: AppOptions & { readonly appUrl?: string | undefined }) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const app = yield* AppContext.make({
        passwordSignIn: options.passwordSignIn !== false,
        signInRateLimit: options.signInRateLimit ?? defaultSignInRateLimit,
        trustedProxyHops: options.trustedProxyHops ?? 0,
        appUrl: options.appUrl
      })
      yield* SignIn.add(router, app)
      yield* SignInLinks.add(router, app)
      yield* Invitations.add(router, app)
      yield* PasswordReset.add(router, app)
      yield* Session.add(router, app)
      yield* Assets.add(router)
      yield* Shell.add(router, app)
    })
  )
