/**
 * ChangeFeed: what an in-memory cache needs to stay correct across processes.
 * It follows the changes channel ({@link eventsChannel}), on which the
 * database's triggers NOTIFY, in the change's own transaction, that a form
 * (`form:<workspaceId>:<formId>`, migration 0019) or a workspace's credentials
 * (`credentials:<workspaceId>`, migrations 0016 and 0020) changed, whatever
 * path made the change.
 *
 * A cache may keep what it reads only while the feed is live: from the moment
 * this process has heard its own notice on the channel (then no later change
 * can be missed) until the listening connection is lost (then the cache is
 * told to forget everything, and it reads from the database until the feed is
 * live again, after a second). Without `Notifications` (a bare `SqlClient`)
 * the feed is never live. {@link keep} is that discipline as a store: the
 * form cache and the API key cache are built on it.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import { eventsChannel, Notifications, notifyChannel } from "./Notifications.ts"

/** A followed feed: whether a cache may keep what it reads now. */
export interface ChangeFeed {
  readonly live: () => boolean
}

/**
 * Follows the changes channel while the calling scope lasts, calling
 * `onNotice` with every notice in commit order (events, credentials, forms:
 * a follower reads the ones it knows) and `onStop` when the feed stops being
 * live (everything kept must go).
 *
 * @example
 * ```ts
 * const feed = yield* ChangeFeed.follow("form cache", {
 *   onNotice: (notice) => { if (notice.startsWith("form:")) dropForm(notice) },
 *   onStop: () => entries.clear()
 * })
 * if (feed.live()) entries.set(key, value)
 * ```
 */
export const follow = (
  name: string,
  handlers: { readonly onNotice: (notice: string) => void; readonly onStop: () => void }
): Effect.Effect<ChangeFeed, never, Scope.Scope | SqlClient.SqlClient> =>
  Effect.gen(function* () {
    let live = false
    const feed: ChangeFeed = { live: () => live }
    const notifications = yield* Effect.serviceOption(Notifications)
    if (Option.isNone(notifications)) return feed
    const sql = yield* SqlClient.SqlClient
    const ready = `ready:${randomBytes(12).toString("base64url")}`
    const stop = () => {
      live = false
      handlers.onStop()
    }
    const onNotice = (notice: string) =>
      Effect.sync(() => {
        if (notice === ready) live = true
        else handlers.onNotice(notice)
      })
    const announce = Effect.gen(function* () {
      while (!live) {
        yield* Effect.ignore(sql`select pg_notify(${notifyChannel(sql, eventsChannel)}, ${ready})`)
        // A notice sent before the LISTEN took effect is lost: send again until one is heard.
        yield* Effect.sleep("20 millis")
      }
    })
    const session = Effect.scoped(
      Effect.gen(function* () {
        yield* Effect.forkScoped(announce)
        yield* notifications.value.listen(eventsChannel).pipe(Stream.runForEach(onNotice))
      })
    ).pipe(
      Effect.ensuring(Effect.sync(stop)),
      Effect.catchCause((cause) =>
        Effect.logWarning(`${name}: not listening to the changes channel; reading from the database`, cause)
      )
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(session, Effect.sleep("1 second"))))
    return feed
  })

/** What a cache keeps while its feed is live, least recently used first out. */
export interface Kept<V> {
  /** The value of `key`, if kept and the feed is live (it becomes the most recently used). */
  readonly get: (key: string) => V | undefined
  /** Taken before a read from the database: {@link put} keeps the read only if nothing was dropped since. */
  readonly stamp: () => number
  /** Keeps a read (answers whether it was kept): only while the feed is live and nothing was dropped since `stamp`. */
  readonly put: (stamp: number, key: string, value: V) => boolean
  /** Drops `key`: a change to it (reads begun before are not kept). */
  readonly drop: (key: string) => void
  /** Drops every value `changed` holds for (reads begun before are not kept). */
  readonly dropWhere: (changed: (value: V) => boolean) => void
  /** Drops everything (reads begun before are not kept). */
  readonly forget: () => void
}

/**
 * A cache's store on a followed feed: at most `capacity` values, kept only
 * while the feed is live; `onNotice` reads each notice and drops what it
 * changed; everything goes when the feed stops. `onRemove` hears every value
 * that leaves (dropped, replaced, pushed out), for an index the cache keeps
 * beside it.
 *
 * @example
 * ```ts
 * const kept = yield* ChangeFeed.keep<Form>("form cache", {
 *   capacity: 500,
 *   onNotice: (notice, kept) => { if (notice.startsWith("form:")) kept.drop(notice.slice(5)) }
 * })
 * const stamp = kept.stamp()
 * kept.put(stamp, key, yield* readForm(key))
 * ```
 */
export const keep = <V>(
  name: string,
  options: {
    readonly capacity: number
    readonly onNotice: (notice: string, kept: Kept<V>) => void
    readonly onRemove?: (key: string, value: V) => void
  }
): Effect.Effect<Kept<V>, never, Scope.Scope | SqlClient.SqlClient> =>
  Effect.gen(function* () {
    // A Map iterates in insertion order: re-inserting an entry on each use keeps the least recent first.
    const entries = new Map<string, V>()
    let generation = 0
    const remove = (key: string) => {
      const value = entries.get(key)
      if (value === undefined) return
      entries.delete(key)
      options.onRemove?.(key, value)
    }
    const kept: Kept<V> = {
      get: (key) => {
        if (!feed.live()) return undefined
        const value = entries.get(key)
        if (value === undefined) return undefined
        entries.delete(key)
        entries.set(key, value)
        return value
      },
      stamp: () => generation,
      put: (stamp, key, value) => {
        if (!feed.live() || stamp !== generation) return false
        remove(key)
        entries.set(key, value)
        while (entries.size > options.capacity) remove(entries.keys().next().value!)
        return true
      },
      drop: (key) => {
        generation++
        remove(key)
      },
      dropWhere: (changed) => {
        generation++
        for (const [key, value] of entries) if (changed(value)) remove(key)
      },
      forget: () => {
        generation++
        for (const key of [...entries.keys()]) remove(key)
      }
    }
    const feed = yield* follow(name, { onNotice: (notice) => options.onNotice(notice, kept), onStop: kept.forget })
    return kept
  })
