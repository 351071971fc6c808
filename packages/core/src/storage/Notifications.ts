/**
 * Database notifications (LISTEN/NOTIFY) as streams, on PostgreSQL and on
 * PGlite alike: a change NOTIFYs in its transaction, and every listening
 * process (or, on PGlite, this process) hears it once the change commits.
 */
import { createHash } from "node:crypto"
import type * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { PgliteDatabase } from "./PgliteClient.ts"

/** PostgreSQL's longest channel name (an identifier: NAMEDATALEN - 1 bytes). */
const maxChannelLength = 63

/**
 * The name of channel `base` for the qforms tables in `schema`: `<base>_<schema>`,
 * or `<base>_<md5 of schema>` when that would be longer than a channel name
 * may be. Deployments sharing one database under different schemas so never
 * hear each other's notifications (an event stream would otherwise fetch its
 * own event with the other deployment's sequence number). Must name the same
 * channel as {@link notifyChannel} does in SQL.
 */
export const channelName = (base: string, schema: string): string => {
  const named = `${base}_${schema}`
  return named.length <= maxChannelLength ? named : `${base}_${createHash("md5").update(schema).digest("hex")}`
}

/**
 * The channel of committed changes, which live event streams and the form
 * cache listen on: an event (`<workspaceId>:<seq>`, written with it), changed
 * credentials (`credentials:<workspaceId>`, migration 0016) and a changed form
 * (`form:<workspaceId>:<formId>`, migration 0019). One channel, so a process
 * holds one connection for all of them.
 */
export const eventsChannel = "qforms_events"

/** The notice on {@link eventsChannel} when a workspace's credentials changed: `credentials:<workspaceId>`. */
export const credentialsNotice = "credentials:"

/**
 * The channel `base` of the current schema, as an SQL expression for
 * `pg_notify` ({@link channelName} computed by the database, from
 * `current_schema()`, which the search path sets to qforms' schema).
 *
 * @example
 * ```ts
 * yield* sql`select pg_notify(${notifyChannel(sql, outboxChannel)}, '')`
 * ```
 */
export const notifyChannel = (sql: SqlClient.SqlClient, base: string): Statement.Fragment =>
  sql`(case when length(${base}::text || '_' || current_schema()) <= ${maxChannelLength}
    then ${base}::text || '_' || current_schema() else ${base}::text || '_' || md5(current_schema()) end)`

/**
 * Listening to a channel.
 *
 * @example
 * ```ts
 * const wakeups = (yield* Notifications).listen("qforms_outbox")
 * yield* Stream.runForEach(wakeups, () => Effect.log("deliveries are due"))
 * ```
 */
export class Notifications extends Context.Service<
  Notifications,
  {
    /**
     * The payloads NOTIFYed on `channel` of this deployment's schema (see
     * {@link channelName}) from now on; fails if the listening connection is lost.
     */
    readonly listen: (channel: string) => Stream.Stream<string, SqlError.SqlError>
  }
>()("@qforms/core/storage/Notifications") {
  /**
   * On PostgreSQL: LISTEN on the channels of `schema`, one connection per
   * channel whatever the number of listeners (each LISTEN holds a connection
   * of the pool; the listeners of a channel share it, and it is let go when
   * the last one stops).
   */
  static readonly layerPg = (schema: string): Layer.Layer<Notifications, never, PgClient.PgClient> =>
    Layer.unwrap(
      // Loaded here, not imported above: a process on PGlite never loads the PostgreSQL driver.
      Effect.map(
        Effect.promise(() => import("@effect/sql-pg/PgClient")),
        (PgClient) =>
          Layer.effect(
            Notifications,
            Effect.gen(function* () {
              const pg = yield* PgClient.PgClient
              const scope = yield* Effect.scope
              const shared = new Map<string, Stream.Stream<string, SqlError.SqlError>>()
              const listenOnce = (channel: string) =>
                Stream.unwrap(
                  Effect.map(pg.listen(channelName(channel, schema)), (queue) => Stream.fromQueue(queue))
                ).pipe(Stream.map((notification) => notification.payload))
              return Notifications.of({
                listen: (channel) =>
                  Stream.unwrap(
                    Effect.gen(function* () {
                      const known = shared.get(channel)
                      if (known !== undefined) return known
                      const stream = yield* Scope.provide(
                        Stream.share(listenOnce(channel), { capacity: "unbounded" }),
                        scope
                      )
                      shared.set(channel, stream)
                      return stream
                    })
                  )
              })
            })
          )
      )
    )

  /** On PGlite: the embedded database's own LISTEN, on the channels of `schema`. */
  static readonly layerPglite = (schema: string): Layer.Layer<Notifications, never, PgliteDatabase> =>
    Layer.effect(
      Notifications,
      Effect.map(PgliteDatabase, (db) =>
        Notifications.of({
          listen: (channel) =>
            Stream.callback<string>((queue) =>
              Effect.acquireRelease(
                Effect.promise(() =>
                  db.listen(channelName(channel, schema), (payload) => Queue.offerUnsafe(queue, payload))
                ),
                (unlisten) => Effect.promise(() => unlisten())
              )
            )
        })
      )
    )
}
