/**
 * What the MCP endpoint offers an assistant: the tools (each a domain service
 * call, with its input Schema taken from the HTTP API's), the form resources
 * and the `triage_new_responses` prompt. Transport-free: `Mcp.ts` serves
 * these over Streamable HTTP for the authenticated member.
 */
import * as Effect from "effect/Effect"
import type * as JsonSchema from "effect/JsonSchema"
import * as Schema from "effect/Schema"
import { jsonSchemaOf } from "../kernel/JsonSchemas.ts"
import type * as SchemaIssue from "effect/SchemaIssue"
import type * as SqlError from "effect/sql/SqlError"
import * as Actors from "../identity/Actors.ts"
import {
  DeadLetterList,
  Deliveries,
  Delivery,
  DeliveryLog,
  ReplayDeadLettersInput,
  ReplayResult
} from "../outbox/Deliveries.ts"
import { generateForm, GenerateFormInput } from "../generation/FormGenerator.ts"
import * as FormTranslator from "../generation/FormTranslator.ts"
import { CreateFormInput, Forms, FormSummary, FormWithFields, UpdateFormInput } from "../forms/Forms.ts"
import { Id } from "../kernel/Ids.ts"
import { InvalidInput } from "../kernel/Errors.ts"
import { Member, Members } from "../identity/Members.ts"
import { AddNoteInput, Note, Notes } from "../cases/Notes.ts"
import { MergeResponsesInput, ResponseMerge, ResponseMerges } from "../cases/ResponseMerges.ts"
import { StatusLink, StatusLinks, statusPath } from "../cases/StatusLinks.ts"
import { LinkBase } from "../kernel/Links.ts"
import { Erasure, ErasureRequest, ErasureResult } from "../cases/Erasure.ts"
import { PersonalDataExport, PersonData, PersonExportRequest } from "../cases/PersonalDataExport.ts"
import {
  BulkUpdateResult,
  ResponseDetail,
  Responses,
  UpdateResponseInput,
  UpdateResponseResult,
  WorkspaceResponseList,
  workspaceListOptions
} from "../cases/Responses.ts"
import { Stage, Stages } from "../forms/Stages.ts"
import { AssignmentRules, AssignmentRulesService } from "../cases/AssignmentRules.ts"
import { CreateSavedViewInput, SavedView, SavedViews, UpdateSavedViewInput } from "../cases/SavedViews.ts"
import { CaseFields, CaseFieldsService } from "../cases/CaseFields.ts"
import { Subscription, Webhooks, WorkspaceSubscription } from "../outbox/Webhooks.ts"
import { catalogueDocument, EventCatalogueDocument } from "../outbox/EventCatalogue.ts"
import {
  BulkUpdateResponsesInput,
  DeliveryLogQuery,
  ResponseList,
  ResponseListQuery,
  SubscriptionId,
  SummaryQuery,
  WorkspaceMetricsQuery,
  WorkspaceResponseListQuery
} from "../api/Api.ts"
import { FormSummaries, FormSummaryReport } from "../insights/FormSummaries.ts"
import { CaseMetrics, CaseMetricsReport } from "../insights/CaseMetrics.ts"
import { ImageList, Images } from "../files/Images.ts"
import { WorkspaceSettings, WorkspaceSettingsStore } from "../forms/WorkspaceSettings.ts"
import { AuditAction, AuditLog, AuditLogPage, AuditSurface } from "../audit/AuditLog.ts"
import * as Translations from "../forms/Translations.ts"
import { LanguageTag } from "../languages/Languages.ts"
import { describeIssue } from "../web/Security.ts"
import type * as ErrorTable from "../web/ErrorTable.ts"

/** What a tool call answers: JSON text for any client, the same value as `structuredContent`, or a tool error. */
export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
  readonly structuredContent?: Record<string, unknown> | undefined
  readonly isError: boolean
}

/** A tool as listed (`tools/list`) and called (`tools/call`). */
export interface McpTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JsonSchema.JsonSchema
  readonly outputSchema: JsonSchema.JsonSchema
  readonly annotations: {
    readonly readOnlyHint: boolean
    readonly destructiveHint: boolean
    readonly idempotentHint: boolean
    readonly openWorldHint: boolean
  }
  /** Decodes the arguments and runs the tool as `actor`; bad arguments and refusals are tool errors. */
  readonly call: (actor: Actors.Actor, args: unknown) => Effect.Effect<ToolResult, SqlError.SqlError>
}

/** Every error a domain service may fail with: its message is what the assistant reads. */
/** The errors a tool answers as a tool error result: those with a row in the error table (checked by the compiler). */
type DomainError = { readonly _tag: ErrorTable.AnsweredTag; readonly message: string }

const toolError = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true })

/** A result as JSON text plus `structuredContent` (the same object). */
export const toolSuccess = (value: Record<string, unknown>): ToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: value,
  isError: false
})

/** The arguments of a tool that takes none: an empty object (`Schema.Struct({})` would take any value). */
const NoArguments = Schema.Record(Schema.String, Schema.Never.annotate({ message: "unknown field" }))

const parseOptions = { onExcessProperty: "error", errors: "all" } as const

