/**
 * How the cases are doing, per form or across the workspace: open cases by
 * stage and by assignee, new and closed cases per day or week, the time to a
 * first response and the time spent in each stage (from the activity
 * timeline). For the response list's filters; computed by aggregate queries in
 * the database.
 *
 * - A case is open while it has no stage or a stage that is not closed.
 * - A first response is the first stage change, assignment, note or e-mail
 *   written to the respondent by a member after the submission (the automatic
 *   confirmation e-mail does not count).
 * - Time in a stage runs from the change into it to the next change; a case
 *   still in a stage is counted there (`current`), not in the times.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type { Actors, FormNotFound, InvalidInput } from "../kernel/index.ts"
import { Members } from "../identity/index.ts"
import { Forms, Sensitive, WorkspaceSettingsStore } from "../forms/index.ts"
import { type ResponseFilter, ResponseQueries } from "../cases/index.ts"

/** Periods of the series: days or ISO weeks (starting on Monday), in UTC. */
export const MetricsInterval = Schema.Literals(["day", "week"])
export type MetricsInterval = typeof MetricsInterval.Type

const Seconds = Schema.NullOr(Schema.Number).annotate({ description: "Seconds; null without any." })

/** Cases of one stage (or of none). */
export const StageCount = Schema.Struct({
  stageId: Schema.NullOr(Schema.Int),
  name: Schema.NullOr(Schema.String).annotate({ description: "The stage's name; null for cases without a stage." }),
  formId: Schema.NullOr(Schema.Int),
  closed: Schema.Boolean,
  count: Schema.Int
}).annotate({ identifier: "StageCount" })

/** Open cases of one assignee (or of nobody). */
export const AssigneeCount = Schema.Struct({
  accountId: Schema.NullOr(Schema.Int),
  name: Schema.NullOr(Schema.String).annotate({ description: "The member's name or e-mail; null for unassigned." }),
  open: Schema.Int
}).annotate({ identifier: "AssigneeCount" })

/** One period of a series. */
export const PeriodCount = Schema.Struct({
  period: Schema.String.annotate({ description: "The period's first day (UTC), `2026-11-23`." }),
  count: Schema.Int
}).annotate({ identifier: "PeriodCount" })

/** Time spent in one stage. */
export const StageTime = Schema.Struct({
  stageId: Schema.Int,
  name: Schema.String,
  formId: Schema.Int,
  current: Schema.Int.annotate({ description: "Cases in the stage now." }),
  left: Schema.Int.annotate({ description: "Times a case moved on from the stage." }),
  medianSeconds: Seconds,
  p90Seconds: Seconds
}).annotate({ identifier: "StageTime" })

/** The case metrics of a form or of the workspace. */
export const CaseMetricsReport = Schema.Struct({
  formId: Schema.NullOr(Schema.Int).annotate({ description: "The form; null across the workspace." }),
  interval: MetricsInterval,
  window: Schema.Struct({ from: Schema.String, to: Schema.String }).annotate({
    description: "The days of the series (`from`/`to`, else the last 30 days or 12 weeks)."
  }),
  cases: Schema.Int,
  open: Schema.Int,
  closed: Schema.Int,
  byStage: Schema.Array(StageCount),
  byAssignee: Schema.Array(AssigneeCount).annotate({ description: "Open cases, most first." }),
  newPerPeriod: Schema.Array(PeriodCount),
  closedPerPeriod: Schema.Array(PeriodCount).annotate({
    description: "Moves into a closed stage per period, of the cases in the metrics."
  }),
  firstResponse: Schema.Struct({
    responded: Schema.Int,
    waiting: Schema.Int.annotate({ description: "Cases without a first response yet." }),
    medianSeconds: Seconds,
    p90Seconds: Seconds
  }),
  timeInStage: Schema.Array(StageTime)
}).annotate({ identifier: "CaseMetricsReport" })
export type CaseMetricsReport = typeof CaseMetricsReport.Type

/** What the metrics take: the list's filters and the series' periods. */
export interface MetricsOptions extends ResponseFilter {
  readonly interval?: MetricsInterval | undefined
}

const DAY_MS = 86_400_000
/** At most this many periods in a series (a longer window is cut to its last ones). */
const PERIODS_MAX = 400

