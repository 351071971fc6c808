/**
 * The qforms HTTP API, defined once (no handlers here): paths, methods,
 * request and response schemas, error statuses and security. The server, the
 * OpenAPI document and typed clients all derive from it.
 */
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as Multipart from "effect/http/Multipart"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import type * as Actors from "../identity/Actors.ts"
import { GenerateFormInput } from "../generation/FormGenerator.ts"
import { Field } from "../forms/Fields.ts"
import { FileAnswer } from "../forms/Answers.ts"
import { CreatedForm, CreateFormInput, FormSummary, FormWithFields, UpdateFormInput } from "../forms/Forms.ts"
import { AddMemberInput, ChangeRoleInput, Member, SetAwayInput } from "../identity/Members.ts"
import { AssignmentRules } from "../cases/AssignmentRules.ts"
import { CreateSavedViewInput, SavedView, UpdateSavedViewInput } from "../cases/SavedViews.ts"
import { CaseField, CaseFieldChanges, CaseFields } from "../cases/CaseFields.ts"
import { CreatedInvitation, CreateInvitationInput, Invitation, IssuedSignInLink } from "../identity/Invitations.ts"
import { ApiKey, IssueApiKeyInput, IssuedApiKey } from "../identity/ApiKeys.ts"
import { AddNoteInput, Note } from "../cases/Notes.ts"
import { ErasureRequest, ErasureResult } from "../cases/Erasure.ts"
import { PersonData, PersonExportRequest } from "../cases/PersonalDataExport.ts"
import { HiddenField } from "../forms/FormLogic.ts"
import {
  BulkUpdateResult,
  PublicSubmitInput,
  PublicSubmitted,
  ResponseDetail,
  ResponseRow,
  ResponseStatus,
  IdOrNone,
  IsoDateTime,
  ListFilterFields,
  SubmitInput,
  Tag,
  UpdateResponseInput,
  UpdateResponseResult,
  WorkspaceResponseFilter,
  WorkspaceResponseList,
  WorkspaceSort
} from "../cases/Responses.ts"
import { CreateStageInput, ReorderStagesInput, Stage, UpdateStageInput } from "../forms/Stages.ts"
import { WorkspaceSettings } from "../forms/WorkspaceSettings.ts"
import { AuditAction, AuditLogPage, AuditSurface } from "../audit/AuditLog.ts"
import { FormSummaryReport } from "../insights/FormSummaries.ts"
import { CaseMetricsReport, MetricsInterval } from "../insights/CaseMetrics.ts"
import { DigestInput, DigestQueued, DigestSettings } from "../insights/Digests.ts"
import {
  AnySubscription,
  CreatedSubscription,
  CreatedWorkspaceSubscription,
  SubscribeInput,
  Subscription,
  UpdateSubscriptionInput,
  WorkspaceSubscribeInput,
  WorkspaceSubscription
} from "../outbox/Webhooks.ts"
import { catalogue, catalogueDocument, EventCatalogueDocument } from "../outbox/EventCatalogue.ts"
import { DeadLetterList, Delivery, DeliveryLog, ReplayDeadLettersInput, ReplayResult } from "../outbox/Deliveries.ts"
import { WebhookAlertList } from "../outbox/WebhookAlerts.ts"
import { PingResult, TestInput } from "../outbox/TestPing.ts"
import { NotificationSettings, NotificationSettingsInput } from "../outbox/FormNotifications.ts"
import { ConfirmationSettings, EmailSettings, ResponseEmail, SendEmailInput } from "../email/RespondentEmails.ts"
import { StatusLink } from "../cases/StatusLinks.ts"
import { MergeResponsesInput, ResponseMerge } from "../cases/ResponseMerges.ts"
import { Id } from "../kernel/Ids.ts"
import { Image, ImageList, MAX_IMAGE_BYTES } from "../files/Images.ts"
import { LanguageTag } from "../languages/Languages.ts"
import { Translation, TranslationDetail, TranslationList } from "../forms/Translations.ts"
import { uploadLimits } from "../web/MultipartUploads.ts"
import {
  BadGateway,
  BadRequest,
  Conflict,
  Forbidden,
  InternalError,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
  UpgradeRequired
} from "../web/ApiErrors.ts"

/** The version of the API description (spec section 9), independent of the package version. */
export const apiVersion = "1.0.0"

/** The actor of the current request: the member an API key acts as. */
export class CurrentActor extends Context.Service<CurrentActor, Actors.Actor>()("@qforms/core/http/CurrentActor") {}

/**
 * Bearer authentication with an API key (`Authorization: Bearer qk_live_…`),
 * plus the per-key rate limit.
 */
export class Authentication extends HttpApiMiddleware.Service<
  Authentication,
  {
    provides: CurrentActor
  }
>()("@qforms/core/http/Authentication", {
  security: {
    bearer: HttpApiSecurity.bearer.pipe(HttpApiSecurity.annotate(OpenApi.Description, "An API key: `qk_live_…`"))
  },
  error: [Unauthorized, TooManyRequests]
}) {}

/**
 * The answers the router may give on any route: request decoding failures as
 * a 400 `{error, details}` naming the field, 405 (a method the path does not
 * take, with `Allow`), 409 (something the request refers to was deleted by a
 * concurrent request, or the change collided with a concurrent one: nothing
 * was changed), 413, 415, 500 and 503.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("@qforms/core/http/RequestErrors", {
  error: [
    BadRequest,
    MethodNotAllowed,
    Conflict,
    PayloadTooLarge,
    UnsupportedMediaType,
    InternalError,
    ServiceUnavailable
  ]
}) {}

/** A webhook subscription's id (`sub_…`). */
export const SubscriptionId = Schema.String.check(Schema.isMaxLength(100))
const SubscriptionIdParams = { id: SubscriptionId }
const IdParams = { id: Id }
const FormIdParams = { formId: Id }

