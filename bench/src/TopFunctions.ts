/**
 * Summarises V8 CPU profiles (`--cpu-prof`): the functions with the most
 * self time, and the time per package (node_modules/<pkg>, qforms sources,
 * node internals). Usage: node src/TopFunctions.ts <dir or .cpuprofile>…
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

interface Node {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}
interface Profile {
  readonly nodes: ReadonlyArray<Node>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const files = process.argv.slice(2).flatMap((path) =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => f.endsWith(".cpuprofile"))
        .map((f) => join(path, f))
    : [path]
)

const where = (url: string) => {
  if (url === "") return "(vm)"
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
  if (pkg) return pkg[1]!
  if (url.startsWith("node:")) return "node internals"
  const qforms = url.match(/\/(packages|examples|bench)\/([^/]+)\//)
  return qforms ? `qforms ${qforms[1]}/${qforms[2]}` : url
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  const perPackage = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, index) => {
    const dt = profile.timeDeltas[index] ?? 0
    const frame = byId.get(id)!.callFrame
    total += dt
    if (frame.functionName === "(idle)") return
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(node_modules|packages|examples)\//, "$1/")}:${frame.lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + dt)
    perPackage.set(where(frame.url), (perPackage.get(where(frame.url)) ?? 0) + dt)
  })
  const idle = profile.samples.reduce(
    (sum, id, index) =>
      byId.get(id)!.callFrame.functionName === "(idle)" ? sum + (profile.timeDeltas[index] ?? 0) : sum,
    0
  )
  const pct = (us: number) => `${((us / total) * 100).toFixed(1)}%`.padStart(6)
  process.stdout.write(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled, idle ${pct(idle)}\n  by package:\n`)
  for (const [name, us] of [...perPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    process.stdout.write(`  ${pct(us)}  ${name}\n`)
  }
  process.stdout.write("  top self time:\n")
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    process.stdout.write(`  ${pct(us)}  ${name}\n`)
  }
}
