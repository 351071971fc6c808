/**
 * Status edits: the respondent changes their answers after submitting, from
 * their status page (`/s/{token}/edit`, `pages/StatusPage.ts`), while the
 * form allows it (`settings.editableForHours`) and the response was submitted
 * less than that many hours ago. The answers go through what a member's edit
 * goes through (`AnswerEdits`: the form's logic, the same checks and
 * messages, variables and ending worked out again) and are stored by
 * `ResponseUpdates` with an `answers_changed` activity by the respondent and
 * one `response.updated` event, in one transaction. A merged-away response
 * (`ResponseMerges`), an unfinished one, or one of a form without the setting
 * cannot be changed. Answers to file and signature questions (their uploads)
 * and consent questions are kept as they are.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import {
  type AnswerInput,
  type AnswerIssue,
  type AnswerValue,
  type Field,
  Forms,
  type FormSettings,
  type FormWithFields,
  isConsent,
  type Say,
  takesAnswer,
  takesUploads,
  WorkspaceSettingsStore
} from "../forms/index.ts"
import { Actors } from "../kernel/index.ts"
import * as AnswerEdits from "./AnswerEdits.ts"
import type { Row } from "./ResponseRows.ts"
import * as ResponseUpdates from "./ResponseUpdates.ts"
import type { StatusTarget } from "./StatusLinks.ts"
import { Members } from "../identity/index.ts"
import { Events } from "../events/index.ts"
import { Activities } from "./Activities.ts"
import { Contacts } from "./Contacts.ts"

/**
 * Until when a response submitted at `submittedAt` may be changed by its respondent; undefined when the form's
 * settings do not allow it.
 *
 * @example
 * ```ts
 * editableUntil({ editableForHours: 24 }, new Date("2026-11-28T10:00:00Z")) // 2026-11-29T10:00:00Z
 * ```
 */
export const editableUntil = (
  settings: Pick<FormSettings, "editableForHours">,
  submittedAt: Date
): Date | undefined => {
  const hours = settings.editableForHours
  return hours === undefined || hours === null ? undefined : new Date(submittedAt.getTime() + hours * 3_600_000)
}

/**
 * Whether the respondent may change a question's answer on their status page: not a statement, not a consent
 * (given once, as submitted), not a question whose answer is an upload (the stored file is kept).
 *
 * @example
 * ```ts
 * isEditable({ type: "short_text" }) // true
 * isEditable({ type: "file" }) // false
 * ```
 */
export const isEditable = (field: Pick<Field, "type">): boolean =>
  takesAnswer(field) && !isConsent(field) && !takesUploads(field)

/**
 * A response as its edit page sees it: its form (in its own language), its stored answers, until when they may
 * change (undefined: the form does not allow it), and whether they may change now.
 */
export interface EditWindow {
  readonly form: FormWithFields
  readonly answers: Readonly<Record<string, AnswerValue>>
  readonly until: Date | undefined
  readonly open: boolean
}

/** The outcome of a respondent's edit. */
export type EditOutcome =
  | { readonly _tag: "Saved"; readonly changed: number }
  | { readonly _tag: "Closed" }
  | { readonly _tag: "Refused"; readonly issues: ReadonlyArray<AnswerIssue> }

class Closed extends Data.TaggedError("StatusEditClosed")<Record<never, never>> {}
class Refused extends Data.TaggedError("StatusEditRefused")<{ readonly issues: ReadonlyArray<AnswerIssue> }> {}

interface ResponseRow {
  readonly form_id: number
  readonly submitted_at: Date
  readonly finished: boolean
  readonly merged_into: number | null
  readonly answers: Record<string, AnswerValue>
}

/**
 * The respondent's own changes of their answers.
 *
 * @example
 * ```ts
 * const edits = yield* StatusEdits
 * const window = yield* edits.window(target) // window?.open: the respondent may change the answers now
 * const outcome = yield* edits.save(target, { "3": "Refund" }, voice.say) // { _tag: "Saved", changed: 1 }
 * ```
 */
