/**
 * Partial responses: the public page saves the answers so far
 * (`finished: false`), resumes them, and old ones are purged. No activity or
 * count is written until the response is submitted, and no event but the
 * opt-in `response.partial` at the first answer.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as SqlClient from "effect/sql/SqlClient"
import { Actors, SentLinkBase } from "../kernel/index.ts"
import {
  type AnswerValue,
  cleanAnswers,
  FormLogic,
  isRealAnswer,
  takesUploads,
  validateAnswers
} from "../forms/index.ts"
import { deriveRespondent } from "./Respondents.ts"
import * as ResponseCounts from "./ResponseCounts.ts"
import type { SubmitInput } from "./ResponseModels.ts"
import { responseEventFields, searchText } from "./ResponseRows.ts"
import * as SubmissionChecks from "./SubmissionChecks.ts"
import { Events, hearsForm } from "../events/index.ts"

/** The partial-response operations of the `Responses` service. */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const { countTags } = yield* ResponseCounts.make
  const { checkHidden, invalid, openForm, stored } = yield* SubmissionChecks.make
  const events = yield* Events

  const savePartial = Effect.fn("Responses.savePartial")(function* (
    actor: Actors.Actor,
    formId: number,
    input: SubmitInput,
    partialId: number | undefined
  ) {
    yield* Actors.requireSubmit(actor)
    const now = new Date(yield* Clock.currentTimeMillis)
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const form = yield* openForm(actor, formId)
        const hidden = yield* checkHidden(form.hiddenFields, input.hidden ?? {})
        const fields = form.fields
        // Logic reads the answers as they are stored ("9:05" as "09:05"), as on the page.
        const facts = FormLogic.branches(fields) ? cleanAnswers(fields, input.values) : input.values
        const route = FormLogic.onPath(fields, {
          values: facts,
          hidden,
          variables: FormLogic.startingValues(form.settings.variables)
        })
        // Uploads are attached when the response is submitted, so a partial one keeps no file answer;
        // nothing is required yet.
        const kept = Object.fromEntries(
          Object.entries(route.values).filter(([key]) => {
            const field = fields.find((f) => String(f.id) === key)
            return field === undefined || !takesUploads(field)
          })
        )
        const validated = validateAnswers(
          route.fields.map((f) => ({ ...f, required: false })),
          kept
        )
        if (Result.isFailure(validated)) return yield* invalid(validated.failure)
        const values = stored(validated.success, hidden)
        const respondent = deriveRespondent(fields, values)
        const text = searchText([], respondent.name, respondent.email, fields, values)
        const updated =
          partialId === undefined
            ? []
            : yield* sql<{ readonly id: number }>`
        update responses set updated_at = ${now}, name = ${respondent.name}, email = ${respondent.email},
          answers = ${JSON.stringify(values)}::jsonb,
          search_text = lower(array_to_string(tags, ' ')) || ${"\n"} || ${text.slice(text.indexOf("\n") + 1)}
        where workspace_id = ${actor.workspaceId} and form_id = ${formId} and id = ${partialId} and not finished
        returning id`
        if (updated[0] !== undefined) return updated[0].id
        // A new row only for a real answer: a Start step, empty optional answers or hidden values keep nothing.
        if (!Object.values(validated.success).some(isRealAnswer)) return undefined
        const inserted = yield* sql<{ readonly id: number }>`
        insert into responses (workspace_id, form_id, submitted_at, updated_at, name, email,
          tags, source, answers, search_text, finished)
        values (${actor.workspaceId}, ${formId}, ${now}, ${now}, ${respondent.name}, ${respondent.email},
          ${[]}::text[], ${"form"}, ${JSON.stringify(values)}::jsonb, ${text}, false)
        returning id`
        const id = inserted[0]!.id
        // `response.partial` is opt-in: written only while a subscription that hears the form names it.
        const wanted = yield* sql<{ readonly wanted: boolean }>`
          select exists (
            select 1 from webhook_subscriptions s where s.workspace_id = ${actor.workspaceId} and ${hearsForm(sql, formId)}
              and 'response.partial' = any(s.events) and s.disabled_at is null
          ) as wanted`
        if (wanted[0]?.wanted === true) {
          const response = { id, submitted_at: now, name: respondent.name, email: respondent.email, answers: values }
          yield* events.record(actor.workspaceId, now, {
            event: "response.partial",
            ...responseEventFields(
              { id: formId, title: form.title },
              fields,
              { ...response, language: null },
              null,
              yield* SentLinkBase
            ),
            submittedAt: null,
            startedAt: now.toISOString()
          })
        }
        return id
      })
    )
  })

  const partialAnswers = Effect.fn("Responses.partialAnswers")(function* (
    workspaceId: number,
    formId: number,
    partialId: number
  ) {
    const rows = yield* sql<{ readonly answers: Record<string, AnswerValue> }>`
      select answers from responses
      where workspace_id = ${workspaceId} and form_id = ${formId} and id = ${partialId} and not finished`
    return rows[0] === undefined ? Option.none() : Option.some(rows[0].answers)
  })

  const purgePartials = Effect.fn("Responses.purgePartials")(function* (maxAgeMs: number) {
    const cutoff = new Date((yield* Clock.currentTimeMillis) - maxAgeMs)
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<{
          readonly workspace_id: number
          readonly form_id: number
          readonly tags: ReadonlyArray<string>
        }>`
        delete from responses where not finished and updated_at < ${cutoff}
        returning workspace_id, form_id, tags`
        yield* Effect.forEach(rows, (row) => countTags(row.workspace_id, row.form_id, row.tags, -1), { discard: true })
        return rows.length
      })
    )
  })

  return { savePartial, partialAnswers, purgePartials }
})
