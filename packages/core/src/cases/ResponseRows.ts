/**
 * A response as stored: its row and columns, the row as the API shows it
 * (with flat answers when asked), its search text, and the payload of the
 * events it causes.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import type * as SqlClient from "effect/sql/SqlClient"
import { type AnswerValue, type Field, Sensitive, type SlaColumns, slaOf, Summaries } from "../forms/index.ts"
import { ResponseNotFound } from "../kernel/index.ts"
import type { SpecEventBody } from "../events/index.ts"
import type { CaseFieldValues } from "./CaseFields.ts"
import type { ResponseRow } from "./ResponseModels.ts"
import { deriveRespondent } from "./Respondents.ts"

/** The stored row of a response (with its SLA columns when read with {@link columns}). */
export interface Row extends SlaColumns {
  readonly id: number
  readonly form_id: number
  readonly submitted_at: Date
  readonly updated_at: Date
  readonly name: string | null
  readonly email: string | null
  readonly stage_id: number | null
  readonly assignee_id: number | null
  readonly tags: ReadonlyArray<string>
  readonly source: string
  readonly answers: Record<string, AnswerValue>
  readonly finished: boolean
  readonly language: string | null
  /** The response it was merged into (`ResponseMerges.ts`): a pointer now, out of lists; null otherwise. */
  readonly merged_into?: number | null
  /** The case's custom field values by key (`CaseFields.ts`); `{}` for none. */
  readonly case_fields?: CaseFieldValues
}

export const columns = `id, form_id, submitted_at, updated_at, name, email, stage_id, assignee_id, tags, source, answers, finished, language, first_response_due_at, first_response_warn_at, first_responded_at, resolve_due_at, resolve_warn_at, resolved_at, merged_into, case_fields`

/** The flat answers and summary of a response's values (`Summaries.flattener` of its form's fields). */
export type Flatten = ReturnType<typeof Summaries.flattener>

/**
 * The name and e-mail a viewer may read: one that the answers of a sensitive
 * question give (the respondent's name or address asked in a question marked
 * sensitive) is what the other questions give instead, else masked.
 */
const respondentUnmasked = (
  fields: ReadonlyArray<Field>,
  answers: Readonly<Record<string, AnswerValue>>,
  row: { readonly name: string | null; readonly email: string | null }
): { readonly name: string | null; readonly email: string | null } => {
  const all = deriveRespondent(fields, answers)
  const open = deriveRespondent(
    fields.filter((field) => !Sensitive.isSensitive(field)),
    answers
  )
  const shown = (stored: string | null, fromAll: string | null, fromOpen: string | null) =>
    stored === null || fromAll === null || stored.toLowerCase() !== fromAll.toLowerCase() || fromAll === fromOpen
      ? stored
      : (fromOpen ?? Sensitive.MASK)
  return { name: shown(row.name, all.name, open.name), email: shown(row.email, all.email, open.email) }
}

/**
 * A stored response as the API shows it (its SLA's state at `now`). With `masked` (the form's questions, for a viewer: see
 * `Sensitive.readsMasked`), the answers of sensitive questions read "•••" in `values`, `answers` and `summary`,
 * their ids are listed in `redacted`, and a name or e-mail they gave is not shown either.
 */
export const toRow = (
  row: Row,
  flatten: Flatten | undefined,
  masked: ReadonlyArray<Field> | undefined,
  now: number
): ResponseRow => {
  const { values, masked: redacted } =
    masked === undefined
      ? { values: row.answers, masked: [] }
      : Sensitive.maskValues(masked, row.answers, Sensitive.MASK)
  const { name, email } =
    redacted.length === 0 || masked === undefined ? row : respondentUnmasked(masked, row.answers, row)
  const base: ResponseRow = {
    id: row.id,
    submittedAt: row.submitted_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    name,
    email,
    stageId: row.stage_id,
    assigneeId: row.assignee_id,
    tags: row.tags,
    source: row.source,
    values,
    finished: row.finished,
    language: row.language,
    caseFields: row.case_fields ?? {}
  }
  const sla = slaOf(row, now)
  const marked = {
    ...(redacted.length === 0 ? {} : { redacted }),
    ...(sla === undefined ? {} : { sla }),
    ...(row.merged_into == null ? {} : { mergedInto: row.merged_into })
  }
  if (flatten === undefined) return { ...base, ...marked }
  const { answers, summary } = flatten(values)
  return { ...base, answers, summary, ...marked }
}

/**
 * The searchable text of a response: its tags on the first line, then name,
 * e-mail and every answer, lower-cased. A tag change rewrites only the first
 * line (tags cannot hold a line break), so the answers need not be read again.
 */
export const searchText = (
  tags: ReadonlyArray<string>,
  name: string | null,
  email: string | null,
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>
): string =>
  `${tags.join(" ")}\n${[name ?? "", email ?? "", ...Object.values(Summaries.flatAnswers(fields, values))].join(" ")}`.toLowerCase()

/**
 * A response as its events carry it: the contract's WebhookEvent less `event` and `link`. The catalogue's
 * other response events add their own fields to it.
 */
export const responseEventFields = (
  form: { readonly id: number; readonly title: string },
  fields: ReadonlyArray<Field>,
  row: Pick<Row, "id" | "submitted_at" | "name" | "email" | "answers" | "language" | "case_fields">,
  stage: { readonly id: number; readonly name: string } | null,
  linkBase: string
): Omit<SpecEventBody, "event"> => ({
  form: { id: form.id, title: form.title },
  responseId: row.id,
  submittedAt: row.submitted_at.toISOString(),
  stage,
  respondent: { name: row.name, email: row.email },
  answers: Summaries.flatAnswers(fields, row.answers, linkBase),
  summary: Summaries.summary(fields, row.answers, linkBase),
  ...(row.language === null ? {} : { language: row.language }),
  ...(row.case_fields === undefined || Object.keys(row.case_fields).length === 0 ? {} : { caseFields: row.case_fields })
})

/** The body of an event of the contract a response causes (spec: WebhookEvent without its link). */
export const eventPayload = (
  event: SpecEventBody["event"],
  form: { readonly id: number; readonly title: string },
  fields: ReadonlyArray<Field>,
  row: Row,
  stage: { readonly id: number; readonly name: string } | null,
  linkBase: string
): SpecEventBody => ({ event, ...responseEventFields(form, fields, row, stage, linkBase) })

/** The row of a response of the workspace (locked `for update` when `lock`), or `ResponseNotFound`. */
export const findRow = (sql: SqlClient.SqlClient, workspaceId: number, responseId: number, lock: boolean) =>
  Effect.flatMap(
    sql<Row>`
      select ${sql.literal(columns)} from responses where workspace_id = ${workspaceId} and id = ${responseId}
      ${lock ? sql`for update` : sql``}`,
    (rows) =>
      rows.length === 0
        ? Effect.fail(new ResponseNotFound({ message: `response ${responseId} not found` }))
        : Effect.succeed(rows[0]!)
  )
