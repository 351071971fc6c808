// @ts-check
// Where the charts' shapes and words go (Charts.js draws them): words cut to their room, places mirrored right to
// left, the words under a baseline thinned out when they would crowd, a bar's length, a stacked bar's segments, a
// point of a gauge's arc. Pure: what a text measures is given (the page's canvas measures it).

/** How wide a text is drawn, in pixels. @typedef {(text: string) => number} Measure */

/**
 * `text`, cut with "…" to fit `room` pixels (as it is when it fits).
 * @param {string} text @param {number} room @param {Measure} measure
 */
export const fitTo = (text, room, measure) => {
  if (measure(text) <= room) return text
  const points = Array.from(text)
  let low = 0
  let high = points.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (measure(`${points.slice(0, middle).join("")}…`) <= room) low = middle
    else high = middle - 1
  }
  return `${points.slice(0, low).join("").trimEnd()}…`
}

/**
 * A place across the chart, mirrored right to left: where a shape of width `span` starting `at` pixels from the
 * inline start begins on the x axis.
 * @param {number} width the chart's width @param {number} at @param {number} span @param {boolean} rtl
 */
export const place = (width, at, span, rtl) => (rtl ? width - at - span : at)

/**
 * The words under a baseline of columns, one a slot: every few when they would crowd, each cut to its room and
 * kept inside the chart; one that would still touch the one before it (moved in from an edge) is left out (null).
 * @param {ReadonlyArray<string>} labels
 * @param {number} width the chart's width
 * @param {Measure} measure
 * @param {boolean} rtl
 * @returns {Array<{ label: string, x: number } | null>} each label's words and the middle of where they go
 */
export const axisLabelPlaces = (labels, width, measure, rtl) => {
  const slot = width / Math.max(1, labels.length)
  const widest = Math.max(0, ...labels.map((label) => measure(label)))
  const every = Math.max(1, Math.ceil((Math.min(widest, 90) + 8) / slot))
  /** @type {{ from: number, to: number } | null} the place of the last words written */
  let last = null
  return labels.map((text, i) => {
    if (i % every !== 0) return null
    const label = fitTo(text, slot * every - 4, measure)
    const half = measure(label) / 2
    const x = Math.min(width - half, Math.max(half, place(width, i * slot + slot / 2, 0, rtl)))
    if (label === "" || (last !== null && x - half < last.to + 6 && x + half > last.from - 6)) return null
    last = { from: x - half, to: x + half }
    return { label, x }
  })
}

/**
 * How long a bar of `value` is on a track of `track` pixels whose full length is `max` (none when `max` is 0),
 * never past the track's ends.
 * @param {number} value @param {number} max @param {number} track
 */
export const barLength = (value, max, track) => (max > 0 ? Math.max(0, Math.min(1, value / max)) * track : 0)

/**
 * The segments of a stacked bar `width` pixels long: each one's start and length, its share of the row's total
 * (all empty when the total is 0).
 * @param {ReadonlyArray<number>} values @param {number} width
 * @returns {Array<{ start: number, length: number }>}
 */
export const segments = (values, width) => {
  const total = values.reduce((sum, value) => sum + value, 0)
  let at = 0
  return values.map((value) => {
    const length = total > 0 ? (value / total) * width : 0
    const start = at
    at += length
    return { start, length }
  })
}

/**
 * Where a value from −100 to 100 (clamped) lies on a half-circle gauge of `radius` around (`middle`, `centre`):
 * −100 at the inline start (the right, right to left), 100 at the end, 0 at the top.
 * @param {number} value @param {number} radius @param {number} middle @param {number} centre @param {boolean} rtl
 * @returns {[number, number]}
 */
export const gaugePoint = (value, radius, middle, centre, rtl) => {
  const angle = Math.PI * (1 - (Math.max(-100, Math.min(100, value)) + 100) / 200)
  return [middle + (rtl ? -1 : 1) * radius * Math.cos(angle), centre - radius * Math.sin(angle)]
}
