/**
 * The API group `Insights`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import {
  CaseMetricsReport,
  DigestInput,
  DigestQueued,
  DigestSettings,
  FormSummaryReport,
  MetricsInterval
} from "../../insights/index.ts"
import { Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { FormIdParams } from "../Params.ts"
import { ResponseListQuery } from "./Responses.ts"

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
