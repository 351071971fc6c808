/**
 * What a scenario is and what it reports: rows of the RESULTS.md tables
 * (kept raw in results/<scenario>.json), plus shared measuring helpers.
 */
import { loadavg } from "node:os"
import type { DbKind } from "./Db.ts"
import { load, type LoadOptions, type LoadResult, median } from "./Load.ts"
import { sampleRss } from "./Proc.ts"
import type { Server } from "./Servers.ts"

/** The run's settings. */
export interface Context {
  readonly smoke: boolean
  readonly dbs: ReadonlyArray<DbKind>
  /** Seconds of one measurement. */
  readonly seconds: number
  /** Seconds of warm-up before the measurements of a system. */
  readonly warmup: number
  /** A/B rounds per pair. */
  readonly rounds: number
  /** Concurrent connections of throughput runs. */
  readonly connections: number
  /** Extra node flags for qforms processes (e.g. --cpu-prof). */
  readonly qformsNodeArgs: ReadonlyArray<string>
  readonly log: (message: string) => void
}

/** One line of a results table. */
export interface Row {
  readonly scenario: string
  readonly db: DbKind
  /** The qforms figure, formatted, e.g. "1,234 req/s". */
  readonly qforms: string
  readonly baseline: string
  /** e.g. "0.97×" or "—". */
  readonly ratio: string
  /** p50/p99 in ms, formatted. */
  readonly latency: string
  readonly peakRss: string
  readonly target: string
  /** true/false, or undefined when the row has no target. */
  readonly met: boolean | undefined
  /** When, of which commit and on which machine the row was measured (stamped by main.ts; absent in old results). */
  readonly measured?: Measured | undefined
}

/** A row's origin: its run's start, the commit measured (`+changes`: with uncommitted changes), the machine. */
export interface Measured {
  readonly at: string
  readonly commit: string
  readonly machine: string
}

/** What a scenario hands back. */
export interface ScenarioResult {
  readonly name: string
  readonly title: string
  readonly rows: Array<Row>
  readonly notes: Array<string>
  readonly raw: Record<string, unknown>
  readonly error?: string
}

export interface Scenario {
  readonly name: string
  readonly title: string
  readonly run: (ctx: Context) => Promise<Omit<ScenarioResult, "name" | "title">>
}

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "—")
export const fmtRate = (n: number, unit = "req/s") => `${fmtInt(n)} ${unit}`
/** Two decimals, cut (not rounded) so that a ratio just under a target never shows as meeting it. */
export const fmtRatio = (n: number) => (Number.isFinite(n) ? `${(Math.floor(n * 100) / 100).toFixed(2)}×` : "—")
export const fmtMs = (n: number) => (!Number.isFinite(n) ? "—" : n >= 100 ? `${Math.round(n)}` : n.toFixed(1))
export const fmtMb = (bytes: number) =>
  Number.isFinite(bytes) && bytes > 0 ? `${Math.round(bytes / 1048576)} MB` : "—"
/** A difference in memory, signed. */
export const fmtMbDelta = (bytes: number) =>
  !Number.isFinite(bytes) ? "—" : `${bytes >= 0 ? "+" : "−"}${Math.round(Math.abs(bytes) / 1048576)} MB`
export const fmtLatency = (p50: number, p99: number) => `${fmtMs(p50)} / ${fmtMs(p99)} ms`

// ---------------------------------------------------------------------------
// Alternating load
// ---------------------------------------------------------------------------

/** The runs of one system in an alternated comparison. */
export interface SystemRuns {
  readonly label: string
  readonly runs: Array<LoadResult & { readonly peakRss: number; readonly loadavg: number }>
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly peakRss: number
}

/**
 * Warms every system up, then measures them in turn (A, B, …, A, B, …) for
 * `ctx.rounds` rounds; answers each system's runs and medians.
 */
export const alternate = async (
  ctx: Context,
  systems: ReadonlyArray<{ readonly label: string; readonly server: Server }>,
  options: (server: Server) => LoadOptions
): Promise<Array<SystemRuns>> => {
  for (const system of systems) {
    ctx.log(`  warm-up ${system.label} (${ctx.warmup} s)`)
    // A warm-up only warms: on a busy machine (the smoke beside CI's PostgreSQL leg) half a second may end before
    // the first answer of a cold pool, which is no failure. A system that never answers fails its measured rounds.
    await load({ connections: ctx.connections, ...options(system.server), duration: ctx.warmup }).catch(
      (error: unknown) =>
        ctx.log(`  warm-up ${system.label}: ${error instanceof Error ? error.message : String(error)}`)
    )
  }
  const runs = systems.map(() => [] as SystemRuns["runs"])
  for (let round = 0; round < ctx.rounds; round++) {
    for (const [index, system] of systems.entries()) {
      const rss = sampleRss(system.server.proc.pid)
      const result = await load({ connections: ctx.connections, ...options(system.server), duration: ctx.seconds })
      const peakRss = rss.stop()
      runs[index]!.push({ ...result, peakRss, loadavg: loadavg()[0]! })
      ctx.log(
        `  round ${round + 1} ${system.label}: ${fmtRate(result.rps)} p50 ${fmtMs(result.p50)} p99 ${fmtMs(result.p99)} ms` +
          (result.non2xx + result.errors > 0 ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : "")
      )
    }
  }
  return systems.map((system, index) => {
    const mine = runs[index]!
    return {
      label: system.label,
      runs: mine,
      rps: median(mine.map((r) => r.rps)),
      p50: median(mine.map((r) => r.p50)),
      p99: median(mine.map((r) => r.p99)),
      peakRss: Math.max(...mine.map((r) => r.peakRss))
    }
  })
}

/** The median over rounds of `a.rps / b.rps` (same round). */
export const medianRatio = (a: SystemRuns, b: SystemRuns): number =>
  median(a.runs.map((run, round) => run.rps / b.runs[round]!.rps))

/**
 * A row of qforms against a hand-written floor run side by side (the floor is
 * absent on PGlite): rates, median ratio, latencies and peak RSS of both, and
 * whether the ratio reaches `target` (none: the row explains, it has no target).
 */
export const floorRow = (
  scenario: string,
  db: DbKind,
  q: SystemRuns,
  b: SystemRuns | undefined,
  target: number | undefined
): Row => {
  const ratio = b === undefined ? NaN : medianRatio(q, b)
  return {
    scenario,
    db,
    qforms: fmtRate(q.rps),
    baseline: b === undefined ? "— (PostgreSQL only)" : fmtRate(b.rps),
    ratio: fmtRatio(ratio),
    latency:
      b === undefined ? fmtLatency(q.p50, q.p99) : `${fmtLatency(q.p50, q.p99)} (floor ${fmtLatency(b.p50, b.p99)})`,
    peakRss: b === undefined ? fmtMb(q.peakRss) : `${fmtMb(q.peakRss)} (floor ${fmtMb(b.peakRss)})`,
    target:
      target === undefined
        ? "— (explains)"
        : b === undefined
          ? `≥ ${target.toFixed(2)}× (PostgreSQL)`
          : `≥ ${target.toFixed(2)}×`,
    met: b === undefined || target === undefined ? undefined : ratio >= target
  }
}
