// @ts-check
// The summary's charts, drawn by hand in SVG: horizontal bars, columns (alone or in groups), stacked bars and a
// gauge. No library and nothing fetched: shapes are placed in pixels at the width the chart has on the page
// (measured, so words keep their size on a phone), then scale with it (printing). Colours come from classes in
// app.css (the CSP blocks inline styles): the Okabe–Ito palette, told apart with colour blindness, in light and
// dark. Right to left, every position is mirrored and words anchor at their logical start (SVG text follows the
// page's `direction`).
// Each chart is an image with a name, a text summary (its caption, the image's description) and its figures as a
// table behind a disclosure.
import { html } from "htm/preact"
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks"
import { api, messageOf } from "./Api.js"
import { axisLabelPlaces, barLength, fitTo, gaugePoint, place, segments } from "./ChartGeometry.js"
import { TableScroll } from "./TableScroll.js"
import { t } from "./Words.js"

/** A bar, column or segment: its words, its size, how its size is said, and its colour (0–7, `series-N`). */
/** @typedef {{ label: string, value: number, text: string, series?: number }} Datum */
/** A chart's figures as a table: the first cell of a row heads it. */
/** @typedef {{ head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>> }} DataTable */
/** What a chart draws at a width: its height and its shapes. */
/** @typedef {{ height: number, shapes: unknown }} Drawing */

/** The colours of the palette (`series-0` … `series-7` in app.css). */
export const seriesCount = 8

const fontSize = 13

/** The page reads right to left. */
const rtl = () => document.documentElement.dir === "rtl"

/** @type {CanvasRenderingContext2D | null | undefined} */
let pen
/** How wide `text` is drawn in the charts' font. @param {string} text @param {number} [size] */
const widthOf = (text, size = fontSize) => {
  if (pen === undefined) {
    pen = document.createElement("canvas").getContext("2d")
    if (pen) pen.font = `${fontSize}px ${getComputedStyle(document.documentElement).fontFamily}`
  }
  if (!pen) return text.length * size * 0.6
  return (pen.measureText(text).width * size) / fontSize
}

/**
 * Text of the answers or the form (a choice, a question) isolated from what is around it (U+2068 … U+2069), so that
 * its own direction holds in a sentence or a chart of the other direction: "Why?" stays "Why?" in Arabic.
 * @param {string} text
 */
export const isolate = (text) => `\u2068${text}\u2069`

/** `text`, cut with "…" to fit `room` pixels (the whole text is in the chart's table and summary). */
export const fit = (/** @type {string} */ text, /** @type {number} */ room, size = fontSize) =>
  fitTo(text, room, (part) => widthOf(part, size))

/**
 * A place across the chart, mirrored right to left: where a shape of width `span` starting `at` pixels from the
 * inline start begins on the x axis.
 * @param {number} width the chart's width @param {number} at @param {number} [span]
 */
const across = (width, at, span = 0) => place(width, at, span, rtl())

/** The element's width on the page, followed as it changes. @returns {[import("preact").RefObject<HTMLElement>, number]} */
const useWidth = () => {
  const ref = useRef(/** @type {HTMLElement | null} */ (null))
  const [width, setWidth] = useState(0)
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    const update = () => setWidth(Math.floor(element.clientWidth))
    update()
    const observer = new ResizeObserver(update)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [/** @type {import("preact").RefObject<HTMLElement>} */ (ref), width]
}

/**
 * Figures side by side, each with its name; a figure not known yet (a median without any case, a completion rate
 * without any view) says so. The Summary view's totals and the case metrics show their figures with it.
 * @param {{ figures: ReadonlyArray<readonly [string, string | null]> }} props
 */
export const Figures = ({ figures }) =>
  html`<dl class="figures">${figures.map(
    ([label, value]) =>
      html`<div><dt>${label}</dt>${value === null ? html`<dd class="unknown">${t("summary.unknown")}</dd>` : html`<dd>${value}</dd>`}</div>`
  )}</dl>`

/**
 * @template T
 * @typedef {{ report: T | null, error: string | null, busy: boolean }} Report a report as fetched so far: null
 * until the first answer; `busy` while a request is under way
 */

