/**
 * Whether bench/RESULTS.md's headline rows describe the code they stand
 * beside: every row with a target of the hot-path and footprint scenarios
 * (`api`, `adapters`, `public`, `mcp`, `footprint`) must have been measured
 * on a commit at or after the last commit that changed the code they measure
 * (`packages/<name>/src` of the server's packages and the application it
 * serves, `examples/standalone`; not the client or the test kit). `npm run
 * release` runs it first: a release is not cut on figures of older code.
 *
 *   node tools/BenchFreshness.ts            # lists stale rows; exit 1 if any
 */
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")
const resultsDir = join(root, "bench/results")
const headline = new Set(["api", "adapters", "public", "mcp", "footprint"])

interface StoredRow {
  readonly scenario: string
  readonly db: string
  readonly met: boolean | undefined
  readonly measured?: { readonly at: string; readonly commit: string }
}

const git = (...args: ReadonlyArray<string>) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim()

/** Packages the bench does not run: the API client and the test kit. */
const notMeasured = new Set(["client", "test-kit"])
const code = [
  ...readdirSync(join(root, "packages"))
    .filter((name) => !notMeasured.has(name))
    .map((name) => `packages/${name}/src`),
  "examples/standalone"
].filter((path) => existsSync(join(root, path)))
const lastChange = git("log", "-1", "--format=%H", "--", ...code)

/** Whether `commit` (a row's, without `+changes`) holds the last change of the code. */
const describesCode = (commit: string) => {
  try {
    execFileSync("git", ["merge-base", "--is-ancestor", lastChange, commit.replace(/\+changes$/, "")], {
      cwd: root,
      stdio: "ignore"
    })
    return true
  } catch {
    return false
  }
}

const stale: Array<string> = []
for (const file of existsSync(resultsDir) ? readdirSync(resultsDir).filter((f) => f.endsWith(".json")) : []) {
  const result = JSON.parse(readFileSync(join(resultsDir, file), "utf8")) as {
    readonly name: string
    readonly rows: ReadonlyArray<StoredRow>
  }
  if (!headline.has(result.name)) continue
  for (const row of result.rows) {
    if (row.met === undefined) continue
    const where = `${row.scenario} (${row.db === "pg" ? "PostgreSQL" : "PGlite"})`
    if (row.measured === undefined) stale.push(`${where}: measured before commits were recorded`)
    else if (!describesCode(row.measured.commit))
      stale.push(`${where}: measured ${row.measured.at.slice(0, 10)} on ${row.measured.commit}`)
  }
}

if (stale.length > 0) {
  console.error(
    `bench/RESULTS.md's headline rows are older than the code (last changed in ${lastChange.slice(0, 10)}); ` +
      `run \`npm run bench -- --only ${[...headline].join(",")}\` and commit the results first:\n` +
      stale.map((line) => `- ${line}`).join("\n")
  )
  process.exit(1)
}
console.log(`bench/RESULTS.md's headline rows describe the code (last changed in ${lastChange.slice(0, 10)})`)
