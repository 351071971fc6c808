/**
 * When a form stops taking responses by its settings (`forms/FormSettings.ts`):
 * at `closesAt`, and once it has `maxResponses`. The moment is checked when a
 * response is submitted; the count is checked inside the submission's
 * transaction under a lock on the form's row (`for no key update`), so that
 * submissions racing for the last places are checked one after the other and
 * the form never takes one more than its limit. The lock is taken only by
 * forms with a limit; the count is the sum of the form's sharded counters
 * (`ResponseCounts.ts`), written in the same transactions.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { FormSettings } from "../forms/FormSettings.ts"
import { Conflict } from "../kernel/Errors.ts"

/** Why a form takes no more responses, if it does not: closed at its `closesAt`, or full. */
export type Stop =
  | { readonly reason: "closed"; readonly at: string }
  | { readonly reason: "full"; readonly limit: number }

/**
 * Whether the form is past its `closesAt` at `now` (epoch milliseconds).
 *
 * @example
 * ```ts
 * pastClosing({ closesAt: "2026-01-01T00:00:00Z" }, Date.parse("2026-06-01T00:00:00Z")) // { reason: "closed", at: "2026-01-01T00:00:00Z" }
 * ```
 */
export const pastClosing = (settings: FormSettings, now: number): Stop | undefined =>
  settings.closesAt !== undefined && Date.parse(settings.closesAt) <= now
    ? { reason: "closed", at: settings.closesAt }
    : undefined

/** The 409 a submission gets when the form stopped taking responses. */
export const refusal = (stop: Stop): Conflict =>
  new Conflict({
    message:
      stop.reason === "closed"
        ? `this form closed at ${stop.at} and takes no more responses`
        : `this form has reached its limit of ${stop.limit} responses`
  })

/** The limits, on the current `SqlClient`. */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const count = (workspaceId: number, formId: number) =>
    Effect.map(
      // int8 sum: a bigint on PostgreSQL, a number on PGlite; Number() reads both.
      sql<{ readonly n: number | bigint }>`
        select coalesce(sum(n), 0) as n from form_response_counts
        where workspace_id = ${workspaceId} and form_id = ${formId}`,
      (rows) => Number(rows[0]?.n ?? 0)
    )

  /** Whether the form has as many responses as it may take (false without `maxResponses`). */
  const full = (workspaceId: number, formId: number, settings: FormSettings) => {
    const limit = settings.maxResponses
    return limit === undefined
      ? Effect.succeed<Stop | undefined>(undefined)
      : Effect.map(count(workspaceId, formId), (n): Stop | undefined =>
          n >= limit ? { reason: "full", limit } : undefined
        )
  }

  /**
   * Inside a submission's transaction, before its response is counted: locks
   * the form's row (held until the transaction ends, so the next submission
   * counts after this one is in) and fails with 409 when it is full.
   */
  const claimPlace = Effect.fnUntraced(function* (workspaceId: number, formId: number, settings: FormSettings) {
    if (settings.maxResponses === undefined) return
    yield* sql`select id from forms where workspace_id = ${workspaceId} and id = ${formId} for no key update`
    const stop = yield* full(workspaceId, formId, settings)
    if (stop !== undefined) return yield* refusal(stop)
  })

  return { full, claimPlace }
})

/** Whether a form's settings put a limit on its count, so that its submissions take {@link make}'s lock. */
export const limitsCount = (settings: FormSettings): boolean => settings.maxResponses !== undefined