/**
 * Fetches the report at `path` (the summary, the case metrics) again whenever `path` or `version` changes; only
 * the newest request started may paint, so a slower, older answer never shows the figures of an old filter or
 * interval. A caller casts the result to the report's type (`Report<CaseMetricsReport>`).
 * @param {string} path under `/api`
 * @param {number} [delay] milliseconds to wait first (while a search is typed)
 * @param {number} [version] changes when the responses or cases may have changed
 * @returns {Report<unknown>}
 */
export const useReport = (path, delay = 0, version = 0) => {
  const [report, setReport] = useState(/** @type {unknown} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [busy, setBusy] = useState(true)
  const latest = useRef(0)
  useEffect(() => {
    const started = ++latest.current
    setBusy(true)
    const timer = setTimeout(
      () =>
        api.get(path).then(
          /** @param {unknown} next */
          (next) => {
            if (started !== latest.current) return
            setReport(next)
            setError(null)
            setBusy(false)
          },
          (failure) => {
            if (started !== latest.current) return
            setError(messageOf(failure))
            setBusy(false)
          }
        ),
      delay
    )
    return () => clearTimeout(timer)
  }, [path, version])
  return { report, error, busy }
}

/** A colour key: a swatch and its words. @param {{ items: ReadonlyArray<Datum> }} props */
const Legend = ({ items }) =>
  html`<ul class="legend">${items.map(
    (
      item
    ) => html`<li><svg class="swatch-key" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <rect class=${`series-${item.series ?? 0}`} width="12" height="12" rx="2" /></svg><bdi>${item.label}</bdi></li>`
  )}</ul>`

/**
 * A chart: the image drawn at the width it has, its colour key, its summary in words (the image's description)
 * and its figures as a table.
 * @param {{ id: string, name: string, summary: string, table: DataTable, draw: (width: number) => Drawing,
 *   legend?: ReadonlyArray<Datum> }} props
 */
export const Chart = ({ id, name, summary, table, draw, legend }) => {
  const [ref, width] = useWidth()
  const drawing = width > 0 ? draw(Math.max(width, 200)) : null
  return html`<div class="chart-block">
    <figure class="chart" ref=${ref}>
      ${
        drawing
          ? html`<svg role="img" aria-label=${name} aria-describedby=${`${id}-summary`} width=${Math.max(width, 200)}
              height=${drawing.height} viewBox=${`0 0 ${Math.max(width, 200)} ${drawing.height}`}>${drawing.shapes}</svg>`
          : null
      }
      ${legend ? html`<${Legend} items=${legend} />` : null}
      <figcaption id=${`${id}-summary`}>${summary}</figcaption>
    </figure>
    <details class="chart-data">
      <summary>${t("summary.dataTable")}<span class="sr-only"> (${name})</span></summary>
      <${TableScroll} label=${t("summary.dataOf", { chart: name })}>
        <table>
          <thead><tr>${table.head.map((cell) => html`<th scope="col"><bdi>${cell}</bdi></th>`)}</tr></thead>
          <tbody>${table.rows.map(
            (row) =>
              html`<tr>${row.map((cell, i) => (i === 0 ? html`<th scope="row"><bdi>${cell}</bdi></th>` : html`<td><bdi>${cell}</bdi></td>`))}</tr>`
          )}</tbody>
        </table>
      <//>
    </details>
  </div>`
}

/**
 * Horizontal bars, one under another, each with its words above it and its figure at its end; bars grow from the
 * inline start (the right, right to left).
 * @param {ReadonlyArray<Datum>} bars
 * @param {number} max the value of a full bar
 * @returns {(width: number) => Drawing}
 */
export const bars = (bars, max) => (width) => {
  const room = Math.min(130, Math.max(0, ...bars.map((bar) => widthOf(bar.text))) + 10)
  const track = Math.max(40, width - room)
  const row = 44
  return {
    height: bars.length * row,
    shapes: bars.map((bar, i) => {
      const y = i * row
      const length = barLength(bar.value, max, track)
      return html`<g>
        <text class="chart-label" x=${across(width, 0)} y=${y + 14}>${isolate(fit(bar.label, width))}</text>
        <rect class="chart-track" x=${across(width, 0, track)} y=${y + 20} width=${track} height="16" rx="2" />
        <rect class=${`series-${bar.series ?? 0}`} x=${across(width, 0, length)} y=${y + 20} width=${length} height="16" rx="2" />
        <text class="chart-value" x=${across(width, length + 6)} y=${y + 33}>${bar.text}</text>
      </g>`
    })
  }
}

