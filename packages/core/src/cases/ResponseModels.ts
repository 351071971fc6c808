/**
 * The Schemas and types of responses (cases): what a submission and a change
 * take, a response as listed and in detail, the list's filters and pages.
 * `Responses.ts` re-exports all of it.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { Activity } from "./Activities.ts"
import { CaseField, CaseFieldChanges, CaseFieldFilters, CaseFieldValues } from "./CaseFields.ts"
import { LanguageTag } from "../languages/index.ts"
import {
  AnswerInput,
  AnswerInputs,
  AnswerValue,
  Field,
  FormLogic,
  FormStatus,
  ResponseSla,
  Stage
} from "../forms/index.ts"
import { Member } from "../identity/index.ts"
import { ResponseEmail, ResponseReply } from "./CaseMail.ts"
import { Id, Tag } from "../kernel/index.ts"

export { ResponseSla } from "../forms/index.ts"

export { normalizeTags, Tag } from "../kernel/index.ts"

/** Where a response came from: the public page, the API, an assistant (MCP), or an import. */
export const ResponseSource = Schema.Literals(["form", "api", "mcp", "import"])
export type ResponseSource = typeof ResponseSource.Type

/** An SLA target of a form (`settings.sla`): the first response, or the resolution. */
export const SlaTarget = Schema.Literals(["firstResponse", "resolve"])
export type SlaTarget = typeof SlaTarget.Type

/** A response as listed (spec: ResponseRow). `answers` and `summary` only with `flat=1`. */
export const ResponseRow = Schema.Struct({
  id: Schema.Int,
  submittedAt: Schema.String,
  updatedAt: Schema.String,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  stageId: Schema.NullOr(Schema.Int),
  assigneeId: Schema.NullOr(Schema.Int),
  tags: Schema.Array(Schema.String),
  source: Schema.String,
  values: Schema.Record(Schema.String, AnswerValue).annotate({
    description:
      "The answers keyed by question id (`fields[].id`); hidden field values as `hidden:<name>`; extension: " +
      "the form's variables as `var:<name>` and the key of the ending shown as `ending`."
  }),
  // Before the optional keys: the streamed list writes rows in this order too (see `toRow`).
  /** Extension (partial responses): false while the respondent has not submitted yet. */
  finished: Schema.Boolean,
  language: Schema.NullOr(Schema.String).annotate({
    description:
      "Extension: the language the response was given in (BCP 47: the public page's, or `language` of an API " +
      "submission); null when not known (then the form's own). Answers are keyed the same in every language."
  }),
  caseFields: CaseFieldValues,
  answers: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  summary: Schema.optionalKey(Schema.String),
  redacted: Schema.optionalKey(Schema.Array(Schema.Int)).annotate({
    description:
      "Extension (sensitive questions): for a viewer, the ids of the questions whose answers are masked: they read " +
      '"•••" in `values`, `answers` and `summary`. Absent when nothing is masked.'
  }),
  sla: Schema.optionalKey(ResponseSla).annotate({
    description:
      "Extension (SLAs): its due times and state, when its form had SLA targets as it was submitted; absent otherwise."
  }),
  mergedInto: Schema.optionalKey(Schema.Int).annotate({
    description:
      "Extension (merged duplicates): the response this one was merged into (`POST /responses/{id}/merge`); it is " +
      "a pointer now, out of lists and counts: follow it. Absent otherwise."
  })
}).annotate({ identifier: "ResponseRow" })
export type ResponseRow = typeof ResponseRow.Type

/** What a submission takes: answers keyed by question id. */
export const SubmitInput = Schema.Struct({
  values: AnswerInputs,
  /** Extension (form logic): values of the form's hidden fields, by name. */
  hidden: Schema.optionalKey(FormLogic.HiddenValues),
  /** Extension: the language the answers were given in (BCP 47), recorded on the response. */
  language: Schema.optionalKey(LanguageTag)
}).annotate({ identifier: "SubmitResponse" })
export type SubmitInput = typeof SubmitInput.Type

/**
 * What the public page's JSON submission takes (`POST /f/{publicId}/responses`,
 * no API key): the answers, plus the page's answer token and honeypot.
 */
