/**
 * RESULTS.md from the raw results (results/<scenario>.json): a table per
 * scenario, the targets missed, and the hand-written analysis of the
 * profiles (bench/ANALYSIS.md), if there is one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Row, ScenarioResult } from "./lib/Scenario.ts"

export interface RunInfo {
  readonly startedAt: string
  readonly finishedAt: string
  readonly smoke: boolean
  readonly machine: string
  readonly node: string
  readonly postgres: string | undefined
  readonly loadavg: ReadonlyArray<number>
  readonly command: string
  /** The commit measured (`git rev-parse --short HEAD`), `+changes` when the tree had uncommitted changes. */
  readonly commit?: string | undefined
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ")

const met = (row: Row) => (row.met === undefined ? "—" : row.met ? "yes" : "**no**")

/**
 * When, of which commit and where a row was measured. A row of results older than the stamp: its run's date
 * and machine when the results hold one run only.
 */
const measuredCell = (row: Row, only: RunInfo | undefined) =>
  row.measured !== undefined
    ? `${row.measured.at.slice(0, 10)}, ${row.measured.commit}, ${row.measured.machine}`
    : only !== undefined
      ? `${only.startedAt.slice(0, 10)}, commit not recorded, ${only.machine}`
      : "before commits were recorded"

const table = (rows: ReadonlyArray<Row>, only: RunInfo | undefined) => [
  "| scenario | db | qforms | baseline | ratio | p50 / p99 | peak RSS | target | met? | measured |",
  "|---|---|---|---|---|---|---|---|---|---|",
  ...rows.map(
    (row) =>
      `| ${[
        row.scenario,
        row.db === "pg" ? "PostgreSQL" : "PGlite",
        row.qforms,
        row.baseline,
        row.ratio,
        row.latency,
        row.peakRss,
        row.target,
        met(row),
        measuredCell(row, only)
      ]
        .map(cell)
        .join(" | ")} |`
  )
]

/** Reads every results/*.json of `dir` in the order of `order`. */
type Stored = ScenarioResult & { run?: RunInfo; earlierRuns?: Array<RunInfo> }

export const readResults = (dir: string, order: ReadonlyArray<string>): Array<Stored> =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith(".json"))
        .map((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as Stored)
        .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
    : []

export const render = (results: ReadonlyArray<Stored>, analysis: string | undefined): string => {
  // A run limited to one database keeps the other's rows from an earlier run: both runs are listed.
  const runs = results
    .flatMap((result) => [...(result.earlierRuns ?? []), ...(result.run === undefined ? [] : [result.run])])
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
  const lines: Array<string> = [
    "# qforms benchmark results",
    "",
    "Written by `npm run bench` (bench/src/main.ts); raw figures in `bench/results/*.json`. Ratios are taken side by side in one run " +
      "on the same machine (absolute figures drift from run to run, and other work on the machine moves them); " +
      "pairs are alternated A/B/A/B after a warm-up and the median ratio is reported.",
    ""
  ]
  if (runs.length > 0) {
    const first = runs[0]!
    // Rows kept from earlier runs may come from another machine: then each run names its own.
    const oneMachine = runs.every((run) => run.machine === first.machine)
    lines.push(
      ...(oneMachine ? [`- Machine: ${first.machine}; Node ${first.node}; ${first.postgres ?? "no PostgreSQL"}.`] : []),
      ...[...new Map(runs.map((run) => [run.startedAt, run])).values()].map(
        (run) =>
          `- Run ${run.startedAt} → ${run.finishedAt}${run.smoke ? " (smoke)" : ""} of ${run.commit ?? "an unrecorded commit"}${
            oneMachine ? "" : ` on ${run.machine}, Node ${run.node}, ${run.postgres ?? "no PostgreSQL"}`
          }: \`${run.command}\`, load average ${run.loadavg.map((n) => n.toFixed(2)).join(" / ")} at its end.`
      ),
      ""
    )
  }
  const missed: Array<Row> = []
  for (const result of results) {
    lines.push(`## ${result.title}`, "")
    if (result.error !== undefined)
      lines.push(`**The scenario failed to run:** \`${cell(result.error.split("\n")[0]!)}\``, "")
    const only = (result.earlierRuns ?? []).length === 0 ? result.run : undefined
    if (result.rows.length > 0) lines.push(...table(result.rows, only), "")
    for (const note of result.notes) lines.push(note, "")
    missed.push(...result.rows.filter((row) => row.met === false))
  }
  lines.push("## Targets missed", "")
  if (missed.length === 0) lines.push("None.", "")
  else {
    lines.push(
      ...missed.map(
        (row) =>
          `- ${row.scenario} (${row.db === "pg" ? "PostgreSQL" : "PGlite"}): ${row.qforms}` +
          `${row.baseline === "—" ? "" : ` vs ${row.baseline}`}${row.ratio === "—" ? "" : ` = ${row.ratio}`}; target ${row.target}.`
      ),
      ""
    )
  }
  if (analysis !== undefined) lines.push(analysis.trim(), "")
  return lines.join("\n")
}
