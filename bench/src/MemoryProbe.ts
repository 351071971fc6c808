/**
 * `npm run bench -- --memory`: loaded into every qforms process (`--import`),
 * samples where its memory is every 20 ms — RSS (anonymous and file-backed),
 * the V8 heap by space (young generation `new`, `old`, large objects, code),
 * `external` (which holds PGlite's WASM memory) and array buffers — and keeps
 * the peaks and every tenth sample in `$QFORMS_BENCH_MEMORY_DIR/<pid>.json`.
 * Which part grew answers whether a growth is retained data, garbage or
 * PostgreSQL's memory inside PGlite.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { getHeapSpaceStatistics } from "node:v8"

const dir = process.env.QFORMS_BENCH_MEMORY_DIR
const file = dir === undefined ? undefined : `${dir}/${process.pid}.json`
const peak: Record<string, number> = {}
const series: Array<Record<string, number>> = []
let samples = 0

const rollup = () => {
  const text = readFileSync("/proc/self/smaps_rollup", "utf8")
  const kb = (name: string) => Number(text.match(new RegExp(`^${name}:\\s+(\\d+)`, "m"))?.[1] ?? 0) * 1024
  return { anonymous: kb("Anonymous"), fileBacked: kb("Rss") - kb("Anonymous") }
}

const sample = () => {
  const usage = process.memoryUsage()
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics()
      .filter((space) => space.space_size > 0)
      .map((space) => [`heap.${space.space_name.replace(/_space$/, "")}`, space.space_size])
  )
  const now: Record<string, number> = {
    ms: Math.round(performance.now()),
    rss: usage.rss,
    ...rollup(),
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    ...spaces,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers
  }
  for (const [name, value] of Object.entries(now)) if (name !== "ms") peak[name] = Math.max(peak[name] ?? 0, value)
  if (samples++ % 10 === 0) series.push(now)
  // Written as it goes: the harness ends the process with a signal.
  if (file !== undefined && samples % 5 === 0) writeFileSync(file, JSON.stringify({ pid: process.pid, peak, series }))
}

if (file !== undefined) setInterval(sample, 20).unref()
