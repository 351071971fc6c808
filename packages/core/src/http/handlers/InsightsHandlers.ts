/** Handlers of the insights group: a form's summary, as JSON and as CSV. */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { FormSummaries, type SummaryOptions, summaryCsv } from "../../insights/FormSummaries.ts"
import { Api, CurrentActor, type SummaryQuery } from "../../api/Api.ts"
import { handle } from "../../web/ApiErrors.ts"

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

export const InsightsHandlers = HttpApiBuilder.group(
  Api,
  "insights",
  Effect.fnUntraced(function* (handlers) {
    const summaries = yield* FormSummaries
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
        )
    })
  })
)
