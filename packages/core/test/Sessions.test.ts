/**
 * Sessions on every test database: the lockout counts concurrent guesses
 * atomically and before checking them (of 50 at once, only the lockout's
 * maximum is checked), and an address without an account locks exactly like one with.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as BlobStore from "../src/files/BlobStore.ts"
import { AuditOrigin } from "../src/audit/AuditLog.ts"
import { maxFailedSignIns, maxFailedSignInsPerAccount, Sessions } from "../src/identity/Sessions.ts"
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
            // Every attempt was counted, none lost: for this client address and for the account.
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ readonly failures: number }>`select failures from sign_in_failures`
            assert.strictEqual(rows.length, 2)
            expect(rows.map((row) => row.failures)).toEqual([51, 51])
          })
      )

      it.effect(
        "locks out the client address that guesses, not the owner; guessing from many addresses locks the account; a reset lifts it all (#52)",
        () =>
          Effect.gen(function* () {
            yield* (yield* Workspaces).create({ name: "Pairs", ownerEmail: "pairs@example.com" })
            const sessions = yield* Sessions
            yield* sessions.setPassword("pairs@example.com", password)
            const from =
              (address: string) =>
              <A, E, R>(effect: Effect.Effect<A, E, R>) =>
                Effect.provideService(effect, AuditOrigin, { address, surface: "app" })
            const guess = (address: string) =>
              Effect.flip(sessions.signIn({ email: "pairs@example.com", password: "wrong password" })).pipe(
                from(address)
              )
            const signIn = (address: string) =>
              sessions.signIn({ email: "pairs@example.com", password }).pipe(from(address), Effect.flip, Effect.flip)
            // An attacker's address runs into its own lockout...
            const attacker = yield* Effect.forEach(Array.from({ length: maxFailedSignIns + 1 }), () =>
              guess("203.0.113.9")
            )
            expect(attacker.at(-1)!._tag).toBe("AccountLocked")
            // ...while the owner, from their own address, still signs in.
            expect((yield* signIn("198.51.100.7"))._tag).toBe("Opened")
            // Guessing spread over many addresses meets the account's own limit: then every address is locked.
            for (let i = 0; i < maxFailedSignInsPerAccount; i++) yield* guess(`192.0.2.${i}`)
            const owner = yield* Effect.flip(sessions.signIn({ email: "pairs@example.com", password })).pipe(
              from("198.51.100.7")
            )
            expect(owner._tag).toBe("AccountLocked")
            // A password reset (here the CLI's) lifts every lock: the account's and each address's.
            yield* sessions.setPassword("pairs@example.com", password)
            expect((yield* signIn("198.51.100.7"))._tag).toBe("Opened")
            expect((yield* signIn("203.0.113.9"))._tag).toBe("Opened")
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
