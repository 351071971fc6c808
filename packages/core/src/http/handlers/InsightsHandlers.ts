/**
 * Handlers of the insights group: a form's summary (JSON and CSV), the case
 * metrics of a form or workspace, and the member's own digest e-mail of a form.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import {
  CaseMetrics,
  Digests,
  FormSummaries,
  type MetricsOptions,
  summaryCsv,
  type SummaryOptions
} from "../../insights/index.ts"
import { Api, CurrentActor, type MetricsQuery, type SummaryQuery, type WorkspaceMetricsQuery } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

const toSummaryOptions = (query: SummaryQuery): SummaryOptions => ({
  q: query.q,
  stage: query.stage,
  assignee: query.assignee,
  tag: query.tag,
  from: query.from === undefined ? undefined : new Date(query.from),
  to: query.to === undefined ? undefined : new Date(query.to),
  status: query.status,
  texts: query.texts
})

const toMetricsOptions = (query: MetricsQuery | WorkspaceMetricsQuery): MetricsOptions => ({
  q: query.q,
  stage: "stage" in query ? query.stage : undefined,
  assignee: query.assignee,
  tag: query.tag,
  from: query.from === undefined ? undefined : new Date(query.from),
  to: query.to === undefined ? undefined : new Date(query.to),
  status: query.status,
  interval: query.interval
})

export const InsightsHandlers = HttpApiBuilder.group(
  Api,
  "insights",
  Effect.fnUntraced(function* (handlers) {
    const summaries = yield* FormSummaries
    const metrics = yield* CaseMetrics
    const digests = yield* Digests
    return handlers.handleAll({
      summary: ({ params, query }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(summaries.summarize(actor, params.formId, toSummaryOptions(query)))
        ),
      summaryCsv: ({ params, query }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.map(summaries.summarize(actor, params.formId, toSummaryOptions(query)), (report) =>
              HttpServerResponse.text(summaryCsv(report), {
                contentType: "text/csv; charset=utf-8",
                headers: { "content-disposition": `attachment; filename="form-${report.form.id}-summary.csv"` }
              })
            )
          )
        ),
      formMetrics: ({ params, query }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(metrics.measure(actor, params.formId, toMetricsOptions(query)))),
      workspaceMetrics: ({ query }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(metrics.measure(actor, undefined, toMetricsOptions(query)))),
      getDigest: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(digests.get(actor, params.formId))),
      putDigest: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(digests.set(actor, params.formId, payload))),
      sendDigest: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(digests.sendNow(actor, params.formId)))
    })
  })
)
