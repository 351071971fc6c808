/**
 * Retention per form (the form setting `retention`, `forms/FormSettings.ts`):
 * responses older than the form's `days` — a submitted one counted from its
 * submission, a partial one from its last change — are deleted or anonymised.
 *
 * - `delete`: as a member's deletion does it: the response and its files go,
 *   the form's tag counts follow (its response count and answer tallies too,
 *   by the triggers of migration 0051), and a submitted response's deletion
 *   is announced as `response.deleted`. Its e-mails and replies go with it.
 * - `anonymise`: the case stays, with its stage, tags, assignee and times, so
 *   that metrics still count it; its answers become `{}`, its name, e-mail
 *   address and contact link are cleared, its uploaded files, e-mails and
 *   replies are deleted, the stored events about it (which carry its answers)
 *   are deleted with their unsent deliveries, and so are the activities that
 *   repeat its personal data (`answers_changed`, `email_sent`,
 *   `email_reply`; internal notes are left as written). It is marked
 *   (`anonymised_at`) so that no run processes it twice, and gets an
 *   `anonymised` activity that holds counts only.
 * - A partial response is not a case and counts in no metric: it is deleted
 *   under either action (it was never announced: no event).
 *
 * The work is done in batches of at most {@link BATCH} responses of one form,
 * each batch one transaction holding the change, its activities, its events
 * and its audit entry (`retention.run`, actor the system, counts only), so a
 * large backlog never holds one long transaction; the responses of a batch are
 * locked with `skip locked`, so two runs at once never process one twice. The
 * files' bytes are deleted from the blob store once their batch has committed.
 *
 * {@link Retention} `runDue` is the daily job: each workspace with a form that
 * has a retention is due once a day (`retention_runs`, migration 0038); a run
 * claims the due workspaces by moving their due time forward in one statement
 * (a lease: if the process dies, the workspace is due again an hour later),
 * so two servers never run one workspace at once. {@link layerScheduler} runs
 * it every few minutes while the layer lives.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { AuditLogModule as AuditLog } from "../audit/index.ts"
import { MailErasure } from "../email/index.ts"
import { Files } from "../files/index.ts"
import { RetentionSetting } from "../forms/index.ts"
import { Actors } from "../kernel/index.ts"
import { EventErasure, Events } from "../events/index.ts"
import { CaseErasure, ResponseDeletions } from "../cases/index.ts"

/** Most responses one batch (one transaction) processes. */
export const BATCH = 500

/** How long a claimed workspace's run may take before another process may claim it again: one hour. */
export const LEASE_MS = 60 * 60 * 1000

/** How often a workspace's retention runs: once a day. */
export const DAY_MS = 24 * 60 * 60 * 1000

/** What one form's retention did in a run: counts only. */
export interface FormRetentionCounts {
  readonly formId: number
  readonly action: RetentionSetting["action"]
  readonly olderThanDays: number
  /** Submitted responses deleted. */
  readonly deleted: number
  /** Submitted responses anonymised. */
  readonly anonymised: number
  /** Partial responses deleted. */
  readonly partialResponses: number
  /** Files deleted (uploads and reply attachments). */
  readonly files: number
  /** E-mails sent and replies received that were deleted. */
  readonly emails: number
}

/** What a run did, per workspace and form (forms where nothing was old enough are left out). */
export interface RetentionReport {
  readonly workspaces: ReadonlyArray<{
    readonly workspaceId: number
    readonly forms: ReadonlyArray<FormRetentionCounts>
  }>
}

interface FormRow {
  readonly workspace_id: number
  readonly id: number
  readonly title: string
  readonly retention: unknown
}

interface Candidate {
  readonly id: number
  readonly finished: boolean
  readonly tags: ReadonlyArray<string>
  readonly stage_id: number | null
}

/** The form's retention as stored, or undefined when it has none (or one that is not valid any more). */
const retentionOf = (stored: unknown): RetentionSetting | undefined =>
  Option.getOrUndefined(
    Schema.decodeUnknownOption(typeof stored === "string" ? Schema.fromJsonString(RetentionSetting) : RetentionSetting)(
      stored
    )
  )

const add = (a: FormRetentionCounts, b: Omit<FormRetentionCounts, "formId" | "action" | "olderThanDays">) => ({
  ...a,
  deleted: a.deleted + b.deleted,
  anonymised: a.anonymised + b.anonymised,
  partialResponses: a.partialResponses + b.partialResponses,
  files: a.files + b.files,
  emails: a.emails + b.emails
})

