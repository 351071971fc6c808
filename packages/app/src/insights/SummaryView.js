// @ts-check
// The inbox's Summary view: what the responses the inbox's filters keep say (`GET /api/forms/{id}/summary`):
// the totals as figures, the public page's drop-off funnel, and one chart per question by its kind (choices,
// numbers with their statistics and NPS, matrix rows, ranking places, dates, the latest texts and their frequent
// words, files), then how the cases of those responses are doing (CaseMetrics.js). Each chart has its summary in words
// and its figures as a table (shared/Charts.js). It prints as a report (app.css `@media print`) and downloads as CSV
// (`summary.csv`) with the same filters.
import { html } from "htm/preact"
import { useEffect } from "preact/hooks"
import { base, query } from "../shared/Api.js"
import { bars, Chart, columns, Figures, gauge, isolate, stacked, together, useReport } from "../shared/Charts.js"
import { optionKeysOf } from "../shared/QuestionTypes.js"
import { DigestControl } from "./DigestControl.js"
import { CasesSection } from "./CaseMetrics.js"
import {
  formatDateTime,
  formatDecimal,
  formatDuration,
  formatHour,
  formatList,
  formatMonth,
  formatNumber,
  formatPercent,
  t
} from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").FormSummaryReport} FormSummaryReport */
/** @typedef {import("../shared/Types.js").QuestionSummary} QuestionSummary */
/** @typedef {import("../shared/Types.js").AppKey} AppKey */
/** @typedef {import("../shared/Charts.js").Datum} Datum */
/** @typedef {FormSummaryReport["funnel"][number]} FunnelStep */

/** "Red: 2 (50 %)". @param {string} label @param {number} count @param {number} percent */
const shareOf = (label, count, percent) =>
  t("summary.shareOf", { label: isolate(label), count, percent: formatPercent(percent) })

/** `part` of `whole` in percent, one decimal, as the API gives shares. @param {number} part @param {number} whole */
const percentOf = (part, whole) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10)

/** A summary in words of the items that have any count ("No answers yet." when none has). @param {ReadonlyArray<Datum & { count: number, percent: number }>} items */
const sayShares = (items) => {
  const some = items.filter((item) => item.count > 0)
  return some.length === 0 ? t("summary.noAnswers") : formatList(some.map((i) => shareOf(i.label, i.count, i.percent)))
}

/** The API's words for the choices a type has of its own (a yes or no), by the choice. @type {Readonly<Record<string, AppKey>>} */
const ownChoiceWords = { Yes: "summary.yes", No: "summary.no" }

/**
 * A choice's words: a type's own choices (it takes no `choices` option: a yes or no) in the application's language,
 * a form's choices as written.
 * @param {string} type @param {string} choice
 */
const choiceName = (type, choice) =>
  Object.hasOwn(ownChoiceWords, choice) && !optionKeysOf(type).includes("choices") ? t(ownChoiceWords[choice]) : choice

/** A funnel step's words: the page's own steps in the application's language, a question by its label. @param {FunnelStep} step */
const stepName = (step) =>
  step.step === "view"
    ? t("summary.funnelView")
    : step.step === "start"
      ? t("summary.funnelStart")
      : step.step === "complete"
        ? t("summary.funnelComplete")
        : step.label

/** The figures of a summary: count and share of each item, the first cell naming it. @param {ReadonlyArray<{ label: string, count: number, percent: number }>} items */
const countRows = (items) => items.map((i) => [i.label, formatNumber(i.count), formatPercent(i.percent)])

/** @param {{ report: FormSummaryReport }} props */
const Totals = ({ report }) => {
  const totals = report.totals
  /** @type {ReadonlyArray<readonly [string, string | null]>} a figure, or null when it is not known yet */
  const figures = [
    [t("summary.views"), formatNumber(totals.views)],
    [t("summary.starts"), formatNumber(totals.starts)],
    [t("summary.responses"), formatNumber(totals.responses)],
    [t("summary.completionRate"), totals.completionRate === null ? null : formatPercent(totals.completionRate)],
    [
      t("summary.medianTime"),
      totals.medianCompletionSeconds === null ? null : formatDuration(totals.medianCompletionSeconds)
    ]
  ]
  return html`<${Figures} figures=${figures} />
    <p class="muted">${t("summary.scope")}</p>`
}

