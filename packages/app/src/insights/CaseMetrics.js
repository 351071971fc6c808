// @ts-check
// How the cases are doing (`GET /api/forms/{id}/metrics`, `GET /api/metrics`): the Summary view's Cases section
// (open and closed cases, the time to a first response, cases by stage, open cases by assignee, new and closed
// cases per day or week, the time spent in each stage) for the inbox's filters, and the forms screen's small panel
// of the cases across all forms. Charts, their words and tables as the rest of the summary (shared/Charts.js).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { query } from "../shared/Api.js"
import { bars, Chart, Figures, groupedColumns, isolate, useReport } from "../shared/Charts.js"
import { formatCalendarDay, formatDuration, formatList, formatNumber, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").CaseMetricsReport} CaseMetricsReport */
/** @typedef {CaseMetricsReport["interval"]} Interval */
/** @typedef {CaseMetricsReport["byAssignee"][number]} AssigneeCount */
/** @template T @typedef {import("../shared/Charts.js").Report<T>} Report */

/** The periods a series may have, in the order of the switch. @type {ReadonlyArray<Interval>} */
const intervals = ["day", "week"]

/** Open stages are drawn in the palette's first colour, closed ones (and closed cases) in its second. */
const openSeries = 0
const closedSeries = 1

/** A length of time in words, or null when there is none. @param {number | null} seconds */
const durationOf = (seconds) => (seconds === null ? null : formatDuration(seconds))

/**
 * A stage's words: "No stage" for the cases without one, "(closed)" after a closed stage's name.
 * @param {{ name: string | null, closed: boolean }} stage
 */
const stageName = (stage) =>
  stage.name === null
    ? t("metrics.noStage")
    : stage.closed
      ? t("metrics.closedStage", { stage: stage.name })
      : stage.name

/**
 * An assignee's words: "Unassigned" for the cases of nobody, a member no longer in the workspace by number.
 * @param {AssigneeCount} assignee
 */
const assigneeName = (assignee) =>
  assignee.accountId === null
    ? t("metrics.unassigned")
    : (assignee.name ?? t("metrics.member", { id: String(assignee.accountId) }))

/**
 * Open cases by assignee, most first, as bars (a sentence when none is open).
 * @param {{ report: CaseMetricsReport, id: string }} props
 */
const Assignees = ({ report, id }) => {
  if (report.byAssignee.length === 0) return html`<p>${t("metrics.noOpen")}</p>`
  const items = report.byAssignee.map((assignee) => ({
    label: assigneeName(assignee),
    value: assignee.open,
    text: formatNumber(assignee.open)
  }))
  return html`<${Chart} id=${id} name=${t("metrics.byAssignee")}
    summary=${formatList(items.map((i) => t("metrics.openOf", { label: isolate(i.label), count: i.value })))}
    table=${{ head: [t("metrics.assignee"), t("metrics.openCases")], rows: items.map((i) => [i.label, i.text]) }}
    draw=${bars(items, Math.max(1, ...items.map((i) => i.value)))} />`
}

/**
 * Every stage with its cases (and the cases without a stage); closed stages in their own colour.
 * @param {{ report: CaseMetricsReport }} props
 */
const Stages = ({ report }) => {
  const items = report.byStage.map((stage) => ({
    label: stageName(stage),
    value: stage.count,
    text: formatNumber(stage.count),
    series: stage.closed ? closedSeries : openSeries
  }))
  return html`<${Chart} id="cases-stages" name=${t("metrics.byStage")}
    summary=${formatList(items.map((i) => t("metrics.casesOf", { label: isolate(i.label), count: i.value })))}
    legend=${[
      { label: t("metrics.openStage"), value: 0, text: "", series: openSeries },
      { label: t("metrics.closedStageKey"), value: 0, text: "", series: closedSeries }
    ]}
    table=${{ head: [t("metrics.stage"), t("metrics.cases")], rows: items.map((i) => [i.label, i.text]) }}
    draw=${bars(items, Math.max(1, ...items.map((i) => i.value)))} />`
}

/**
 * New and closed cases per day or week over the report's window, two columns a period.
 * @param {{ report: CaseMetricsReport }} props
 */
const Periods = ({ report }) => {
  const closedBy = new Map(report.closedPerPeriod.map((p) => [p.period, p.count]))
  const periods = report.newPerPeriod.map((p) => ({
    period: p.period,
    opened: p.count,
    closed: closedBy.get(p.period) ?? 0
  }))
  const name = t("metrics.perPeriod", { interval: report.interval })
  const opened = periods.reduce((sum, p) => sum + p.opened, 0)
  const closed = periods.reduce((sum, p) => sum + p.closed, 0)
  return html`<${Chart} id="cases-periods" name=${name}
    summary=${t("metrics.periodsCaption", {
      from: formatCalendarDay(report.window.from),
      to: formatCalendarDay(report.window.to),
      opened: t("metrics.newCases", { count: opened }),
      closed: t("metrics.closedCases", { count: closed })
    })}
    legend=${[
      { label: t("metrics.new"), value: 0, text: "", series: openSeries },
      { label: t("metrics.closed"), value: 0, text: "", series: closedSeries }
    ]}
    table=${{
      head: [t("metrics.period", { interval: report.interval }), t("metrics.new"), t("metrics.closed")],
      rows: periods.map((p) => [formatCalendarDay(p.period), formatNumber(p.opened), formatNumber(p.closed)])
    }}
    draw=${groupedColumns(
      periods.map((p) => ({
        label: formatCalendarDay(p.period, true),
        values: [
          { label: t("metrics.new"), value: p.opened, text: formatNumber(p.opened), series: openSeries },
          { label: t("metrics.closed"), value: p.closed, text: formatNumber(p.closed), series: closedSeries }
        ]
      }))
    )} />`
}

/**
 * The median time spent in each stage before moving on, as bars; the 90th percentile is in the table.
 * @param {{ report: CaseMetricsReport }} props
 */
const Times = ({ report }) => {
  const stages = report.timeInStage.map((stage) => ({
    stage,
    label: stageName({
      name: stage.name,
      closed: report.byStage.find((s) => s.stageId === stage.stageId)?.closed ?? false
    }),
    median: durationOf(stage.medianSeconds)
  }))
  const timed = stages.filter((s) => s.median !== null)
  return html`<${Chart} id="cases-times" name=${t("metrics.timeInStage")}
    summary=${
      timed.length === 0
        ? t("metrics.noTimes")
        : formatList(timed.map((s) => t("metrics.medianOf", { label: isolate(s.label), time: s.median ?? "" })))
    }
    table=${{
      head: [
        t("metrics.stage"),
        t("summary.median"),
        t("summary.percentileNinety"),
        t("metrics.inStageNow"),
        t("metrics.movedOn")
      ],
      rows: stages.map((s) => [
        s.label,
        s.median ?? t("metrics.notMoved"),
        durationOf(s.stage.p90Seconds) ?? t("metrics.notMoved"),
        formatNumber(s.stage.current),
        formatNumber(s.stage.left)
      ])
    }}
    draw=${bars(
      stages.map((s) => ({
        label: s.label,
        value: s.stage.medianSeconds ?? 0,
        text: s.median ?? t("metrics.notMoved")
      })),
      Math.max(1, ...stages.map((s) => s.stage.medianSeconds ?? 0))
    )} />`
}

/**
 * The figures both panels open with: open and closed cases, those waiting for a first answer, its median time.
 * @param {CaseMetricsReport} report @returns {Array<readonly [string, string | null]>}
 */
const headline = (report) => [
  [t("metrics.open"), formatNumber(report.open)],
  [t("metrics.closed"), formatNumber(report.closed)],
  [t("metrics.waiting"), formatNumber(report.firstResponse.waiting)],
  [t("metrics.firstResponseMedian"), durationOf(report.firstResponse.medianSeconds)]
]

/** What a panel shows while it has no report: that it is loading, unless an error (shown above it) stopped it. @param {string | null} error */
const pending = (error) => (error ? null : html`<p class="loading">${t("metrics.loading")}</p>`)

/**
 * The Summary view's Cases section: the case metrics of the form for the inbox's filters, with a switch between
 * days and weeks for the series of new and closed cases.
 * @param {{ formId: number, params: Readonly<Record<string, string>>, version: number }} props
 */
export const CasesSection = ({ formId, params, version }) => {
  const [interval, choose] = useState(/** @type {Interval} */ ("day"))
  const { report, error, busy } = /** @type {Report<CaseMetricsReport>} */ (
    useReport(`/forms/${formId}/metrics${query({ ...params, interval })}`, params.q ? 250 : 0, version)
  )
  return html`<section class="summary-cases" aria-labelledby="cases-heading" aria-busy=${busy ? "true" : "false"}>
    <h2 id="cases-heading">${t("metrics.heading")}</h2>
    <p class="muted">${t("metrics.scope")}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${
      report === null
        ? pending(error)
        : html`<${Figures} figures=${[
            ...headline(report),
            [t("metrics.firstResponseNinety"), durationOf(report.firstResponse.p90Seconds)]
          ]} />
          <p class="muted">${t("metrics.firstResponseHelp")}</p>
          <section class="summary-part">
            <h3>${t("metrics.byStage")}</h3>
            <${Stages} report=${report} />
          </section>
          <section class="summary-part">
            <h3>${t("metrics.byAssignee")}</h3>
            <${Assignees} report=${report} id="cases-assignees" />
          </section>
          <section class="summary-part">
            <h3>${t("metrics.newAndClosed")}</h3>
            <fieldset class="interval no-print">
              <legend>${t("metrics.interval")}</legend>
              <div class="row">${intervals.map(
                (value) => html`<label class="choice"><input type="radio" name="cases-interval" value=${value}
                  checked=${interval === value} onChange=${() => choose(value)} />${t("metrics.intervalName", { interval: value })}</label>`
              )}</div>
            </fieldset>
            <${Periods} report=${report} />
          </section>
          <section class="summary-part">
            <h3>${t("metrics.timeInStage")}</h3>
            <p class="muted">${t("metrics.timeHelp")}</p>
            <${Times} report=${report} />
          </section>`
    }
  </section>`
}

/**
 * The forms screen's panel: the cases of every form of the workspace, in a few figures and the open ones by assignee.
 * @param {{ version: number }} props `version` changes when the forms may have changed
 */
export const WorkspaceCases = ({ version }) => {
  const { report, error, busy } = /** @type {Report<CaseMetricsReport>} */ (useReport("/metrics", 0, version))
  return html`<section class="cases-panel card" aria-labelledby="workspace-cases" aria-busy=${busy ? "true" : "false"}>
    <h2 id="workspace-cases">${t("metrics.workspace")}</h2>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${
      report === null
        ? pending(error)
        : html`<${Figures} figures=${headline(report)} />
          <h3>${t("metrics.byAssignee")}</h3>
          <${Assignees} report=${report} id="workspace-assignees" />`
    }
  </section>`
}
