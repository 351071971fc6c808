/**
 * Signing secrets: random keys kept in the database (`signing_secrets`), one
 * per purpose, so every process on that database signs and verifies alike
 * and tokens survive restarts. The first process that needs a key makes it;
 * the others (and later starts) read the same row.
 */
import { createSecretKey, type KeyObject, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"

/**
 * The key named `name`, made on first use and cached for the life of the
 * returned effect's owner, as a `KeyObject`: an HMAC keyed with one is about
 * five times cheaper than one keyed with a Buffer (which Node turns into a
 * key object on every call), and the public page signs one per request.
 *
 * @example
 * ```ts
 * const secret = yield* SigningSecrets.cached("answer_tokens")
 * const key = yield* secret // a 32-byte secret key, the same in every process
 * ```
 */
export const cached = (
  name: string
): Effect.Effect<Effect.Effect<KeyObject, SqlError.SqlError>, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const load = Effect.gen(function* () {
      const now = new Date(yield* Clock.currentTimeMillis)
      const fresh = randomBytes(32).toString("base64url")
      yield* sql`
        insert into signing_secrets (name, secret, created_at) values (${name}, ${fresh}, ${now})
        on conflict (name) do nothing`
      const rows = yield* sql<{ readonly secret: string }>`select secret from signing_secrets where name = ${name}`
      return createSecretKey(Buffer.from(rows[0]!.secret, "base64url"))
    })
    let key: KeyObject | undefined
    return Effect.suspend(() =>
      key !== undefined ? Effect.succeed(key) : Effect.tap(load, (value) => Effect.sync(() => (key = value)))
    )
  })