export const PublicSubmitInput = Schema.Struct({
  values: AnswerInputs,
  /** Values of the form's hidden fields, by name (form logic). */
  hidden: Schema.optionalKey(FormLogic.HiddenValues),
  /** The page's answer token, when the page's own data is submitted as JSON: its start time is checked. */
  token: Schema.optionalKey(Schema.String).annotate({
    description:
      "The page's answer token (from the form page): when given, a submission too soon after opening is refused."
  }),
  /** The language the answers were given in (BCP 47); a page's token carries its own. */
  language: Schema.optionalKey(LanguageTag),
  /** The form's access code, for a form with the setting `accessCode`. */
  accessCode: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))).annotate({
    description: "The form's access code, when its settings have one (or a token from a page where it was typed)."
  }),
  /** The honeypot: must be absent or empty. */
  website: Schema.optionalKey(Schema.String).annotate({ description: "The honeypot: must be absent or empty." })
}).annotate({ identifier: "PublicSubmitResponse" })
export type PublicSubmitInput = typeof PublicSubmitInput.Type

/** The public submission's answer: the new response's id. */
export const PublicSubmitted = Schema.Struct({ id: Schema.Int }).annotate({ identifier: "PublicSubmitted" })

/** What changing a case takes (spec: PATCH /responses/{id}); every field optional. */
export const UpdateResponseInput = Schema.Struct({
  stageId: Schema.optionalKey(Schema.NullOr(Id)),
  assigneeId: Schema.optionalKey(Schema.NullOr(Id)),
  tags: Schema.optionalKey(
    Schema.Array(Tag).check(Schema.isMaxLength(50, { message: "a response has at most 50 tags" }))
  ),
  /** Extension: new answers of a submitted response, by question id; `null` clears an optional answer. */
  answers: Schema.optionalKey(
    Schema.Record(Schema.String, AnswerInput).annotate({
      description:
        "Extension: new answers by question id (`fields[].id`), checked as a submission's are; `null` clears an " +
        "optional answer; questions not named keep their answers. File and signature answers cannot be edited. " +
        "The form's logic, variables (scores) and ending are worked out again from the answers."
    })
  ),
  caseFields: Schema.optionalKey(CaseFieldChanges)
}).annotate({ identifier: "UpdateResponse" })
export type UpdateResponseInput = typeof UpdateResponseInput.Type

/**
 * One change made by an update: the field, its value before and after. For `answers` (an extension), `from`
 * and `to` hold only the questions whose answers changed, by question id (null: unanswered).
 */
export const ResponseChange = Schema.Struct({
  field: Schema.Literals(["stageId", "assigneeId", "tags", "answers", "caseFields"]),
  from: Schema.Unknown,
  to: Schema.Unknown
})
export type ResponseChange = typeof ResponseChange.Type

/** The result of an update (spec: `{ok, formId, changes}`). */
export const UpdateResponseResult = Schema.Struct({
  ok: Schema.Boolean,
  formId: Schema.Int,
  changes: Schema.Array(ResponseChange)
}).annotate({ identifier: "UpdateResponseResult" })
export type UpdateResponseResult = typeof UpdateResponseResult.Type

/** One case a bulk change changed: its id, its form, and the changes (as `PATCH /responses/{id}` reports them). */
export const BulkChangedResponse = Schema.Struct({
  id: Schema.Int,
  formId: Schema.Int,
  changes: Schema.Array(ResponseChange)
})

/** The result of a bulk change (`PATCH /responses`, an extension). */
export const BulkUpdateResult = Schema.Struct({
  ok: Schema.Boolean,
  matched: Schema.Int.annotate({ description: "How many responses the ids or the filter named." }),
  changed: Schema.Int.annotate({ description: "How many of them changed (the others already were as asked)." }),
  responses: Schema.Array(BulkChangedResponse).annotate({
    description: "Each changed response with its changes, by id; one that was already as asked is not listed."
  })
}).annotate({ identifier: "BulkUpdateResult" })
export type BulkUpdateResult = typeof BulkUpdateResult.Type

/**
 * A bulk change: which cases (every one of `ids`, or else those the list's
 * filters in `filter` match, in one form or the whole workspace; `from` and
 * `to` as ISO 8601 text), and what to set on each (stage, assignee) or add to
 * and remove from its tags.
 */
export interface BulkUpdate {
  readonly ids?: ReadonlyArray<number> | undefined
  readonly filter?:
    | (Omit<ResponseFilter, "from" | "to"> & {
        readonly formId?: number | undefined
        readonly from?: string | undefined
        readonly to?: string | undefined
      })
    | undefined
  readonly stageId?: number | null | undefined
  readonly assigneeId?: number | null | undefined
  readonly addTags?: ReadonlyArray<string> | undefined
  readonly removeTags?: ReadonlyArray<string> | undefined
  readonly caseFields?: CaseFieldChanges | undefined
}

/** Which responses a list shows: submitted ones (the default), partial ones, or both. */
export const ResponseStatus = Schema.Literals(["completed", "partial", "all"])
export type ResponseStatus = typeof ResponseStatus.Type