/** The filters and paging of the audit log (query string). */
export const AuditLogQuery = Schema.Struct({
  action: Schema.optionalKey(AuditAction).annotate({ description: "Only entries of this action." }),
  actor: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^(?:(?:member|api_key):[1-9]\d{0,9}|system|cli)$/, {
        message: "actor must be member:<accountId>, api_key:<keyId>, system or cli"
      }),
      Schema.makeFilter((value: string) => Number(value.split(":")[1] ?? 0) <= 2147483647 || "actor: no such id")
    )
  ).annotate({
    description: "Only entries of this actor: `member:<accountId>`, `api_key:<keyId>`, `system` or `cli`."
  }),
  surface: Schema.optionalKey(AuditSurface).annotate({ description: "Only entries that came through this surface." }),
  from: Schema.optionalKey(IsoDateTime).annotate({ description: "At or after this moment." }),
  to: Schema.optionalKey(IsoDateTime).annotate({ description: "At or before this moment." }),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))).annotate({
    description: "At most this many entries (1–200, default 50); `nextCursor` then leads to the next page."
  }),
  cursor: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^[1-9]\d{0,9}$/, { message: "cursor must be a nextCursor of this list" }),
      Schema.makeFilter((value: string) => Number(value) <= 2147483647 || "cursor must be a nextCursor of this list")
    )
  ).annotate({ description: "`nextCursor` of the previous page." })
})
export type AuditLogQuery = typeof AuditLogQuery.Type

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

/** The paging of a delivery log (query string). */
export const DeliveryLogQuery = Schema.Struct({
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))).annotate({
    description: "At most this many deliveries (1–200); `nextCursor` then leads to the next page."
  }),
  cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(20))).annotate({
    description: "`nextCursor` of the previous page."
  })
})

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

const created = HttpApiSchema.status(201)

