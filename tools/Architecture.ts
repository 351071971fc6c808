/**
 * Writes the architecture tree of docs/architecture.md from the real source tree, so it
 * names every module there is (`node tools/Architecture.ts`), or checks that
 * the page still matches the tree (`--check`, run in CI: exits 1 with the
 * difference when a module was added, moved or removed without it).
 *
 * The folders are listed in the order of the dependency rules
 * (`tools/Contexts.json`, read by `.dependency-cruiser.cjs`): each may import
 * only those above it, and only through their `index.ts`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const repo = join(import.meta.dirname, "..")
const src = join(repo, "packages/core/src")
const appSrc = join(repo, "packages/app/src")
const page = join(repo, "docs/architecture.md")
const start = "<!-- architecture:start (node tools/Architecture.ts) -->"
const end = "<!-- architecture:end -->"

/** The folders of core, lowest layer first, with what each holds (tools/Contexts.json, read by the dependency rules too). */
const folders: ReadonlyArray<readonly [string, string]> = JSON.parse(
  readFileSync(join(repo, "tools/Contexts.json"), "utf8")
)

/** The composition root: the files at the top of src/. */
const rootFiles: Readonly<Record<string, string>> = {
  "Options.ts": "the options' Schemas (a leaf: every layer may read it)",
  "Services.ts": "every service wired together: layer, layerPg, layerPglite, layerTest",
  "Http.ts": "the router: API, OpenAPI document, docs, /mcp, pages, app, and the router-wide error guard",
  "Qforms.ts":
    "the composition root: layerServices, layerRoutes, layer, and make(options) → { handler, nodeHandler, … }",
  "NodeTransport.ts": "Node's own transport: a body the host already read, the event stream's WebSockets (ws)",
  "Bootstrap.ts": "the first-start workspace",
  "index.ts": "the public surface (what a host needs; everything else is internal)"
}

const modulesOf = (dir: string, prefix = ""): Array<string> =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name)
      // One file per migration: named by id, listed in storage/MigrationList.ts (generated from the folder).
      if (statSync(path).isDirectory())
        return name === "migrations" ? [`${prefix}migrations/*`] : modulesOf(path, `${prefix}${name}/`)
      return /\.(ts|js)$/.test(name) ? [`${prefix}${name.replace(/\.(ts|js)$/, "")}`] : []
    })

const wrap = (words: ReadonlyArray<string>, indent: string, width: number): Array<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const word of words) {
    if (line !== "" && indent.length + line.length + word.length + 2 > width) {
      lines.push(`${indent}${line},`)
      line = ""
    }
    line = line === "" ? word : `${line}, ${word}`
  }
  if (line !== "") lines.push(`${indent}${line}`)
  return lines
}

export const render = (): string => {
  const present = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory())
  const unknown = present.filter((name) => !folders.some(([folder]) => folder === name))
  if (unknown.length > 0) throw new Error(`tools/Architecture.ts: describe the new folder(s) ${unknown.join(", ")}`)
  const files = readdirSync(src)
    .filter((name) => name.endsWith(".ts"))
    .sort()
  const undescribed = files.filter((name) => rootFiles[name] === undefined)
  if (undescribed.length > 0) throw new Error(`tools/Architecture.ts: describe ${undescribed.join(", ")}`)
  const out = [
    "```",
    "packages/core/src     (each folder imports only the folders above it, each through its index.ts; checked by npm run lint:deps)"
  ]
  for (const [folder, about] of folders) {
    if (!present.includes(folder)) continue
    out.push(`  ${`${folder}/`.padEnd(17)}${about}`)
    out.push(...wrap(modulesOf(join(src, folder)), " ".repeat(19), 115))
  }
  for (const name of Object.keys(rootFiles).filter((name) => files.includes(name))) {
    out.push(`  ${name.padEnd(17)}${rootFiles[name]}`)
  }
  out.push(
    "packages/app/src   the application's browser code (private @qforms/app): a folder per feature, shared/ for what several use;",
    "                   Preact + htm ES modules, no build, type-checked; imports nothing of ours; core serves it at /app/assets/",
    ...wrap(modulesOf(appSrc), " ".repeat(19), 115)
  )
  out.push(
    "packages/node-http, packages/express, packages/h3   adapters: only convert the host's request and response",
    "packages/embed         the embed kit: one browser ES module, no dependencies, imports nothing of ours; core serves it at /embed.js",
    "packages/client        the typed API client on fetch: no dependencies, imports nothing of ours; its types generated from the OpenAPI document",
    "examples/standalone    the server (config → database → first start → HTTP), and its CLI",
    "packages/test-kit      what the tests share (servers, databases, receivers, Chromium, the contract by concern); sees core's entry only",
    "```"
  )
  return out.join("\n")
}

const text = readFileSync(page, "utf8")
const from = text.indexOf(start)
const to = text.indexOf(end)
if (from < 0 || to < from) throw new Error(`docs/architecture.md has no ${start} … ${end} block`)
const next = `${text.slice(0, from + start.length)}\n${render()}\n${text.slice(to)}`
if (process.argv.includes("--check")) {
  if (next !== text) {
    process.stderr.write("docs/architecture.md's tree is out of date: run node tools/Architecture.ts\n")
    process.exit(1)
  }
} else {
  writeFileSync(page, next)
}