/** The list's `due` filter (extension): the SLA's earliest pending due time is past, today, or this week. */
export const DueFilter = Schema.Literals(["overdue", "today", "week"])
export type DueFilter = typeof DueFilter.Type

/** The filters of the response list (spec: GET /forms/{formId}/responses). */
export interface ResponseFilter {
  /** Extension: `completed` (default), `partial` (not yet submitted) or `all`. */
  readonly status?: ResponseStatus | undefined
  /** Matches the name, the e-mail, a tag or the text of any answer (case-insensitive, substring). */
  readonly q?: string | undefined
  readonly stage?: number | "none" | undefined
  readonly assignee?: number | "none" | undefined
  readonly tag?: string | undefined
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  /**
   * Extension (SLAs): cases with a target not met whose due time is past (`overdue`), or not past yet but
   * before the end of today (`today`) or of this week, Monday to Sunday (`week`), in the workspace's time zone.
   */
  readonly due?: DueFilter | undefined
  /** Extension (workspace inbox): only open cases, in no stage or a stage not marked closed (`is_closed`). */
  readonly open?: boolean | undefined
  /** Extension (case fields): `<key>:<value>` or `<key>:none` filters, all of which must hold (`CaseFieldFilters`). */
  readonly field?: string | ReadonlyArray<string> | undefined
}

/** A date-time in a query string: ISO 8601 between the years 1000 and 9999. */
export const IsoDateTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, {
    message: "must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z"
  }),
  Schema.makeFilter((value: string) => {
    const year = new Date(value).getUTCFullYear()
    return Number.isNaN(year)
      ? "must be a real date-time"
      : (year >= 1000 && year <= 9999) || "must be a date-time between the years 1000 and 9999"
  })
).annotate({ format: "date-time" })

/** An id, or `none`. */
export const IdOrNone = Schema.Union([Schema.Literal("none"), Id])

/** The filters every response list takes in its query string (the form's list and the workspace's). */
export const ListFilterFields = {
  q: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(200, { message: "q must be at most 200 characters" }))
  ).annotate({ description: "Matches the name, the e-mail address, a tag, or the text of any answer." }),
  tag: Schema.optionalKey(Schema.String).annotate({ description: "Only responses carrying this tag." }),
  from: Schema.optionalKey(IsoDateTime).annotate({ description: "Submitted at or after this moment." }),
  to: Schema.optionalKey(IsoDateTime).annotate({ description: "Submitted at or before this moment." }),
  due: Schema.optionalKey(DueFilter).annotate({
    description:
      "Extension (SLAs): cases with a target not met whose due time is past (`overdue`), or still ahead but " +
      "before the end of today (`today`) or of this week, Monday to Sunday (`week`), in the workspace's time zone " +
      "(its `businessHours`; UTC without them)."
  }),
  field: Schema.optionalKey(CaseFieldFilters)
}

/**
 * The filters of the workspace-wide list (`GET /responses`) as its query string takes them, and as a saved
 * view (`SavedViews.ts`) keeps them: one Schema for both, so a filter the list gains is a view's too.
 */
export const WorkspaceResponseFilter = Schema.Struct({
  formId: Schema.optionalKey(Id).annotate({ description: "Only this form's responses; every form's when absent." }),
  q: ListFilterFields.q,
  stage: Schema.optionalKey(IdOrNone).annotate({
    description: "A stage id, or `none` for responses with no stage; only with `formId` (stages are a form's)."
  }),
  assignee: Schema.optionalKey(Schema.Union([Schema.Literals(["none", "me"]), Id])).annotate({
    description: "An account id, `none` for unassigned responses, or `me` for the caller's own."
  }),
  tag: ListFilterFields.tag,
  from: ListFilterFields.from,
  to: ListFilterFields.to,
  due: ListFilterFields.due,
  field: ListFilterFields.field,
  open: Schema.optionalKey(Schema.Union([Schema.Literals(["true", "false"]), Schema.Boolean])).annotate({
    description:
      "`true`: only open cases (no stage, or a stage not marked closed); `false`: only closed ones. " +
      '`assignee=me&open=true` is "My open cases". In a saved view\'s JSON filter, `true` or `"true"` alike.'
  })
}).annotate({ identifier: "WorkspaceResponseFilter" })
export type WorkspaceResponseFilter = typeof WorkspaceResponseFilter.Type

/** The order of the workspace-wide list: `newest` submitted first (the default) or `oldest`. */
export const WorkspaceSort = Schema.Literals(["newest", "oldest"])
export type WorkspaceSort = typeof WorkspaceSort.Type