/** Forms and their questions. */
export class FormsGroup extends HttpApiGroup.make("forms").add(
  HttpApiEndpoint.get("list", "/forms", { success: Schema.Array(FormSummary) }).annotate(
    OpenApi.Description,
    "The workspace's forms, newest change first."
  ),
  HttpApiEndpoint.post("create", "/forms", {
    payload: CreateFormInput,
    success: CreatedForm.pipe(created),
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Creates a draft form (extension: with `fields`, its questions; the answer lists them with their ids)."
  ),
  HttpApiEndpoint.get("get", "/forms/:id", { params: IdParams, success: FormWithFields, error: NotFound }),
  HttpApiEndpoint.patch("update", "/forms/:id", {
    params: IdParams,
    payload: UpdateFormInput,
    success: FormSummary,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Changes any subset; `fields` (extension) replaces the questions."),
  HttpApiEndpoint.delete("remove", "/forms/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Deletes the form and everything that came in through it.")
) {}

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
  }).annotate(OpenApi.Description, "Extension: submits a response (source `api`); 409 unless the form is published."),
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

/** A form's stages. */
export class StagesGroup extends HttpApiGroup.make("stages").add(
  HttpApiEndpoint.get("list", "/forms/:formId/stages", {
    params: FormIdParams,
    success: Schema.Struct({ stages: Schema.Array(Stage) }),
    error: NotFound
  }),
  HttpApiEndpoint.post("create", "/forms/:formId/stages", {
    params: FormIdParams,
    payload: CreateStageInput,
    success: Stage.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: adds a stage at the end."),
  HttpApiEndpoint.put("reorder", "/forms/:formId/stages/order", {
    params: FormIdParams,
    payload: ReorderStagesInput,
    success: Schema.Struct({ stages: Schema.Array(Stage) }),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: puts the stages in this order (every stage id once)."),
  HttpApiEndpoint.patch("update", "/stages/:id", {
    params: IdParams,
    payload: UpdateStageInput,
    success: Stage,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: renames, recolors or (un)closes a stage."),
  HttpApiEndpoint.delete("remove", "/stages/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: deletes a stage; its responses go back to no stage.")
) {}

/** A form's assignment rules (extension). */
export class AssignmentRulesGroup extends HttpApiGroup.make("assignmentRules").add(
  HttpApiEndpoint.get("get", "/forms/:formId/assignment-rules", {
    params: FormIdParams,
    success: AssignmentRules,
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: the form's assignment rules, in order."),
  HttpApiEndpoint.put("replace", "/forms/:formId/assignment-rules", {
    params: FormIdParams,
    payload: AssignmentRules,
    success: AssignmentRules,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: replaces the form's assignment rules (owners, admins and members; at most 50). A new response " +
      "gets the assignee of the first rule that applies: `byAnswer`, `roundRobin` or `leastOpen`; away members " +
      "and those who left are passed by. 400 names a question not of the form or an account not a member."
  )
) {}

/** Saved views of the workspace-wide list (extension). */
export class SavedViewsGroup extends HttpApiGroup.make("views").add(
  HttpApiEndpoint.get("list", "/views", {
    success: Schema.Struct({ views: Schema.Array(SavedView) }),
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Extension: the caller's personal views and the workspace's shared ones, by name. A view is a name, the " +
      "filter of `GET /responses` (its query parameters), a sort and the columns shown; `GET /responses?view={id}` " +
      "applies it."
  ),
  HttpApiEndpoint.post("create", "/views", {
    payload: CreateSavedViewInput,
    success: SavedView.pipe(created),
    error: [Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: saves a view. Personal (the default; viewers too) or `shared` (seen by every member; owners, " +
      "admins and members). Names are unique ignoring case per member's personal views and per workspace's shared " +
      "ones (409). At most 50 personal views per member and 100 shared per workspace (400)."
  ),
  HttpApiEndpoint.get("get", "/views/:id", { params: IdParams, success: SavedView, error: NotFound }).annotate(
    OpenApi.Description,
    "Extension: one view; another member's personal view is not found (404)."
  ),
  HttpApiEndpoint.patch("update", "/views/:id", {
    params: IdParams,
    payload: UpdateSavedViewInput,
    success: SavedView,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: renames or changes a view (`filter` is replaced as a whole). A personal view only by its owner; " +
      "a shared one by the member who made it, an owner or an admin (else 403)."
  ),
  HttpApiEndpoint.delete("remove", "/views/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: deletes a view, with the same rules as a change.")
) {}

/** A form's custom case fields (extension). */
export class CaseFieldsGroup extends HttpApiGroup.make("caseFields").add(
  HttpApiEndpoint.get("get", "/forms/:formId/case-fields", {
    params: FormIdParams,
    success: CaseFields,
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: the form's case fields (the team's own fields of its cases), in order."),
  HttpApiEndpoint.put("replace", "/forms/:formId/case-fields", {
    params: FormIdParams,
    payload: CaseFields,
    success: CaseFields,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: replaces the form's case fields (owners, admins and members; at most 30, in order). Each has a " +
      "`key` unique in the form, a `label` and a `type`: `text`, `number`, `date`, `select` (with its `options`) " +
      "or `member`. Values are set with `PATCH /responses/{id}` (`caseFields`) and never shown to the respondent. " +
      "The values of a field removed (or whose type changed, or a select's option removed) are removed with it."
  )
) {}

/** The workspace's members. */
export class MembersGroup extends HttpApiGroup.make("members").add(
  HttpApiEndpoint.get("list", "/members", { success: Schema.Struct({ members: Schema.Array(Member) }) }),
  HttpApiEndpoint.post("add", "/members", {
    payload: AddMemberInput,
    success: Member.pipe(created),
    error: [Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: adds a member by e-mail (owners and admins; an existing member gets the role)."
  ),
  HttpApiEndpoint.patch("changeRole", "/members/:accountId", {
    params: { accountId: Id },
    payload: ChangeRoleInput,
    success: Member,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: changes a member's role (the owner role is an owner's to give; one owner stays)."
  ),
  HttpApiEndpoint.put("setAway", "/members/:accountId/away", {
    params: { accountId: Id },
    payload: SetAwayInput,
    success: Member,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: marks a member away (or back): any member but a viewer for themself, owners and admins for anyone. " +
      "Assignment rules pass away members by."
  ),
  HttpApiEndpoint.delete("remove", "/members/:accountId", {
    params: { accountId: Id },
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(OpenApi.Description, "Extension: removes a member (their API keys go with them)."),
  HttpApiEndpoint.post("signInLink", "/members/:accountId/sign-in-link", {
    params: { accountId: Id },
    success: IssuedSignInLink.pipe(created),
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: a one-time link `{appUrl}/app/link/{token}` that signs this member in to this workspace, valid " +
      "15 minutes, for an owner or admin to pass on (over members whose role is below their own). 409 when the " +
      "account belongs to another workspace too."
  )
) {}

/** Invitations to the workspace (owners and admins). */
export class InvitationsGroup extends HttpApiGroup.make("invitations").add(
  HttpApiEndpoint.get("list", "/invitations", {
    success: Schema.Struct({ invitations: Schema.Array(Invitation) }),
    error: Forbidden
  }).annotate(OpenApi.Description, "Extension: the invitations neither accepted nor revoked (expired ones included)."),
  HttpApiEndpoint.post("create", "/invitations", {
    payload: CreateInvitationInput,
    success: CreatedInvitation.pipe(created),
    error: [Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: invites an e-mail address with a role (never above the caller's own), valid 7 days. Sent by " +
      "e-mail when SMTP is configured; otherwise (or when sending fails) `link` is in this answer only, to pass on. " +
      "409 when the address is already a member."
  ),
  HttpApiEndpoint.delete("revoke", "/invitations/:id", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: revokes a pending invitation; its link stops working.")
) {}

/** Webhook subscriptions. */
export class WebhooksGroup extends HttpApiGroup.make("webhooks").add(
  HttpApiEndpoint.get("list", "/webhooks", { success: Schema.Array(Subscription) }),
  HttpApiEndpoint.post("subscribe", "/webhooks/subscribe", {
    payload: SubscribeInput,
    success: CreatedSubscription.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Subscribes a URL to an event of a form. The signing `secret` is shown only here."),
  HttpApiEndpoint.get("listWorkspace", "/webhooks/workspace-subscriptions", {
    success: Schema.Array(WorkspaceSubscription)
  }).annotate(
    OpenApi.Description,
    "Extension: the workspace-wide subscriptions (GET /webhooks lists the forms' own, as the contract has it)."
  ),
  HttpApiEndpoint.post("subscribeWorkspace", "/webhooks/workspace-subscriptions", {
    payload: WorkspaceSubscribeInput,
    success: CreatedWorkspaceSubscription.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: subscribes a URL to events of every form of the workspace (forms created later included), or of " +
      "the forms of `filters.formIds` (404 if one is absent in this workspace). Only such a subscription hears `form.deleted`: a " +
      "form's own subscriptions are deleted with the form. Managed like any other (`/webhooks/subscribe/{id}`)."
  ),
  HttpApiEndpoint.delete("unsubscribe", "/webhooks/subscribe/:id", {
    params: SubscriptionIdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }),
  HttpApiEndpoint.patch("update", "/webhooks/subscribe/:id", {
    params: SubscriptionIdParams,
    payload: UpdateSubscriptionInput,
    success: AnySubscription,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, 'Extension: `{"disabled": false}` re-enables a disabled subscription.'),
  HttpApiEndpoint.get("deliveries", "/webhooks/subscribe/:id/deliveries", {
    params: SubscriptionIdParams,
    query: DeliveryLogQuery.fields,
    success: DeliveryLog,
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: the delivery log, newest first, with every attempt."),
  HttpApiEndpoint.post("retry", "/webhooks/deliveries/:deliveryId/retry", {
    params: { deliveryId: Id },
    success: Delivery,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: redelivers now, with the same `webhook-id`."),
  HttpApiEndpoint.post("test", "/webhooks/subscribe/:id/test", {
    params: SubscriptionIdParams,
    query: TestInput.fields,
    success: PingResult,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: sends a signed test now and reports the answer: a `ping`, or with `?event=` that event's example " +
      "about the subscription's form, as the event is posted (its `webhook-id` starts with `msg_test_`)."
  ),
  HttpApiEndpoint.get("deadLetters", "/webhooks/dead-letters", {
    query: {
      ...DeliveryLogQuery.fields,
      subscriptionId: Schema.optionalKey(SubscriptionId).annotate({ description: "Only this subscription's." })
    },
    success: DeadLetterList,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the workspace's webhook deliveries that gave up (status `failed`), newest first, with every attempt."
  ),
  HttpApiEndpoint.post("replay", "/webhooks/dead-letters/replay", {
    payload: ReplayDeadLettersInput,
    success: ReplayResult,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: redelivers dead letters now (same `webhook-id`): the named ones, or all of a subscription (at most " +
      "500 a call). A disabled subscription's are not replayed (409 for `subscriptionId`): enable it first."
  ),
  HttpApiEndpoint.get("alerts", "/webhooks/alerts", {
    query: DeliveryLogQuery.fields,
    success: WebhookAlertList
  }).annotate(
    OpenApi.Description,
    "Extension: the workspace's webhook failure alerts (deliveries failing in a row, a subscription disabled), " +
      "newest first."
  ),
  HttpApiEndpoint.get("catalogue", "/events/catalogue", { success: EventCatalogueDocument }).annotate(
    OpenApi.Description,
    "Extension: every event qforms sends, with a description, the JSON Schema of its body and an example. The " +
      "same bodies are in this document's `webhooks`."
  )
) {}

/** A notification channel's id (`ch_…`). */
export const ChannelId = Schema.String.check(Schema.isMaxLength(100))

/** Per-form notifications: Slack, Discord, Teams, a sheet, e-mail or any URL. */
export class NotificationsGroup extends HttpApiGroup.make("notifications").add(
  HttpApiEndpoint.get("get", "/forms/:id/notifications", {
    params: IdParams,
    success: NotificationSettings,
    error: NotFound
  }).annotate(OpenApi.Description, "The form's notification channels."),
  HttpApiEndpoint.put("replace", "/forms/:id/notifications", {
    params: IdParams,
    payload: NotificationSettingsInput,
    success: NotificationSettings,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Replaces the form's channels (owners and admins). A channel sent back with its `id` is kept; " +
      "409 when an `email` channel is listed and e-mail is not configured."
  ),
  HttpApiEndpoint.get("deliveries", "/forms/:id/notifications/:channelId/deliveries", {
    params: { id: Id, channelId: ChannelId },
    query: DeliveryLogQuery.fields,
    success: DeliveryLog,
    error: NotFound
  }).annotate(OpenApi.Description, "The channel's delivery log, newest first, with every attempt."),
  HttpApiEndpoint.post("retry", "/forms/:id/notifications/:channelId/deliveries/:deliveryId/retry", {
    params: { id: Id, channelId: ChannelId, deliveryId: Id },
    success: Delivery,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Sends a channel's delivery again now (409 for an e-mail that was sent: never twice)."
  )
) {}

/** E-mail with respondents: confirmations, e-mails from the case, the workspace's e-mail settings. */
export class EmailsGroup extends HttpApiGroup.make("emails").add(
  HttpApiEndpoint.post("send", "/responses/:id/emails", {
    params: IdParams,
    payload: SendEmailInput,
    success: ResponseEmail.pipe(created),
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Writes to the respondent from the case (queued and sent by the delivery worker). " +
      "409 when e-mail is not configured or the response has no e-mail address."
  ),
  HttpApiEndpoint.post("issueStatusLink", "/responses/:id/status-link", {
    params: IdParams,
    success: StatusLink.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: a new link to the respondent's status page (`/s/{token}`: the stage's public name, the e-mail " +
      "thread, a reply form). The link before it stops working; only a hash of the token is stored, so the URL " +
      "is shown this once."
  ),
  HttpApiEndpoint.delete("revokeStatusLink", "/responses/:id/status-link", {
    params: IdParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: revokes the response's status link (its page answers 404 from now on)."),
  HttpApiEndpoint.get("getConfirmation", "/forms/:id/confirmation", {
    params: IdParams,
    success: ConfirmationSettings,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "The form's confirmation e-mail, sent when a response with an e-mail address arrives."
  ),
  HttpApiEndpoint.put("putConfirmation", "/forms/:id/confirmation", {
    params: IdParams,
    payload: ConfirmationSettings,
    success: ConfirmationSettings,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Sets the form's confirmation e-mail (`{{field:<id>}}` and `{{answers}}` in the body). " +
      "409 when enabling it while e-mail is not configured."
  ),
  HttpApiEndpoint.get("getSettings", "/email/settings", { success: EmailSettings }).annotate(
    OpenApi.Description,
    "The workspace's e-mail settings: open/click tracking, reopening on reply."
  ),
  HttpApiEndpoint.put("putSettings", "/email/settings", {
    payload: EmailSettings,
    success: EmailSettings,
    error: Forbidden
  }).annotate(OpenApi.Description, "Sets the workspace's e-mail settings (owners and admins).")
) {}

/** An image's id in a path. */
const ImageParams = {
  imageId: Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "An image id (`img_…`)." })
}

/** Uploaded files (the answers to `file` questions). */
export class FilesGroup extends HttpApiGroup.make("files").add(
  HttpApiEndpoint.get("download", "/files/:fileId", {
    params: {
      fileId: Schema.String.check(Schema.isMaxLength(100)).annotate({
        description: "A file id (`file_…`) from an answer to a file question."
      })
    },
    // Any media type: images and PDF keep their stored type, anything else is sent as application/octet-stream.
    success: HttpApiSchema.StreamUint8Array({ contentType: "*/*" }).annotate({
      description:
        "The file's bytes as `Content-Disposition: attachment`: `Content-Type` is the stored type for images and PDF, " +
        "`application/octet-stream` for anything else (a declared script, page or SVG never runs under this origin)."
    }),
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: downloads an uploaded file of this workspace (as an attachment, with `X-Content-Type-Options: nosniff` " +
      "and `Content-Security-Policy: default-src 'none'; sandbox`)."
  )
) {}

/** The workspace's image library: logos and images on choices (see `files/Images.ts`). */
export class ImagesGroup extends HttpApiGroup.make("images").add(
  HttpApiEndpoint.get("list", "/images", { success: ImageList }).annotate(
    OpenApi.Description,
    "Extension: the workspace's images (a theme's `logo`, a question's `options.images`), newest first."
  ),
  HttpApiEndpoint.post("upload", "/images", {
    payload: Schema.Struct({
      file: Multipart.SingleFileSchema.annotate({ description: "The image (one part named `file`)." })
    }).pipe(HttpApiSchema.asMultipartStream(uploadLimits(MAX_IMAGE_BYTES))),
    success: Image.pipe(created),
    error: [Forbidden, UnsupportedMediaType]
  }).annotate(
    OpenApi.Description,
    "Extension: adds an image to the library (owners, admins and members): a PNG, JPEG, GIF or WebP of at most " +
      "2 MB, recognised from its bytes (SVG is refused: it could run scripts). 413 over 2 MB or over the " +
      "workspace's storage quota, 415 for any other content."
  ),
  HttpApiEndpoint.get("download", "/images/:imageId", {
    params: ImageParams,
    success: HttpApiSchema.StreamUint8Array({ contentType: "image/*" }).annotate({
      description: "The image's bytes, with its type (`X-Content-Type-Options: nosniff`)."
    }),
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: one image of the library."),
  HttpApiEndpoint.delete("remove", "/images/:imageId", {
    params: ImageParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: deletes an image (owners, admins and members); 409 naming the forms (or the workspace's page " +
      "theme) that still show it."
  )
) {}

const TranslationParams = {
  formId: Id,
  language: LanguageTag.annotate({ description: "The translation's language: a BCP 47 tag (de, pt-BR, zh-Hans)." })
}

/** A form in other languages (see `forms/Translations.ts`). */
export class TranslationsGroup extends HttpApiGroup.make("translations").add(
  HttpApiEndpoint.get("list", "/forms/:formId/translations", {
    params: FormIdParams,
    success: TranslationList,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the form's own language and how far each translation is (texts translated of the form's total)."
  ),
  HttpApiEndpoint.get("get", "/forms/:formId/translations/:language", {
    params: TranslationParams,
    success: TranslationDetail,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: one translation, with the form's texts it does not have yet (`missing`: where each goes and the " +
      "form's own words)."
  ),
  HttpApiEndpoint.put("put", "/forms/:formId/translations/:language", {
    params: TranslationParams,
    payload: Translation,
    success: TranslationDetail,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: sets the form's translation into a language (owners, admins and members), replacing the one " +
      "there was. Questions by id, choices, rows and columns by the form's own text; 400 naming anything the form " +
      "does not have. `status: draft` keeps it off the page until it is reviewed."
  ),
  HttpApiEndpoint.delete("remove", "/forms/:formId/translations/:language", {
    params: TranslationParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: takes the translation away (the page no longer offers it)."),
  HttpApiEndpoint.post("draft", "/forms/:formId/translations/:language/draft", {
    params: TranslationParams,
    success: TranslationDetail,
    error: [NotFound, Forbidden, Conflict, BadGateway]
  }).annotate(
    OpenApi.Description,
    "Extension: machine translation, as a draft to review: the configured language model translates the texts the " +
      "translation lacks (all of them for a new one); the result is saved with `status: draft`, which the page does " +
      "not offer until it is set `ready`. 409 without a language model (the offline generator writes English only); " +
      "502 when the model fails."
  )
) {}

/** Form generation from a description. */
export class GenerateGroup extends HttpApiGroup.make("generate").add(
  HttpApiEndpoint.post("generate", "/v1/forms/generate", {
    payload: GenerateFormInput,
    success: FormWithFields.pipe(created),
    error: [Forbidden, BadGateway]
  }).annotate(OpenApi.Description, "Writes the questions from a description and creates the form.")
) {}

/** API keys of the workspace (owners and admins). */
export class ApiKeysGroup extends HttpApiGroup.make("apiKeys").add(
  HttpApiEndpoint.get("list", "/api-keys", {
    success: Schema.Struct({ apiKeys: Schema.Array(ApiKey) }),
    error: Forbidden
  }).annotate(OpenApi.Description, "Extension: the workspace's keys (prefixes only, never the keys)."),
  HttpApiEndpoint.post("issue", "/api-keys", {
    payload: IssueApiKeyInput,
    success: IssuedApiKey.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: issues a key; `key` is shown only in this answer."),
  HttpApiEndpoint.delete("revoke", "/api-keys/:id", {
    params: IdParams,
    success: ApiKey,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: revokes a key; it stops working on the next request.")
) {}

/** The workspace's audit log (extension; owners and admins). */
export class AuditGroup extends HttpApiGroup.make("audit").add(
  HttpApiEndpoint.get("list", "/audit-log", { query: AuditLogQuery, success: AuditLogPage, error: Forbidden }).annotate(
    OpenApi.Description,
    "Extension: the workspace's audit log of security-relevant events, newest first (owners and admins)."
  ),
  HttpApiEndpoint.get("csv", "/audit-log/export.csv", {
    query: AuditLogQuery,
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Extension: the filtered audit log as CSV, newest first (RFC 4180, formula-safe cells); `limit` is ignored, " +
      "`cursor` starts below that entry. The export is itself recorded (`audit.exported`)."
  )
) {}

/** The workspace's own settings (extension): the default theme of its forms' pages. */
export class WorkspaceGroup extends HttpApiGroup.make("workspace").add(
  HttpApiEndpoint.get("settings", "/workspace/settings", { success: WorkspaceSettings }).annotate(
    OpenApi.Description,
    "Extension: the workspace's settings: `theme`, worn by the public pages of its forms that have no theme of their own."
  ),
  HttpApiEndpoint.put("replaceSettings", "/workspace/settings", {
    payload: WorkspaceSettings,
    success: WorkspaceSettings,
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Extension: replaces the workspace's settings (owners and admins); a key left out takes its default. A theme " +
      "is checked for contrast as a form's is (400 naming the pair)."
  )
) {}

/** Personal data (extension, owners and admins): erasing a person, exporting their data. */
export class PrivacyGroup extends HttpApiGroup.make("privacy").add(
  HttpApiEndpoint.post("erase", "/privacy/erasures", {
    payload: ErasureRequest,
    success: ErasureResult.pipe(created),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: erases a person from the workspace, by `email` or `contactId` (exactly one): their responses " +
      "(partial ones too) and files, e-mails sent to them and replies from them, their contact; unsent deliveries " +
      "about them are cancelled and notes naming them flagged for review. Answers what was removed, per kind. " +
      "One transaction; 404 for an unknown contact."
  ),
  HttpApiEndpoint.get("exportPerson", "/privacy/export", {
    query: PersonExportRequest,
    success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/zip" })),
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: everything the workspace holds about a person (GDPR Article 15), by `email` or `contactId` " +
      "(exactly one), found as the erasure finds them, as a ZIP (owners and admins): `person.json` (the " +
      "`PersonData` schema: contact, responses with questions and answers, stage, tags and notes, files, e-mails " +
      "sent and replies received) and each file's bytes under `files/<responseId>/<name>`. Read in one snapshot " +
      "and recorded in the audit log (`privacy.export`, counts only). An address with nothing answers empty " +
      "lists; 404 for an unknown contact."
  )
) {}

/** A form's summary (query string): the response list's filters, and how many text answers to show. */
export const SummaryQuery = Schema.Struct({
  q: ResponseListQuery.fields.q,
  stage: ResponseListQuery.fields.stage,
  assignee: ResponseListQuery.fields.assignee,
  tag: ResponseListQuery.fields.tag,
  from: ResponseListQuery.fields.from,
  to: ResponseListQuery.fields.to,
  status: ResponseListQuery.fields.status,
  texts: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 50 }))).annotate({
    description: "The latest answers shown per text question (0–50, default 10)."
  })
})
export type SummaryQuery = typeof SummaryQuery.Type

/** A form's case metrics (query string): the response list's filters and the series' periods. */
export const MetricsQuery = Schema.Struct({
  ...SummaryQuery.mapFields(({ texts: _, ...fields }) => fields).fields,
  interval: Schema.optionalKey(MetricsInterval).annotate({
    description: "The periods of `newPerPeriod` and `closedPerPeriod`: `day` (default) or `week` (from Monday), UTC."
  })
})
export type MetricsQuery = typeof MetricsQuery.Type

/** The workspace's case metrics (query string): the filters that apply across forms. */
export const WorkspaceMetricsQuery = MetricsQuery.mapFields(({ stage: _, ...fields }) => fields)
export type WorkspaceMetricsQuery = typeof WorkspaceMetricsQuery.Type

/** What the answers say (extension): a form's summary. */
export class InsightsGroup extends HttpApiGroup.make("insights").add(
  HttpApiEndpoint.get("summary", "/forms/:formId/summary", {
    params: FormIdParams,
    query: SummaryQuery,
    success: FormSummaryReport,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the summary of a form's responses with the list's filters: totals (views, starts, responses, " +
      "completion rate and median time), the public page's drop-off funnel, and per question the counts and " +
      "shares of choices, the distribution and statistics of numbers (NPS score), matrix rows, ranking places, " +
      "dates per month, and the latest text answers with their frequent words."
  ),
  HttpApiEndpoint.get("summaryCsv", "/forms/:formId/summary.csv", {
    params: FormIdParams,
    query: SummaryQuery,
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the same summary as CSV, one figure per line (`section,question,item,count,percent`)."
  ),
  HttpApiEndpoint.get("formMetrics", "/forms/:formId/metrics", {
    params: FormIdParams,
    query: MetricsQuery,
    success: CaseMetricsReport,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: how a form's cases are doing, for the list's filters: open cases by stage and by assignee, new " +
      "and closed cases per day or week, time to a first response (a member's stage change, assignment, note or " +
      "e-mail) and time spent in each stage."
  ),
  HttpApiEndpoint.get("workspaceMetrics", "/metrics", {
    query: WorkspaceMetricsQuery,
    success: CaseMetricsReport
  }).annotate(OpenApi.Description, "Extension: the same case metrics across every form of the workspace."),
  HttpApiEndpoint.get("getDigest", "/forms/:formId/digest", {
    params: FormIdParams,
    success: DigestSettings,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: your own digest e-mail of the form (the key's member, or the signed-in member): `off`, " +
      "`daily` or `weekly`, the local hour and time zone, and when the next one is due."
  ),
  HttpApiEndpoint.put("putDigest", "/forms/:formId/digest", {
    params: FormIdParams,
    payload: DigestInput,
    success: DigestSettings,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: chooses your own digest e-mail of the form: daily, or weekly on Mondays, at a local hour of a " +
      "time zone (`off` stops it). Any role may; each digest says what the period brought (new responses, " +
      "views and completion), the open cases by stage, unassigned and waiting cases, and the top answers; a " +
      "period without new responses or open cases sends nothing. Every digest has a one-click unsubscribe link."
  ),
  HttpApiEndpoint.post("sendDigest", "/forms/:formId/digest/send", {
    params: FormIdParams,
    success: DigestQueued.pipe(HttpApiSchema.status(202)),
    error: [NotFound, Forbidden, Conflict]
  }).annotate(
    OpenApi.Description,
    "Extension: sends you the form's digest of the last day (of the last week when you chose weekly) now, " +
      "through the outbox (202); 409 when e-mail is not configured."
  )
) {}

/**
 * The whole API, under `/api`.
 *
 * @example
 * ```ts
 * import * as OpenApi from "effect/http-api/OpenApi"
 * import { Api } from "@qforms/core"
 * const document = OpenApi.fromApi(Api.Api)
 * ```
 */
export class Api extends HttpApi.make("qforms")
  .add(FormsGroup)
  .add(ResponsesGroup)
  .add(StagesGroup)
  .add(AssignmentRulesGroup)
  .add(SavedViewsGroup)
  .add(CaseFieldsGroup)
  .add(MembersGroup)
  .add(InvitationsGroup)
  .add(WebhooksGroup)
  .add(FilesGroup)
  .add(ImagesGroup)
  .add(TranslationsGroup)
  .add(GenerateGroup)
  .add(NotificationsGroup)
  .add(EmailsGroup)
  .add(ApiKeysGroup)
  .add(WorkspaceGroup)
  .add(InsightsGroup)
  .add(PrivacyGroup)
  .add(AuditGroup)
  .prefix("/api")
  .middleware(RequestErrors)
  .middleware(Authentication)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(HttpApi.QueryParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "qforms API",
      version: apiVersion,
      description:
        "Forms, responses as cases (stage, assignee, tags, notes), and webhook subscriptions. " +
        'Every endpoint takes an API key as a bearer token; every error body is `{"error": "…"}`.'
    })
  ) {}

// ---------------------------------------------------------------------------
// Routes served outside the HttpApi (by the router directly), described here
// with the same Schemas their routes decode with, so that the document covers
// everything qforms answers on the API's paths and the public page's JSON.
// ---------------------------------------------------------------------------

/** The answers the router may give on any route (see `Http.ts`: 400, 405, 409, 413, 500, 503). */
const routerErrors = [
  BadRequest,
  MethodNotAllowed,
  Conflict,
  PayloadTooLarge,
  InternalError,
  ServiceUnavailable
] as const

/** A form's public id: the part of its public URL `/f/{publicId}`. */
const PublicIdParams = {
  publicId: Schema.String.check(Schema.isMaxLength(100)).annotate({
    description: "The form's `publicId` (the part of its public URL `/f/{publicId}`)."
  })
}

/**
 * The public page's JSON routes: no API key (a respondent's browser or any
 * site embedding the form), limited per client address. Served by
 * `pages/PublicPage.ts` and `pages/Uploads.ts`.
 */
export class PublicGroup extends HttpApiGroup.make("public").add(
  HttpApiEndpoint.post("submit", "/f/:publicId/responses", {
    params: PublicIdParams,
    payload: PublicSubmitInput,
    success: PublicSubmitted.pipe(created),
    error: [...routerErrors, Forbidden, NotFound, Conflict, UnsupportedMediaType, TooManyRequests]
  }).annotate(
    OpenApi.Description,
    "Submits a response to a published form as its respondent (source `form`), without an API key. " +
      "403 for a form with an access code when `accessCode` is missing or wrong, " +
      "404 for an unknown or draft form, 409 for a closed or full one (and, with `oneResponsePerDevice`, from a " +
      "device whose cookie shows it has sent its response), 429 (with `Retry-After`) when this address sends too many " +
      "(or too many wrong access codes)."
  ),
  HttpApiEndpoint.post("upload", "/f/:publicId/uploads", {
    params: PublicIdParams,
    query: {
      fieldId: Id.annotate({
        description: "The id of the `file` question (or `signature`, for its drawing) the file answers."
      }),
      lang: Schema.optionalKey(
        Schema.String.check(Schema.isMaxLength(35)).annotate({
          description:
            "Extension: the language (BCP 47) the respondent reads, for the refusals they may meet (413, 415, 429): " +
            "their `error` is then said in it, as the public page says it (English when the language is unknown)."
        })
      )
    },
    payload: Schema.Struct({
      file: Multipart.SingleFileSchema.annotate({ description: "The file (one part named `file`)." })
    }).pipe(HttpApiSchema.asMultipart()),
    success: FileAnswer.pipe(created),
    error: [...routerErrors, NotFound, Conflict, UnsupportedMediaType, TooManyRequests]
  }).annotate(
    OpenApi.Description,
    "Uploads a respondent's file for a `file` question (or the PNG of a `signature` question's drawing, at most " +
      "1 MB), without an API key; the answer is the value to submit for that question. 413 over the question's " +
      "`maxSizeMb`, 415 for a type it does not accept, 429 (with " +
      "`Retry-After`) when this address uploads too many."
  )
) {}

/** The live event stream (a WebSocket, taken before the router; see `EventStream.ts`). */
export class EventsGroup extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("stream", "/api/events", {
      query: {
        formId: Schema.optionalKey(Id).annotate({ description: "Only the events of this form." })
      },
      success: HttpApiSchema.Empty(101).annotate({
        description:
          "Switching Protocols: a WebSocket sending each event of the workspace as a text frame " +
          "(the webhook body as JSON), in commit order."
      }),
      error: [...routerErrors, NotFound, UpgradeRequired]
    }).annotate(
      OpenApi.Description,
      "Extension: the workspace's events, live, over a WebSocket (`Upgrade: websocket`); a browser, which cannot " +
        "set headers, offers its key as the subprotocol `qforms.bearer.<key>`. A plain GET is answered 426."
    )
  )
  .middleware(Authentication) {}

/** The service's own documents and probes, readable without a key. */
export class ServiceGroup extends HttpApiGroup.make("service").add(
  HttpApiEndpoint.get("openapi", "/api/openapi.json", {
    success: Schema.StructWithRest(Schema.Struct({ openapi: Schema.String }), [
      Schema.Record(
        Schema.String,
        Schema.Union([Schema.String, Schema.Array(Schema.Unknown), Schema.Record(Schema.String, Schema.Unknown)])
      )
    ]).annotate({ description: "This OpenAPI 3.1 document." }),
    error: routerErrors
  }).annotate(OpenApi.Description, "The OpenAPI document of the API (this document), without a key."),
  HttpApiEndpoint.get("docs", "/api/docs", {
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" })),
    error: routerErrors
  }).annotate(OpenApi.Description, "The API reference page (HTML), without a key."),
  HttpApiEndpoint.get("health", "/healthz", {
    success: Schema.Struct({ status: Schema.Literal("ok") }),
    error: routerErrors
  }).annotate(OpenApi.Description, "Liveness: the process answers."),
  HttpApiEndpoint.get("ready", "/readyz", {
    success: Schema.Struct({ status: Schema.Literal("ready") }),
    error: routerErrors
  }).annotate(OpenApi.Description, "Readiness: the database answers too (503 when it does not).")
) {}

/**
 * Documents each path and query parameter whose value is a number (an id,
 * `limit`) with the JSON Schema of its decoded type (`integer`, with its
 * bounds) rather than that of the text the URL carries, so that a generated
 * client takes the ids the API returns. Derived from the endpoints' Schemas.
 */
const numericParameters =
  <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) =>
  (spec: Record<string, unknown>): Record<string, unknown> => {
    const paths = spec["paths"] as Record<
      string,
      Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }> }>
    >
    HttpApi.reflect(api, {
      onGroup: () => undefined,
      onEndpoint: ({ endpoint }) => {
        const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
        const operation = paths[path]?.[endpoint.method.toLowerCase()]
        if (operation?.parameters === undefined) return
        for (const [where, schema] of [
          ["path", endpoint.params],
          ["query", endpoint.query]
        ] as const) {
          if (schema === undefined) continue
          const decoded = Schema.toJsonSchemaDocument(Schema.toType(schema))
          const properties = (decoded.schema["properties"] ?? {}) as Record<string, unknown>
          for (const parameter of operation.parameters) {
            const typed = properties[parameter.name]
            if (
              parameter.in === where &&
              typed !== undefined &&
              /"type":"(?:integer|number)"/.test(JSON.stringify(typed))
            ) {
              parameter.schema = typed
            }
          }
        }
      }
    })
    return spec
  }

/**
 * Publishes `person.json` of the personal-data export (`GET /api/privacy/export`) in `components.schemas`
 * (`PersonData` and the schemas it names): an entry of a ZIP, so no operation refers to it.
 */
const personDataSchemas = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = (spec["components"] ?? {}) as { schemas?: Record<string, unknown> }
  const schemas = (components.schemas ??= {})
  const document = Schema.toJsonSchemaDocument(PersonData)
  for (const [name, definition] of Object.entries(document.definitions)) {
    schemas[name] ??= JSON.parse(JSON.stringify(definition).replaceAll('"#/$defs/', '"#/components/schemas/'))
  }
  return { ...spec, components: { ...components, schemas } }
}

/**
 * Publishes the event catalogue as the document's `webhooks` (OpenAPI 3.1): one POST per event, its body the
 * event's Schema (the contract's WebhookEvent for its two events), with an example. The Schemas' definitions
 * join `components.schemas`.
 */
const eventWebhooks = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = (spec["components"] ?? {}) as { schemas?: Record<string, unknown> }
  const schemas = (components.schemas ??= {})
  const toComponents = (json: unknown): unknown =>
    JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/'))
  const webhooks: Record<string, unknown> = {}
  const examples = catalogueDocument().events
  for (const entry of catalogue) {
    const document = Schema.toJsonSchemaDocument(entry.schema)
    for (const [name, definition] of Object.entries(document.definitions)) schemas[name] ??= toComponents(definition)
    webhooks[entry.name] = {
      post: {
        operationId: `event.${entry.name}`,
        summary: entry.name,
        description: `${entry.spec ? "" : "Extension: "}${entry.description}`,
        tags: ["events"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: toComponents(document.schema),
              example: examples.find((e) => e.name === entry.name)!.example
            }
          }
        },
        responses: {
          "200": {
            description:
              entry.name === "ping"
                ? "Any 2xx answer passes the test; the answer is reported to whoever sent it, and nothing is retried."
                : "Any 2xx answer acknowledges the event; anything else is retried."
          }
        }
      }
    }
  }
  return { ...spec, components: { ...components, schemas }, webhooks }
}

const described = Api.add(PublicGroup).add(EventsGroup).add(ServiceGroup)

/**
 * The API as published in the OpenAPI document (`/api/openapi.json`) and on
 * the reference page: {@link Api} plus the routes served beside it — the public
 * page's JSON submission and uploads, the event stream, the documents and the
 * health probes.
 *
 * @example
 * ```ts
 * import * as OpenApi from "effect/http-api/OpenApi"
 * import { Api } from "@qforms/core"
 * const document = OpenApi.fromApi(Api.Documented)
 * ```
 */
export const Documented = described.annotateMerge(
  OpenApi.annotations({ transform: (spec) => eventWebhooks(personDataSchemas(numericParameters(described)(spec))) })
)