export class StatusEdits extends Context.Service<
  StatusEdits,
  {
    /** The response's form and answers and whether they may change now; undefined when it or its form is gone. */
    readonly window: (target: StatusTarget) => Effect.Effect<EditWindow | undefined, SqlError.SqlError>
    /**
     * Applies the respondent's answers (by question id; null clears an optional one) to their response: checked
     * as a submission is (messages said by `say`), stored with its activity and event; `Closed` when the
     * answers cannot be changed (now), `Refused` with the issues when they are not valid.
     */
    readonly save: (
      target: StatusTarget,
      edits: Readonly<Record<string, AnswerInput>>,
      say: Say
    ) => Effect.Effect<EditOutcome, SqlError.SqlError>
  }
>()("@qforms/core/StatusEdits") {
  static readonly layer = Layer.effect(
    StatusEdits,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const forms = yield* Forms
      const { editAnswersAs } = yield* ResponseUpdates.make

      const isOpen = (
        row: { readonly finished: boolean; readonly merged_into?: number | null; readonly submitted_at: Date },
        settings: FormSettings,
        now: Date
      ): boolean => {
        if (!row.finished || row.merged_into != null) return false
        const until = editableUntil(settings, row.submitted_at)
        return until !== undefined && now.getTime() < until.getTime()
      }

      const window = Effect.fn("StatusEdits.window")(function* (target: StatusTarget) {
        const rows = yield* sql<ResponseRow>`
          select form_id, submitted_at, finished, merged_into, answers from responses
          where workspace_id = ${target.workspaceId} and id = ${target.responseId}`
        const row = rows[0]
        if (row === undefined) return undefined
        const form = yield* Effect.option(forms.get(Actors.system(target.workspaceId), row.form_id))
        if (Option.isNone(form)) return undefined
        const now = new Date(yield* Clock.currentTimeMillis)
        return {
          form: form.value,
          answers: row.answers,
          until: editableUntil(form.value.settings, row.submitted_at),
          open: isOpen(row, form.value.settings, now)
        } satisfies EditWindow
      })

      const save = Effect.fn("StatusEdits.save")(function* (
        target: StatusTarget,
        edits: Readonly<Record<string, AnswerInput>>,
        say: Say
      ) {
        const actor = Actors.respondent(target.workspaceId)
        // Only the questions the respondent may change: an upload's or a consent's answer stays as submitted.
        const check = (row: Row, now: Date) =>
          Effect.gen(function* () {
            const found = yield* forms.forSubmission(target.workspaceId, row.form_id)
            if (Option.isNone(found) || !isOpen(row, found.value.settings, now)) return yield* new Closed()
            const byId = new Map(found.value.fields.map((field) => [String(field.id), field]))
            const own = Object.fromEntries(
              Object.entries(edits).filter(([key]) => {
                const field = byId.get(key)
                return field !== undefined && isEditable(field)
              })
            )
            const applied = AnswerEdits.apply(found.value, row.answers, own, say)
            if (Result.isFailure(applied)) return yield* new Refused({ issues: applied.failure })
            return own
          })
        return yield* editAnswersAs(actor, target.responseId, check).pipe(
          Effect.map((changes): EditOutcome => ({ _tag: "Saved", changed: changes.length })),
          Effect.catchTag("StatusEditClosed", () => Effect.succeed<EditOutcome>({ _tag: "Closed" })),
          Effect.catchTag("ResponseNotFound", () => Effect.succeed<EditOutcome>({ _tag: "Closed" })),
          Effect.catchTag("StatusEditRefused", (refused) =>
            Effect.succeed<EditOutcome>({ _tag: "Refused", issues: refused.issues })
          ),
          // A place the edit would take that is not free (ResponseLimits.claimEdit), at `answers.<id>`, or a race
          // with a form change (the checks above passed with the same answers).
          Effect.catchTag("InvalidInput", (invalid) =>
            Effect.succeed<EditOutcome>({
              _tag: "Refused",
              issues: (invalid.details ?? []).map((d) => {
                const question = /^answers\.(\d+)$/.exec(d.path)?.[1]
                return { path: d.path, fieldId: question === undefined ? null : Number(question), message: d.message }
              })
            })
          )
        )
      })

      return StatusEdits.of({ window, save })
    })
  ).pipe(
    Layer.provide([
      Activities.layer,
      Contacts.layer,
      Events.layer,
      Forms.layer,
      Members.layer,
      WorkspaceSettingsStore.layer
    ])
  )
}