const define = <I extends Schema.Top & { readonly DecodingServices: never }, O extends Schema.Top>(
  name: string,
  options: {
    readonly title: string
    readonly description: string
    readonly input: I
    readonly output: O
    readonly write: boolean
    /**
     * A viewer may call this writing tool too: the service decides what they may do (their own saved views);
     * otherwise a viewer is refused before it runs.
     */
    readonly viewers?: boolean | undefined
    /** The tool deletes what cannot be brought back (MCP's `destructiveHint`). */
    readonly destructive?: boolean | undefined
    readonly run: (actor: Actors.Actor, input: I["Type"]) => Effect.Effect<O["Type"], DomainError | SqlError.SqlError>
  }
): McpTool => {
  const decode = Schema.decodeUnknownEffect(options.input, parseOptions)
  return {
    name,
    title: options.title,
    description: options.description,
    inputSchema: jsonSchemaOf(options.input, "error"),
    outputSchema: jsonSchemaOf(options.output, "ignore"),
    annotations: {
      readOnlyHint: !options.write,
      destructiveHint: options.destructive === true,
      idempotentHint: !options.write,
      openWorldHint: false
    },
    call: (actor, args) =>
      Effect.gen(function* () {
        const decoded = yield* Effect.result(decode(args ?? {}))
        if (decoded._tag === "Failure") {
          const { error } = describeIssue(decoded.failure.issue, "arguments", true)
          return toolError(`invalid arguments: ${error}`)
        }
        if (options.write && options.viewers !== true) {
          const allowed = yield* Effect.result(Actors.requireWrite(actor))
          if (allowed._tag === "Failure") return toolError(allowed.failure.message)
        }
        const result = yield* Effect.result(options.run(actor, decoded.success))
        if (result._tag === "Success") return toolSuccess(result.success as Record<string, unknown>)
        const error = result.failure
        if (error._tag === "SqlError") return yield* Effect.fail(error as SqlError.SqlError)
        return toolError(error.message)
      })
  }
}

const FormId = Id.annotate({
  description: "The form's numeric id (`id` in list_forms), not its `publicId`."
})
const ResponseId = Id.annotate({ description: "The response's numeric id (`id` in list_responses)." })

/** The list filters, as the HTTP list's query string, with `flat` as a boolean and a default page. */
const ListResponsesInput = Schema.Struct({
  formId: FormId,
  ...ResponseListQuery.fields,
  flat: Schema.optionalKey(Schema.Boolean).annotate({
    description: "Adds `answers` (keyed by question label) and a readable `summary` to every response."
  }),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))).annotate({
    description: "At most this many responses (1–1000, default 50); `nextCursor` then leads to the next page."
  })
})

const defaultPage = 50

/** The workspace-wide list's filters, as `GET /responses` takes them, with `open` as a boolean. */
const ListWorkspaceResponsesInput = Schema.Struct({
  ...WorkspaceResponseListQuery.fields,
  open: Schema.optionalKey(Schema.Boolean).annotate({
    description: "true: only open cases (no stage, or a stage not marked closed); false: only closed ones."
  })
})

