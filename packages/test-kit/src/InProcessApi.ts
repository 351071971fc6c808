/**
 * The JSON API of an in-process qforms (`qforms.handler`, no socket), and a
 * workspace with an owner key and a viewer key to call it with.
 */
import * as Effect from "effect/Effect"
import { ApiKeys, Members, type Qforms, Workspaces } from "@qforms/core"

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

/** A workspace `name` with an owner key and a viewer key. */
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
      return { owner, viewer: (yield* keys.create(workspace.id, { accountId: viewer.accountId })).key }
    }).pipe(Effect.orDie)
  )