/** @param {{ funnel: FormSummaryReport["funnel"] }} props */
const Funnel = ({ funnel }) => {
  const items = funnel.map((step) => ({
    label: stepName(step),
    value: step.count,
    count: step.count,
    percent: step.percent,
    text: `${formatNumber(step.count)} · ${formatPercent(step.percent)}`
  }))
  return html`<section class="summary-part">
    <h3>${t("summary.funnel")}</h3>
    <p class="muted">${t("summary.funnelHelp")}</p>
    <${Chart} id="summary-funnel" name=${t("summary.funnel")}
      summary=${formatList(items.map((i) => shareOf(i.label, i.count, i.percent)))}
      table=${{ head: [t("summary.step"), t("summary.count"), t("summary.share")], rows: countRows(items) }}
      draw=${bars(items, Math.max(1, ...items.map((i) => i.count)))} />
  </section>`
}

/** @param {{ q: Extract<QuestionSummary, { kind: "choices" }>, id: string }} props */
const Choices = ({ q, id }) => {
  const items = [...q.choices, ...(q.other === null ? [] : [q.other])].map((c, i) => ({
    label: i === q.choices.length && c.choice === "Other" ? t("summary.other") : choiceName(q.type, c.choice),
    value: c.percent,
    count: c.count,
    percent: c.percent,
    text: `${formatNumber(c.count)} · ${formatPercent(c.percent)}`
  }))
  return html`<${Chart} id=${id} name=${t("summary.chartName", { question: q.label })} summary=${sayShares(items)}
    table=${{ head: [t("summary.choice"), t("summary.count"), t("summary.share")], rows: countRows(items) }}
    draw=${bars(items, 100)} />`
}

/** @type {ReadonlyArray<readonly [AppKey, "mean" | "median" | "p25" | "p75" | "p90" | "min" | "max"]>} */
const statistics = [
  ["summary.mean", "mean"],
  ["summary.median", "median"],
  ["summary.quartileLow", "p25"],
  ["summary.quartileHigh", "p75"],
  ["summary.percentileNinety", "p90"],
  ["summary.min", "min"],
  ["summary.max", "max"]
]

/** @param {{ q: Extract<QuestionSummary, { kind: "numbers" }>, id: string }} props */
const Numbers = ({ q, id }) => {
  const items = q.distribution.map((bin) => ({
    label: bin.from === bin.to ? formatDecimal(bin.from) : `${formatDecimal(bin.from)}–${formatDecimal(bin.to)}`,
    value: bin.count,
    count: bin.count,
    percent: bin.percent,
    text: formatNumber(bin.count)
  }))
  const nps = q.nps
  const groups =
    nps === null
      ? []
      : [
          { label: t("summary.detractors"), value: nps.detractors, series: 5 },
          { label: t("summary.passives"), value: nps.passives, series: 7 },
          { label: t("summary.promoters"), value: nps.promoters, series: 2 }
        ].map((group) => {
          const percent = percentOf(group.value, nps.promoters + nps.passives + nps.detractors)
          return { ...group, count: group.value, percent, text: formatPercent(percent) }
        })
  return html`
    ${
      nps === null
        ? null
        : html`<${Chart} id=${`${id}-nps`} name=${t("summary.npsName", { question: q.label })}
            summary=${t("summary.npsCaption", {
              score: formatDecimal(nps.score),
              promoters: formatNumber(nps.promoters),
              passives: formatNumber(nps.passives),
              detractors: formatNumber(nps.detractors)
            })}
            legend=${groups.map((g) => ({ ...g, label: `${g.label}: ${formatNumber(g.count)}` }))}
            table=${{
              head: [t("summary.npsGroup"), t("summary.count"), t("summary.share")],
              rows: [...countRows(groups), [t("summary.npsScore"), formatDecimal(nps.score), ""]]
            }}
            draw=${together([
              gauge(nps.score, formatDecimal(nps.score), {
                low: formatNumber(-100),
                middle: formatNumber(0),
                high: formatNumber(100)
              }),
              stacked([{ label: t("summary.npsGroups"), segments: groups }])
            ])} />`
    }
    <${Chart} id=${id} name=${t("summary.chartName", { question: q.label })} summary=${sayShares(items)}
      table=${{ head: [t("summary.value"), t("summary.count"), t("summary.share")], rows: countRows(items) }}
      draw=${columns(items)} />
    <dl class="figures stats">${statistics.map(([key, name]) => {
      const value = q[name]
      return value === null ? null : html`<div><dt>${t(key)}</dt><dd>${formatDecimal(value)}</dd></div>`
    })}</dl>`
}

