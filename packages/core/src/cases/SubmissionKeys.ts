/**
 * Idempotency keys of submissions. A client whose submission was answered 503
 * ("outcome unknown": the connection to the database was lost around its
 * commit) or got no answer at all cannot tell whether it was stored. Sent
 * with an `Idempotency-Key` header (the IETF draft's, as Stripe takes it),
 * the submission records the key with its response in the statement that
 * writes the response; sent again with the same key, it answers that response
 * and stores nothing. The key with another body is refused 409: it is a
 * client's bug, not a retry. Two concurrent submissions with one key: the
 * second waits on the first's key row, then answers its response.
 *
 * A key is the workspace's (two clients of one workspace must not share
 * keys), is forgotten with its response, and after a day (the sweep below).
 */
import { createHash } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { InvalidInput } from "../kernel/index.ts"
import { Database } from "../storage/index.ts"

/**
 * The `Idempotency-Key` header: 1 to 255 visible ASCII characters (a UUID is
 * the usual choice).
 */
export const IdempotencyKey = Schema.String.check(
  Schema.isPattern(/^[\x21-\x7e]{1,255}$/, {
    message: "Idempotency-Key: 1 to 255 visible ASCII characters (a UUID, say)"
  })
).annotate({
  description:
    "Makes a retry safe: a submission sent again with the same key (within a day) answers the response the first " +
    "one stored instead of storing another; the same key with another body is 409."
})

/**
 * The `Idempotency-Key` of a request's headers, if it has one; a malformed
 * one fails with `InvalidInput` (400) naming the header.
 *
 * @example
 * ```ts
 * const key = yield* SubmissionKeys.keyOf(request.headers)
 * ```
 */
export const keyOf = (headers: Readonly<Record<string, string | undefined>>) => {
  const header = headers["idempotency-key"]
  if (header === undefined) return Effect.succeed(undefined)
  return Schema.decodeUnknownEffect(IdempotencyKey)(header).pipe(
    Effect.mapError((error) => new InvalidInput({ message: error.message }))
  )
}

/** How long a key is kept: a retry comes within minutes, a day covers a client's outage too. */
export const keptForMs = 24 * 60 * 60 * 1000

/**
 * What a submission's body is, for telling a retry (the same) from a key
 * reused for another submission: a hash of the form and the decoded body.
 */
export const fingerprintOf = (formId: number, body: unknown): string =>
  createHash("sha256")
    .update(JSON.stringify([formId, body]))
    .digest("base64url")

/** A key already used: the response it made, and the body it was made from. */
export interface Used {
  readonly responseId: number
  readonly fingerprint: string
}

/**
 * Whether a failed write is the key's row already taken by a concurrent
 * submission with the same key (which committed first: the write waited
 * for it).
 */
export const isKeyTaken = (error: unknown): boolean => Database.isUniqueViolation(error, "submission_keys_pkey")

/**
 * @example
 * ```ts
 * const keys = yield* SubmissionKeys
 * const used = yield* keys.find(workspaceId, "9b2f…")
 * ```
 */
export class SubmissionKeys extends Context.Service<
  SubmissionKeys,
  {
    /** The use of `key` in the workspace, if it was used within the day. */
    readonly find: (workspaceId: number, key: string) => Effect.Effect<Option.Option<Used>, SqlError.SqlError>
    /** The CTE that records `key` as having made `responseId` (a part of the submission's statement). */
    readonly record: (
      workspaceId: number,
      key: string,
      fingerprint: string,
      responseId: number,
      now: Date
    ) => Statement.Fragment
    /** Forgets the keys recorded before `before`; answers how many. */
    readonly sweep: (before: Date) => Effect.Effect<number, SqlError.SqlError>
  }
>()("@qforms/core/cases/SubmissionKeys") {
  static readonly layer = Layer.effect(
    SubmissionKeys,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return SubmissionKeys.of({
        find: (workspaceId, key) =>
          Effect.map(
            sql<{ readonly response_id: number; readonly fingerprint: string }>`
              select response_id, fingerprint from submission_keys
              where workspace_id = ${workspaceId} and key = ${key}`,
            (rows) =>
              Option.map(
                Option.fromNullishOr(rows[0]),
                (row): Used => ({ responseId: row.response_id, fingerprint: row.fingerprint })
              )
          ),
        record: (workspaceId, key, fingerprint, responseId, now) =>
          sql`submission_key as (
            insert into submission_keys (workspace_id, key, fingerprint, response_id, created_at)
            values (${workspaceId}, ${key}, ${fingerprint}, ${responseId}, ${now}))`,
        sweep: (before) =>
          Effect.map(
            sql<{ readonly n: number }>`
              with gone as (delete from submission_keys where created_at < ${before} returning 1)
              select count(*)::int as n from gone`,
            (rows) => rows[0]?.n ?? 0
          )
      })
    })
  )
}

/**
 * Forgets keys older than a day, now and every hour while the layer lives
 * (`Qforms.make` runs it).
 *
 * @example
 * ```ts
 * Layer.provide(SubmissionKeys.layerSweeper, SubmissionKeys.SubmissionKeys.layer)
 * ```
 */
export const layerSweeper: Layer.Layer<never, never, SubmissionKeys> = Layer.effectDiscard(
  Effect.gen(function* () {
    const keys = yield* SubmissionKeys
    const once = Effect.gen(function* () {
      const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
      yield* keys.sweep(new Date(now - keptForMs))
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("qforms: forgetting old submission keys failed", cause)))
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(once, Effect.sleep("1 hour"))))
  })
)