/**
 * The words under a baseline of columns, one a slot: every few when they would crowd, each cut to its room and
 * kept inside the chart; one that would still touch the one before it (moved in from an edge) is left out.
 * @param {ReadonlyArray<string>} labels
 * @param {number} width the chart's width
 * @param {number} y the words' baseline
 */
const axisLabels = (labels, width, y) =>
  axisLabelPlaces(labels, width, (text) => widthOf(text), rtl()).map((placed) =>
    placed === null
      ? null
      : html`<text class="chart-label" text-anchor="middle" x=${placed.x} y=${y}>${isolate(placed.label)}</text>`
  )

/**
 * Columns side by side along a baseline (a histogram, months, hours), each with its figure on top when it has any
 * and there is room, and its words under the baseline (every few when they would crowd, kept inside the chart);
 * right to left the first is on the right.
 * @param {ReadonlyArray<Datum>} columns
 * @returns {(width: number) => Drawing}
 */
export const columns = (columns) => (width) => {
  const top = 20
  const plot = 150
  const slot = width / Math.max(1, columns.length)
  const max = Math.max(1, ...columns.map((column) => column.value))
  const thickness = Math.max(2, Math.min(56, slot * 0.72))
  const baseline = top + plot
  return {
    height: baseline + 24,
    shapes: html`<line class="chart-axis" x1="0" x2=${width} y1=${baseline + 0.5} y2=${baseline + 0.5} />
      ${columns.map((column, i) => {
        const middle = across(width, i * slot + slot / 2)
        const height = (column.value / max) * plot
        const showValue = column.value > 0 && widthOf(column.text) + 2 <= slot
        return html`<g>
          <rect class=${`series-${column.series ?? 0}`} x=${middle - thickness / 2} y=${baseline - height} width=${thickness} height=${height} />
          ${showValue ? html`<text class="chart-value" text-anchor="middle" x=${middle} y=${baseline - height - 5}>${column.text}</text>` : null}
        </g>`
      })}
      ${axisLabels(
        columns.map((column) => column.label),
        width,
        baseline + 17
      )}`
  }
}

/**
 * Columns in groups along a baseline (new and closed cases per day): in each group one column per series, side by
 * side, coloured by its series (the chart's colour key names them). Every column's figure is on top of it when all
 * of them fit; else a dashed line marks the highest value, with its figure. The groups' words are under the
 * baseline (every few when they would crowd, kept inside the chart); right to left the first group is on the right,
 * and so is the first column of a group.
 * @param {ReadonlyArray<{ label: string, values: ReadonlyArray<Datum> }>} groups
 * @returns {(width: number) => Drawing}
 */
export const groupedColumns = (groups) => (width) => {
  const top = 22
  const plot = 150
  const baseline = top + plot
  const slot = width / Math.max(1, groups.length)
  const per = Math.max(1, ...groups.map((group) => group.values.length))
  const values = groups.flatMap((group) => group.values)
  const highest = values.reduce((most, value) => (value.value > most.value ? value : most), { value: 0, text: "" })
  const max = Math.max(1, highest.value)
  const thickness = Math.max(1, Math.min(24, (slot * 0.8) / per))
  const figures = values.every((value) => value.value === 0 || widthOf(value.text) + 2 <= thickness)
  return {
    height: baseline + 24,
    shapes: html`${
      figures || highest.value === 0
        ? null
        : html`<line class="chart-grid" x1="0" x2=${width} y1=${top + 0.5} y2=${top + 0.5} />
          <text class="chart-value" x=${across(width, 0)} y=${top - 6}>${highest.text}</text>`
    }
      <line class="chart-axis" x1="0" x2=${width} y1=${baseline + 0.5} y2=${baseline + 0.5} />
      ${groups.map((group, i) => {
        const start = i * slot + (slot - per * thickness) / 2
        return html`<g>
          ${group.values.map((value, j) => {
            const height = (value.value / max) * plot
            const x = across(width, start + j * thickness, thickness)
            return html`<rect class=${`series-${value.series ?? j}${thickness >= 4 ? " chart-segment" : ""}`} x=${x} y=${baseline - height} width=${thickness} height=${height} />
              ${figures && value.value > 0 ? html`<text class="chart-value" text-anchor="middle" x=${x + thickness / 2} y=${baseline - height - 5}>${value.text}</text>` : null}`
          })}
        </g>`
      })}
      ${axisLabels(
        groups.map((group) => group.label),
        width,
        baseline + 17
      )}`
  }
}

