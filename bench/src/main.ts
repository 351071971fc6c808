/**
 * `npm run bench`: runs every scenario and writes bench/RESULTS.md plus raw
 * JSON in bench/results/.
 *
 *   npm run bench                       every scenario, full length (~10 s a measurement)
 *   npm run bench -- --smoke            each scenario for about a second with tiny counts
 *                                       (results in bench/results/smoke/); exits non-zero
 *                                       only when a scenario fails to run, never for a missed target
 *   npm run bench -- --only api,lists   some scenarios (api, adapters, lists, search, footprint, webhooks, public, mcp, xlsx, summary)
 *   npm run bench -- --db pglite        one database (pglite | pg); the other database's rows of the
 *                                       scenarios run are kept from their earlier results/<scenario>.json
 *   npm run bench -- --rounds 4         A/B rounds per pair (default 2; 1 in a smoke run)
 *   npm run bench -- --profile          qforms processes write CPU profiles (--cpu-prof) to bench/results/profiles/
 *                                       (figures in bench/results/profiled/, apart from the full run's)
 *   npm run bench -- --memory           qforms processes sample where their memory is (src/MemoryProbe.ts) into
 *                                       bench/results/memory/<pid>.json
 *   npm run bench -- --node-args "--max-semi-space-size=16"
 *                                       extra Node options for the qforms processes (A/B of a V8 setting)
 *   npm run bench -- --out /tmp/x       write the JSON and RESULTS.md there instead
 *   npm run bench -- --report           only rewrite RESULTS.md from results/*.json (and ANALYSIS.md)
 *
 * PostgreSQL runs when DATABASE_URL or QFORMS_TEST_DATABASE_URL is set; PGlite always.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs"
import { cpus, loadavg, totalmem } from "node:os"
import { fileURLToPath } from "node:url"
import pg from "pg"
import * as Db from "./lib/Db.ts"
import { killAll } from "./lib/Proc.ts"
import type { Context, Scenario, ScenarioResult } from "./lib/Scenario.ts"
import { readResults, render, type RunInfo } from "./Report.ts"
import { adapters } from "./scenarios/Adapters.ts"
import { api } from "./scenarios/Api.ts"
import { xlsxExport } from "./scenarios/Exports.ts"
import { footprint } from "./scenarios/Footprint.ts"
import { lists } from "./scenarios/Lists.ts"
import { mcp } from "./scenarios/Mcp.ts"
import { publicPage } from "./scenarios/Public.ts"
import { search } from "./scenarios/Search.ts"
import { summaries } from "./scenarios/Summaries.ts"
import { webhooks } from "./scenarios/Webhooks.ts"

/** In the order of the issue's priorities. */
const scenarios: ReadonlyArray<Scenario> = [
  api,
  adapters,
  lists,
  search,
  footprint,
  webhooks,
  publicPage,
  mcp,
  xlsxExport,
  summaries
]
const order = scenarios.map((s) => s.name)

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(name)
const option = (name: string) => {
  const index = args.indexOf(name)
  return index >= 0 ? args[index + 1] : args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1)
}
if (flag("--help") || flag("-h")) {
  process.stdout.write(
    readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("*/")[0]!
      .replace(/^\/\*\*\n/, "")
      .replace(/^ \* ?/gm, "")
  )
  process.exit(0)
}
const smoke = flag("--smoke")
const only = option("--only")
  ?.split(",")
  .map((s) => s.trim())
  .filter((s) => s !== "")
const unknown = only?.filter((name) => !order.includes(name)) ?? []
if (unknown.length > 0) {
  process.stderr.write(`unknown scenario(s): ${unknown.join(", ")} (known: ${order.join(", ")})\n`)
  process.exit(2)
}
const dbOption = option("--db")
const dbs: Array<Db.DbKind> = (dbOption === undefined ? ["pglite", "pg"] : dbOption.split(",")).filter(
  (kind): kind is Db.DbKind => kind === "pglite" || (kind === "pg" && Db.pgUrl() !== undefined)
)

const benchDir = fileURLToPath(new URL("../", import.meta.url))
const profile = flag("--profile")
// Smoke and profiled runs keep their figures apart from the full run's.
const outOption = option("--out")
const outDir =
  outOption !== undefined
    ? `${outOption.replace(/\/$/, "")}/`
    : smoke
      ? `${benchDir}results/smoke/`
      : profile
        ? `${benchDir}results/profiled/`
        : `${benchDir}results/`
const resultsFile = smoke || profile || outOption !== undefined ? `${outDir}RESULTS.md` : `${benchDir}RESULTS.md`
const profileDir = `${benchDir}results/profiles/`
const memoryDir = `${benchDir}results/memory/`

const started = Date.now()
const log = (message: string) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4)
  process.stderr.write(`[${seconds}s] ${message}\n`)
}

