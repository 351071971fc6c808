/**
 * The MCP tools of what the answers say: a form's summary and the cases'
 * metrics: each a domain service call, with its input Schema taken from the
 * HTTP API's (see `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { InvalidInput } from "../../kernel/index.ts"
import { ResponseListQuery, SummaryQuery, WorkspaceMetricsQuery } from "../../api/index.ts"
import { CaseMetrics, CaseMetricsReport, FormSummaries, FormSummaryReport } from "../../insights/index.ts"
import { define, FormId, type McpTool } from "../McpTool.ts"

/** The tools of what the answers say, bound to their services. */
export const tools = Effect.gen(function* () {
  const summaries = yield* FormSummaries
  const caseMetrics = yield* CaseMetrics

  const tools: ReadonlyArray<McpTool> = [
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
    })
  ]
  return tools
})
