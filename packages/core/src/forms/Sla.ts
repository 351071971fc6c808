/**
 * SLAs per form: a form's targets (`settings.sla`, `forms/FormSettings.ts`)
 * in business minutes of its workspace (`businessHours`,
 * `forms/BusinessHours.ts`; 24/7 in UTC without them) become due times on
 * each response when it is submitted (migration 0040), in the submission's
 * own statement. The rules:
 *
 * - Due times are set at submission only: a change of the form's SLA (or of
 *   the business hours) applies to responses submitted after it; the cases
 *   already there keep theirs.
 * - First response: the first thing a member does that the respondent sees
 *   or that moves the case: an e-mail a member writes to the respondent
 *   (`email/RespondentEmails.ts` send; the automatic confirmation is not
 *   one), or a stage change by a member (`Responses.update`; the system's
 *   reopening of a case on a reply is not one). Assignments, tags and notes
 *   are internal, and do not count.
 * - Resolved: the case moved to a stage with `isClosed` (the first such
 *   moment is kept while it moves between closed stages); moved back to an
 *   open stage (or to none), it is open again and its resolution is due
 *   again, at the same due time.
 * - A warning is due `warnBeforeMinutes` business minutes before a target
 *   (none when that is not shorter than the target).
 * - `response.sla_warning` and `response.sla_breached` are sent once per
 *   case and target (`SlaScan.ts`, every minute): a case whose
 *   warning and breach moments have both passed when the scan sees it gets
 *   only the breach. A case reopened after its breach was sent is not
 *   announced again.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import type * as SqlClient from "effect/sql/SqlClient"
import * as BusinessHours from "./BusinessHours.ts"
import type { SlaSetting } from "./FormSettings.ts"

/**
 * A response's SLA (extension, `forms/Sla.ts`): its due times, when they were met, and its state now.
 *
 * @example
 * ```ts
 * const sla: ResponseSla = {
 *   firstResponseDueAt: "2026-11-30T10:00:00.000Z", firstRespondedAt: null,
 *   resolveDueAt: null, resolvedAt: null, state: "ok", breached: false
 * }
 * ```
 */
export const ResponseSla = Schema.Struct({
  firstResponseDueAt: Schema.NullOr(Schema.String).annotate({
    description:
      "When a first response (a member's e-mail to the respondent, or a stage change) is due; null: no target."
  }),
  firstRespondedAt: Schema.NullOr(Schema.String).annotate({ description: "When it came; null: not yet." }),
  resolveDueAt: Schema.NullOr(Schema.String).annotate({
    description: "When the case is due in a closed stage; null: no target."
  }),
  resolvedAt: Schema.NullOr(Schema.String).annotate({
    description: "When it moved to a closed stage; null while open (cleared when it is reopened)."
  }),
  state: Schema.Literals(["ok", "warning", "overdue", "met"]).annotate({
    description:
      "`overdue`: a target not met is past due; `warning`: one is past its warning; `ok`: pending; `met`: every " +
      "target is met."
  }),
  breached: Schema.Boolean.annotate({ description: "Whether a target was, or is being, missed." })
}).annotate({ identifier: "ResponseSla" })
export type ResponseSla = typeof ResponseSla.Type

/** The due times a submission gets, as stored (null: no such target). */
export interface DueTimes {
  readonly firstResponseDueAt: Date | null
  readonly firstResponseWarnAt: Date | null
  readonly resolveDueAt: Date | null
  readonly resolveWarnAt: Date | null
}

const none: DueTimes = { firstResponseDueAt: null, firstResponseWarnAt: null, resolveDueAt: null, resolveWarnAt: null }

/**
 * The due times of a response submitted at `submittedAt` to a form with the SLA `sla`, in the workspace's
 * business hours (24/7 without them). A target further away than the business hours reach
 * (`BusinessHours.MAX_DAYS`) gets none.
 *
 * @example
 * ```ts
 * dueTimes(undefined, { firstResponseMinutes: 60 }, new Date("2026-11-28T12:00:00Z")).firstResponseDueAt
 * // 2026-11-28T13:00:00.000Z
 * ```
 */
