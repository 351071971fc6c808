/**
 * SqlPriority on PGlite's one connection: an urgent statement waits for the
 * transaction holding the connection and at most one queued ordinary
 * statement, not for the whole queue.
 */
import { Deferred, Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import * as PgliteClient from "../src/storage/PgliteClient.ts"
import { SqlPriority } from "../src/storage/SqlPriority.ts"

describe("SqlPriority on PGlite", () => {
  it("an urgent statement goes ahead of queued ordinary ones; all of them run", async () => {
    const order = await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const finished: Array<string> = []
        const holding = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        // A transaction holds the connection until released.
        const holder = yield* Effect.forkChild(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`select 1`
              yield* Deferred.succeed(holding, undefined)
              yield* Deferred.await(release)
            })
          )
        )
        yield* Deferred.await(holding)
        const statement = (name: string) =>
          Effect.andThen(
            sql`select ${name} as name`,
            Effect.sync(() => finished.push(name))
          )
        const ordinary = yield* Effect.forEach([1, 2, 3, 4, 5], (i) => Effect.forkChild(statement(`ordinary ${i}`)), {
          concurrency: 1
        })
        yield* Effect.sleep("20 millis")
        const urgent = yield* Effect.forkChild(Effect.provideService(statement("urgent"), SqlPriority, true))
        yield* Effect.sleep("20 millis")
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        yield* Fiber.join(urgent)
        yield* Effect.forEach(ordinary, Fiber.join, { discard: true })
        return finished
      }).pipe(Effect.provide(PgliteClient.layer()))
    )
    expect(order).toHaveLength(6)
    expect(order.indexOf("urgent")).toBeLessThanOrEqual(1)
    expect(order.filter((name) => name !== "urgent")).toEqual([
      "ordinary 1",
      "ordinary 2",
      "ordinary 3",
      "ordinary 4",
      "ordinary 5"
    ])
  }, 30_000)
})
