/**
 * Where the charts' shapes and words go, with a text measured as 7 pixels a character: words cut to their room,
 * places mirrored right to left, crowded axis labels thinned out and kept inside, bar lengths within their track,
 * a stacked bar's segments, the points of a gauge's arc.
 */
import { describe, expect, it } from "vitest"
import { axisLabelPlaces, barLength, fitTo, gaugePoint, place, segments } from "../src/shared/ChartGeometry.js"

const measure = (text: string) => Array.from(text).length * 7

describe("ChartGeometry", () => {
  it("cuts words with an ellipsis to fit their room, whole when they fit", () => {
    expect(fitTo("Yes", 100, measure)).toBe("Yes")
    const cut = fitTo("A rather long answer", 70, measure)
    expect(cut).toBe("A rather…")
    expect(measure(cut)).toBeLessThanOrEqual(70)
    // Cut between characters, never inside one (an emoji is one character).
    expect(fitTo("😀😀😀😀😀", 22, measure)).toBe("😀😀…")
    expect(fitTo("Long", 3, measure)).toBe("…")
  })

  it("mirrors a place right to left", () => {
    expect(place(300, 10, 50, false)).toBe(10)
    expect(place(300, 10, 50, true)).toBe(240)
    expect(place(300, 0, 0, true)).toBe(300)
  })

  it("writes every axis label when there is room, each under the middle of its slot", () => {
    const placed = axisLabelPlaces(["Mo", "Tu", "We"], 300, measure, false)
    expect(placed).toEqual([
      { label: "Mo", x: 50 },
      { label: "Tu", x: 150 },
      { label: "We", x: 250 }
    ])
    const mirrored = axisLabelPlaces(["Mo", "Tu", "We"], 300, measure, true)
    expect(mirrored.map((p) => p?.x)).toEqual([250, 150, 50])
  })

  it("thins out crowded axis labels and keeps them inside the chart", () => {
    const days = Array.from({ length: 30 }, (_, i) => `Nov ${i + 1}`)
    const placed = axisLabelPlaces(days, 300, measure, false)
    const written = placed.filter((p) => p !== null)
    expect(written.length).toBeGreaterThan(1)
    expect(written.length).toBeLessThan(30)
    for (const p of written) {
      expect(p.x - measure(p.label) / 2).toBeGreaterThanOrEqual(0)
      expect(p.x + measure(p.label) / 2).toBeLessThanOrEqual(300)
    }
    // No two labels written touch.
    for (let i = 1; i < written.length; i++) {
      const before = written[i - 1]!
      const after = written[i]!
      expect(after.x - measure(after.label) / 2).toBeGreaterThan(before.x + measure(before.label) / 2)
    }
  })

  it("keeps a bar within its track", () => {
    expect(barLength(5, 10, 200)).toBe(100)
    expect(barLength(15, 10, 200)).toBe(200)
    expect(barLength(-3, 10, 200)).toBe(0)
    expect(barLength(5, 0, 200)).toBe(0)
  })

  it("gives each segment of a stacked bar its share of the width, one after another", () => {
    expect(segments([1, 3], 200)).toEqual([
      { start: 0, length: 50 },
      { start: 50, length: 150 }
    ])
    expect(segments([2, 0, 2], 100)).toEqual([
      { start: 0, length: 50 },
      { start: 50, length: 0 },
      { start: 50, length: 50 }
    ])
    expect(segments([0, 0], 100)).toEqual([
      { start: 0, length: 0 },
      { start: 0, length: 0 }
    ])
  })

  it("places −100 at the gauge's inline start, 0 at its top, 100 at its end, and clamps beyond", () => {
    const close = ([x, y]: [number, number]) => [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000]
    expect(close(gaugePoint(-100, 100, 150, 130, false))).toEqual([50, 130])
    expect(close(gaugePoint(0, 100, 150, 130, false))).toEqual([150, 30])
    expect(close(gaugePoint(100, 100, 150, 130, false))).toEqual([250, 130])
    expect(close(gaugePoint(100, 100, 150, 130, true))).toEqual([50, 130])
    expect(close(gaugePoint(250, 100, 150, 130, false))).toEqual(close(gaugePoint(100, 100, 150, 130, false)))
  })
})