export const dueTimes = (
  hours: BusinessHours.BusinessHours | undefined,
  sla: SlaSetting | null | undefined,
  submittedAt: Date
): DueTimes => {
  if (sla === null || sla === undefined) return none
  const start = submittedAt.getTime()
  const at = (minutes: number | undefined) => {
    if (minutes === undefined) return null
    const due = BusinessHours.addMinutes(hours, start, minutes)
    return due === undefined ? null : new Date(due)
  }
  const warn = (target: number | undefined) =>
    target === undefined || sla.warnBeforeMinutes === undefined || sla.warnBeforeMinutes >= target
      ? null
      : at(target - sla.warnBeforeMinutes)
  const firstResponseDueAt = at(sla.firstResponseMinutes)
  const resolveDueAt = at(sla.resolveMinutes)
  return {
    firstResponseDueAt,
    firstResponseWarnAt: firstResponseDueAt === null ? null : warn(sla.firstResponseMinutes),
    resolveDueAt,
    resolveWarnAt: resolveDueAt === null ? null : warn(sla.resolveMinutes)
  }
}

/** The SLA columns of a stored response (migration 0040). */
export interface SlaColumns {
  readonly first_response_due_at?: Date | null | undefined
  readonly first_response_warn_at?: Date | null | undefined
  readonly first_responded_at?: Date | null | undefined
  readonly resolve_due_at?: Date | null | undefined
  readonly resolve_warn_at?: Date | null | undefined
  readonly resolved_at?: Date | null | undefined
}

/**
 * A response's SLA as the API shows it at `now`, or undefined when it has no target. `state`: `overdue` when a
 * target not met yet is past due, else `warning` when one is past its warning, else `ok` while one is
 * pending, `met` once every target is met; `breached` tells whether any target was (or is being) missed.
 */
export const slaOf = (row: SlaColumns, now: number): ResponseSla | undefined => {
  const targets = [
    { due: row.first_response_due_at ?? null, warn: row.first_response_warn_at ?? null, met: row.first_responded_at },
    { due: row.resolve_due_at ?? null, warn: row.resolve_warn_at ?? null, met: row.resolved_at }
  ].filter((target) => target.due !== null)
  if (targets.length === 0) return undefined
  const pending = targets.filter((target) => target.met === null || target.met === undefined)
  const state = pending.some((target) => target.due!.getTime() <= now)
    ? "overdue"
    : pending.some((target) => target.warn !== null && target.warn.getTime() <= now)
      ? "warning"
      : pending.length > 0
        ? "ok"
        : "met"
  const iso = (date: Date | null | undefined) => (date === null || date === undefined ? null : date.toISOString())
  return {
    firstResponseDueAt: iso(row.first_response_due_at),
    firstRespondedAt: iso(row.first_responded_at),
    resolveDueAt: iso(row.resolve_due_at),
    resolvedAt: iso(row.resolved_at),
    state,
    // Met after its due time, or still pending at or past it (as `overdue` counts it).
    breached: targets.some((target) =>
      target.met === null || target.met === undefined
        ? target.due!.getTime() <= now
        : target.met.getTime() > target.due!.getTime()
    )
  }
}

/**
 * Records a case's first response at `at`, unless it had one (in the caller's transaction): what a member's
 * e-mail to the respondent does (`email/RespondentEmails.ts`).
 *
 * @example
 * ```ts
 * yield* Sla.markFirstResponse(sql, workspaceId, responseId, now)
 * ```
 */
export const markFirstResponse = (sql: SqlClient.SqlClient, workspaceId: number, responseId: number, at: Date) =>
  sql`
    update responses set first_responded_at = ${at}
    where workspace_id = ${workspaceId} and id = ${responseId} and first_responded_at is null`

/**
 * A stage's `isClosed` changed (in the caller's transaction): the cases in it are resolved at `at` (when it
 * closes; those resolved before keep their moment) or open again (when it opens), as if each had just moved
 * there (`Stages.update`).
 *
 * @example
 * ```ts
 * yield* Sla.stageClosedChanged(sql, workspaceId, stageId, true, now)
 * ```
 */
export const stageClosedChanged = (
  sql: SqlClient.SqlClient,
  workspaceId: number,
  stageId: number,
  closed: boolean,
  at: Date
) =>
  closed
    ? sql`
        update responses set resolved_at = ${at}
        where workspace_id = ${workspaceId} and stage_id = ${stageId} and resolved_at is null`
    : sql`
        update responses set resolved_at = null
        where workspace_id = ${workspaceId} and stage_id = ${stageId} and resolved_at is not null`
