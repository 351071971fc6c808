/**
 * When a form stops taking responses by its settings (`forms/FormSettings.ts`):
 * at `closesAt`, and once it has `maxResponses`; and when a choice with a
 * quota (`options.quotas` of a select or checkboxes question) is full. The
 * moment is checked when a response is submitted; the counts are checked
 * inside the submission's transaction under a lock on the form's row (`for no
 * key update`), so that submissions racing for the last places are checked
 * one after the other and neither the form nor a choice ever takes one more
 * than its limit, nor one e-mail address a second response with
 * `oneResponsePerEmail`. An edit of a submitted response's answers (a
 * member's, or the respondent's on the status page) goes through the same
 * checks for what it newly takes, under the same lock (`claimEdit`). The lock
 * is taken only by forms with a limit, a quota or that setting.
 * The form's count is the sum of its sharded counters (`ResponseCounts.ts`),
 * written in the same transactions; a choice's is counted over the form's
 * submitted responses.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { type AnswerValue, type Field, type FormSettings, quotasOf, responseCount } from "../forms/index.ts"
import { Conflict, InvalidInput } from "../kernel/index.ts"
import { respondentEmailOf } from "./Respondents.ts"

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

/** A form as its limits read it: its settings and its questions (their quotas). */
type LimitedForm = { readonly settings: FormSettings; readonly fields: ReadonlyArray<Field> }

/** The response an edit changes, as it is: it does not count against itself. */
type EditedResponse = {
  readonly id: number
  readonly email: string | null
  readonly answers: Readonly<Record<string, AnswerValue>>
}