/** @param {{ q: Extract<QuestionSummary, { kind: "matrix" }>, id: string }} props */
const Matrix = ({ q, id }) => {
  const names = q.rows[0]?.columns.map((c) => c.choice) ?? []
  const rows = q.rows.map((row) => ({
    label: row.row,
    segments: row.columns.map((c, i) => ({
      label: c.choice,
      value: c.count,
      text: formatPercent(c.percent),
      series: i % 8
    }))
  }))
  return html`<${Chart} id=${id} name=${t("summary.chartName", { question: q.label })}
    summary=${q.rows
      .map((row) =>
        t("summary.rowShares", {
          row: isolate(row.row),
          shares: formatList(row.columns.map((c) => shareOf(c.choice, c.count, c.percent)))
        })
      )
      .join(" ")}
    legend=${names.map((name, i) => ({ label: name, value: 0, text: "", series: i % 8 }))}
    table=${{
      head: [t("summary.row"), ...names],
      rows: q.rows.map((row) => [
        row.row,
        ...row.columns.map((c) => `${formatNumber(c.count)} (${formatPercent(c.percent)})`)
      ])
    }}
    draw=${stacked(rows)} />`
}

/** @param {{ q: Extract<QuestionSummary, { kind: "ranking" }>, id: string }} props */
const Ranking = ({ q, id }) => {
  const items = q.items.map((item) => ({
    label: item.choice,
    value: item.averagePlace ?? 0,
    text: item.averagePlace === null ? t("summary.notRanked") : formatDecimal(item.averagePlace)
  }))
  const places = Math.max(q.items.length, ...q.items.map((item) => item.places.length))
  return html`<p class="muted">${t("summary.rankingHelp")}</p>
    <${Chart} id=${id} name=${t("summary.chartName", { question: q.label })}
      summary=${formatList(items.map((i) => t("summary.averageOf", { label: isolate(i.label), average: i.text })))}
      table=${{
        head: [
          t("summary.choice"),
          t("summary.averagePlace"),
          ...Array.from({ length: places }, (_, i) => t("summary.place", { place: i + 1 }))
        ],
        rows: q.items.map((item, i) => [
          item.choice,
          items[i]?.text ?? "",
          ...Array.from({ length: places }, (_, p) => formatNumber(item.places[p] ?? 0))
        ])
      }}
      draw=${bars(items, places)} />`
}

/** @param {{ q: Extract<QuestionSummary, { kind: "dates" }>, id: string }} props */
const Dates = ({ q, id }) => {
  const items = q.buckets.map((bucket) => ({
    label: q.unit === "month" ? formatMonth(bucket.choice) : formatHour(bucket.choice),
    value: bucket.count,
    count: bucket.count,
    percent: bucket.percent,
    text: formatNumber(bucket.count)
  }))
  return html`<${Chart} id=${id} name=${t("summary.chartName", { question: q.label })} summary=${sayShares(items)}
    table=${{
      head: [q.unit === "month" ? t("summary.month") : t("summary.hour"), t("summary.count"), t("summary.share")],
      rows: countRows(items)
    }}
    draw=${columns(items)} />`
}

/** @param {{ q: Extract<QuestionSummary, { kind: "texts" }> }} props */
const Texts = ({ q }) =>
  html`<h4>${t("summary.latest")}</h4>
    <ul class="plain latest">${q.latest.map(
      (sample) => html`<li>
        <p dir="auto">${sample.text}</p>
        <a href=${`${base}/app/responses/${sample.responseId}`}>${t("summary.answerLink", {
          id: String(sample.responseId),
          date: formatDateTime(sample.submittedAt)
        })}</a>
      </li>`
    )}</ul>
    ${
      q.words.length === 0
        ? null
        : html`<h4>${t("summary.words")}</h4>
      <ul class="words">${q.words.map(
        (word) =>
          html`<li><bdi>${word.word}</bdi> <span class="muted">${t("summary.times", { count: word.count })}</span></li>`
      )}</ul>`
    }`