/** Every tool, bound to the domain services. */
export const makeTools = Effect.gen(function* () {
  const forms = yield* Forms
  const responses = yield* Responses
  const notes = yield* Notes
  const statusLinks = yield* StatusLinks
  const merges = yield* ResponseMerges
  const stages = yield* Stages
  const members = yield* Members
  const assignmentRules = yield* AssignmentRulesService
  const savedViews = yield* SavedViews
  const caseFields = yield* CaseFieldsService
  const webhooks = yield* Webhooks
  const deliveries = yield* Deliveries
  const generate = yield* generateForm
  const workspaceSettings = yield* WorkspaceSettingsStore
  const erasure = yield* Erasure
  const personalData = yield* PersonalDataExport
  const images = yield* Images
  const translator = yield* FormTranslator.make
  const summaries = yield* FormSummaries
  const caseMetrics = yield* CaseMetrics
  const auditLog = yield* AuditLog

  const Language = LanguageTag.annotate({ description: "A BCP 47 language tag: de, fr, pt-BR, zh-Hans, ar, …" })

  const tools: ReadonlyArray<McpTool> = [
    define("list_forms", {
      title: "List forms",
      description:
        "Lists every form of the workspace, most recently changed first, with its status " +
        "(draft, published, closed) and response count. Start here to find a form's `id`, which the other tools take as `formId`.",
      input: NoArguments,
      output: Schema.Struct({ forms: Schema.Array(FormSummary) }),
      write: false,
      run: (actor) => Effect.map(forms.list(actor), (list) => ({ forms: list }))
    }),
    define("get_form", {
      title: "Get a form with its questions",
      description:
        "Returns one form with its questions in order. Each question's `id` is the key of its answer in " +
        "a response's `values`. Use it before reading responses or changing the questions.",
      input: Schema.Struct({ formId: FormId }),
      output: FormWithFields,
      write: false,
      run: (actor, { formId }) => forms.get(actor, formId)
    }),
    define("create_form", {
      title: "Create a form",
      description:
        "Creates a draft form with the questions given in `fields` (in order) and the default stages " +
        '(New, In progress, Done). Publish it with update_form {status: "published"} to accept responses. ' +
        "To write the questions from a plain-language description instead, use generate_form.",
      input: CreateFormInput,
      output: FormSummary,
      write: true,
      run: (actor, input) => forms.create(actor, input)
    }),
    define("update_form", {
      title: "Change a form",
      description:
        "Changes a form's title, description, status (draft, published, closed) and/or questions. " +
        "`fields` replaces the whole question list: keep a question's `id` to keep it and its answers; " +
        "a question left out is deleted. Call get_form first to have the current questions. " +
        "Form logic: `hiddenFields` [{name}] take values from the page URL; a question's `logic` " +
        '[{if: Condition, then: {jumpTo: <later question id> | "page:<key>" | "end"}}] and `showIf` Condition refer to question ' +
        'ids, or to questions of the same call by their `ref` as "ref:<ref>". Pictures: `settings.theme.logo` and a ' +
        "select or checkboxes question's `options.images` {choice: image id} take ids from list_images. Pages: " +
        "`settings.pages` [{key, title?}] and a question's `page` show consecutive questions on one screen. " +
        'Retention: `settings.retention` {days: 1-3650, action: "delete" | "anonymise"} removes old responses ' +
        "once a day (null keeps them forever). `settings` replaces all settings: send the ones you keep.",
      input: Schema.Struct({ formId: FormId, ...UpdateFormInput.fields }),
      output: FormSummary,
      write: true,
      run: (actor, { formId, ...input }) => forms.update(actor, formId, input)
    }),
    define("generate_form", {
      title: "Generate a form from a description",
      description:
        'Writes the questions from a plain-language description (e.g. "an RSVP: name, email, ' +
        'attending yes or no, number of guests") and creates the form, as a draft unless `publish` is true. ' +
        "Returns the form with its questions; refine them with update_form.",
      input: GenerateFormInput,
      output: FormWithFields,
      write: true,
      run: (actor, input) => generate(actor, input)
    }),
    define("list_responses", {
      title: "List a form's responses",
      description:
        "Lists a form's responses (cases), newest first, 50 at a time unless `limit` says otherwise; " +
        "pass `nextCursor` back as `cursor` for the next page. Filters: `q` (text search in name, e-mail, tags " +
        'and answers), `stage` (a stage id or "none"), `assignee` (an account id or "none"), `tag`, ' +
        "`from`/`to` (submission time, ISO 8601), `status` (completed, the default; partial; all), `due` (SLA: " +
        "overdue, today, week). A row of a form with SLA targets carries `sla` (due times, state). The answer also carries the form's questions, stages, " +
        "members and tags, so ids in the rows can be read. Set `flat` to get answers keyed by question label.",
      input: ListResponsesInput,
      output: ResponseList,
      write: false,
      run: (actor, { formId, from, to, flat, limit, ...filter }) =>
        responses.list(actor, formId, {
          ...filter,
          from: from === undefined ? undefined : new Date(from),
          to: to === undefined ? undefined : new Date(to),
          flat: flat === true,
          limit: limit ?? defaultPage
        })
    }),
    define("list_workspace_responses", {
      title: "List responses across all forms",
      description:
        "Lists the workspace's submitted responses (cases) across all its forms, newest first, 50 at a time unless " +
        "`limit` (1–100) says otherwise; pass `nextCursor` back as `cursor` for the next page. Each row carries " +
        '`formId` and `formTitle`. Filters: `formId`, `q`, `tag`, `assignee` (an account id, "none", or "me" for ' +
        "the caller's own), `open` (true: no stage or a stage not closed), `from`/`to`, `due` (overdue, today, " +
        'week), `stage` (only with `formId`). "My open cases" is `assignee: "me", open: true`. `sort`: newest ' +
        "(default) or oldest first. `view`: a saved view's id (list_views) whose filter and sort apply, under the " +
        "arguments given.",
      input: ListWorkspaceResponsesInput,
      output: WorkspaceResponseList,
      write: false,
      run: (actor, { view, sort, limit, cursor, ...filter }) => {
        const explicit = { ...workspaceListOptions(filter, sort), limit, cursor }
        return Effect.flatMap(
          view === undefined ? Effect.succeed(explicit) : savedViews.listOptions(actor, view, explicit),
          (options) => responses.listWorkspace(actor, options)
        )
      }
    }),
    define("list_views", {
      title: "List saved views",
      description:
        "Lists the caller's personal saved views and the workspace's shared ones: each a name, a `filter` (the " +
        "filters of list_workspace_responses), a `sort` and the `columns` shown. Pass a view's `id` as `view` to " +
        "list_workspace_responses to list its cases.",
      input: NoArguments,
      output: Schema.Struct({ views: Schema.Array(SavedView) }),
      write: false,
      run: (actor) => Effect.map(savedViews.list(actor), (views) => ({ views }))
    }),
    define("save_view", {
      title: "Save a view",
      description:
        "Creates a saved view (without `id`; `name` needed) or changes the view `id` (what is given replaces what " +
        "it had). `shared: true` makes it seen by every member; a shared view is changed only by its maker, an " +
        'owner or an admin. `filter` takes list_workspace_responses\' filters (`open` as "true"/"false"); ' +
        "`sort` is newest or oldest; `columns` from form, name, email, stage, assignee, tags, due, submittedAt.",
      input: Schema.Struct({
        id: Schema.optionalKey(Id).annotate({ description: "The view to change; a new view when absent." }),
        name: Schema.optionalKey(CreateSavedViewInput.fields.name),
        shared: UpdateSavedViewInput.fields.shared,
        filter: UpdateSavedViewInput.fields.filter,
        sort: UpdateSavedViewInput.fields.sort,
        columns: UpdateSavedViewInput.fields.columns
      }),
      output: SavedView,
      write: true,
      viewers: true,
      run: (actor, { id, name, ...rest }) =>
        id !== undefined
          ? savedViews.update(actor, id, { ...rest, ...(name === undefined ? {} : { name }) })
          : name === undefined
            ? Effect.fail(new InvalidInput({ message: "name: a new view needs a name" }))
            : savedViews.create(actor, { ...rest, name })
    }),
    define("delete_view", {
      title: "Delete a saved view",
      description: "Deletes a saved view: a personal one of the caller's, or a shared one they may change.",
      input: Schema.Struct({ id: Id }),
      output: Schema.Struct({ deleted: Schema.Boolean }),
      write: true,
      viewers: true,
      run: (actor, { id }) => Effect.as(savedViews.remove(actor, id), { deleted: true })
    }),
    define("get_form_summary", {
      title: "Summarize a form's answers",
      description:
        "Summarizes a form's responses instead of listing them: totals (page views, starts, responses, completion " +
        "rate, median time to complete), the drop-off funnel of the public page, and per question the count and " +
        "share of each choice (Other included), the mean, median, percentiles and distribution of numbers with the " +
        "NPS score, matrix rows, the average place of ranked choices, dates per month, and the latest text answers " +
        "with their most frequent words. Takes list_responses' filters (`q`, `stage`, `assignee`, `tag`, `from`, " +
        "`to`, `status`) and `texts` (latest answers per text question, 0–50, default 10). Use it to answer " +
        '"what do people say" or "how many chose X" without paging through responses.',
      input: Schema.Struct({ formId: FormId, ...SummaryQuery.fields }),
      output: FormSummaryReport,
      write: false,
      run: (actor, { formId, from, to, ...filter }) =>
        summaries.summarize(actor, formId, {
          ...filter,
          from: from === undefined ? undefined : new Date(from),
          to: to === undefined ? undefined : new Date(to)
        })
    }),
    define("get_case_metrics", {
      title: "Measure how the cases are doing",
      description:
        "Answers how a form's cases are doing (with `formId`; across every form of the workspace without it): open " +
        "and closed cases, open cases by stage and by assignee, new and closed cases per day or week (`interval`), " +
        "the time to a first response (a member's stage change, assignment, note or e-mail; median and p90 seconds, " +
        "and how many still wait) and the time spent in each stage. Takes list_responses' filters (`stage` only " +
        "with a form). Use it for backlog and response-time questions.",
      input: Schema.Struct({
        formId: Schema.optionalKey(FormId),
        ...WorkspaceMetricsQuery.fields,
        stage: ResponseListQuery.fields.stage
      }),
      output: CaseMetricsReport,
      write: false,
      run: (actor, { formId, from, to, ...filter }) =>
        formId === undefined && filter.stage !== undefined
          ? Effect.fail(new InvalidInput({ message: "stage: give formId too (a stage belongs to one form)" }))
          : caseMetrics.measure(actor, formId, {
              ...filter,
              from: from === undefined ? undefined : new Date(from),
              to: to === undefined ? undefined : new Date(to)
            })
    }),
    define("get_response", {
      title: "Get a response",
      description:
        "Returns one response with every answer, its stage, assignee and tags, and its activity " +
        "(notes, stage and assignee changes, e-mails). Use it before deciding how to triage a case.",
      input: Schema.Struct({ responseId: ResponseId }),
      output: ResponseDetail,
      write: false,
      run: (actor, { responseId }) => responses.get(actor, responseId)
    }),
    define("update_response", {
      title: "Triage a response",
      description:
        "Moves a response to a stage (`stageId` from list_stages; null for no stage), assigns it " +
        "(`assigneeId`: an `accountId` from list_members; null to unassign) and/or sets its tags (`tags` " +
        "replaces all tags) and/or corrects answers (`answers`: question id → new answer, null to clear an " +
        "optional one; checked as a submission's are) and/or sets case fields (`caseFields`: key from " +
        "get_case_fields → value, null to clear). Changing the stage notifies the form's " +
        "`response.stage_changed` webhooks; changing answers, its `response.updated` webhooks.",
      input: Schema.Struct({ responseId: ResponseId, ...UpdateResponseInput.fields }),
      output: UpdateResponseResult,
      write: true,
      run: (actor, { responseId, ...input }) => responses.update(actor, responseId, input)
    }),
    define("update_responses", {
      title: "Triage many responses at once",
      description:
        "Changes many responses in one go, all or nothing: `ids` (1–1000, from list_responses) or `filter` " +
        "(list_responses' filters plus an optional `formId`; at most 1000 matches), and at least one of `stageId` " +
        "(a stage of the responses' form; null for none), `assigneeId` (an `accountId` from list_members; null to " +
        "unassign), `addTags`, `removeTags`. Answers how many matched and each changed response with its changes; " +
        "each change notifies the webhooks as update_response does.",
      input: BulkUpdateResponsesInput,
      output: BulkUpdateResult,
      write: true,
      run: (actor, input) => responses.updateMany(actor, input)
    }),
    define("add_note", {
      title: "Add a note to a response",
      description:
        "Adds an internal note to a response (never shown to the respondent): say what you did or " +
        "why, e.g. after triaging it.",
      input: Schema.Struct({ responseId: ResponseId, ...AddNoteInput.fields }),
      output: Note,
      write: true,
      run: (actor, { responseId, ...input }) => notes.add(actor, responseId, input)
    }),
    define("issue_status_link", {
      title: "Issue a response's status link",
      description:
        "Issues a new link to the respondent's status page (their case's public stage name, the e-mail " +
        "thread and a reply form). The link before it stops working; the URL is shown only this once.",
      input: Schema.Struct({ responseId: ResponseId }),
      output: StatusLink,
      write: true,
      run: (actor, { responseId }) =>
        Effect.gen(function* () {
          const { token, createdAt } = yield* statusLinks.issue(actor, responseId)
          const base = (yield* LinkBase).replace(/\/$/, "")
          return { url: `${base}${statusPath(token)}`, createdAt: createdAt.toISOString() }
        })
    }),
    define("revoke_status_link", {
      title: "Revoke a response's status link",
      description:
        "Revokes the link to the respondent's status page: it answers 404 from now on (issue_status_link " +
        "gives a new one).",
      input: Schema.Struct({ responseId: ResponseId }),
      output: Schema.Struct({ revoked: Schema.Boolean }),
      write: true,
      run: (actor, { responseId }) => Effect.as(statusLinks.revoke(actor, responseId), { revoked: true })
    }),
    define("merge_responses", {
      title: "Merge a duplicate response into another",
      description:
        "Merges `duplicateId` into `responseId` (two submitted responses of the same form, e.g. the same " +
        "person sending the same request twice): the kept response takes the duplicate's answers to questions " +
        "it has no answer to (its own win), its tags, notes, activity and e-mails; the duplicate becomes a " +
        "pointer (`mergedInto`) and leaves the lists. Undo it within 24 hours with unmerge_responses.",
      input: Schema.Struct({ responseId: ResponseId, ...MergeResponsesInput.fields }),
      output: ResponseMerge,
      write: true,
      run: (actor, { responseId, ...input }) => merges.merge(actor, responseId, input)
    }),
    define("unmerge_responses", {
      title: "Undo a merge of responses",
      description:
        "Undoes merge_responses within 24 hours: the duplicate is a response of its own again, with its " +
        "notes, activity and e-mails; the kept response loses only what the merge gave it.",
      input: Schema.Struct({ responseId: ResponseId, duplicateId: ResponseId }),
      output: ResponseMerge,
      write: true,
      run: (actor, { responseId, duplicateId }) => merges.undo(actor, responseId, duplicateId)
    }),
    define("list_stages", {
      title: "List a form's stages",
      description:
        "Lists the stages of a form's cases in order (e.g. New, In progress, Done), each with the " +
        "`id` update_response takes as `stageId` and list_responses as `stage`. A closed stage ends a case.",
      input: Schema.Struct({ formId: FormId }),
      output: Schema.Struct({ stages: Schema.Array(Stage) }),
      write: false,
      run: (actor, { formId }) => Effect.map(stages.list(actor, formId), (list) => ({ stages: list }))
    }),
    define("list_members", {
      title: "List the workspace's members",
      description:
        "Lists the people of the workspace with their role. A member's `accountId` is what " +
        "update_response takes as `assigneeId` and list_responses as `assignee`.",
      input: NoArguments,
      output: Schema.Struct({ members: Schema.Array(Member) }),
      write: false,
      run: (actor) => Effect.map(members.list(actor.workspaceId), (list) => ({ members: list }))
    }),
    define("get_assignment_rules", {
      title: "Get a form's assignment rules",
      description:
        "Returns the form's assignment rules in order: the first that applies gives a new response its assignee " +
        "(`byAnswer`: an answer equals a value; `roundRobin`: the members in turn; `leastOpen`: the member with the " +
        "fewest open cases). Away members and those who left are passed by.",
      input: Schema.Struct({ formId: FormId }),
      output: AssignmentRules,
      write: false,
      run: (actor, { formId }) => Effect.map(assignmentRules.list(actor, formId), (rules) => ({ rules }))
    }),
    define("set_assignment_rules", {
      title: "Replace a form's assignment rules",
      description:
        "Replaces the form's assignment rules with `rules` (in order, at most 50; an empty list removes them). " +
        "`fieldId` is a question's id from get_form; member ids are `accountId`s from list_members.",
      input: Schema.Struct({ formId: FormId, ...AssignmentRules.fields }),
      output: AssignmentRules,
      write: true,
      run: (actor, { formId, rules }) =>
        Effect.map(assignmentRules.replace(actor, formId, { rules }), (list) => ({ rules: list }))
    }),
    define("get_case_fields", {
      title: "Get a form's case fields",
      description:
        "Returns the form's case fields in order: the team's own fields of its cases (`text`, `number`, `date`, " +
        "`select` with its `options`, `member`), never shown to the respondent. update_response and " +
        "update_responses set their values by `key` (`caseFields`); list_responses filters by them (`field`).",
      input: Schema.Struct({ formId: FormId }),
      output: CaseFields,
      write: false,
      run: (actor, { formId }) => Effect.map(caseFields.list(actor, formId), (fields) => ({ fields }))
    }),
    define("set_case_fields", {
      title: "Replace a form's case fields",
      description:
        "Replaces the form's case fields with `fields` (in order, at most 30; an empty list removes them). Each " +
        "has a `key` (lower-case letters, digits, _), a `label` and a `type`; a `select` lists its `options`. The " +
        "values of a field removed (or whose type changes) are removed with it.",
      input: Schema.Struct({ formId: FormId, ...CaseFields.fields }),
      output: CaseFields,
      write: true,
      run: (actor, { formId, fields }) =>
        Effect.map(caseFields.replace(actor, formId, { fields }), (list) => ({ fields: list }))
    }),
    define("set_member_away", {
      title: "Mark a member away or back",
      description:
        "Marks a member away (`away: true`) or back: assignment rules then pass them by. Any member may set it " +
        "for themself, owners and admins for anyone. `accountId` comes from list_members.",
      input: Schema.Struct({ accountId: Id, away: Schema.Boolean }),
      output: Member,
      write: true,
      run: (actor, { accountId, away }) => members.setAway(actor, accountId, away)
    }),
    define("list_webhooks", {
      title: "List webhook subscriptions",
      description:
        "Lists the webhook subscriptions (`sub_…` ids): which form and event each sends where, " +
        "whether it is disabled and when its receiver last answered (any status); then the workspace-wide ones " +
        "(every form, or those of `filters.formIds`). Use a subscription's `id` with get_delivery_log.",
      input: NoArguments,
      output: Schema.Struct({
        webhooks: Schema.Array(Subscription),
        workspaceWebhooks: Schema.Array(WorkspaceSubscription)
      }),
      write: false,
      run: (actor) => Effect.all({ webhooks: webhooks.list(actor), workspaceWebhooks: webhooks.listWorkspace(actor) })
    }),
    define("list_event_catalogue", {
      title: "List the events qforms sends",
      description:
        "Lists every event webhooks and the live stream carry (`response.created`, `note.created`, …): what " +
        "each means, the JSON Schema of its body and an example. Subscriptions name these events.",
      input: NoArguments,
      output: EventCatalogueDocument,
      write: false,
      run: () => Effect.succeed(catalogueDocument())
    }),
    define("get_delivery_log", {
      title: "Get a webhook's delivery log",
      description:
        "Shows a subscription's deliveries, newest first, each with every attempt (status code, " +
        "error, time). Use it to find out why a webhook did not arrive; retry_delivery takes a delivery's `id`.",
      input: Schema.Struct({
        subscriptionId: SubscriptionId.annotate({ description: "The subscription's id (`sub_…`) from list_webhooks." }),
        ...DeliveryLogQuery.fields
      }),
      output: DeliveryLog,
      write: false,
      run: (actor, { subscriptionId, ...page }) => deliveries.list(actor, subscriptionId, page)
    }),
    define("list_dead_letters", {
      title: "List webhook deliveries that gave up",
      description:
        "Lists the workspace's dead letters: webhook deliveries that gave up after their retries (status `failed`), " +
        "newest first, each with its subscription and every attempt. Optionally of one subscription. " +
        "replay_dead_letters sends them again.",
      input: Schema.Struct({
        subscriptionId: Schema.optionalKey(
          SubscriptionId.annotate({ description: "Only this subscription's (`sub_…`, from list_webhooks)." })
        ),
        ...DeliveryLogQuery.fields
      }),
      output: DeadLetterList,
      write: false,
      run: (actor, query) => deliveries.deadLetters(actor, query)
    }),
    define("get_workspace_settings", {
      title: "Get the workspace's settings",
      description:
        "Returns the workspace's settings: `theme`, the default theme (colours, font, corner radius, logo, button " +
        "words) of the public pages of its forms that have no theme of their own.",
      input: NoArguments,
      output: WorkspaceSettings,
      write: false,
      run: (actor) => workspaceSettings.get(actor)
    }),
    define("update_workspace_settings", {
      title: "Replace the workspace's settings",
      description:
        "Replaces the workspace's settings (owners and admins only); a key left out takes its default. `theme` is " +
        "checked as a form's is: colours that fail WCAG AA contrast are refused, naming the pair; a `logo` must be " +
        "an image id from list_images.",
      input: WorkspaceSettings,
      output: WorkspaceSettings,
      write: true,
      run: (actor, input) => workspaceSettings.replace(actor, input)
    }),
    define("list_audit_log", {
      title: "Read the workspace's audit log",
      description:
        "Reads the workspace's audit log of security-relevant events (sign-ins, API keys, members and roles, " +
        "invitations, exports, settings, webhooks), newest first (owners and admins only; read-only). Filter by " +
        "`action` or `surface`; pass `nextCursor` back as `cursor` for the next page.",
      input: Schema.Struct({
        action: Schema.optionalKey(AuditAction),
        surface: Schema.optionalKey(AuditSurface),
        limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))).annotate({
          description: "At most this many entries (1–200, default 50)."
        }),
        cursor: Schema.optionalKey(
          Schema.String.check(
            Schema.isPattern(/^[1-9]\d{0,9}$/, { message: "cursor must be a nextCursor of this list" }),
            Schema.makeFilter(
              (value: string) => Number(value) <= 2147483647 || "cursor must be a nextCursor of this list"
            )
          )
        )
      }),
      output: AuditLogPage,
      write: false,
      run: (actor, input) => auditLog.list(actor, input)
    }),
    define("list_images", {
      title: "List the workspace's images",
      description:
        "Lists the workspace's image library, newest first: each image's `id`, name, type and size. A theme's " +
        "`logo` and a select or checkboxes question's `options.images` take these ids (images are uploaded over " +
        "HTTP, POST /api/images).",
      input: NoArguments,
      output: ImageList,
      write: false,
      run: (actor) => images.list(actor)
    }),
    define("list_translations", {
      title: "List a form's translations",
      description:
        "Returns the form's own language (`settings.language`, default en) and, for each language it is " +
        "translated into, its status (ready: the page offers it; draft: waiting for review) and how many of the " +
        "form's texts it has (`translated` of `total`).",
      input: Schema.Struct({ formId: FormId }),
      output: Translations.TranslationList,
      write: false,
      run: (actor, { formId }) => translator.list(actor, formId)
    }),
    define("get_translation", {
      title: "Get a form's translation",
      description:
        "Returns the form's translation into one language and `missing`: each text it still lacks, with where it " +
        'goes (`path`, e.g. ["fields", "12", "choices", "Red"]) and the form\'s own words (`source`). Translate ' +
        "those and send them with set_translation.",
      input: Schema.Struct({ formId: FormId, language: Language }),
      output: Translations.TranslationDetail,
      write: false,
      run: (actor, { formId, language }) => translator.get(actor, formId, language)
    }),
    define("set_translation", {
      title: "Set a form's translation",
      description:
        "Sets the form's translation into a language, replacing the one there was: `title`, `description`, " +
        "`fields` {<question id>: {label, help, placeholder, choices: {<the form's choice>: words}, rows, columns, " +
        "other, minLabel, maxLabel}}, `pages` and `endings` by key, `buttons`, `closedMessage`, `logoAlt`, " +
        "`confirmation` {subject, body}. Answers keep the form's own choices whatever the language. Use status " +
        '"draft" to keep it off the page until someone reviews it. Anything the form does not have is refused, naming it.',
      input: Schema.Struct({ formId: FormId, language: Language, translation: Translations.Translation }),
      output: Translations.TranslationDetail,
      write: true,
      run: (actor, { formId, language, translation }) => translator.put(actor, formId, language, translation)
    }),
    define("draft_translation", {
      title: "Draft a form's translation by machine",
      description:
        "Has the configured language model translate the texts the form's translation into a language lacks, and " +
        'saves the result as a draft (status "draft": the page does not offer it). Review it with get_translation, ' +
        'correct it and set status "ready" with set_translation. Fails without a language model (the offline ' +
        "generator writes English only); you can also translate the texts yourself and use set_translation.",
      input: Schema.Struct({ formId: FormId, language: Language }),
      output: Translations.TranslationDetail,
      write: true,
      run: (actor, { formId, language }) => translator.draft(actor, formId, language)
    }),
    define("retry_delivery", {
      title: "Retry a webhook delivery",
      description:
        "Sends a delivery again now, with the same `webhook-id` so the receiver can tell a repeat. " +
        "Take the delivery's `id` from get_delivery_log.",
      input: Schema.Struct({
        deliveryId: Id.annotate({ description: "The delivery's numeric id from get_delivery_log." })
      }),
      output: Delivery,
      write: true,
      run: (actor, { deliveryId }) => deliveries.retry(actor, deliveryId)
    }),
    define("replay_dead_letters", {
      title: "Replay webhook deliveries that gave up",
      description:
        "Sends dead letters again now (owners and admins only), each with its own `webhook-id`: give `deliveryIds` " +
        "(from list_dead_letters, up to 100) or a `subscriptionId` to replay all of it (up to 500 a call). A " +
        "disabled subscription's are not replayed: enable it first.",
      input: ReplayDeadLettersInput,
      output: ReplayResult,
      write: true,
      run: (actor, input) => deliveries.replayDeadLetters(actor, input)
    }),
    define("erase_person", {
      title: "Erase a person's personal data",
      description:
        "Erases a person from the workspace (owners and admins only), by `email` or `contactId` (exactly one): " +
        "their responses (partial ones too) and files, e-mails sent to them and replies from them, their contact. " +
        "Unsent deliveries about them are cancelled; notes on other cases that name them are flagged for review, " +
        "not edited. Cannot be undone. Answers what was removed: a count and the ids of each kind.",
      input: ErasureRequest,
      output: ErasureResult,
      write: true,
      destructive: true,
      run: (actor, input) => erasure.erase(actor, input)
    }),
    define("export_person", {
      title: "Export a person's data",
      description:
        "Everything the workspace holds about a person (GDPR Article 15; owners and admins only), by `email` or " +
        "`contactId` (exactly one), found as `erase_person` finds them: their contact, responses (partial ones too) " +
        "with each question and answer, stage, tags and notes, e-mails sent to them and replies from them, and " +
        "their files listed with `downloadPath` (no bytes: the ZIP of GET /api/privacy/export holds them). " +
        "Recorded in the audit log (`privacy.export`).",
      input: PersonExportRequest,
      output: PersonData,
      write: false,
      run: (actor, input) => Effect.map(personalData.gather(actor, input, "json"), ({ data }) => data)
    })
  ]
  return tools
})

