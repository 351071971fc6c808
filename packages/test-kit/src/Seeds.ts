/**
 * Records the tests seed through the services (what the API cannot make
 * itself: workspaces and their keys).
 */
import { ApiKeys, Members, Workspaces } from "@qforms/core"
import { Effect } from "effect"

/**
 * A new workspace with its owner, and an API key of the owner: answers the key.
 *
 * @example
 * ```ts
 * const key = await qforms.run(ownerKey({ name: "Host" }))
 * ```
 */
export const ownerKey = (options: { readonly name?: string; readonly ownerEmail?: string } = {}) =>
  Effect.gen(function* () {
    const { workspace, ownerAccountId } = yield* (yield* Workspaces.Workspaces).create({
      name: options.name ?? "Host",
      ownerEmail: options.ownerEmail ?? "o@example.com"
    })
    return (yield* (yield* ApiKeys.ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
  })

/** The roles of a workspace, from the most to the least powerful. */
export const roles = ["owner", "admin", "member", "viewer"] as const
export type Role = (typeof roles)[number]

/**
 * A new workspace with a member of every role and an API key of each, for
 * authorization matrices: answers the workspace's id and the keys by role.
 *
 * @example
 * ```ts
 * const a = await server.run(keysByRole("ws1"))
 * await api(server, a.keys.viewer, "GET", "/forms")
 * ```
 */
export const keysByRole = (name: string) =>
  Effect.gen(function* () {
    const { workspace, ownerAccountId } = yield* (yield* Workspaces.Workspaces).create({
      name,
      ownerEmail: `${name}-owner@example.com`
    })
    const members = yield* Members.Members
    const keys = yield* ApiKeys.ApiKeys
    const byRole: Partial<Record<Role, string>> = {}
    for (const role of roles) {
      const accountId =
        role === "owner"
          ? ownerAccountId
          : (yield* members.add(workspace.id, { email: `${name}-${role}@example.com`, role })).accountId
      byRole[role] = (yield* keys.create(workspace.id, { accountId })).key
    }
    return { workspaceId: workspace.id, keys: byRole as Record<Role, string> }
  }).pipe(Effect.orDie)