/**
 * One stacked bar per row (a matrix's rows, an NPS question's groups): each segment its share of the row, with
 * its share written inside when it fits.
 * @param {ReadonlyArray<{ label: string, segments: ReadonlyArray<Datum> }>} rows
 * @returns {(width: number) => Drawing}
 */
export const stacked = (rows) => (width) => {
  const row = 46
  return {
    height: rows.length * row,
    shapes: rows.map((entry, i) => {
      const y = i * row
      const placed = segments(
        entry.segments.map((segment) => segment.value),
        width
      )
      return html`<g>
        <text class="chart-label" x=${across(width, 0)} y=${y + 14}>${isolate(fit(entry.label, width))}</text>
        <rect class="chart-track" x="0" y=${y + 20} width=${width} height="20" rx="2" />
        ${entry.segments.map((segment, j) => {
          const { start, length } = placed[j] ?? { start: 0, length: 0 }
          if (length <= 0) return null
          const x = across(width, start, length)
          return html`<g>
            <rect class=${`series-${segment.series ?? 0} chart-segment`} x=${x} y=${y + 20} width=${length} height="20" />
            ${widthOf(segment.text, 12) + 6 <= length ? html`<text class="chart-inside" text-anchor="middle" x=${x + length / 2} y=${y + 34}>${segment.text}</text>` : null}
          </g>`
        })}
      </g>`
    })
  }
}

/**
 * A half-circle gauge from −100 to 100 (a Net Promoter Score): the arc filled from 0 to the score, a needle at
 * it, the score written under it; right to left, −100 is on the right.
 * @param {number} score
 * @param {string} text the score as the page writes it
 * @param {{ low: string, middle: string, high: string }} ends the words of −100, 0 and 100
 * @returns {(width: number) => Drawing}
 */
export const gauge = (score, text, ends) => (width) => {
  const radius = Math.min(110, width / 2 - 28)
  const middle = width / 2
  const centre = radius + 32
  /** Where a value lies on the arc. @param {number} value @param {number} [r] */
  const point = (value, r = radius) => gaugePoint(value, r, middle, centre, rtl())
  /** The arc from one value to a higher one. @param {number} from @param {number} to */
  const arc = (from, to) => {
    const [x1, y1] = point(from)
    const [x2, y2] = point(to)
    return `M ${x1} ${y1} A ${radius} ${radius} 0 0 ${rtl() ? 0 : 1} ${x2} ${y2}`
  }
  const [nx, ny] = point(score, radius - 18)
  const [lowX, lowY] = point(-100)
  const [highX, highY] = point(100)
  return {
    height: centre + 44,
    shapes: html`<path class="gauge-track" d=${arc(-100, 100)} />
      ${score === 0 ? null : html`<path class=${score > 0 ? "gauge-value series-2" : "gauge-value series-5"} d=${score > 0 ? arc(0, score) : arc(score, 0)} />`}
      <line class="gauge-needle" x1=${middle} y1=${centre} x2=${nx} y2=${ny} />
      <circle class="gauge-hub" cx=${middle} cy=${centre} r="5" />
      <text class="chart-label" text-anchor="middle" x=${lowX} y=${lowY + 18}>${ends.low}</text>
      <text class="chart-label" text-anchor="middle" x=${middle} y="13">${ends.middle}</text>
      <text class="chart-label" text-anchor="middle" x=${highX} y=${highY + 18}>${ends.high}</text>
      <text class="gauge-score" text-anchor="middle" x=${middle} y=${centre + 36}>${text}</text>`
  }
}

/**
 * Drawings one under another in one image (a gauge and the bar under it).
 * @param {ReadonlyArray<(width: number) => Drawing>} parts
 * @returns {(width: number) => Drawing}
 */
export const together =
  (parts, gap = 12) =>
  (width) => {
    let y = 0
    const shapes = parts.map((part) => {
      const drawing = part(width)
      const placed = html`<g transform=${`translate(0 ${y})`}>${drawing.shapes}</g>`
      y += drawing.height + gap
      return placed
    })
    return { height: Math.max(0, y - gap), shapes }
  }