/** A resource as listed: one per form. */
export interface McpResource {
  readonly uri: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly mimeType: "application/json"
}

/** The URI of a form's resource. */
export const formUri = (formId: number) => `qforms://forms/${formId}`

/** The form resources' template. */
export const formUriTemplate = "qforms://forms/{id}"

const formUriPattern = /^qforms:\/\/forms\/(\d{1,10})$/

/** Why a resource could not be read (the endpoint answers a JSON-RPC error naming it). */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {
  message: Schema.String
}) {}

/** The workspace's forms as resources, and reading one with its questions. */
export const makeResources = Effect.gen(function* () {
  const forms = yield* Forms
  return {
    list: (actor: Actors.Actor) =>
      Effect.map(forms.list(actor), (list) =>
        list.map(
          (form): McpResource => ({
            uri: formUri(form.id),
            name: `form-${form.id}`,
            title: form.title,
            description: `${form.status} form with ${form.responseCount} responses`,
            mimeType: "application/json"
          })
        )
      ),
    read: (actor: Actors.Actor, uri: string) =>
      Effect.gen(function* () {
        const id = Number(formUriPattern.exec(uri)?.[1] ?? Number.NaN)
        if (!Schema.is(Id)(id)) {
          return yield* new ResourceNotFound({ message: `no resource ${uri}: form resources are ${formUriTemplate}` })
        }
        const form = yield* forms
          .get(actor, id)
          .pipe(
            Effect.catchTag("FormNotFound", (error) => Effect.fail(new ResourceNotFound({ message: error.message })))
          )
        return { uri, mimeType: "application/json" as const, text: JSON.stringify(form, null, 2) }
      })
  }
})

