/**
 * Page counts: how often a form's public page was viewed, started and each
 * of its questions answered, per form and UTC day, for the summary's totals
 * and drop-off funnel. Counters, never who: no address, cookie or response is
 * kept with them.
 *
 * - `view`: the page was opened (its first screen shown);
 * - `start`: a respondent went past the first screen;
 * - `<question id>`: a respondent answered the question and went on, once per
 *   respondent however often they go back (the page's signed answer token
 *   carries how far it has counted).
 *
 * Counts are added up in memory and written once a second (one statement for
 * all of them), so a busy page costs the database one write a second, not one
 * per view; the last second's counts are written when the layer closes. A
 * count of a form deleted meanwhile is dropped.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"

/** What is counted: a view, a start, or the id of a question answered. */
export type PageStep = "view" | "start" | number

/** How long counts wait in memory before they are written. */
const FLUSH_EVERY = "1 second"
/** A day in milliseconds: a count's day is kept as a number of days (UTC) until it is written. */
const dayMs = 86_400_000

/**
 * The page counters.
 *
 * @example
 * ```ts
 * const counts = yield* PageCounts
 * yield* counts.add(workspaceId, formId, "view")
 * ```
 */
export class PageCounts extends Context.Service<
  PageCounts,
  {
    /** Counts `step` of the form once, today (UTC). Never fails, never waits on the database. */
    readonly add: (workspaceId: number, formId: number, step: PageStep) => Effect.Effect<void>
    /** Writes the counts waiting in memory now. */
    readonly flush: Effect.Effect<void, SqlError.SqlError>
  }
>()("@qforms/core/PageCounts") {
  static readonly layer = Layer.effect(
    PageCounts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      /** Waiting counts by `workspaceId \t formId \t day \t step`, the day as days since 1970 (UTC). */
      let waiting = new Map<string, number>()

      const add = (workspaceId: number, formId: number, step: PageStep) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const key = `${workspaceId}\t${formId}\t${Math.floor(now / dayMs)}\t${step}`
          waiting.set(key, (waiting.get(key) ?? 0) + 1)
        })

      const flush = Effect.gen(function* () {
        if (waiting.size === 0) return
        const taken = waiting
        waiting = new Map()
        // One order for every writer: two processes writing the same rows never deadlock.
        const rows = [...taken]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, n]) => {
            const [workspaceId, formId, day, step] = key.split("\t") as [string, string, string, string]
            return {
              workspaceId: Number(workspaceId),
              formId: Number(formId),
              day: new Date(Number(day) * dayMs).toISOString().slice(0, 10),
              step,
              n
            }
          })
        yield* sql`
          insert into page_counts (workspace_id, form_id, day, step, count)
          select c.workspace_id, c.form_id, c.day, c.step, c.n
          from unnest(${rows.map((r) => r.workspaceId)}::int[], ${rows.map((r) => r.formId)}::int[],
            ${rows.map((r) => r.day)}::date[], ${rows.map((r) => r.step)}::text[], ${rows.map((r) => r.n)}::bigint[])
            with ordinality as c(workspace_id, form_id, day, step, n, i)
          join forms f on f.id = c.form_id and f.workspace_id = c.workspace_id
          order by c.i
          on conflict (form_id, day, step) do update set count = page_counts.count + excluded.count`
      })

      const logged = flush.pipe(
        Effect.catchCause((cause) => Effect.logWarning("qforms: writing the page counts failed", cause))
      )
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(FLUSH_EVERY), logged)))
      yield* Effect.addFinalizer(() => logged)
      return PageCounts.of({ add, flush })
    })
  )
}
