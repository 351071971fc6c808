/**
 * The API group `Responses`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Field, HiddenField, Stage } from "../../forms/index.ts"
import { Member } from "../../identity/index.ts"
import {
  AddNoteInput,
  BulkUpdateResult,
  CaseField,
  CaseFieldChanges,
  IdOrNone,
  ListFilterFields,
  MergeResponsesInput,
  Note,
  ResponseDetail,
  ResponseMerge,
  ResponseRow,
  ResponseStatus,
  SubmitInput,
  Tag,
  UpdateResponseInput,
  UpdateResponseResult,
  WorkspaceResponseFilter,
  WorkspaceResponseList,
  WorkspaceSort
} from "../../cases/index.ts"
import { Id } from "../../kernel/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { FormIdParams, IdParams, created, documentsIdempotencyKey } from "../Params.ts"

/** The filters of the response list (query string). */
export const ResponseListQuery = Schema.Struct({
  q: ListFilterFields.q,
  stage: Schema.optionalKey(IdOrNone).annotate({ description: "A stage id, or `none` for responses with no stage." }),
  assignee: Schema.optionalKey(IdOrNone).annotate({
    description: "An account id, or `none` for unassigned responses."
  }),
  tag: ListFilterFields.tag,
  from: ListFilterFields.from,
  to: ListFilterFields.to,
  flat: Schema.optionalKey(Schema.Literal("1")).annotate({
    description: "Adds `answers` (keyed by question label) and `summary` to every response."
  }),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))).annotate({
    description: "Extension: at most this many responses (1–1000); `nextCursor` then leads to the next page."
  }),
  cursor: Schema.optionalKey(Schema.String).annotate({ description: "Extension: `nextCursor` of the previous page." }),
  status: Schema.optionalKey(ResponseStatus).annotate({
    description: "Extension: `completed` (default: submitted responses), `partial` (not submitted yet) or `all`."
  }),
  due: ListFilterFields.due,
  field: ListFilterFields.field
})
export type ResponseListQuery = typeof ResponseListQuery.Type

/** The filters and paging of the workspace-wide list (`GET /responses`, an extension; query string). */
export const WorkspaceResponseListQuery = Schema.Struct({
  ...WorkspaceResponseFilter.fields,
  sort: Schema.optionalKey(WorkspaceSort).annotate({
    description: "`newest` submitted first (the default) or `oldest`; pages follow the same order."
  }),
  view: Schema.optionalKey(Id).annotate({
    description:
      "A saved view's id (`GET /views`): its filter and sort apply; parameters given here override the view's. " +
      "404 for a view the caller cannot see."
  }),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))).annotate({
    description: "At most this many responses (1–100, default 50); `nextCursor` then leads to the next page."
  }),
  cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))).annotate({
    description: "`nextCursor` of the previous page."
  })
})
export type WorkspaceResponseListQuery = typeof WorkspaceResponseListQuery.Type

/** Which cases a bulk change applies to when it names no ids: the response list's filters, in one form or all. */
export const BulkResponseFilter = Schema.Struct({
  formId: Schema.optionalKey(Id).annotate({
    description: "Only this form's responses; every form of the workspace when absent."
  }),
  ...ResponseListQuery.mapFields(({ flat: _f, limit: _l, cursor: _c, ...fields }) => fields).fields
}).annotate({ identifier: "BulkResponseFilter" })
export type BulkResponseFilter = typeof BulkResponseFilter.Type

const bulkTags = (description: string) =>
  Schema.optionalKey(Schema.Array(Tag).check(Schema.isMaxLength(50, { message: "at most 50 tags at once" }))).annotate({
    description
  })

