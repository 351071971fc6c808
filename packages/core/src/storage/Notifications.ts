/**
 * Database notifications (LISTEN/NOTIFY) as streams, on PostgreSQL and on
 * PGlite alike: a change NOTIFYs in its transaction, and every listening
 * process (or, on PGlite, this process) hears it once the change commits.
 */
import type * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import type * as SqlError from "effect/sql/SqlError"
import { PgliteDatabase } from "./PgliteClient.ts"

/**
 * Listening to a channel.
 *
 * @example
 * ```ts
 * const wakeups = (yield* Notifications).listen("qforms_outbox")
 * yield* Stream.runForEach(wakeups, () => Effect.log("deliveries are due"))
 * ```
 */
export class Notifications extends Context.Service<Notifications, {
  /** The payloads NOTIFYed on `channel` from now on; fails if the listening connection is lost. */
  readonly listen: (channel: string) => Stream.Stream<string, SqlError.SqlError>
}>()("@qforms/core/storage/Notifications") {
  /** On PostgreSQL: LISTEN on a connection of its own. */
  static readonly layerPg: Layer.Layer<Notifications, never, PgClient.PgClient> = Layer.unwrap(
    // Loaded here, not imported above: a process on PGlite never loads the PostgreSQL driver.
    Effect.map(Effect.promise(() => import("@effect/sql-pg/PgClient")), (PgClient) =>
      Layer.effect(
        Notifications,
        Effect.map(PgClient.PgClient, (pg) =>
          Notifications.of({
            listen: (channel) =>
              Stream.unwrap(Effect.map(pg.listen(channel), (queue) => Stream.fromQueue(queue))).pipe(
                Stream.map((notification) => notification.payload)
              )
          }))
      ))
  )

  /** On PGlite: the embedded database's own LISTEN. */
  static readonly layerPglite = Layer.effect(
    Notifications,
    Effect.map(PgliteDatabase, (db) =>
      Notifications.of({
        listen: (channel) =>
          Stream.callback<string>((queue) =>
            Effect.acquireRelease(
              Effect.promise(() => db.listen(channel, (payload) => Queue.offerUnsafe(queue, payload))),
              (unlisten) => Effect.promise(() => unlisten())
            )
          )
      }))
  )
}