const round = (value: number | null) => (value === null ? null : Math.round(Number(value)))

/**
 * Case metrics.
 *
 * @example
 * ```ts
 * const report = yield* (yield* CaseMetrics).measure(actor, formId, { interval: "week" })
 * report.firstResponse.medianSeconds // 5400
 * ```
 */
export class CaseMetrics extends Context.Service<
  CaseMetrics,
  {
    /** The metrics of one form's cases, or (`formId` undefined) of every case of the workspace. */
    readonly measure: (
      actor: Actors.Actor,
      formId: number | undefined,
      options?: MetricsOptions
    ) => Effect.Effect<CaseMetricsReport, FormNotFound | InvalidInput | SqlError.SqlError>
  }
>()("@qforms/core/CaseMetrics") {
  static readonly layer = Layer.effect(
    CaseMetrics,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const forms = yield* Forms
      const members = yield* Members
      const queries = yield* ResponseQueries.make

      const measure = Effect.fn("CaseMetrics.measure")(function* (
        actor: Actors.Actor,
        formId: number | undefined,
        options: MetricsOptions = {}
      ) {
        if (formId !== undefined) yield* forms.getSummary(actor, formId)
        const workspaceId = actor.workspaceId
        const interval = options.interval ?? "day"
        const now = yield* Clock.currentTimeMillis
        const to = options.to ?? new Date(now)
        const defaultSpan = interval === "day" ? 29 * DAY_MS : 11 * 7 * DAY_MS
        const from = options.from ?? new Date(to.getTime() - defaultSpan)
        const where = sql.and(queries.filterConditions(workspaceId, formId, options, Sensitive.readsMasked(actor)))
        const scope = sql`scope as (select id, stage_id, assignee_id, submitted_at from responses where ${where})`
        const unit = sql.literal(interval === "day" ? "'day'" : "'week'")
        const step = sql.literal(interval === "day" ? "interval '1 day'" : "interval '1 week'")

        const stages = yield* sql<{
          readonly id: number
          readonly name: string
          readonly form_id: number
          readonly is_closed: boolean
        }>`
          select id, name, form_id, is_closed from stages
          where ${sql.and([sql`workspace_id = ${workspaceId}`, ...(formId === undefined ? [] : [sql`form_id = ${formId}`])])}
          order by form_id, position, id`

        const byStageRows = yield* sql<{ readonly stage_id: number | null; readonly count: number }>`
          with ${scope} select stage_id, count(*)::int as count from scope group by stage_id`
        const counts = new Map(byStageRows.map((r) => [r.stage_id, Number(r.count)]))
        const byStage = [
          { stageId: null, name: null, formId: formId ?? null, closed: false, count: counts.get(null) ?? 0 },
          ...stages.map((s) => ({
            stageId: s.id,
            name: s.name,
            formId: s.form_id,
            closed: s.is_closed,
            count: counts.get(s.id) ?? 0
          }))
        ]
        const cases = byStageRows.reduce((n, r) => n + Number(r.count), 0)
        const closed = byStage.filter((s) => s.closed).reduce((n, s) => n + s.count, 0)

        const assigneeRows = yield* sql<{ readonly assignee_id: number | null; readonly open: number }>`
          with ${scope}
          select scope.assignee_id, count(*)::int as open from scope
          left join stages st on st.id = scope.stage_id
          where st.is_closed is not true
          group by scope.assignee_id order by count(*) desc, scope.assignee_id nulls first`
        const people = new Map((yield* members.list(workspaceId)).map((m) => [m.accountId, m.name ?? m.email] as const))
        const byAssignee = assigneeRows.map((r) => ({
          accountId: r.assignee_id,
          name: r.assignee_id === null ? null : (people.get(r.assignee_id) ?? null),
          open: Number(r.open)
        }))

        const periods = sql`periods as (
          select p from generate_series(date_trunc(${unit}, ${from}::timestamptz at time zone 'UTC'),
            date_trunc(${unit}, ${to}::timestamptz at time zone 'UTC'), ${step}) as p)`
        const newRows = yield* sql<{ readonly period: string; readonly count: number }>`
          with ${scope}, ${periods},
          counted as (
            select date_trunc(${unit}, submitted_at at time zone 'UTC') as p, count(*)::int as n from scope
            where submitted_at >= ${from} and submitted_at <= ${to} group by 1)
          select to_char(periods.p, 'YYYY-MM-DD') as period, coalesce(counted.n, 0)::int as count
          from periods left join counted on counted.p = periods.p
          order by periods.p desc limit ${PERIODS_MAX}`
        const closedRows = yield* sql<{ readonly period: string; readonly count: number }>`
          with ${scope}, ${periods},
          counted as (
            select date_trunc(${unit}, a.created_at at time zone 'UTC') as p, count(*)::int as n
            from activities a
            join scope on scope.id = a.response_id
            join stages st on st.id = (a.payload ->> 'to')::int and st.is_closed
            where a.workspace_id = ${workspaceId} and a.type = 'stage_changed'
              and jsonb_typeof(a.payload -> 'to') = 'number'
              and a.created_at >= ${from} and a.created_at <= ${to}
            group by 1)
          select to_char(periods.p, 'YYYY-MM-DD') as period, coalesce(counted.n, 0)::int as count
          from periods left join counted on counted.p = periods.p
          order by periods.p desc limit ${PERIODS_MAX}`

        const [first] = yield* sql<{
          readonly responded: number
          readonly waiting: number
          readonly median: number | null
          readonly p90: number | null
        }>`
          with ${scope},
          firsts as (
            select scope.id, (
              select min(a.created_at) from activities a
              where a.response_id = scope.id and a.workspace_id = ${workspaceId}
                and a.actor ->> 'type' = 'member'
                and (a.type in ('stage_changed', 'assigned', 'note')
                  or (a.type = 'email_sent' and a.payload ->> 'kind' = 'message'))
            ) as at, scope.submitted_at
            from scope)
          select count(at)::int as responded, (count(*) - count(at))::int as waiting,
            percentile_cont(0.5) within group (order by extract(epoch from at - submitted_at))
              filter (where at is not null) as median,
            percentile_cont(0.9) within group (order by extract(epoch from at - submitted_at))
              filter (where at is not null) as p90
          from firsts`

        const timeRows = yield* sql<{
          readonly stage_id: number
          readonly left_count: number
          readonly median: number | null
          readonly p90: number | null
        }>`
          with ${scope},
          moves as (
            select (a.payload ->> 'to')::int as stage_id,
              extract(epoch from lead(a.created_at) over (partition by a.response_id order by a.id) - a.created_at)
                as seconds
            from activities a join scope on scope.id = a.response_id
            where a.workspace_id = ${workspaceId} and a.type = 'stage_changed'
              and jsonb_typeof(a.payload -> 'to') = 'number')
          select stage_id, count(seconds)::int as left_count,
            percentile_cont(0.5) within group (order by seconds) filter (where seconds is not null) as median,
            percentile_cont(0.9) within group (order by seconds) filter (where seconds is not null) as p90
          from moves group by stage_id`
        const times = new Map(timeRows.map((r) => [r.stage_id, r]))

        return {
          formId: formId ?? null,
          interval,
          window: { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) },
          cases,
          open: cases - closed,
          closed,
          byStage,
          byAssignee,
          newPerPeriod: newRows.map((r) => ({ period: r.period, count: Number(r.count) })).reverse(),
          closedPerPeriod: closedRows.map((r) => ({ period: r.period, count: Number(r.count) })).reverse(),
          firstResponse: {
            responded: Number(first?.responded ?? 0),
            waiting: Number(first?.waiting ?? 0),
            medianSeconds: round(first?.median ?? null),
            p90Seconds: round(first?.p90 ?? null)
          },
          timeInStage: stages.map((s) => {
            const time = times.get(s.id)
            return {
              stageId: s.id,
              name: s.name,
              formId: s.form_id,
              current: counts.get(s.id) ?? 0,
              left: Number(time?.left_count ?? 0),
              medianSeconds: round(time?.median ?? null),
              p90Seconds: round(time?.p90 ?? null)
            }
          })
        }
      })

      return CaseMetrics.of({ measure })
    })
  ).pipe(Layer.provide([Forms.layer, Members.layer, WorkspaceSettingsStore.layer]))
}