/**
 * The list's options from its query-string form (a query, a saved view's filter): only the keys given, so
 * one can be laid over another (`{ ...fromView, ...fromQuery }`).
 *
 * @example
 * ```ts
 * workspaceListOptions({ assignee: "me", open: "true" }, "oldest") // { assignee: "me", open: true, sort: "oldest" }
 * ```
 */
export const workspaceListOptions = (
  filter: Omit<WorkspaceResponseFilter, "open"> & { readonly open?: "true" | "false" | boolean | undefined },
  sort?: WorkspaceSort | undefined
): WorkspaceListOptions => {
  const { from, to, open, ...rest } = filter
  const options: { -readonly [K in keyof WorkspaceListOptions]: WorkspaceListOptions[K] } = {}
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) Object.assign(options, { [key]: value })
  }
  if (from !== undefined) options.from = new Date(from)
  if (to !== undefined) options.to = new Date(to)
  if (open !== undefined) options.open = open === true || open === "true"
  if (sort !== undefined) options.sort = sort
  return options
}

/** Options of a list: filters, `flat` answers, and keyset paging (newest first). */
export interface ListOptions extends ResponseFilter {
  readonly flat?: boolean | undefined
  /** At most this many responses; all when absent. */
  readonly limit?: number | undefined
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
}

/**
 * Options of the workspace-wide list (`GET /responses`): the list's filters in
 * every form (or `formId`'s), `assignee: "me"` for the caller's account, and
 * keyset paging (newest first). `stage` needs `formId`: stages are a form's.
 */
export interface WorkspaceListOptions extends Omit<ResponseFilter, "assignee" | "status"> {
  readonly formId?: number | undefined
  readonly assignee?: number | "none" | "me" | undefined
  /** `newest` (default) or `oldest` first. */
  readonly sort?: WorkspaceSort | undefined
  /** At most this many responses (default 50). */
  readonly limit?: number | undefined
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
}

/** A row of the workspace-wide list: a listed response with its form's id and title, and its stage's name. */
export const WorkspaceResponseRow = Schema.Struct({
  ...ResponseRow.fields,
  formId: Schema.Int,
  formTitle: Schema.String,
  stageName: Schema.NullOr(Schema.String).annotate({
    description: "The name of its stage (`stageId`; stages are a form's); null without one."
  })
}).annotate({ identifier: "WorkspaceResponseRow" })
export type WorkspaceResponseRow = typeof WorkspaceResponseRow.Type

/** A page of the workspace-wide list (`GET /responses`, an extension). */
export const WorkspaceResponseList = Schema.Struct({
  responses: Schema.Array(WorkspaceResponseRow),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "The cursor of the next page; null on the last."
  })
}).annotate({ identifier: "WorkspaceResponseList" })
export type WorkspaceResponseList = typeof WorkspaceResponseList.Type

/** Everything of the response list but the responses. */
export interface ResponseListHead {
  readonly form: { readonly id: number; readonly title: string }
  readonly fields: ReadonlyArray<Field>
  readonly stages: ReadonlyArray<Stage>
  readonly members: ReadonlyArray<Member>
  readonly allTags: ReadonlyArray<string>
  /** Extension (form logic): the form's hidden fields, whose values the rows carry as `hidden:<name>`. */
  readonly hiddenFields: ReadonlyArray<FormLogic.HiddenField>
  /** Extension: the keys of `values` beyond the questions (hidden fields, variables, the ending), in column order. */
  readonly valueKeys: ReadonlyArray<string>
  /** Extension (case fields): the form's case fields, in order; rows carry their values as `caseFields`. */
  readonly caseFieldDefinitions: ReadonlyArray<CaseField>
}

/** A page of the response list (spec: ResponseList, plus `nextCursor`). */
export interface ResponseList extends ResponseListHead {
  readonly responses: ReadonlyArray<ResponseRow>
  /** Present when `limit` cut the list: pass it as `cursor` for the next page. */
  readonly nextCursor: string | null
}

/** One response with everything about it (spec: ResponseDetail). */
export const ResponseDetail = Schema.Struct({
  response: ResponseRow,
  form: Schema.Struct({ id: Schema.Int, title: Schema.String, publicId: Schema.String, status: FormStatus }),
  fields: Schema.Array(Field),
  stages: Schema.Array(Stage),
  members: Schema.Array(Member),
  activities: Schema.Array(Activity),
  emails: Schema.Array(ResponseEmail),
  replies: Schema.Array(ResponseReply),
  caseFieldDefinitions: Schema.Array(CaseField).annotate({
    description: "Extension (case fields): the form's case fields, in order (`GET /forms/{formId}/case-fields`)."
  })
}).annotate({ identifier: "ResponseDetail" })

export type ResponseDetail = typeof ResponseDetail.Type
