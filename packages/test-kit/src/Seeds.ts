/**
 * Records the tests seed through the services (what the API cannot make
 * itself: workspaces and their keys).
 */
import { ApiKeys, Workspaces } from "@qforms/core"
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
