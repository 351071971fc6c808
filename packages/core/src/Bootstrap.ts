/**
 * First start: on an empty database, a workspace "Default" with an owner and
 * one API key, so a fresh install can be used at once. Nothing is created
 * when any workspace exists.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as SqlClient from "effect/sql/SqlClient"
import { ApiKeys, Sessions, Workspaces } from "./identity/index.ts"

/** What the first start created: the workspace, its owner, and the key (shown this once). */
export interface Bootstrapped {
  readonly workspaceId: number
  readonly ownerAccountId: number
  readonly ownerEmail: string
  readonly key: string
  /** A one-time sign-in link token for the owner: `{appUrl}/app/sign-in/link/{token}` (valid 7 days). */
  readonly signInToken: string
}

/**
 * Creates the default workspace, owner and key when the database has no
 * workspace yet; `None` otherwise. Safe when several processes start at once
 * (an advisory lock serialises them).
 *
 * @example
 * ```ts
 * const first = yield* Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@localhost" })
 * if (Option.isSome(first)) console.log(`API key: ${first.value.key}`)
 * ```
 */
export const ensureDefaultWorkspace = Effect.fn("Bootstrap.ensureDefaultWorkspace")(function* (options: {
  readonly ownerEmail: string
  readonly ownerName?: string | undefined
}) {
  const sql = yield* SqlClient.SqlClient
  const workspaces = yield* Workspaces
  const keys = yield* ApiKeys
  const sessions = yield* Sessions
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.qforms.bootstrap'))`
      const existing = yield* sql`select 1 from workspaces limit 1`
      if (existing.length > 0) return Option.none<Bootstrapped>()
      const { workspace, ownerAccountId } = yield* workspaces.create({
        name: "Default",
        ownerEmail: options.ownerEmail,
        ownerName: options.ownerName ?? "Owner"
      })
      const { key } = yield* Effect.orDie(keys.create(workspace.id, { accountId: ownerAccountId, name: "First key" }))
      const signInToken = yield* sessions.createSignInLink(workspace.id, ownerAccountId)
      return Option.some({
        workspaceId: workspace.id,
        ownerAccountId,
        ownerEmail: options.ownerEmail,
        key,
        signInToken
      })
    })
  )
})
