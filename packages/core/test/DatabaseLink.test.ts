import { describe, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Exit, Fiber, Layer, Option, Redacted } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { SqlClient } from "effect/sql"
import { databaseTargets, postgresUrl } from "@qforms/test-kit/Databases"
import { partitionProxy } from "@qforms/test-kit/PartitionProxy"
import * as Database from "../src/storage/Database.ts"
import * as DatabaseLink from "../src/storage/DatabaseLink.ts"

describe("DatabaseLink.addressOf", () => {
  it.each([
    ["postgres://u@db.example:6543/app", { host: "db.example", port: 6543 }],
    ["postgres://u@127.0.0.1/app", { host: "127.0.0.1", port: 5432 }],
    ["postgresql://u@[::1]:5433/app", { host: "::1", port: 5433 }],
    ["postgres:///app", { host: "localhost", port: 5432 }],
    ["postgres://u@%2Fvar%2Frun%2Fpostgresql/app", { path: "/var/run/postgresql/.s.PGSQL.5432" }],
    ["postgres://u@ignored/app?host=/tmp&port=5499", { path: "/tmp/.s.PGSQL.5499" }]
  ])("reads %s as the driver does", (url, address) => {
    expect(DatabaseLink.addressOf(url)).toEqual(address)
  })

  it.each(["not a url", "postgres://u@h:99999/app"])("refuses %j", (url) => {
    expect(DatabaseLink.addressOf(url)).toBeUndefined()
  })
})

const onPostgres = postgresUrl !== undefined && databaseTargets.some((target) => target.name === "postgres")

describe.skipIf(!onPostgres)("DatabaseLink on PostgreSQL, through a partition proxy", () => {
  /** qforms on a fresh schema, connected through a proxy that can go silent; the schema dropped afterwards. */
  const throughProxy = Effect.gen(function* () {
    const direct = new URL(postgresUrl!)
    const proxy = yield* Effect.acquireRelease(
      Effect.promise(() => partitionProxy(direct.hostname, Number(direct.port || 5432))),
      (proxy) => Effect.promise(() => proxy.close())
    )
    const through = new URL(postgresUrl!)
    through.hostname = "127.0.0.1"
    through.port = String(proxy.port)
    const schema = `qforms_link_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(`drop schema if exists "${schema}" cascade`)
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(postgresUrl!), maxConnections: 1 })), Effect.orDie)
    )
    const context = yield* Layer.build(Database.layerPg({ url: through.toString(), schema, maxConnections: 4 }))
    return { proxy, context }
  })

  const elapsed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      const exit = yield* Effect.exit(effect)
      return { exit, ms: (yield* Clock.currentTimeMillis) - started }
    })

  it.live(
    "a silent link fails the statements waiting on it and the readiness check within seconds, and comes back by itself",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { proxy, context } = yield* throughProxy
          const sql = SqlClient.SqlClient
          const select = Effect.flatMap(sql, (sql) => sql`select 1 as one`).pipe(Effect.provide(context))
          const ping = Database.ping.pipe(Effect.provide(context))
          expect(Exit.isSuccess(yield* Effect.exit(ping))).toBe(true)

          proxy.partition()
          // A statement sent into the silence: cut by the link's check, not left to TCP's quarter of an hour.
          const waiting = yield* Effect.forkChild(elapsed(Effect.flip(select)))
          const { exit, ms } = yield* Fiber.join(waiting)
          expect(ms).toBeLessThan(5_000)
          expect(Exit.isSuccess(exit) && Database.isUnreachable(exit.value)).toBe(true)
          // Once down, readiness and new statements are refused at once, naming why.
          const ready = yield* elapsed(ping)
          expect(ready.ms).toBeLessThan(1_000)
          expect(Exit.isFailure(ready.exit)).toBe(true)
          expect(String(ready.exit)).toContain("The database does not answer: no answer within 3 s")
          const refused = yield* elapsed(select)
          expect(refused.ms).toBeLessThan(1_000)
          expect(Exit.isFailure(refused.exit)).toBe(true)

          proxy.heal()
          // Back without a restart: the next check that is answered lets connections through again.
          const deadline = (yield* Clock.currentTimeMillis) + 10_000
          while (Exit.isFailure(yield* Effect.exit(ping))) {
            expect(yield* Clock.currentTimeMillis).toBeLessThan(deadline)
            yield* Effect.sleep("100 millis")
          }
          expect(yield* select).toEqual([{ one: 1 }])
        })
      ),
    30_000
  )

  it.effect("keeps to real seconds: a test moving its TestClock by minutes does not take the link as down", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { context } = yield* throughProxy
        const link = Effect.serviceOption(DatabaseLink.DatabaseLink).pipe(Effect.provide(context))
        for (let i = 0; i < 5; i++) {
          yield* TestClock.adjust("1 minute")
          // A real moment for the check's rounds to run (they sleep a real second between them).
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 300)))
        }
        expect(Option.map(yield* link, (link) => link.state())).toEqual(Option.some({ reachable: true }))
        expect(Exit.isSuccess(yield* Effect.exit(Database.ping.pipe(Effect.provide(context))))).toBe(true)
      })
    )
  )

  it.live(
    "an error the server sends cuts nothing: the check's own session ended by an administrator leaves the pool at work",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { proxy, context } = yield* throughProxy
          const admin = PgClient.layer({ url: Redacted.make(postgresUrl!), maxConnections: 1 })
          const sessionsOfProxy = Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ readonly pid: number; readonly port: number; readonly app: string }>`
              select pid, client_port as port, application_name as app from pg_stat_activity
              where client_addr = '127.0.0.1' and client_port is not null`
            const ours = proxy.upstreamPorts()
            return rows.filter((row) => ours.has(row.port))
          }).pipe(Effect.provide(admin), Effect.orDie)

          yield* SqlClient.SqlClient.pipe(
            Effect.flatMap((sql) =>
              sql.withTransaction(
                Effect.gen(function* () {
                  yield* sql`select 1`
                  const check = (yield* sessionsOfProxy).find((row) => row.app === "qforms link check")
                  expect(check).toBeDefined()
                  yield* Effect.flatMap(
                    SqlClient.SqlClient,
                    (admin) => admin`select pg_terminate_backend(${check!.pid})`
                  ).pipe(Effect.provide(admin), Effect.orDie)
                  // The check asks again on a new session of its own: wait for it, then the transaction goes on.
                  const deadline = (yield* Clock.currentTimeMillis) + 10_000
                  for (;;) {
                    const again = (yield* sessionsOfProxy).find(
                      (row) => row.app === "qforms link check" && row.pid !== check!.pid
                    )
                    if (again !== undefined) break
                    expect(yield* Clock.currentTimeMillis).toBeLessThan(deadline)
                    yield* Effect.sleep("50 millis")
                  }
                  // Had the link been taken as down, it would have been before the check's new session.
                  const link = yield* Effect.serviceOption(DatabaseLink.DatabaseLink).pipe(Effect.provide(context))
                  expect(Option.map(link, (link) => link.state())).toEqual(Option.some({ reachable: true }))
                  expect(yield* sql`select 2 as two`).toEqual([{ two: 2 }])
                })
              )
            ),
            Effect.provide(context)
          )
          expect(Exit.isSuccess(yield* Effect.exit(Database.ping.pipe(Effect.provide(context))))).toBe(true)
        })
      ),
    30_000
  )
})
