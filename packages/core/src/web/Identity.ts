/**
 * The host identity bridge: an embedding application maps its own signed-in
 * user to a qforms member, so its users need no qforms API key. API keys keep
 * working beside it.
 */
import * as Context from "effect/Context"

/** The request as the bridge sees it: the host's own request object and the headers. */
export interface HostRequest {
  /**
   * The host's request: Node's `IncomingMessage` on the Node path (Express
   * attaches `req.user` there), the Web `Request` otherwise, or whatever the
   * adapter passed along.
   */
  readonly source: unknown
  readonly headers: Readonly<Record<string, string | undefined>>
}

/** Who the host says is signed in: a member of a qforms workspace. */
export interface HostIdentity {
  readonly workspaceId: number
  readonly accountId: number
}

/**
 * Maps a request to the signed-in member, or `null`/`undefined` for nobody
 * (the request then needs an API key). Asked when a request carries no API
 * key: no `Authorization` header, or a bearer token that is not a qforms key,
 * such as an OAuth access token the host's identity provider issued to an
 * assistant (validate it here: signature or introspection, audience, expiry).
 *
 * @example
 * ```ts
 * const resolveActor: ResolveActor = async ({ source }) => {
 *   const user = (source as { user?: { qformsAccountId: number } }).user
 *   return user ? { workspaceId: 1, accountId: user.qformsAccountId } : null
 * }
 * ```
 */
export type ResolveActor = (
  request: HostRequest
) => Promise<HostIdentity | null | undefined> | HostIdentity | null | undefined

/** The bridge in use, if any. */
export const IdentityBridge = Context.Reference<ResolveActor | undefined>("@qforms/core/http/IdentityBridge", {
  defaultValue: () => undefined
})