/**
 * Applying the forms' retention.
 *
 * @example
 * ```ts
 * const retention = yield* Retention
 * const report = yield* retention.run // every workspace, now
 * const { workspaces } = yield* retention.runDue // the daily job: only the workspaces due
 * ```
 */
export class Retention extends Context.Service<
  Retention,
  {
    /** Applies every form's retention in every workspace now (whatever their due times). */
    readonly run: Effect.Effect<RetentionReport, SqlError.SqlError>
    /** Applies the retention of one workspace's forms now. */
    readonly runWorkspace: (workspaceId: number) => Effect.Effect<ReadonlyArray<FormRetentionCounts>, SqlError.SqlError>
    /**
     * The daily job: claims the workspaces whose run is due (each once a day), runs them, and sets their
     * next run a day later. Answers what it did.
     */
    readonly runDue: Effect.Effect<RetentionReport, SqlError.SqlError>
  }
>()("@qforms/core/Retention") {
  static readonly layer = Layer.effect(
    Retention,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const files = yield* Files
      const mail = yield* MailErasure.make
      const outbox = yield* EventErasure.make
      const settleDeleted = yield* ResponseDeletions.make
      const cases = yield* CaseErasure.make

      const formsOf = (workspaceId: number | undefined) =>
        sql<FormRow>`
          select workspace_id, id, title, settings -> 'retention' as retention
          from forms
          where jsonb_typeof(settings -> 'retention') = 'object'
            ${workspaceId === undefined ? sql`` : sql`and workspace_id = ${workspaceId}`}
          order by workspace_id, id`

      /** One batch of one form, in one transaction; answers its counts and the blobs to delete after it. */
      const batch = (form: FormRow, retention: RetentionSetting, now: Date) =>
        sql.withTransaction(
          Effect.gen(function* () {
            const workspaceId = form.workspace_id
            const actor = Actors.system(workspaceId)
            const cutoff = new Date(now.getTime() - retention.days * DAY_MS)
            const candidates = yield* sql<Candidate>`
              select id,
                -- A response merged into another (ResponseMerges.ts) left the counts: removed as a partial one.
                finished and merged_into is null as finished,
                case when merged_into is null then tags else '{}'::text[] end as tags, stage_id
              from responses
              where workspace_id = ${workspaceId} and form_id = ${form.id}
                and anonymised_at is null
                and ((finished and submitted_at < ${cutoff}) or (not finished and updated_at < ${cutoff}))
              order by id
              limit ${BATCH}
              for update skip locked`
            if (candidates.length === 0) return undefined
            const ids = candidates.map((row) => row.id)
            const removed = retention.action === "delete" ? candidates : candidates.filter((row) => !row.finished)
            const anonymised = retention.action === "anonymise" ? candidates.filter((row) => row.finished) : []
            const removedIds = removed.map((row) => row.id)
            const anonymisedIds = anonymised.map((row) => row.id)

            // E-mails and replies of every one (an anonymised case keeps none), and their files.
            const forgottenMail = yield* mail.forget(workspaceId, "", ids)
            const forgottenFiles = yield* files.forgetResponsesFiles(workspaceId, ids, forgottenMail.replyFileIds)

            if (removedIds.length > 0) {
              yield* cases.deleteResponses(workspaceId, removedIds)
              yield* settleDeleted(
                workspaceId,
                now,
                removed.map((row) => ({
                  id: row.id,
                  formId: form.id,
                  formTitle: form.title,
                  finished: row.finished,
                  stageId: row.stage_id,
                  tags: row.tags
                }))
              )
            }

            if (anonymisedIds.length > 0) {
              // The events about them carry their answers: gone, with their unsent deliveries.
              yield* outbox.forgetResponses(workspaceId, anonymisedIds)
              yield* cases.anonymise(workspaceId, anonymisedIds, retention.days, actor, now)
            }

            const counts = {
              deleted: retention.action === "delete" ? removed.filter((row) => row.finished).length : 0,
              anonymised: anonymisedIds.length,
              partialResponses: removed.filter((row) => !row.finished).length,
              files: forgottenFiles.length,
              emails: forgottenMail.emailIds.length + forgottenMail.replyIds.length
            }
            // Counts only: which form, what was done, how much; never whose.
            yield* AuditLog.record(sql, actor, {
              action: "retention.run",
              target: { type: "form", id: form.id },
              details: { formId: form.id, action: retention.action, olderThanDays: retention.days, ...counts }
            })
            return { counts, full: candidates.length === BATCH, blobKeys: forgottenFiles.map((row) => row.storage_key) }
          })
        )

      /** One form, batch after batch until nothing old enough is left. */
      const runForm = Effect.fnUntraced(function* (form: FormRow, now: Date) {
        const retention = retentionOf(form.retention)
        if (retention === undefined) return undefined
        let total: FormRetentionCounts = {
          formId: form.id,
          action: retention.action,
          olderThanDays: retention.days,
          deleted: 0,
          anonymised: 0,
          partialResponses: 0,
          files: 0,
          emails: 0
        }
        let changed = false
        while (true) {
          const done = yield* batch(form, retention, now)
          if (done === undefined) break
          changed = true
          total = add(total, done.counts)
          // Only once the batch has committed: a blob is never gone while its record is still there.
          yield* files.deleteBlobs(done.blobKeys)
          if (!done.full) break
        }
        return changed ? total : undefined
      })

      const runForms = Effect.fnUntraced(function* (workspaceId: number | undefined) {
        const now = new Date(yield* Clock.currentTimeMillis)
        const forms = yield* formsOf(workspaceId)
        const byWorkspace = new Map<number, Array<FormRetentionCounts>>()
        for (const form of forms) {
          const counts = yield* runForm(form, now)
          if (counts === undefined) continue
          const list = byWorkspace.get(form.workspace_id) ?? []
          list.push(counts)
          byWorkspace.set(form.workspace_id, list)
        }
        return byWorkspace
      })

      const run = Effect.gen(function* () {
        const byWorkspace = yield* runForms(undefined)
        return { workspaces: [...byWorkspace].map(([workspaceId, forms]) => ({ workspaceId, forms })) }
      }).pipe(Effect.withSpan("Retention.run"))

      const runWorkspace = Effect.fn("Retention.runWorkspace")(function* (workspaceId: number) {
        return (yield* runForms(workspaceId)).get(workspaceId) ?? []
      })

      const runDue = Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        // The claim: one statement moves each due workspace's time forward by the lease, so another process
        // finds it not due; a workspace seen for the first time is due at once.
        const claimed = yield* sql<{ readonly workspace_id: number }>`
          insert into retention_runs (workspace_id, next_at, started_at)
          select distinct workspace_id, ${new Date(now.getTime() + LEASE_MS)}::timestamptz, ${now}::timestamptz
          from forms where jsonb_typeof(settings -> 'retention') = 'object'
          on conflict (workspace_id) do update set next_at = excluded.next_at, started_at = excluded.started_at
            where retention_runs.next_at <= ${now}
          returning workspace_id`
        const workspaces: Array<RetentionReport["workspaces"][number]> = []
        for (const { workspace_id: workspaceId } of [...claimed].sort((a, b) => a.workspace_id - b.workspace_id)) {
          const forms = yield* runWorkspace(workspaceId)
          if (forms.length > 0) workspaces.push({ workspaceId, forms })
          const finished = new Date(yield* Clock.currentTimeMillis)
          yield* sql`
            update retention_runs set next_at = ${new Date(now.getTime() + DAY_MS)}, finished_at = ${finished}
            where workspace_id = ${workspaceId}`
        }
        return { workspaces }
      }).pipe(Effect.withSpan("Retention.runDue"))

      return Retention.of({ run, runWorkspace, runDue })
    })
  ).pipe(Layer.provide([Events.layer, Files.layer]))
}

/** How often the scheduler looks for due workspaces: every ten minutes. */
const POLL = "10 minutes"

/**
 * Runs {@link Retention} `runDue` now and every ten minutes while the layer
 * lives: each workspace's retention runs once a day, on one server at a time.
 * `Qforms.make` runs it; include it when you build your own server from the
 * layers.
 *
 * @example
 * ```ts
 * const Background = Layer.mergeAll(Retention.layerScheduler, Worker.layer({ appUrl }))
 * ```
 */
export const layerScheduler: Layer.Layer<never, never, Retention> = Layer.effectDiscard(
  Effect.gen(function* () {
    const retention = yield* Retention
    const once = retention.runDue.pipe(
      Effect.tap(({ workspaces }) =>
        workspaces.length > 0
          ? Effect.logInfo(`qforms: retention applied in ${workspaces.length} workspace(s)`)
          : Effect.void
      ),
      Effect.catchCause((cause) => Effect.logWarning("qforms: applying the forms' retention failed", cause))
    )
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(once, Effect.sleep(POLL))))
  })
)