/** The prompt's name. */
export const triagePromptName = "triage_new_responses"

/** The prompt's arguments, as MCP lists them. */
export const triagePromptArguments = [
  {
    name: "formId",
    description:
      "The numeric id of the form whose new responses to triage (from list_forms). Without it, every published form.",
    required: false
  }
]

/** The prompt's argument Schema (MCP prompt arguments are strings). */
const TriageArguments = Schema.Struct({
  formId: Schema.optionalKey(Schema.NumberFromString.pipe(Schema.decodeTo(Id)))
})

/** Bad prompt arguments (answered as a JSON-RPC invalid-params error). */
export class InvalidPromptArguments extends Schema.TaggedError<InvalidPromptArguments>()("InvalidPromptArguments", {
  message: Schema.String
}) {}

/**
 * `triage_new_responses`: walks an assistant through the open cases of a
 * form (or of every published form): read each, pick a stage and an
 * assignee, tag it, and leave a note saying why.
 */
export const makeTriagePrompt = Effect.gen(function* () {
  const forms = yield* Forms
  return (actor: Actors.Actor, args: unknown) =>
    Effect.gen(function* () {
      const decoded = yield* Schema.decodeUnknownEffect(
        TriageArguments,
        parseOptions
      )(args ?? {}).pipe(
        Effect.mapError(
          (error) =>
            new InvalidPromptArguments({
              message: describeIssue(error.issue as SchemaIssue.Issue, "arguments", true).error
            })
        )
      )
      const scope =
        decoded.formId === undefined
          ? "every published form of the workspace (find them with list_forms)"
          : yield* Effect.map(
              forms.getSummary(actor, decoded.formId),
              (form) => `the form "${form.title}" (formId ${form.id}, ${form.responseCount} responses)`
            )
      const text = [
        `Triage the new responses of ${scope}.`,
        "",
        "1. Call list_stages for the form and list_members, so you know the stage ids and who can take a case.",
        '2. Call list_responses with `stage: "none"` (responses not triaged yet), and again with the first stage ' +
          '(usually "New") and `assignee: "none"`. Page with `nextCursor` until it is null.',
        "3. For each response, call get_response and read the answers and any earlier notes.",
        "4. Decide: the stage it belongs in, who should handle it (by what they answered and who handles what), " +
          'and a few short tags (e.g. "urgent", "billing"). Do not invent facts the answers do not give.',
        "5. Call update_response with `stageId`, `assigneeId` and `tags`, then add_note with one or two sentences " +
          "saying why you triaged it that way.",
        "6. If a tool answers that the key may only read, stop and report what you would have done instead.",
        "",
        "Finish with a short summary: how many responses you triaged, to whom, and anything that needs a person."
      ].join("\n")
      return {
        description: `Triage the new responses of ${scope}`,
        messages: [{ role: "user" as const, content: { type: "text" as const, text } }]
      }
    })
})
