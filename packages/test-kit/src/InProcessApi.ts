/**
 * The JSON API of an in-process qforms (`qforms.handler`, no socket), and a
 * workspace with an owner key and a viewer key to call it with.
 */
import * as Effect from "effect/Effect"
import { ApiKeys, Members, Qforms, Workspaces } from "@qforms/core"
import type { DatabaseTarget } from "./Databases.ts"

export type Api = (
  method: string,
  path: string,
  body?: unknown
) => Promise<{ readonly status: number; readonly json: any }>

/** Calls `/api{path}` of `qforms` with `key`, under the origin `http://qforms.test`. */
export const apiOf =
  (qforms: Qforms.Qforms, key: string): Api =>
  async (method, path, body) => {
    const response = await qforms.handler(
      new Request(`http://qforms.test/api${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    )
    const text = await response.text()
    return { status: response.status, json: text === "" ? undefined : JSON.parse(text) }
  }

/** A workspace `name` with its id, an owner key and a viewer key. */
export const workspace = (qforms: Qforms.Qforms, name: string) =>
  qforms.run(
    Effect.gen(function* () {
      const { ownerAccountId, workspace } = yield* (yield* Workspaces.Workspaces).create({
        name,
        ownerEmail: `${name}@example.com`
      })
      const keys = yield* ApiKeys.ApiKeys
      const owner = (yield* keys.create(workspace.id, { accountId: ownerAccountId })).key
      const viewer = yield* (yield* Members.Members).add(workspace.id, {
        email: `${name}-viewer@example.com`,
        role: "viewer"
      })
      return {
        id: workspace.id,
        owner,
        viewer: (yield* keys.create(workspace.id, { accountId: viewer.accountId })).key
      }
    }).pipe(Effect.orDie)
  )

/**
 * An in-process qforms on `target` (rate limits out of the way) with workspace `name`, called as its owner and
 * its viewer, and another workspace's owner (`other`, for the not-found checks); `cleanup` drops the database
 * once `qforms.dispose()` has run.
 *
 * @example
 * ```ts
 * ;({ qforms, cleanup, owner, viewer, other, workspaceId } = await twoWorkspaces(target, "inbox"))
 * ```
 */
export const twoWorkspaces = async (target: DatabaseTarget, name: string) => {
  const { database, cleanup } = target.options()
  const qforms = await Qforms.make({
    database,
    appUrl: "https://forms.example.com",
    rateLimit: { requestsPerSecond: 10_000, burst: 10_000 }
  })
  const mine = await workspace(qforms, name)
  const other = await workspace(qforms, `${name}-other`)
  return {
    qforms,
    cleanup,
    workspaceId: mine.id,
    owner: apiOf(qforms, mine.owner),
    viewer: apiOf(qforms, mine.viewer),
    other: apiOf(qforms, other.owner)
  }
}
