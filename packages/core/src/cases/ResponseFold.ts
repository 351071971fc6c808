/**
 * The fold: what is derived from responses (each form's answer tallies and
 * response count) is added up in the background, in batches, never in the
 * transaction of a submission (issue #51, migration 0051). A submission only
 * queues its response (`response_fold_queue`, its own row); the fold takes
 * up to a batch of queued responses in one statement (`qforms_fold`), adds
 * their keys and counts, and removes them from the queue. Reads stay exact
 * by adding the queued responses to what is folded (`forms/FormResponseCount.ts`).
 *
 * Every process folds (one loop per layer); two processes take different
 * responses (`skip locked`), so any number may run.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Database } from "../storage/index.ts"

/** The most responses one statement folds. */
export const batchSize = 2000

/** How long the loop waits when the queue was empty or short. */
const idle = Duration.millis(250)

/**
 * Folding responses into their forms' derived counts.
 *
 * @example
 * ```ts
 * const folded = yield* (yield* ResponseFold).foldAll // every queued response, batch by batch
 * ```
 */
export class ResponseFold extends Context.Service<
  ResponseFold,
  {
    /** Folds one batch (at most {@link batchSize}); answers how many responses it took. */
    readonly foldBatch: Effect.Effect<number, SqlError.SqlError>
    /** Folds batch after batch until the queue is empty (or held by others); answers how many. */
    readonly foldAll: Effect.Effect<number, SqlError.SqlError>
  }
>()("@qforms/core/ResponseFold") {
  static readonly layer = Layer.effect(
    ResponseFold,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const foldBatch = Effect.map(sql<{ readonly n: number }>`select qforms_fold(${batchSize}) as n`, (rows) =>
        Number(rows[0]?.n ?? 0)
      ).pipe(Effect.withSpan("ResponseFold.foldBatch"))
      const foldAll = Effect.gen(function* () {
        let total = 0
        while (true) {
          const n = yield* foldBatch
          total += n
          if (n < batchSize) return total
        }
      })
      return ResponseFold.of({ foldBatch, foldAll })
    })
  )
}

/**
 * Folds queued responses while the layer lives: a batch, at once the next
 * while batches come full, else a pause of a quarter second. A failed batch
 * (the database away, a lock held too long) stays queued for the next try.
 * `Qforms.make` runs it; include it when you build your own server from the layers.
 *
 * @example
 * ```ts
 * const Folding = ResponseFold.layerFolder.pipe(Layer.provide(ResponseFold.layer))
 * ```
 */
export const layerFolder: Layer.Layer<never, never, ResponseFold> = Layer.effectDiscard(
  Effect.gen(function* () {
    const fold = yield* ResponseFold
    const round = fold.foldBatch.pipe(
      Effect.flatMap((n) => (n < batchSize ? Effect.sleep(idle) : Effect.void)),
      // A member's change held a row the fold needed longer than its lock timeout: the fold gave way, as meant.
      Effect.catchIf(Database.isLockNotAvailable, () => Effect.sleep(idle)),
      Effect.catchCause((cause) =>
        Effect.andThen(Effect.logWarning("qforms: folding responses failed", cause), Effect.sleep(Duration.seconds(1)))
      )
    )
    yield* Effect.forkScoped(Effect.forever(round))
  })
)