/** @param {{ q: Extract<QuestionSummary, { kind: "files" }> }} props */
const Files = ({ q }) =>
  q.drawn === undefined && q.typed === undefined
    ? null
    : html`<dl class="figures">
      ${q.drawn === undefined ? null : html`<div><dt>${t("summary.drawn")}</dt><dd>${formatNumber(q.drawn)}</dd></div>`}
      ${q.typed === undefined ? null : html`<div><dt>${t("summary.typed")}</dt><dd>${formatNumber(q.typed)}</dd></div>`}
    </dl>`

/** One question: its label, how many answered, and its chart. @param {{ q: QuestionSummary }} props */
const Question = ({ q }) => {
  const id = `summary-q-${q.fieldId}`
  const body = () => {
    if (q.answered === 0) return html`<p>${t("summary.noAnswers")}</p>`
    if (q.withheld === true) return html`<p>${t("summary.withheld")}</p>`
    switch (q.kind) {
      case "choices":
        return html`<${Choices} q=${q} id=${id} />`
      case "numbers":
        return html`<${Numbers} q=${q} id=${id} />`
      case "matrix":
        return html`<${Matrix} q=${q} id=${id} />`
      case "ranking":
        return html`<${Ranking} q=${q} id=${id} />`
      case "dates":
        return html`<${Dates} q=${q} id=${id} />`
      case "texts":
        return html`<${Texts} q=${q} />`
      case "files":
        return html`<${Files} q=${q} />`
    }
  }
  return html`<section class="summary-part" data-question=${String(q.fieldId)}>
    <h3><bdi>${q.label}</bdi></h3>
    <p class="muted">${t("summary.answered", { count: q.answered })}</p>
    ${body()}
  </section>`
}

/**
 * The summary of the responses the inbox's filters keep, fetched again when they change or a response arrives.
 * @param {{ formId: number, params: Readonly<Record<string, string>>, version: number }} props
 */
export const SummaryView = ({ formId, params, version }) => {
  // Only the newest request started may paint: a slower, older answer never shows the figures of an old filter.
  const { report, error, busy } = /** @type {import("../shared/Charts.js").Report<FormSummaryReport>} */ (
    useReport(`/forms/${formId}/summary${query(params)}`, params.q ? 250 : 0, version)
  )
  // Printing opens every chart's table (the style sheet does too where the browser lets it), then closes them again.
  useEffect(() => {
    /** @type {ReadonlyArray<HTMLDetailsElement>} */
    let opened = []
    const before = () => {
      opened = Array.from(document.querySelectorAll("details.chart-data"), (d) => /** @type {HTMLDetailsElement} */ (d))
      opened = opened.filter((d) => !d.open)
      for (const details of opened) details.open = true
    }
    const after = () => {
      for (const details of opened) details.open = false
      opened = []
    }
    addEventListener("beforeprint", before)
    addEventListener("afterprint", after)
    return () => {
      removeEventListener("beforeprint", before)
      removeEventListener("afterprint", after)
    }
  }, [])

  return html`<div class="summary" aria-busy=${busy ? "true" : "false"}>
    <div class="spread">
      <h2>${t("summary.heading")}</h2>
      <div class="row no-print">
        <button type="button" onClick=${() => window.print()}>${t("summary.print")}</button>
        <a class="button" download href=${`${base}/api/forms/${formId}/summary.csv${query(params)}`}>${t("summary.downloadCsv")}</a>
      </div>
    </div>
    <${DigestControl} formId=${formId} />
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${
      report === null
        ? error
          ? null
          : html`<p class="loading">${t("summary.loading")}</p>`
        : html`<${Totals} report=${report} />
          <${Funnel} funnel=${report.funnel} />
          ${report.questions.map((q) => html`<${Question} key=${q.fieldId} q=${q} />`)}
          <${CasesSection} formId=${formId} params=${params} version=${version} />`
    }
  </div>`
}
