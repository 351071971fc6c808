/**
 * The MCP tools of responses as cases: lists and saved views, a case and its
 * notes, status links, merges, assignment rules, case fields: each a domain
 * service call, with its input Schema taken from the HTTP API's (see
 * `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Id, InvalidInput, LinkBase } from "../../kernel/index.ts"
import {
  AddNoteInput,
  AssignmentRules,
  AssignmentRulesService,
  BulkUpdateResult,
  CaseFields,
  CaseFieldsService,
  CreateSavedViewInput,
  MergeResponsesInput,
  Note,
  Notes,
  ResponseDetail,
  ResponseMerge,
  ResponseMerges,
  Responses,
  SavedView,
  SavedViews,
  StatusLink,
  StatusLinks,
  statusPath,
  UpdateResponseInput,
  UpdateResponseResult,
  UpdateSavedViewInput,
  workspaceListOptions,
  WorkspaceResponseList
} from "../../cases/index.ts"
import {
  BulkUpdateResponsesInput,
  ResponseList,
  ResponseListQuery,
  WorkspaceResponseListQuery
} from "../../api/index.ts"
import { define, FormId, ResponseId, NoArguments, type McpTool } from "../McpTool.ts"

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

/** The tools of responses as cases, bound to their services. */
export const tools = Effect.gen(function* () {
  const responses = yield* Responses
  const notes = yield* Notes
  const statusLinks = yield* StatusLinks
  const merges = yield* ResponseMerges
  const assignmentRules = yield* AssignmentRulesService
  const savedViews = yield* SavedViews
  const caseFields = yield* CaseFieldsService

  const tools: ReadonlyArray<McpTool> = [
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
    })
  ]
  return tools
})
