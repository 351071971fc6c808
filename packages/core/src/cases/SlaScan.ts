/**
 * The SLA scan (the rules are in `Sla.ts`): every minute, the cases whose
 * warning or breach moment has passed are claimed and marked in one
 * conditional UPDATE (`sla_sent`, migration 0040; rows locked by another run
 * are skipped), and `response.sla_warning` / `response.sla_breached` are
 * recorded with an activity on the case in the same transaction: each once
 * per case and target, whatever the number of processes.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, SentLinkBase } from "../kernel/index.ts"
import { Forms } from "../forms/index.ts"
import { Events } from "../events/index.ts"
import { Activities } from "./Activities.ts"
import type { SlaTarget } from "./ResponseModels.ts"
import { columns, responseEventFields, type Row } from "./ResponseRows.ts"

/** Most cases one scan's batch (one transaction) claims. */
export const BATCH = 200

/** How often the scheduler scans: every minute. */
const POLL = "1 minute"

/** The bits of `sla_sent` (migration 0040). */
const SENT = { firstResponseWarning: 1, firstResponseBreach: 2, resolveWarning: 4, resolveBreach: 8 } as const

interface Claimed extends Row {
  readonly workspace_id: number
  readonly before: number
  readonly after: number
  readonly form_title: string
  readonly stage_name: string | null
  readonly first_response_due_at: Date | null
  readonly resolve_due_at: Date | null
}

/** One event a scan sends: which target, warning or breach. */
interface Announcement {
  readonly event: "response.sla_warning" | "response.sla_breached"
  readonly target: SlaTarget
  readonly dueAt: Date
}

const announcements = (row: Claimed): ReadonlyArray<Announcement> => {
  const sent = row.after & ~row.before
  const out: Array<Announcement> = []
  const add = (target: SlaTarget, due: Date | null, warning: number, breach: number) => {
    if (due === null) return
    if ((sent & breach) !== 0) out.push({ event: "response.sla_breached", target, dueAt: due })
    else if ((sent & warning) !== 0) out.push({ event: "response.sla_warning", target, dueAt: due })
  }
  add("firstResponse", row.first_response_due_at, SENT.firstResponseWarning, SENT.firstResponseBreach)
  add("resolve", row.resolve_due_at, SENT.resolveWarning, SENT.resolveBreach)
  return out
}

/**
 * The SLA scan: finds the cases whose warning or breach moment has passed and
 * announces each once.
 *
 * @example
 * ```ts
 * const sla = yield* SlaScan
 * const sent = yield* sla.runDue // how many events were recorded
 * ```
 */
export class SlaScan extends Context.Service<
  SlaScan,
  {
    /**
     * Claims the cases (every workspace) whose next SLA moment has come, marks each warning and breach as
     * sent and records its event and activity, in batches of {@link BATCH}, each one transaction; answers how
     * many events it recorded. Two runs at once never announce a case twice (the claim skips locked rows and
     * the marks are set in the claim).
     */
    readonly runDue: Effect.Effect<number, SqlError.SqlError>
  }
>()("@qforms/core/SlaScan") {
  static readonly layer = Layer.effect(
    SlaScan,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const events = yield* Events
      const activities = yield* Activities
      const forms = yield* Forms

      const batch = (now: Date) =>
        sql.withTransaction(
          Effect.gen(function* () {
            const claimed = yield* sql<Claimed>`
              with due as (
                select id, sla_sent from responses
                where sla_next_at <= ${now}
                order by sla_next_at, id
                limit ${BATCH}
                for update skip locked
              )
              update responses r set sla_sent = (r.sla_sent
                | (case when r.first_responded_at is null and r.first_response_warn_at <= ${now} then 1 else 0 end)
                | (case when r.first_responded_at is null and r.first_response_due_at <= ${now} then 3 else 0 end)
                | (case when r.resolved_at is null and r.resolve_warn_at <= ${now} then 4 else 0 end)
                | (case when r.resolved_at is null and r.resolve_due_at <= ${now} then 12 else 0 end))::smallint
              from due, forms f
              where r.id = due.id and f.workspace_id = r.workspace_id and f.id = r.form_id
              returning ${sql.literal(columns.replace(/(^|, )/g, "$1r."))}, r.workspace_id,
                due.sla_sent as before, r.sla_sent as after, f.title as form_title,
                (select s.name from stages s where s.workspace_id = r.workspace_id and s.id = r.stage_id) as stage_name`
            const linkBase = yield* SentLinkBase
            let recorded = 0
            for (const row of claimed) {
              const said = announcements(row)
              if (said.length === 0) continue
              const fields = yield* forms.fields(row.workspace_id, row.form_id)
              const stage =
                row.stage_id === null || row.stage_name === null ? null : { id: row.stage_id, name: row.stage_name }
              const response = responseEventFields(
                { id: row.form_id, title: row.form_title },
                fields,
                row,
                stage,
                linkBase
              )
              for (const announcement of said) {
                const sla = { target: announcement.target, dueAt: announcement.dueAt.toISOString() }
                yield* events.record(
                  row.workspace_id,
                  now,
                  { event: announcement.event, ...response, sla },
                  { tags: row.tags }
                )
                yield* activities.record(Actors.system(row.workspace_id), row.id, now, [
                  { type: announcement.event === "response.sla_warning" ? "sla_warning" : "sla_breached", payload: sla }
                ])
                recorded++
              }
            }
            return { claimed: claimed.length, recorded }
          })
        )

      const runDue = Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        let recorded = 0
        // A bounded loop: each batch marks what it claimed, so the next one finds other cases.
        for (let i = 0; i < 1_000; i++) {
          const done = yield* batch(now)
          recorded += done.recorded
          if (done.claimed < BATCH) break
        }
        return recorded
      }).pipe(Effect.withSpan("Sla.runDue"))

      return SlaScan.of({ runDue })
    })
  ).pipe(Layer.provide([Activities.layer, Events.layer, Forms.layer]))
}

/**
 * Runs the SLA scan every minute while the layer lives. `Qforms.make` runs it; include it when you build your
 * own server from the layers.
 *
 * @example
 * ```ts
 * const Background = Layer.mergeAll(SlaScan.layerScheduler, Retention.layerScheduler)
 * ```
 */
export const layerScheduler: Layer.Layer<never, never, SlaScan> = Layer.effectDiscard(
  Effect.gen(function* () {
    const sla = yield* SlaScan
    const once = sla.runDue.pipe(
      Effect.tap((n) => (n > 0 ? Effect.logInfo(`qforms: ${n} SLA warning(s) and breach(es) recorded`) : Effect.void)),
      Effect.catchCause((cause) => Effect.logWarning("qforms: the SLA scan failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(once, Effect.sleep(POLL))))
  })
)
