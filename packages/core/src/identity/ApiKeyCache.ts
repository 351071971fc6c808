/**
 * ApiKeyCache: the actors of the API keys this process has checked, kept in
 * memory by the key's hash, so a request with a known key costs no database
 * round trip. Only valid, unrevoked keys are kept.
 *
 * A workspace's keys are dropped when its credentials change: at once for a
 * change this process made ({@link ApiKeyCache.dropWorkspace}: a key revoked,
 * a member removed or given another role), and in every process when the
 * change's `credentials:<workspaceId>` notice arrives, which the database's
 * triggers send in the change's own transaction whatever path made it
 * (migration 0016: keys revoked or deleted, members removed or given another
 * role; migration 0020: a member's name, which an actor carries). Nothing is
 * kept while the {@link ChangeFeed} is not live, and a lookup that started
 * before a drop is not kept ({@link ApiKeyCache.stamp}).
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ChangeFeedModule as ChangeFeed, credentialsNotice } from "../storage/index.ts"
import type { Actors } from "../kernel/index.ts"

/** How many keys a process keeps; the least recently used goes first. */
export const defaultCapacity = 1000

/**
 * The checked keys of this process.
 *
 * @example
 * ```ts
 * const cache = yield* ApiKeyCache
 * const known = cache.get(digest)
 * if (known !== undefined) return known
 * const stamp = cache.stamp()
 * const actor = yield* lookUp(digest)
 * cache.put(stamp, digest, actor)
 * ```
 */
export class ApiKeyCache extends Context.Service<
  ApiKeyCache,
  {
    /** The actor of the key with this hash, if kept. */
    readonly get: (hash: string) => Actors.Actor | undefined
    /** Taken before a lookup in the database: {@link put} keeps the lookup only if nothing was dropped since. */
    readonly stamp: () => number
    readonly put: (stamp: number, hash: string, actor: Actors.Actor) => void
    /** Drops a workspace's keys at once: a change to its credentials this process has just made. */
    readonly dropWorkspace: (workspaceId: number) => void
  }
>()("@qforms/core/ApiKeyCache") {
  /** The cache, following the changes channel while the layer lasts. */
  static readonly layer = Layer.effect(
    ApiKeyCache,
    Effect.gen(function* () {
      const kept = yield* ChangeFeed.keep<Actors.Actor>("API key cache", {
        capacity: defaultCapacity,
        onNotice: (notice, kept) => {
          if (!notice.startsWith(credentialsNotice)) return // an event or a changed form
          const workspaceId = Number(notice.slice(credentialsNotice.length))
          if (Number.isInteger(workspaceId)) kept.dropWhere((actor) => actor.workspaceId === workspaceId)
          else kept.forget() // a notice it cannot read: forget everything rather than guess
        }
      })
      return ApiKeyCache.of({
        get: kept.get,
        stamp: kept.stamp,
        put: (stamp, hash, actor) => void kept.put(stamp, hash, actor),
        dropWorkspace: (workspaceId) => kept.dropWhere((actor) => actor.workspaceId === workspaceId)
      })
    })
  )
}