/** What a bulk change takes (`PATCH /responses`, an extension): `ids` or `filter`, and at least one change. */
export const BulkUpdateResponsesInput = Schema.Struct({
  ids: Schema.optionalKey(
    Schema.Array(Id).check(
      Schema.isMinLength(1, { message: "ids must name at least one response" }),
      Schema.isMaxLength(1000, { message: "at most 1000 ids at once" })
    )
  ).annotate({ description: "The responses to change (1–1000); every one must exist, or nothing changes (404)." }),
  filter: Schema.optionalKey(BulkResponseFilter).annotate({
    description:
      "Instead of `ids`: the responses the list's filters match (at most 1000, else 400), in `formId` or the " +
      "whole workspace. `{}` matches every submitted response."
  }),
  stageId: Schema.optionalKey(Schema.NullOr(Id)).annotate({
    description: "A stage of the responses' form (all must be of that form), or null for no stage."
  }),
  assigneeId: Schema.optionalKey(Schema.NullOr(Id)).annotate({
    description: "The account id of a member, or null to unassign."
  }),
  addTags: bulkTags("Tags to add to each response (kept once; one a response carries keeps its spelling)."),
  removeTags: bulkTags("Tags to remove from each response (compared without regard to case)."),
  caseFields: Schema.optionalKey(CaseFieldChanges)
})
  .check(
    Schema.makeFilter(
      (input: { readonly ids?: unknown; readonly filter?: unknown }) =>
        (input.ids === undefined) !== (input.filter === undefined) || "give either ids or filter, not both or neither"
    ),
    Schema.makeFilter(
      (input: {
        readonly stageId?: unknown
        readonly assigneeId?: unknown
        readonly addTags?: ReadonlyArray<string>
        readonly removeTags?: ReadonlyArray<string>
        readonly caseFields?: Readonly<Record<string, unknown>>
      }) =>
        input.stageId !== undefined ||
        input.assigneeId !== undefined ||
        (input.addTags?.length ?? 0) > 0 ||
        (input.removeTags?.length ?? 0) > 0 ||
        Object.keys(input.caseFields ?? {}).length > 0 ||
        "name a change: stageId, assigneeId, addTags, removeTags or caseFields"
    )
  )
  .annotate({ identifier: "BulkUpdateResponses" })
export type BulkUpdateResponsesInput = typeof BulkUpdateResponsesInput.Type

/** The response list (spec: ResponseList, plus `nextCursor`). */
export const ResponseList = Schema.Struct({
  form: Schema.Struct({ id: Schema.Int, title: Schema.String }),
  fields: Schema.Array(Field),
  stages: Schema.Array(Stage),
  members: Schema.Array(Member),
  allTags: Schema.Array(Schema.String),
  responses: Schema.Array(ResponseRow),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Extension: with `limit`, the cursor of the next page; null on the last."
  }),
  hiddenFields: Schema.optionalKey(Schema.Array(HiddenField)).annotate({
    description: "Extension (form logic): the form's hidden fields; rows carry their values as `hidden:<name>`."
  }),
  valueKeys: Schema.optionalKey(Schema.Array(Schema.String)).annotate({
    description:
      "Extension: the keys of `values` beyond the questions, in the order the CSV export gives them columns: " +
      "`hidden:<name>` per hidden field, `var:<name>` per variable the form keeps, and `ending` when it has endings."
  }),
  caseFieldDefinitions: Schema.optionalKey(Schema.Array(CaseField)).annotate({
    description:
      "Extension (case fields): the form's case fields, in order; rows carry their values as `caseFields`, and " +
      "the CSV and XLSX exports give each a column after the metadata, headed by its label."
  })
}).annotate({ identifier: "ResponseList" })

