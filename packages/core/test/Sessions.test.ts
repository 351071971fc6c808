/**
 * Sessions on every test database: the lockout counts concurrent guesses
 * atomically and before checking them (of 50 at once, only the lockout's
 * maximum is checked), and an address without an account locks exactly like one with.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as BlobStore from "../src/files/BlobStore.ts"
import { maxFailedSignIns, Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Services from "../src/Services.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"

const password = "a long enough password"

for (const target of databaseTargets) {
  describe(`sessions on ${target.name}`, () => {
    it.layer(Services.layer.pipe(Layer.provideMerge(target.layer()), Layer.provideMerge(BlobStore.layerTemporary)), {
      excludeTestServices: true
    })((it) => {
      it.effect(
        "counts 50 concurrent guesses before checking them: only the lockout's maximum is checked, the rest locked",
        () =>
          Effect.gen(function* () {
            yield* (yield* Workspaces).create({ name: "Race", ownerEmail: "race@example.com" })
            const sessions = yield* Sessions
            yield* sessions.setPassword("race@example.com", password)
            const answers = yield* Effect.all(
              Array.from({ length: 50 }, () =>
                Effect.flip(sessions.signIn({ email: "race@example.com", password: "wrong password" }))
              ),
              { concurrency: "unbounded" }
            )
            const refused = answers.filter((e) => e._tag === "SignInRefused").length
            const locked = answers.filter((e) => e._tag === "AccountLocked").length
            expect(refused + locked).toBe(50)
            // Each guess is counted before its password is checked: a burst gets the lockout's few checks, no more.
            expect(refused).toBe(maxFailedSignIns)
            // The right password now meets the lockout: the attempts were not lost to a read-modify-write race.
            const after = yield* Effect.flip(sessions.signIn({ email: "race@example.com", password }))
            expect(after._tag).toBe("AccountLocked")
            // Every attempt was counted, none lost.
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ readonly failures: number }>`select failures from sign_in_failures`
            assert.strictEqual(rows.length, 1)
            expect(rows[0]!.failures).toBe(51)
          })
      )

      it.effect("locks an address without an account exactly like one with: the same error, message and wait", () =>
        Effect.gen(function* () {
          yield* (yield* Workspaces).create({ name: "Known", ownerEmail: "known@example.com" })
          const sessions = yield* Sessions
          yield* sessions.setPassword("known@example.com", password)
          const attempts = (email: string) =>
            Effect.forEach(Array.from({ length: maxFailedSignIns + 1 }), () =>
              Effect.flip(sessions.signIn({ email, password: "wrong password" }))
            )
          const known = yield* attempts("known@example.com")
          const unknown = yield* attempts("nobody-here@example.com")
          expect(unknown.map((e) => e._tag)).toEqual(known.map((e) => e._tag))
          expect(unknown.map((e) => e.message)).toEqual(known.map((e) => e.message))
          expect(known.at(-1)!._tag).toBe("AccountLocked")
          const wait = (e: (typeof known)[number]) =>
            e._tag === "AccountLocked" ? Math.round(e.retryAfterSeconds / 60) : -1
          expect(wait(unknown.at(-1)!)).toBe(wait(known.at(-1)!))
        })
      )
    })
  })
}