/** The limits, on the current `SqlClient`. */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const count = (workspaceId: number, formId: number) =>
    Effect.map(
      // int8 sum: a bigint on PostgreSQL, a number on PGlite; Number() reads both.
      sql<{ readonly n: number | bigint }>`select ${responseCount(sql, workspaceId, formId)} as n`,
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

  /** The choices of a question whose quota the form's submitted responses have used up. */
  const fullChoices = Effect.fnUntraced(function* (workspaceId: number, formId: number, field: Field) {
    const quotas = quotasOf(field)
    if (quotas.length === 0) return new Set<string>()
    const key = String(field.id)
    // A select's answer is the choice itself, a checkboxes answer a list holding it.
    const rows = yield* sql<{ readonly choice: string; readonly n: number | bigint }>`
      select q.choice, (
        select count(*) from responses r
        where r.workspace_id = ${workspaceId} and r.form_id = ${formId} and r.finished
          and (r.answers -> ${key} = to_jsonb(q.choice) or r.answers -> ${key} @> jsonb_build_array(q.choice))
      ) as n
      from unnest(${quotas.map(([choice]) => choice)}::text[]) as q(choice)`
    const limit = new Map(quotas)
    return new Set(rows.filter((row) => Number(row.n) >= (limit.get(row.choice) ?? Infinity)).map((row) => row.choice))
  })

  /**
   * The places `values` would take that are not free, as issues at `<prefix>.<question id>`: an e-mail
   * address a response of the form already has (with `oneResponsePerEmail`), a choice whose quota is full.
   * `previous`: an edit's response as it is (its id and answers): it does not count against itself, and only
   * what the edit newly takes is checked (a choice it already had stays its own).
   */
  const takenPlaces = Effect.fnUntraced(function* (
    workspaceId: number,
    formId: number,
    form: LimitedForm,
    values: Readonly<Record<string, AnswerValue>>,
    email: string | null,
    prefix: "values" | "answers",
    previous?: EditedResponse
  ) {
    const issues: Array<{ readonly path: string; readonly message: string }> = []
    const newAddress = email !== null && email.toLowerCase() !== previous?.email?.toLowerCase()
    if (form.settings.oneResponsePerEmail === true && newAddress) {
      const before = yield* sql`
        select 1 from responses
        where workspace_id = ${workspaceId} and form_id = ${formId} and finished and lower(email) = lower(${email})
          and id <> ${previous?.id ?? 0}
        limit 1`
      if (before.length > 0) {
        // On the question the address came from.
        const from = respondentEmailOf(form.fields, values)?.field.id
        issues.push({
          path: from === undefined ? prefix : `${prefix}.${from}`,
          message: "a response with this e-mail address was already submitted to this form"
        })
      }
    }
    const choicesOf = (answers: Readonly<Record<string, AnswerValue>>, field: Field) => {
      const answer = Object.hasOwn(answers, String(field.id)) ? answers[String(field.id)] : undefined
      return typeof answer === "string" ? [answer] : Array.isArray(answer) ? answer : []
    }
    for (const field of form.fields) {
      const had = new Set(previous === undefined ? [] : choicesOf(previous.answers, field))
      const chosen = choicesOf(values, field).filter((choice) => !had.has(choice))
      if (chosen.length === 0 || quotasOf(field).length === 0) continue
      const taken = yield* fullChoices(workspaceId, formId, field)
      const over = chosen.find((choice) => taken.has(choice))
      if (over !== undefined) {
        issues.push({
          path: `${prefix}.${field.id}`,
          message: `${JSON.stringify(field.label)}: ${JSON.stringify(over)} is full`
        })
      }
    }
    return issues
  })

  /** The form's row, locked until the transaction ends: its submissions and edits are checked one at a time. */
  const holdForm = (workspaceId: number, formId: number) =>
    sql`select id from forms where workspace_id = ${workspaceId} and id = ${formId} for no key update`

  const refuse = (issues: ReadonlyArray<{ readonly path: string; readonly message: string }>) =>
    new InvalidInput({ message: issues.map((i) => i.message).join("; "), details: issues })

  /**
   * Inside a submission's transaction, before its response is counted: locks
   * the form's row (held until the transaction ends, so the next submission
   * counts after this one is in), fails with 409 when the form is full, and
   * with 400 naming the question when a chosen choice is full (the respondent
   * may pick another).
   */
  const claimPlace = Effect.fnUntraced(function* (
    workspaceId: number,
    formId: number,
    form: LimitedForm,
    values: Readonly<Record<string, AnswerValue>>,
    email: string | null
  ) {
    if (!limited(form)) return
    yield* holdForm(workspaceId, formId)
    const stop = yield* full(workspaceId, formId, form.settings)
    if (stop !== undefined) return yield* refusal(stop)
    const issues = yield* takenPlaces(workspaceId, formId, form, values, email, "values")
    if (issues.length > 0) return yield* refuse(issues)
  })

  /**
   * Inside an answer edit's transaction (a member's, or the respondent's on their status page): the same
   * limits as a submission, under the same lock, for what the edit newly takes: another response's e-mail
   * address (with `oneResponsePerEmail`), a choice whose quota is full; 400 naming the question
   * (`answers.<id>`). An edit adds no response, so the form's own limit does not apply.
   */
  const claimEdit = Effect.fnUntraced(function* (
    workspaceId: number,
    formId: number,
    form: LimitedForm,
    values: Readonly<Record<string, AnswerValue>>,
    email: string | null,
    previous: EditedResponse
  ) {
    if (!limited(form)) return
    yield* holdForm(workspaceId, formId)
    const issues = yield* takenPlaces(workspaceId, formId, form, values, email, "answers", previous)
    if (issues.length > 0) return yield* refuse(issues)
  })

  return { full, fullChoices, claimPlace, claimEdit }
})

/** Whether a form has a limit, a quota or one response per e-mail address, so that its submissions take {@link make}'s lock. */
export const limited = (form: {
  readonly settings: FormSettings
  readonly fields: ReadonlyArray<{ readonly options: Field["options"] }>
}): boolean =>
  form.settings.maxResponses !== undefined ||
  form.settings.oneResponsePerEmail === true ||
  form.fields.some((f) => quotasOf(f).length > 0)