const ctx: Context = {
  smoke,
  dbs,
  seconds: smoke ? 1 : 10,
  warmup: smoke ? 0.5 : 3,
  rounds: option("--rounds") !== undefined ? Math.max(1, Number(option("--rounds")) || 1) : smoke ? 1 : 2,
  connections: smoke ? 10 : 50,
  qformsNodeArgs: [
    ...(flag("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ...(flag("--memory") ? ["--import", `${benchDir}src/MemoryProbe.ts`] : []),
    ...(option("--node-args")
      ?.split(" ")
      .filter((arg) => arg !== "") ?? [])
  ],
  log
}
if (flag("--profile")) mkdirSync(profileDir, { recursive: true })
if (flag("--memory")) {
  mkdirSync(memoryDir, { recursive: true })
  process.env.QFORMS_BENCH_MEMORY_DIR = memoryDir
}

/**
 * The commit measured: HEAD, with `+changes` when the code or the bench had uncommitted changes then (the
 * row then describes no commit exactly; `tools/BenchFreshness.ts` judges it by HEAD).
 */
const commitMeasured = (): string | undefined => {
  try {
    const head = execFileSync("git", ["rev-parse", "--short=10", "HEAD"], { cwd: benchDir, encoding: "utf8" }).trim()
    // The code measured and the bench's own code: not its results, which every run rewrites.
    const changes = execFileSync("git", ["status", "--porcelain", "--", "../packages", "../examples", "src"], {
      cwd: benchDir,
      encoding: "utf8"
    }).trim()
    return changes === "" ? head : `${head}+changes`
  } catch {
    return undefined
  }
}

const postgresVersion = async () => {
  const url = Db.pgUrl()
  if (url === undefined) return undefined
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const { rows } = await client.query<{ v: string }>("select split_part(version(), ' on ', 1) as v")
  await client.end()
  return rows[0]!.v
}

const analysisFile = `${benchDir}ANALYSIS.md`
const writeReport = () =>
  writeFileSync(
    resultsFile,
    render(
      readResults(outDir, order),
      resultsFile === `${benchDir}RESULTS.md` && existsSync(analysisFile)
        ? readFileSync(analysisFile, "utf8")
        : undefined
    )
  )
if (flag("--report")) {
  writeReport()
  process.stdout.write(`${resultsFile}\n`)
  process.exit(0)
}

const onSignal = () => {
  killAll()
  Db.cleanupTempDirs()
  process.exit(130)
}
process.on("SIGINT", onSignal)
process.on("SIGTERM", onSignal)

mkdirSync(outDir, { recursive: true })
const run: Omit<RunInfo, "finishedAt" | "loadavg"> = {
  startedAt: new Date(started).toISOString(),
  smoke,
  machine: `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  postgres: await postgresVersion(),
  command: `npm run bench${args.length > 0 ? ` -- ${args.join(" ")}` : ""}`,
  commit: commitMeasured()
}
if (Db.pgUrl() === undefined) log("PostgreSQL: not set (DATABASE_URL / QFORMS_TEST_DATABASE_URL); PGlite only")
log(`databases: ${dbs.join(", ")}; ${smoke ? "smoke run" : "full run"}`)

/**
 * A run limited with --db: the scenario's rows (and raw figures) of the other
 * databases come from its earlier results file, whose run is listed as earlier.
 */
const keepOtherDbs = (file: string, result: ScenarioResult, info: RunInfo) => {
  if (result.error !== undefined || !existsSync(file)) return { ...result, run: info }
  const earlier = JSON.parse(readFileSync(file, "utf8")) as ScenarioResult & {
    run?: RunInfo
    earlierRuns?: Array<RunInfo>
  }
  if (earlier.error !== undefined) return { ...result, run: info }
  const other = (db: string) => !dbs.includes(db as Db.DbKind)
  const kept = earlier.rows.filter((row) => other(row.db))
  if (kept.length === 0) return { ...result, run: info }
  const byDb = (db: string) => ["pglite", "pg"].indexOf(db)
  return {
    ...result,
    rows: [...kept, ...result.rows].sort((a, b) => byDb(a.db) - byDb(b.db)),
    raw: {
      ...Object.fromEntries(Object.entries(earlier.raw).filter(([key]) => other(key.split("/")[0]!))),
      ...result.raw
    },
    run: info,
    earlierRuns: [...(earlier.earlierRuns ?? []), ...(earlier.run === undefined ? [] : [earlier.run])].filter(
      (run) => run.startedAt !== info.startedAt
    )
  }
}

const failures: Array<string> = []
for (const scenario of scenarios) {
  if (only !== undefined && !only.includes(scenario.name)) continue
  log(`== ${scenario.title}`)
  const scenarioStarted = Date.now()
  let result: ScenarioResult
  try {
    const measured = { at: run.startedAt, commit: run.commit ?? "unknown", machine: run.machine }
    const ran = await scenario.run(ctx)
    result = {
      name: scenario.name,
      title: scenario.title,
      ...ran,
      rows: ran.rows.map((row) => ({ ...row, measured }))
    }
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
    log(`!! ${scenario.name} failed: ${message}`)
    failures.push(scenario.name)
    killAll()
    result = { name: scenario.name, title: scenario.title, rows: [], notes: [], raw: {}, error: message }
  }
  log(`   ${scenario.name} took ${Math.round((Date.now() - scenarioStarted) / 1000)} s`)
  const info: RunInfo = { ...run, finishedAt: new Date().toISOString(), loadavg: loadavg() }
  const file = `${outDir}${scenario.name}.json`
  writeFileSync(
    file,
    `${JSON.stringify(dbOption === undefined ? { ...result, run: info } : keepOtherDbs(file, result, info), null, 2)}\n`
  )
  writeReport()
}
Db.cleanupTempDirs()

if (flag("--profile")) {
  try {
    execFileSync(process.execPath, [`${benchDir}src/TopFunctions.ts`, profileDir], { stdio: "inherit" })
  } catch {
    // a summary is a convenience
  }
}
if (smoke) rmSync(`${outDir}profiles`, { recursive: true, force: true })
log(`done in ${Math.round((Date.now() - started) / 1000)} s; ${resultsFile}`)
if (failures.length > 0) {
  log(`failed to run: ${failures.join(", ")}`)
  process.exit(1)
}
process.exit(0)