/** Responses (cases) and their notes. */
export class ResponsesGroup extends HttpApiGroup.make("responses").add(
  HttpApiEndpoint.get("list", "/forms/:formId/responses", {
    params: FormIdParams,
    query: ResponseListQuery,
    success: ResponseList,
    error: NotFound
  }).annotate(OpenApi.Description, "A form's responses, newest first. Without `limit`, the whole list."),
  HttpApiEndpoint.get("csv", "/forms/:formId/responses.csv", {
    params: FormIdParams,
    query: ResponseListQuery,
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the same list as CSV (question labels as header, RFC 4180, formula-safe cells)."
  ),
  HttpApiEndpoint.get("xlsx", "/forms/:formId/responses.xlsx", {
    params: FormIdParams,
    query: ResponseListQuery,
    success: Schema.Uint8Array.pipe(
      HttpApiSchema.asUint8Array({
        contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
      })
    ),
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the same list as an Excel workbook (the CSV's columns, a checkboxes choice and a matrix row each " +
      "in a column of its own; numbers, dates and yes/no answers as typed cells; text never a formula)."
  ),
  HttpApiEndpoint.post("submit", "/forms/:formId/responses", {
    params: FormIdParams,
    payload: SubmitInput,
    success: ResponseRow.pipe(created),
    error: [NotFound, Forbidden, Conflict]
  })
    .annotate(
      OpenApi.Description,
      "Extension: submits a response (source `api`); 409 unless the form is published. With an `Idempotency-Key` " +
        "header, a submission sent again with the same key (within a day) answers the response the first one stored " +
        "(201, the same response) instead of storing another; the same key with another body is 409. Send one when a " +
        "503 or a lost answer would make you send the submission again."
    )
    .annotate(OpenApi.Transform, documentsIdempotencyKey),
  HttpApiEndpoint.get("listWorkspace", "/responses", {
    query: WorkspaceResponseListQuery,
    success: WorkspaceResponseList,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the workspace's inbox across forms: submitted responses of every form (or `formId`'s), newest " +
      "first (or `sort=oldest`), a page at a time (`limit`, default 50; `nextCursor`); each row carries `formId` " +
      "and `formTitle`. Filters as the form's list, plus `assignee=me` and `open`; `stage` only with `formId` " +
      "(else 400). `view` applies a saved view's filter and sort, under the parameters given."
  ),
  HttpApiEndpoint.patch("updateMany", "/responses", {
    payload: BulkUpdateResponsesInput,
    success: BulkUpdateResult,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: changes many responses in one transaction: sets the stage and/or the assignee, adds and/or " +
      "removes tags, on every one of `ids` or on the responses `filter` matches (at most 1000). Each response " +
      "that changes gets its activities and events (`response.stage_changed`, `response.assigned`, " +
      "`response.tagged`), as with `PATCH /responses/{id}`. All or nothing: a missing id (404), a stage of another " +
      "form, a non-member or a 51st tag on any response (400) changes none."
  ),
  HttpApiEndpoint.get("get", "/responses/:id", { params: IdParams, success: ResponseDetail, error: NotFound }),
  HttpApiEndpoint.patch("update", "/responses/:id", {
    params: IdParams,
    payload: UpdateResponseInput,
    success: UpdateResponseResult,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Sets stage, assignee and/or tags (tags replace all tags)."),
  HttpApiEndpoint.delete("remove", "/responses/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }),
  HttpApiEndpoint.post("addNote", "/responses/:id/notes", {
    params: IdParams,
    payload: AddNoteInput,
    success: Note.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Adds an internal note, never shown to the respondent."),
  HttpApiEndpoint.post("merge", "/responses/:id/merge", {
    params: IdParams,
    payload: MergeResponsesInput,
    success: ResponseMerge,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: merges the duplicate `duplicateId` (same person, same request) into this response, in one " +
      "transaction: this one takes the duplicate's answers to questions it has none for (its own answers win), its " +
      "tags (at most 50 in all) and its notes, activities, e-mails and replies; the duplicate becomes a pointer " +
      "(`mergedInto` when read), out of lists and counts. Both must be submitted responses of the same form, " +
      "neither merged away already (else 400); event `response.merged`. Undoable for 24 hours."
  ),
  HttpApiEndpoint.delete("unmerge", "/responses/:id/merges/:duplicateId", {
    params: { id: Id, duplicateId: Id },
    success: ResponseMerge,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: undoes the merge of `duplicateId` into this response within 24 hours: the notes, activities and " +
      "e-mails it moved go back, the answers and tags it added leave (later changes stay), and the duplicate is a " +
      "response of its own again; event `response.unmerged`. 409 after 24 hours or when undone already."
  )
) {}
